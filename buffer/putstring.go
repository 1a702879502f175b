package buffer

import "unsafe"

// asciiHigh has the high bit of every byte set: text ORed into a word has
// none of them set only if every byte of it is ASCII.
const asciiHigh = 0x8080808080808080

// PutStringAt copies s to buf[off:] and returns the offset after it and
// whether s is ASCII. The bytes are ORed together as they are copied, so a
// writer that refuses text that is not UTF-8 (docs/format.md §7) reads an
// ASCII string, nearly every field value, once to copy and check it, and
// validates only the others after the copy, instead of validating every
// string before copying it (BenchmarkSerialize/MediaContent). It does not
// check bounds: the caller reserved len(s) bytes at off.
//
// The bytes are moved with overlapping 8-byte loads and stores (4-byte and
// single ones under 8) instead of a memmove call.
func PutStringAt(buf []byte, off int, s string) (int, bool) {
	n := len(s)
	if !fastLE {
		var acc byte
		for i := 0; i < n; i++ {
			acc |= s[i]
		}
		return off + copy(buf[off:], s), acc < 0x80
	}
	p, d := unsafe.Pointer(unsafe.StringData(s)), at(buf, off)
	var acc uint64
	switch {
	case n > 32:
		// 32 bytes a step and an overlapping last one. In instructions per
		// byte this is about what a memmove and a second pass to OR the
		// bytes cost together, and with no call PutStringAt needs no stack
		// frame (BenchmarkSerialize/MediaContent).
		acc = move32(d, p, 0)
		for i := 32; i < n-32; i += 32 {
			acc |= move32(d, p, i)
		}
		acc |= move32(d, p, n-32)
	case n >= 16:
		a, b := *(*uint64)(p), *(*uint64)(unsafe.Add(p, 8))
		c, e := *(*uint64)(unsafe.Add(p, n-16)), *(*uint64)(unsafe.Add(p, n-8))
		*(*uint64)(d), *(*uint64)(unsafe.Add(d, 8)) = a, b
		*(*uint64)(unsafe.Add(d, n-16)), *(*uint64)(unsafe.Add(d, n-8)) = c, e
		acc = a | b | c | e
	case n >= 8:
		a, b := *(*uint64)(p), *(*uint64)(unsafe.Add(p, n-8))
		*(*uint64)(d), *(*uint64)(unsafe.Add(d, n-8)) = a, b
		acc = a | b
	case n >= 4:
		a, b := *(*uint32)(p), *(*uint32)(unsafe.Add(p, n-4))
		*(*uint32)(d), *(*uint32)(unsafe.Add(d, n-4)) = a, b
		acc = uint64(a | b)
	case n > 0:
		// s[0], s[n/2] and s[n-1] cover every byte of a string of 1 to 3.
		a, b, c := *(*byte)(p), *(*byte)(unsafe.Add(p, n/2)), *(*byte)(unsafe.Add(p, n-1))
		*(*byte)(d), *(*byte)(unsafe.Add(d, n/2)), *(*byte)(unsafe.Add(d, n-1)) = a, b, c
		acc = uint64(a | b | c)
	}
	return off + n, acc&asciiHigh == 0
}

// move32 copies the 32 bytes at p+i to d+i and returns them ORed together.
func move32(d, p unsafe.Pointer, i int) uint64 {
	p, d = unsafe.Add(p, i), unsafe.Add(d, i)
	a, b := *(*uint64)(p), *(*uint64)(unsafe.Add(p, 8))
	c, e := *(*uint64)(unsafe.Add(p, 16)), *(*uint64)(unsafe.Add(p, 24))
	*(*uint64)(d), *(*uint64)(unsafe.Add(d, 8)) = a, b
	*(*uint64)(unsafe.Add(d, 16)), *(*uint64)(unsafe.Add(d, 24)) = c, e
	return a | b | c | e
}
