//go:build !linux

package buffer

// Without guard pages, the tests rely on exact-length heap copies, canary
// bytes and -d=checkptr.

func forEachPlacement(data []byte, f func(b []byte)) {
	b := make([]byte, len(data))
	copy(b, data)
	f(b)
}

func guardedWindow(n int) []byte { return make([]byte, n) }
