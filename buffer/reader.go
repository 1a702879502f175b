package buffer

import "math/bits"

// Reader reads Fory values from untrusted input. Every Read… method checks
// bounds, and no input makes it panic or read outside the slice it was given.
//
// Errors are sticky: the first one is kept (see [Reader.Err]); from then on
// reads return zero values and the offset does not move. The Reader enforces
// this by shrinking its readable window to the offset of the failure, so
// every later read fails its ordinary bounds check and the hot paths carry no
// extra error test.
type Reader struct {
	// buf[:len] is readable, buf[:cap] is the whole input (Reset caps it).
	// len shrinks to off when an error is recorded.
	buf []byte
	off int // read offset, 0 <= off <= len(buf)
	err error
}

// NewReader returns a Reader over b. It does not copy b; values returned by
// [Reader.ReadBytes] alias it.
func NewReader(b []byte) *Reader {
	return &Reader{buf: b[:len(b):len(b)]}
}

// Reset makes r read b from the start and clears any error.
func (r *Reader) Reset(b []byte) {
	r.buf = b[:len(b):len(b)]
	r.off = 0
	r.err = nil
}

// Load is Reset for a reader that holds no error (a new one, or one
// after Drop or Reset(nil)), in less code: a caller that inlines it stays
// within the inlining budget (foryimpl's BeginReadFast).
func (r *Reader) Load(b []byte) {
	r.buf = b[:len(b):len(b)]
	r.off = 0
}

// Drop lets go of the input: r reads nothing until the next Reset. A
// recorded error stays. It is Reset(nil) for a Reader known to have none,
// in less code (BenchmarkFixedCost/DeserializeWithContext).
func (r *Reader) Drop() {
	r.buf = nil
	r.off = 0
}

// Bytes returns the whole input, for the unchecked Read…At loads after a
// successful [Reader.Need].
func (r *Reader) Bytes() []byte { return r.buf[:cap(r.buf)] }

// Offset returns the read offset.
func (r *Reader) Offset() int { return r.off }

// SetOffset moves the read offset to off, committing a run of Read…At loads
// that [Reader.Need] checked. The caller guarantees 0 <= off <= len(Bytes()).
// After an error it does nothing, so the offset stays at the failure.
func (r *Reader) SetOffset(off int) {
	if r.err == nil {
		r.off = off
	}
}

// Remaining returns the number of unread bytes; 0 after an error.
func (r *Reader) Remaining() int { return len(r.buf) - r.off }

// Err returns the first error recorded, as an *[Error], or nil.
func (r *Reader) Err() error { return r.err }

// Fail records err, wrapped in an *[Error] with the current offset, unless an
// error is already recorded. An err that already is an *Error is kept as is.
// A nil err is ignored. After Fail every read fails.
//
// Fail is the cold path of every checked read. It is kept out of line so
// that [Reader.Need], inlined into every generated run check, holds a call
// rather than the allocation of an *Error.
//
//go:noinline
func (r *Reader) Fail(err error) {
	if r.err != nil || err == nil {
		return
	}
	if _, ok := err.(*Error); !ok {
		err = &Error{Offset: r.off, Err: err}
	}
	r.err = err
	r.buf = r.buf[:r.off]
}

// Need reports whether n more bytes can be read, for a run of fixed-width
// Read…At loads covered by one check. On a shortage (or a negative n) it
// records ErrTruncated and returns false.
func (r *Reader) Need(n int) bool {
	// As unsigned, a negative n is huge and fails the same comparison.
	if uint(n) <= uint(len(r.buf)-r.off) {
		return true
	}
	r.Fail(ErrTruncated)
	return false
}

// Skip advances past n bytes, or records ErrTruncated.
func (r *Reader) Skip(n int) {
	if r.Need(n) {
		r.off += n
	}
}

// ReadUint8 reads one byte.
func (r *Reader) ReadUint8() uint8 {
	if r.off < len(r.buf) {
		v := r.buf[r.off]
		r.off++
		return v
	}
	r.Fail(ErrTruncated)
	return 0
}

// ReadInt8 reads one byte as an int8.
func (r *Reader) ReadInt8() int8 { return int8(r.ReadUint8()) }

// ReadBool reads one byte; any nonzero value is true.
func (r *Reader) ReadBool() bool { return r.ReadUint8() != 0 }

// ReadUint16 reads a little-endian uint16.
func (r *Reader) ReadUint16() uint16 {
	if len(r.buf)-r.off >= 2 {
		v := ReadUint16At(r.buf, r.off)
		r.off += 2
		return v
	}
	r.Fail(ErrTruncated)
	return 0
}

// ReadInt16 reads a little-endian int16.
func (r *Reader) ReadInt16() int16 { return int16(r.ReadUint16()) }

// ReadUint32 reads a little-endian uint32.
func (r *Reader) ReadUint32() uint32 {
	if len(r.buf)-r.off >= 4 {
		v := ReadUint32At(r.buf, r.off)
		r.off += 4
		return v
	}
	r.Fail(ErrTruncated)
	return 0
}

// ReadInt32 reads a little-endian int32.
func (r *Reader) ReadInt32() int32 { return int32(r.ReadUint32()) }

// MatchInt32 reads a little-endian int32 equal to v and reports true; for
// any other value, and with fewer than 4 bytes left, it reads nothing and
// reports false. It inlines, for an expected constant such as a schema hash
// (BenchmarkFixedCost/DeserializeWithContext/consistent).
func (r *Reader) MatchInt32(v int32) bool {
	if off := r.off; len(r.buf)-off >= 4 && ReadInt32At(r.buf, off) == v {
		r.off = off + 4
		return true
	}
	return false
}

// ReadUint64 reads a little-endian uint64.
func (r *Reader) ReadUint64() uint64 {
	if len(r.buf)-r.off >= 8 {
		v := ReadUint64At(r.buf, r.off)
		r.off += 8
		return v
	}
	r.Fail(ErrTruncated)
	return 0
}

// ReadInt64 reads a little-endian int64.
func (r *Reader) ReadInt64() int64 { return int64(r.ReadUint64()) }

// ReadFloat32 reads a little-endian IEEE 754 float32.
func (r *Reader) ReadFloat32() float32 {
	if len(r.buf)-r.off >= 4 {
		v := ReadFloat32At(r.buf, r.off)
		r.off += 4
		return v
	}
	r.Fail(ErrTruncated)
	return 0
}

// ReadFloat64 reads a little-endian IEEE 754 float64.
func (r *Reader) ReadFloat64() float64 {
	if len(r.buf)-r.off >= 8 {
		v := ReadFloat64At(r.buf, r.off)
		r.off += 8
		return v
	}
	r.Fail(ErrTruncated)
	return 0
}

// compact7 is the inverse of spread7: it packs the low seven bits of each of
// the 8 bytes of x (whose bit 7s are clear) into a 56-bit value.
func compact7(x uint64) uint64 {
	x = x&0x007F007F007F007F | (x&0x7F007F007F007F00)>>1
	x = x&0x00003FFF00003FFF | (x&0x3FFF00003FFF0000)>>2
	x = x&0x000000000FFFFFFF | (x&0x0FFFFFFF00000000)>>4
	return x
}

// ReadVarUint32 reads a varu32 (docs/format.md §3). An encoding longer than 5
// bytes, or a 5th byte above 0x0f, records ErrVarintOverflow. Non-minimal
// encodings (such as 80 00 for 0) are accepted.
func (r *Reader) ReadVarUint32() uint32 {
	// With 8 bytes left, one load holds the whole varint and compact7
	// gathers its groups without a loop per byte (BenchmarkReadVarint/
	// */large); near the end of the input, go byte by byte.
	off := r.off
	if off < len(r.buf) && r.buf[off] < 0x80 {
		// One byte, the usual length of a list size or an enum, also in
		// the last 8 bytes of the input (BenchmarkFixedCost/
		// DeserializeWithContext).
		r.off = off + 1
		return uint32(r.buf[off])
	}
	if len(r.buf)-off >= 8 {
		w := ReadUint64At(r.buf, off)
		// Bit 7 is clear in the last byte: the lowest set bit of ^w&contBits.
		n := bits.TrailingZeros64(^w&contBits)>>3 + 1
		if n <= MaxVarUint32Len {
			x := compact7(w & (1<<(8*n) - 1) & 0x7f7f7f7f7f7f7f7f)
			if x>>32 == 0 {
				r.off = off + n
				return uint32(x)
			}
		}
		r.Fail(ErrVarintOverflow)
		return 0
	}
	return r.readVarUint32Slow()
}

// readVarUint32Slow decodes a varu32 one byte at a time, for the last bytes
// of the input where an 8-byte load would overrun.
func (r *Reader) readVarUint32Slow() uint32 {
	var x uint32
	off := r.off
	for shift := 0; shift < 28; shift += 7 {
		if off >= len(r.buf) {
			r.Fail(ErrTruncated)
			return 0
		}
		c := r.buf[off]
		off++
		x |= uint32(c&0x7f) << shift
		if c < 0x80 {
			r.off = off
			return x
		}
	}
	// The 5th byte holds the top 4 bits and may not continue.
	if off >= len(r.buf) {
		r.Fail(ErrTruncated)
		return 0
	}
	c := r.buf[off]
	if c > 0x0f {
		r.Fail(ErrVarintOverflow)
		return 0
	}
	r.off = off + 1
	return x | uint32(c)<<28
}

// ReadVarUint32Byte reads a varu32 of one byte (below 0x80) and reports
// true; otherwise, at the end of the input or for a longer encoding, it
// reads nothing and reports false, and the caller falls back to
// [Reader.ReadVarUint32]. It inlines, so a caller whose values are mostly
// small (a list length) takes no call for them (BenchmarkFixedCost/
// DeserializeWithContext).
func (r *Reader) ReadVarUint32Byte() (uint32, bool) {
	if off := r.off; off < len(r.buf) {
		if v := r.buf[off]; v < 0x80 {
			r.off = off + 1
			return uint32(v), true
		}
	}
	return 0, false
}

// ReadSmallLength reads a collection length of one byte (a varu32 below
// 0x80) when it is at most maxN and that many elements of at least
// minElemBytes bytes fit in the bytes after it, and returns it; for
// anything else (a longer encoding, a length over either bound, the end of
// the input, a recorded error) it reads nothing and returns -1, and the
// caller takes its general path. It inlines (BenchmarkFixedCost/
// DeserializeWithContext). minElemBytes is at least 1 and small, so the
// product cannot overflow.
func (r *Reader) ReadSmallLength(minElemBytes int, maxN uint64) int {
	if off := r.off; off < len(r.buf) {
		if n := int(r.buf[off]); n < 0x80 && n*minElemBytes < len(r.buf)-off && uint64(n) <= maxN {
			r.off = off + 1
			return n
		}
	}
	return -1
}

// ReadSmallByteLength is [Reader.ReadSmallLength] for the byte length of
// a dense array of elements of width bytes, a power of two: the length must
// also be a multiple of width, and fit the bytes after it.
func (r *Reader) ReadSmallByteLength(width int, maxN uint64) int {
	if off := r.off; off < len(r.buf) {
		if n := int(r.buf[off]); n < 0x80 && n&(width-1) == 0 && n < len(r.buf)-off && uint64(n) <= maxN {
			r.off = off + 1
			return n
		}
	}
	return -1
}

// ReadSmallByteLengthAfter is [Reader.ReadSmallByteLength] after a byte
// equal to lead, such as a flag that says a value follows: it reads both
// and returns the length, or reads nothing and returns -1.
func (r *Reader) ReadSmallByteLengthAfter(lead byte, width int, maxN uint64) int {
	if off := r.off; off+1 < len(r.buf) && r.buf[off] == lead {
		if n := int(r.buf[off+1]); n < 0x80 && n&(width-1) == 0 && n < len(r.buf)-off-1 && uint64(n) <= maxN {
			r.off = off + 2
			return n
		}
	}
	return -1
}

// ReadSmallVarUint32 reads a varu32 of one byte (below 0x80) when it is at
// most max, and returns it; for anything else (a longer encoding, a larger
// value, the end of the input, a recorded error) it reads nothing and
// returns -1. It inlines, for a value such as an enum ordinal that is
// usually small (BenchmarkDeserialize/MediaContentList).
func (r *Reader) ReadSmallVarUint32(max uint32) int {
	if off := r.off; off < len(r.buf) {
		if v := r.buf[off]; v < 0x80 && uint32(v) <= max {
			r.off = off + 1
			return int(v)
		}
	}
	return -1
}

// ReadVarInt32 reads a zz32.
func (r *Reader) ReadVarInt32() int32 { return unzigzag32(r.ReadVarUint32()) }

// ReadVarUint64 reads a Fory varu64 (docs/format.md §3): up to 8 LEB128 bytes,
// then a 9th byte of 8 raw bits. Every 9-byte input is a valid value, so the
// only error is ErrTruncated. Non-minimal encodings are accepted.
func (r *Reader) ReadVarUint64() uint64 {
	// The same one-load fast path as ReadVarUint32.
	off := r.off
	if len(r.buf)-off >= 8 {
		w := ReadUint64At(r.buf, off)
		if w&0x80 == 0 {
			r.off = off + 1
			return w & 0x7f
		}
		if stop := ^w & contBits; stop != 0 {
			n := bits.TrailingZeros64(stop)>>3 + 1
			r.off = off + n
			return compact7(w & (1<<(8*n) - 1) & 0x7f7f7f7f7f7f7f7f)
		}
		// Eight continuation bytes: the 9th byte carries bits 56-63.
		if len(r.buf)-off >= 9 {
			r.off = off + 9
			return compact7(w&0x7f7f7f7f7f7f7f7f) | uint64(r.buf[off+8])<<56
		}
		r.Fail(ErrTruncated)
		return 0
	}
	return r.readVarUint64Slow()
}

// readVarUint64Slow decodes a varu64 one byte at a time near the end of the
// input (fewer than 8 bytes left, so never the 9-byte form).
func (r *Reader) readVarUint64Slow() uint64 {
	var x uint64
	for i := 0; r.off+i < len(r.buf); i++ {
		c := r.buf[r.off+i]
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			r.off += i + 1
			return x
		}
	}
	r.Fail(ErrTruncated)
	return 0
}

// ReadVarInt64 reads a zz64.
func (r *Reader) ReadVarInt64() int64 { return unzigzag64(r.ReadVarUint64()) }

// ReadTaggedInt64 reads a tagged i64 (docs/format.md §3): an i32le with bit 0
// clear holds the value shifted left by one; bit 0 set means the value is the
// i64le after the first byte.
func (r *Reader) ReadTaggedInt64() int64 {
	if len(r.buf)-r.off >= 4 {
		x := ReadInt32At(r.buf, r.off)
		if x&1 == 0 {
			r.off += 4
			return int64(x >> 1)
		}
		if len(r.buf)-r.off >= 9 {
			v := ReadInt64At(r.buf, r.off+1)
			r.off += 9
			return v
		}
	}
	r.Fail(ErrTruncated)
	return 0
}

// ReadTaggedUint64 reads a tagged u64 (docs/format.md §3), like ReadTaggedInt64
// with a logical shift for the 4-byte form.
func (r *Reader) ReadTaggedUint64() uint64 {
	if len(r.buf)-r.off >= 4 {
		x := ReadUint32At(r.buf, r.off)
		if x&1 == 0 {
			r.off += 4
			return uint64(x >> 1)
		}
		if len(r.buf)-r.off >= 9 {
			v := ReadUint64At(r.buf, r.off+1)
			r.off += 9
			return v
		}
	}
	r.Fail(ErrTruncated)
	return 0
}
