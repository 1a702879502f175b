package buffer

import (
	"encoding/binary"
	"math"
)

// Reference encoders and decoders written one byte at a time straight from
// docs/format.md §3, independent of the batched implementations under test.

func refVarUint32(v uint32) []byte {
	var out []byte
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

func refVarUint64(v uint64) []byte {
	var out []byte
	for i := 0; i < 8; i++ {
		if v < 0x80 {
			return append(out, byte(v))
		}
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v)) // 9th byte: the remaining 8 bits verbatim
}

func refZigZag32(v int32) uint32 { return uint32((v << 1) ^ (v >> 31)) }
func refZigZag64(v int64) uint64 { return uint64((v << 1) ^ (v >> 63)) }

func refTaggedInt64(v int64) []byte {
	if v >= -1<<30 && v <= 1<<30-1 {
		return binary.LittleEndian.AppendUint32(nil, uint32(int32(v)<<1))
	}
	return binary.LittleEndian.AppendUint64([]byte{1}, uint64(v))
}

func refTaggedUint64(v uint64) []byte {
	if v <= math.MaxInt32 {
		return binary.LittleEndian.AppendUint32(nil, uint32(v)<<1)
	}
	return binary.LittleEndian.AppendUint64([]byte{1}, v)
}

type refErr int

const (
	refOK refErr = iota
	refTruncated
	refOverflow
)

// refDecodeVarUint32 decodes a varu32 at the start of b and returns the value
// and its length.
func refDecodeVarUint32(b []byte) (uint32, int, refErr) {
	var x uint32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, 0, refTruncated
		}
		c := b[i]
		if i == 4 {
			if c > 0x0f {
				return 0, 0, refOverflow
			}
			return x | uint32(c)<<28, 5, refOK
		}
		x |= uint32(c&0x7f) << (7 * i)
		if c < 0x80 {
			return x, i + 1, refOK
		}
	}
	panic("unreachable")
}

func refDecodeVarUint64(b []byte) (uint64, int, refErr) {
	var x uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0, refTruncated
		}
		c := b[i]
		if i == 8 {
			return x | uint64(c)<<56, 9, refOK
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return x, i + 1, refOK
		}
	}
	panic("unreachable")
}

func refDecodeTaggedInt64(b []byte) (int64, int, refErr) {
	if len(b) < 4 {
		return 0, 0, refTruncated
	}
	x := int32(binary.LittleEndian.Uint32(b))
	if x&1 == 0 {
		return int64(x >> 1), 4, refOK
	}
	if len(b) < 9 {
		return 0, 0, refTruncated
	}
	return int64(binary.LittleEndian.Uint64(b[1:])), 9, refOK
}

func refDecodeTaggedUint64(b []byte) (uint64, int, refErr) {
	if len(b) < 4 {
		return 0, 0, refTruncated
	}
	x := binary.LittleEndian.Uint32(b)
	if x&1 == 0 {
		return uint64(x >> 1), 4, refOK
	}
	if len(b) < 9 {
		return 0, 0, refTruncated
	}
	return binary.LittleEndian.Uint64(b[1:]), 9, refOK
}

// byteLoopPutVarUint32 and byteLoopPutVarUint64 are the conventional
// one-store-per-byte encoders the batched stores are benchmarked against.
func byteLoopPutVarUint32(buf []byte, off int, v uint32) int {
	for v >= 0x80 {
		buf[off] = byte(v) | 0x80
		v >>= 7
		off++
	}
	buf[off] = byte(v)
	return off + 1
}

func byteLoopPutVarUint64(buf []byte, off int, v uint64) int {
	for i := 0; i < 8; i++ {
		if v < 0x80 {
			buf[off] = byte(v)
			return off + 1
		}
		buf[off] = byte(v) | 0x80
		v >>= 7
		off++
	}
	buf[off] = byte(v)
	return off + 1
}

// uint64Boundaries returns 0, 1, every 7-bit boundary 2^(7k)-1 and 2^(7k) up
// to 2^63, the limits of every width, the tagged-form limits, and neighbours.
func uint64Boundaries() []uint64 {
	seen := map[uint64]bool{}
	var out []uint64
	add := func(v uint64) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	add(0)
	add(1)
	add(127)
	add(128)
	add(16383)
	add(16384)
	for k := 1; 7*k <= 63; k++ {
		p := uint64(1) << (7 * k)
		add(p - 1)
		add(p)
		add(p + 1)
	}
	for _, p := range []uint64{
		math.MaxUint8, math.MaxUint16, math.MaxUint32, math.MaxUint64,
		math.MaxInt8, math.MaxInt16, math.MaxInt32, math.MaxInt64,
		1 << 30, 1<<30 - 1, 1 << 31, 1 << 32, 1 << 56, 1<<56 - 1, 1 << 63,
	} {
		add(p)
		add(p - 1)
		add(p + 1)
	}
	return out
}

// int64Boundaries returns the boundaries as signed values, their negations,
// and the minimum of every signed width.
func int64Boundaries() []int64 {
	seen := map[int64]bool{}
	var out []int64
	add := func(v int64) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, u := range uint64Boundaries() {
		add(int64(u))
		add(-int64(u))
	}
	for _, m := range []int64{math.MinInt8, math.MinInt16, math.MinInt32, math.MinInt64, -1 << 30, -1<<30 - 1} {
		add(m)
		add(m + 1)
		add(m - 1)
	}
	return out
}
