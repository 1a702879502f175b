package buffer

import "unsafe"

// Bulk writes and reads: raw bytes, length-prefixed strings and byte slices,
// and slices of primitives as packed little-endian arrays (docs/format.md §8.2
// dense arrays carry their elements this way).

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

// WriteRawInt16s appends the elements of s as packed little-endian int16s.
func (b *Buffer) WriteRawInt16s(s []int16) {
	b.Reserve(2 * len(s))
	b.w = PutRawInt16sAt(b.buf, b.w, s)
}

// PutRawInt16sAt stores the elements of s as packed little-endian int16s at
// buf[off:] and returns the offset after them. The caller reserved 2*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawInt16sAt(buf []byte, off int, s []int16) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutInt16At(buf, off, v)
		off += 2
	}
	return off
}

// WriteRawUint16s appends the elements of s as packed little-endian uint16s.
func (b *Buffer) WriteRawUint16s(s []uint16) {
	b.Reserve(2 * len(s))
	b.w = PutRawUint16sAt(b.buf, b.w, s)
}

// PutRawUint16sAt stores the elements of s as packed little-endian uint16s at
// buf[off:] and returns the offset after them. The caller reserved 2*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawUint16sAt(buf []byte, off int, s []uint16) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutUint16At(buf, off, v)
		off += 2
	}
	return off
}

// WriteRawInt32s appends the elements of s as packed little-endian int32s.
func (b *Buffer) WriteRawInt32s(s []int32) {
	b.Reserve(4 * len(s))
	b.w = PutRawInt32sAt(b.buf, b.w, s)
}

// PutRawInt32sAt stores the elements of s as packed little-endian int32s at
// buf[off:] and returns the offset after them. The caller reserved 4*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawInt32sAt(buf []byte, off int, s []int32) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutInt32At(buf, off, v)
		off += 4
	}
	return off
}

// WriteRawUint32s appends the elements of s as packed little-endian uint32s.
func (b *Buffer) WriteRawUint32s(s []uint32) {
	b.Reserve(4 * len(s))
	b.w = PutRawUint32sAt(b.buf, b.w, s)
}

// PutRawUint32sAt stores the elements of s as packed little-endian uint32s at
// buf[off:] and returns the offset after them. The caller reserved 4*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawUint32sAt(buf []byte, off int, s []uint32) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutUint32At(buf, off, v)
		off += 4
	}
	return off
}

// WriteRawInt64s appends the elements of s as packed little-endian int64s.
func (b *Buffer) WriteRawInt64s(s []int64) {
	b.Reserve(8 * len(s))
	b.w = PutRawInt64sAt(b.buf, b.w, s)
}

// PutRawInt64sAt stores the elements of s as packed little-endian int64s at
// buf[off:] and returns the offset after them. The caller reserved 8*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawInt64sAt(buf []byte, off int, s []int64) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutInt64At(buf, off, v)
		off += 8
	}
	return off
}

// WriteRawUint64s appends the elements of s as packed little-endian uint64s.
func (b *Buffer) WriteRawUint64s(s []uint64) {
	b.Reserve(8 * len(s))
	b.w = PutRawUint64sAt(b.buf, b.w, s)
}

// PutRawUint64sAt stores the elements of s as packed little-endian uint64s at
// buf[off:] and returns the offset after them. The caller reserved 8*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawUint64sAt(buf []byte, off int, s []uint64) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutUint64At(buf, off, v)
		off += 8
	}
	return off
}

// WriteRawFloat32s appends the elements of s as packed little-endian IEEE 754 float32s.
func (b *Buffer) WriteRawFloat32s(s []float32) {
	b.Reserve(4 * len(s))
	b.w = PutRawFloat32sAt(b.buf, b.w, s)
}

// PutRawFloat32sAt stores the elements of s as packed little-endian IEEE 754 float32s at
// buf[off:] and returns the offset after them. The caller reserved 4*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawFloat32sAt(buf []byte, off int, s []float32) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutFloat32At(buf, off, v)
		off += 4
	}
	return off
}

// WriteRawFloat64s appends the elements of s as packed little-endian IEEE 754 float64s.
func (b *Buffer) WriteRawFloat64s(s []float64) {
	b.Reserve(8 * len(s))
	b.w = PutRawFloat64sAt(b.buf, b.w, s)
}

// PutRawFloat64sAt stores the elements of s as packed little-endian IEEE 754 float64s at
// buf[off:] and returns the offset after them. The caller reserved 8*len(s)
// bytes. Generated writers use it inside a struct's one reserve.
func PutRawFloat64sAt(buf []byte, off int, s []float64) int {
	if fastLE {
		return off + copy(buf[off:], raw(s))
	}
	for _, v := range s {
		PutFloat64At(buf, off, v)
		off += 8
	}
	return off
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
	for i, c := range r.buf[off : off+len(dst)] {
		dst[i] = c != 0
	}
}

// ReadRawInt16s fills dst from 2*len(dst) bytes of packed little-endian
// int16s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawInt16s(dst []int16) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(2 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadInt16At(src, 2*i)
		}
	}
}

// ReadRawUint16s fills dst from 2*len(dst) bytes of packed little-endian
// uint16s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawUint16s(dst []uint16) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(2 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadUint16At(src, 2*i)
		}
	}
}

// ReadRawInt32s fills dst from 4*len(dst) bytes of packed little-endian
// int32s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawInt32s(dst []int32) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(4 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadInt32At(src, 4*i)
		}
	}
}

// ReadRawUint32s fills dst from 4*len(dst) bytes of packed little-endian
// uint32s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawUint32s(dst []uint32) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(4 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadUint32At(src, 4*i)
		}
	}
}

// ReadRawInt64s fills dst from 8*len(dst) bytes of packed little-endian
// int64s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawInt64s(dst []int64) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(8 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadInt64At(src, 8*i)
		}
	}
}

// ReadRawUint64s fills dst from 8*len(dst) bytes of packed little-endian
// uint64s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawUint64s(dst []uint64) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(8 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadUint64At(src, 8*i)
		}
	}
}

// ReadRawFloat32s fills dst from 4*len(dst) bytes of packed little-endian
// IEEE 754 float32s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawFloat32s(dst []float32) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(4 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadFloat32At(src, 4*i)
		}
	}
}

// ReadRawFloat64s fills dst from 8*len(dst) bytes of packed little-endian
// IEEE 754 float64s. On a shortage it records ErrTruncated and zeroes dst.
func (r *Reader) ReadRawFloat64s(dst []float64) {
	if fastLE && r.readRaw(raw(dst)) {
		return
	}
	src, ok := r.take(8 * len(dst))
	switch {
	case !ok:
		clear(dst)
	case fastLE:
		copy(raw(dst), src)
	default:
		for i := range dst {
			dst[i] = ReadFloat64At(src, 8*i)
		}
	}
}
