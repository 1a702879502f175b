//go:build linux

package buffer

import (
	"syscall"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID from <time.h>.
const clockThreadCPUTime = 3

// threadCPUTime returns the CPU time consumed by the calling OS thread, in
// nanoseconds, or -1 if the clock is unavailable.
func threadCPUTime() int64 {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return -1
	}
	return ts.Nano()
}
