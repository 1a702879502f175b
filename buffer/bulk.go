package buffer

import "unsafe"

// Bulk writes and reads: raw bytes, length-prefixed strings and byte slices,
// and slices of primitives as packed little-endian arrays (docs/format.md §8.2
// dense arrays carry their elements this way). The families of the
// fixed-width element types are generated from one table into bulk_gen.go.

//go:generate go run ./internal/bulkgen

// raw views the elements of s as bytes, without copying.
func raw[E any](s []E) []byte {
	var zero E
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// WriteBytes appends p, without a length header.
func (b *Buffer) WriteBytes(p []byte) {
	b.Reserve(len(p))
	b.w += copy(b.buf[b.w:], p)
}

// WriteHeaderString appends header as varu64 followed by the bytes of s.
// The header is the caller's (for a Fory string, (len<<2)|encoding, docs/format.md
// §7); this package does not interpret it.
func (b *Buffer) WriteHeaderString(header uint64, s string) {
	b.Reserve(MaxVarUint64Len + len(s) + BatchSlack)
	off := PutVarUint64At(b.buf, b.w, header)
	b.w = off + copy(b.buf[off:], s)
}

// WriteHeaderBytes appends header as varu64 followed by p.
func (b *Buffer) WriteHeaderBytes(header uint64, p []byte) {
	b.Reserve(MaxVarUint64Len + len(p) + BatchSlack)
	off := PutVarUint64At(b.buf, b.w, header)
	b.w = off + copy(b.buf[off:], p)
}

// WriteRawBools appends one byte per element, 1 for true and 0 for false.
func (b *Buffer) WriteRawBools(s []bool) {
	b.Reserve(len(s))
	b.w = PutRawBoolsAt(b.buf, b.w, s)
}

// PutRawBoolsAt stores one byte per element of s at buf[off:], 1 for true
// and 0 for false, and returns the offset after them. The caller reserved
// len(s) bytes.
func PutRawBoolsAt(buf []byte, off int, s []bool) int {
	// A Go bool is one byte holding 0 or 1 on every target, so the memory
	// image is the wire image.
	return off + copy(buf[off:], raw(s))
}

// readRaw copies the next len(dst) bytes into dst and advances past them,
// or reports false and reads nothing when fewer remain. It inlines into the
// ReadRaw… methods, which call take only when it fails: one call less per
// dense array (BenchmarkDeserialize/SampleList).
func (r *Reader) readRaw(dst []byte) bool {
	off := r.off
	if uint(len(dst)) <= uint(len(r.buf)-off) {
		r.off = off + copy(dst, r.buf[off:])
		return true
	}
	return false
}

// take returns the next n bytes and advances past them, or records
// ErrTruncated (also for a negative n) and returns ok == false.
func (r *Reader) take(n int) (p []byte, ok bool) {
	if !r.Need(n) {
		return nil, false
	}
	p = r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return p, true
}

// ReadBytes returns the next n bytes. The slice aliases the input and its
// capacity ends at its length, so appending to it never overwrites input. On
// a shortage or a negative n it records ErrTruncated and returns nil.
func (r *Reader) ReadBytes(n int) []byte {
	p, _ := r.take(n)
	return p
}

// ReadRawBools fills dst from len(dst) bytes; any nonzero byte is true.
// On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawBools(dst []bool) {
	// take's check inline, as in readRaw.
	off := r.off
	if uint(len(dst)) > uint(len(r.buf)-off) {
		r.Fail(ErrTruncated)
		clear(dst)
		return
	}
	r.off = off + len(dst)
	// Not a memmove: a byte other than 0 or 1 is not a valid Go bool.
	// Eight bytes, then four, at a time: ((b&0x7f)+0x7f)|b has its top bit
	// set exactly when b != 0, with no carry out of the byte; the rest one
	// by one (instructions.sh Sample forygen Deserialize: 63 instructions
	// for its four bools, byte by byte).
	if fastLE && len(dst) > 0 {
		// In bounds: len(dst) > 0 bytes remain at off (above), and dst holds
		// len(dst) one-byte bools.
		p, q, n := unsafe.Add(unsafe.Pointer(unsafe.SliceData(r.buf)), off), unsafe.Pointer(unsafe.SliceData(dst)), len(dst)
		i := 0
		for ; n-i >= 8; i += 8 {
			x := *(*uint64)(unsafe.Add(p, i))
			*(*uint64)(unsafe.Add(q, i)) = ((x&0x7f7f7f7f7f7f7f7f + 0x7f7f7f7f7f7f7f7f) | x) >> 7 & 0x0101010101010101
		}
		if n-i >= 4 {
			x := *(*uint32)(unsafe.Add(p, i))
			*(*uint32)(unsafe.Add(q, i)) = ((x&0x7f7f7f7f + 0x7f7f7f7f) | x) >> 7 & 0x01010101
			i += 4
		}
		for ; i < n; i++ {
			*(*bool)(unsafe.Add(q, i)) = *(*byte)(unsafe.Add(p, i)) != 0
		}
		return
	}
	for i, c := range r.buf[off : off+len(dst)] {
		dst[i] = c != 0
	}
}

// Fixed is the element type of a dense array other than bool (§8.2): an
// integer or float of 1, 2, 4 or 8 bytes, or a type defined on one (the
// 16-bit floats, enums of a dense array). Elements are moved as their bits.
type Fixed interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// ReadRawFixed fills dst from len(dst) packed little-endian elements of E's
// width. On a shortage it records ErrTruncated and zeroes dst.
// Its common case, the elements copied on a little-endian target with
// len(dst) of them left, is a small function whose one call is the copy;
// the rest is readRawFixedSlow, kept out of its frame.
func ReadRawFixed[E Fixed](r *Reader, dst []E) {
	if !fastLE || !r.readRaw(raw(dst)) {
		readRawFixedSlow(r, dst)
	}
}

// readRawFixedSlow is ReadRawFixed past its common case.
func readRawFixedSlow[E Fixed](r *Reader, dst []E) {
	b := raw(dst)
	src, ok := r.take(len(b))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(b, src)
	default:
		var zero E
		w := int(unsafe.Sizeof(zero))
		for i := 0; i < len(b); i += w {
			p := unsafe.Pointer(&b[i])
			switch w {
			case 1:
				b[i] = src[i]
			case 2:
				*(*uint16)(p) = ReadUint16At(src, i)
			case 4:
				*(*uint32)(p) = ReadUint32At(src, i)
			default:
				*(*uint64)(p) = ReadUint64At(src, i)
			}
		}
	}
}
