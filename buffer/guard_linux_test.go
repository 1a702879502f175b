//go:build linux

package buffer

import (
	"sync"
	"syscall"
)

// On Linux the tests also run every reader and writer over slices that sit
// directly against an inaccessible (PROT_NONE) page, so a single byte loaded
// or stored outside the slice faults instead of passing unnoticed inside the
// allocation's size-class padding.

const guardDataPages = 16

var guard struct {
	once   sync.Once
	region []byte // guard page, data pages, guard page
	page   int
}

func guardedRegion() ([]byte, int) {
	guard.once.Do(func() {
		page := syscall.Getpagesize()
		mem, err := syscall.Mmap(-1, 0, (guardDataPages+2)*page,
			syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			return
		}
		if syscall.Mprotect(mem[:page], syscall.PROT_NONE) != nil ||
			syscall.Mprotect(mem[len(mem)-page:], syscall.PROT_NONE) != nil {
			return
		}
		guard.region, guard.page = mem, page
	})
	return guard.region, guard.page
}

// forEachPlacement calls f with copies of data of exactly len(data) bytes
// (len == cap): a heap copy, then, when guard pages are available, a copy
// ending right before a guard page and a copy starting right after one. The
// copies are reused between calls; f must not keep them.
func forEachPlacement(data []byte, f func(b []byte)) {
	heap := make([]byte, len(data))
	copy(heap, data)
	f(heap)
	region, page := guardedRegion()
	if region == nil || len(data) > guardDataPages*page {
		return
	}
	lo, hi := page, len(region)-page
	end := region[hi-len(data) : hi : hi]
	copy(end, data)
	f(end)
	start := region[lo : lo+len(data) : lo+len(data)]
	copy(start, data)
	f(start)
}

// guardedWindow returns a writable slice of n bytes whose last byte is right
// before a guard page, or a heap slice when guard pages are unavailable.
func guardedWindow(n int) []byte {
	region, page := guardedRegion()
	if region == nil || n > guardDataPages*page {
		return make([]byte, n)
	}
	hi := len(region) - page
	return region[hi-n : hi : hi]
}
