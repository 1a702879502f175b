package buffer

import (
	"math/bits"
	"unsafe"
)

// Varint and tagged integer encodings, docs/format.md §3:
//
//   - varu32: unsigned LEB128, 7 data bits per byte, low group first, bit 7
//     set on every byte but the last; 1 to 5 bytes.
//   - varu64: LEB128 for the first 8 bytes; a 9th byte, when needed, carries
//     the remaining 8 bits verbatim. Never 10 bytes (docs/format.md §14.4).
//   - zz32/zz64: ZigZag, then varu32/varu64.
//   - tagged i64/u64: 4 bytes i32le(int32(v)<<1) when the value fits in 31
//     bits (bit 0 = 0), else 0x01 followed by the 8-byte little-endian value.

// Maximum encoded lengths and the store slack, used by the generator to size
// the window reserved for a struct's primitive fields.
const (
	// MaxVarUint32Len is the longest varu32 (and zz32): 5 LEB128 bytes.
	MaxVarUint32Len = 5
	// MaxVarUint64Len is the longest varu64 (and zz64): 8 LEB128 bytes then
	// a 9th byte carrying 8 raw bits, never 10.
	MaxVarUint64Len = 9
	// MaxTaggedLen is the longest tagged int64/uint64: 1 + 8 bytes.
	MaxTaggedLen = 9
	// BatchSlack bounds how many bytes past the end of its encoding a
	// batched varint store may overwrite: it writes whole 4- or 8-byte words.
	// A window reserved as the sum of the fields' maximum widths plus
	// BatchSlack holds every store of the run; later fields overwrite the
	// scratch bytes, and the writer index never covers them.
	BatchSlack = 8
)

// contBits has the LEB128 continuation bit set in each of the 8 bytes.
const contBits = 0x8080808080808080

// spread28 is spread7 for x < 2^28, on a 32-bit word (two steps).
func spread28(x uint32) uint32 {
	x = x&0x3FFF | (x&0xFFFC000)<<2
	x = x&0x007F007F | (x&0x3F803F80)<<1
	return x
}

// spread7 moves the seven-bit groups of x (x < 2^56) into the low seven bits
// of successive bytes: bits 0-6 to byte 0, bits 7-13 to byte 1, and so on.
// Three mask-shift-or steps halve the group size each time (28, 14, 7 bits),
// instead of one step per byte.
func spread7(x uint64) uint64 {
	x = x&0x000000000FFFFFFF | (x&0x00FFFFFFF0000000)<<4
	x = x&0x00003FFF00003FFF | (x&0x0FFFC0000FFFC000)<<2
	x = x&0x007F007F007F007F | (x&0x3F803F803F803F80)<<1
	return x
}

// SizeVarUint32 returns the length of v as varu32 (1 to 5).
func SizeVarUint32(v uint32) int {
	// (9*bits+64)/64 == ceil(bits/7) for 1 <= bits <= 64; v|1 makes 0 take
	// one byte.
	return (bits.Len32(v|1)*9 + 64) / 64
}

// SizeVarInt32 returns the length of v as zz32 (1 to 5).
func SizeVarInt32(v int32) int {
	return SizeVarUint32(zigzag32(v))
}

// SizeVarUint64 returns the length of v as Fory varu64 (1 to 9).
func SizeVarUint64(v uint64) int {
	if v >= 1<<56 {
		return MaxVarUint64Len
	}
	return (bits.Len64(v|1)*9 + 64) / 64
}

// SizeVarInt64 returns the length of v as zz64 (1 to 9).
func SizeVarInt64(v int64) int {
	return SizeVarUint64(zigzag64(v))
}

// SizeTaggedInt64 returns the length of v as tagged i64 (4 or 9).
func SizeTaggedInt64(v int64) int {
	if taggedInt64Small(v) {
		return 4
	}
	return MaxTaggedLen
}

// SizeTaggedUint64 returns the length of v as tagged u64 (4 or 9).
func SizeTaggedUint64(v uint64) int {
	if v <= 1<<31-1 {
		return 4
	}
	return MaxTaggedLen
}

func zigzag32(v int32) uint32 { return uint32(v<<1) ^ uint32(v>>31) }
func zigzag64(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag32(u uint32) int32 { return int32(u>>1) ^ -int32(u&1) }
func unzigzag64(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// ZigZag32 maps a signed value to the unsigned value zz32 encodes. Generated
// code writes `PutVarUint32At(w, off, ZigZag32(v))`: both inline, while
// PutVarInt32At is one call more than the inlining budget allows
// (BenchmarkPutVarint).
func ZigZag32(v int32) uint32 { return zigzag32(v) }

// ZigZag64 is ZigZag32 for zz64.
func ZigZag64(v int64) uint64 { return zigzag64(v) }

// UnZigZag32 is the inverse of ZigZag32, for offset-passing reads.
func UnZigZag32(u uint32) int32 { return unzigzag32(u) }

// UnZigZag64 is the inverse of ZigZag64.
func UnZigZag64(u uint64) int64 { return unzigzag64(u) }

// taggedInt64Small reports whether -2^30 <= v <= 2^30-1, the range of the
// 4-byte tagged form.
func taggedInt64Small(v int64) bool {
	return uint64(v+1<<30) < 1<<31
}

// PutVarUint32At writes v as varu32 at buf[off:] and returns the offset after
// it. It may write up to [BatchSlack] scratch bytes past the encoding, so the
// caller reserves [MaxVarUint32Len]+BatchSlack bytes (or the run's total).
// Like the other Put…At helpers it does not check bounds.
func PutVarUint32At(buf []byte, off int, v uint32) int {
	// The one-byte case inlines into generated code (BenchmarkPutVarint/
	// */small); longer values take one call, given the slice's base rather
	// than &buf[off]. Neither case checks bounds, so the writer need not
	// keep the window's length in a register across the calls
	// (instructions.sh NumericStruct forygen Serialize: 507 → 481). This
	// function's inlining cost is 80 of 80; the store through at costs 85.
	if v < 0x80 {
		*(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), off)) = byte(v)
		return off + 1
	}
	return putVarUint32Long(unsafe.SliceData(buf), off, v)
}

// putVarUint32Long writes a varu32 of 2 to 5 bytes at base+off,
// with one 4-byte store (plus one byte for 5 bytes) instead of a store per
// byte, and returns off plus the length. The 7-bit groups are placed with
// shifts and masks in a register and the continuation bits are constants,
// so each length class is branch-free. It takes a pointer rather than the
// slice: two words fewer to pass, and fewer registers the generated writer
// must keep across the call (BenchmarkSerialize/NumericStruct: 529 → 503
// instructions). The caller reserved MaxVarUint32Len bytes there.
func putVarUint32Long(base *byte, off int, v uint32) int {
	p := unsafe.Add(unsafe.Pointer(base), off)
	if v < 1<<21 {
		return off + putVarUint2or3(p, v)
	}
	if v < 1<<28 {
		store32(p, spread28(v)|0x808080)
		return off + 4
	}
	store32(p, spread28(v&(1<<28-1))|0x80808080)
	*(*uint8)(unsafe.Add(p, 4)) = uint8(v >> 28)
	return off + 5
}

// putVarUint2or3 writes 0x80 <= v < 2^21, the common lengths past one byte,
// at p in fewer steps than spread28 (BenchmarkPutVarint/*/medium), and
// returns the length. It inlines into both long paths.
func putVarUint2or3(p unsafe.Pointer, v uint32) int {
	x := v&0x7f | v<<1&0x7f00 | v<<2&0x7f0000
	if v < 1<<14 {
		store32(p, x|0x80)
		return 2
	}
	store32(p, x|0x8080)
	return 3
}

// PutVarInt32At writes v as zz32 at buf[off:] and returns the offset after
// it, with the bounds contract of [PutVarUint32At].
func PutVarInt32At(buf []byte, off int, v int32) int {
	return PutVarUint32At(buf, off, zigzag32(v))
}

// PutVarUint64At writes v as Fory varu64 at buf[off:] and returns the offset
// after it. It may write up to [BatchSlack] scratch bytes past the encoding,
// so the caller reserves [MaxVarUint64Len]+BatchSlack bytes (or the run's
// total). It does not check bounds.
func PutVarUint64At(buf []byte, off int, v uint64) int {
	if v < 0x80 {
		*(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), off)) = byte(v)
		return off + 1
	}
	return putVarUint64Long(unsafe.SliceData(buf), off, v)
}

// putVarUint64Long writes a varu64 of 2 to 9 bytes at base+off,
// and returns off plus the length: up to 4 bytes like varu32, 5 to 8 bytes
// with one 8-byte store, and for values of 57 bits or more 8 LEB128 bytes
// plus a 9th byte holding bits 56-63 verbatim (docs/format.md §3). Like
// putVarUint32Long it takes a pointer; the caller reserved MaxVarUint64Len
// bytes there.
func putVarUint64Long(base *byte, off int, v uint64) int {
	p := unsafe.Add(unsafe.Pointer(base), off)
	if v < 1<<21 {
		return off + putVarUint2or3(p, uint32(v))
	}
	if v < 1<<28 {
		store32(p, spread28(uint32(v))|0x808080)
		return off + 4
	}
	if v < 1<<56 {
		n := SizeVarUint64(v)
		store64(p, spread7(v)|contBits>>((72-8*n)&63))
		return off + n
	}
	store64(p, spread7(v&(1<<56-1))|contBits)
	*(*uint8)(unsafe.Add(p, 8)) = uint8(v >> 56)
	return off + 9
}

// PutVarInt64At writes v as zz64 at buf[off:] and returns the offset after
// it, with the bounds contract of [PutVarUint64At].
func PutVarInt64At(buf []byte, off int, v int64) int {
	return PutVarUint64At(buf, off, zigzag64(v))
}

// PutTaggedInt64At writes v as tagged i64 at buf[off:] (4 or 9 bytes, no
// scratch bytes) and returns the offset after it. It does not check bounds.
func PutTaggedInt64At(buf []byte, off int, v int64) int {
	if taggedInt64Small(v) {
		PutUint32At(buf, off, uint32(int32(v)<<1))
		return off + 4
	}
	PutUint8At(buf, off, 1)
	PutUint64At(buf, off+1, uint64(v))
	return off + 9
}

// PutTaggedUint64At writes v as tagged u64 at buf[off:] (4 or 9 bytes, no
// scratch bytes) and returns the offset after it. It does not check bounds.
func PutTaggedUint64At(buf []byte, off int, v uint64) int {
	if v <= 1<<31-1 {
		PutUint32At(buf, off, uint32(v)<<1)
		return off + 4
	}
	PutUint8At(buf, off, 1)
	PutUint64At(buf, off+1, v)
	return off + 9
}
