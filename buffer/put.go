package buffer

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// This file holds the unchecked fixed-width stores and loads. Fory writes
// every fixed-width integer and float little-endian at any offset (docs/format.md
// notation, §3, §9.1), so on fastLE targets each one is a single unaligned
// memory access. None of them checks bounds: a writer has called
// [Buffer.Reserve] for the whole run and a reader has called [Reader.Need].
// Dropping the per-store bounds check is what BenchmarkPutFixed/putat gains
// over /binary. On other targets the portable branch uses encoding/binary
// (which does check bounds). fastLE is a constant, so the compiler drops the
// branch that is not taken and the inliner does not count it.

// at returns a pointer to buf[off] without a bounds check.
func at(buf []byte, off int) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), off)
}

// At returns a pointer to buf[off] without a bounds check, for generated
// writers that store a constant block of n bytes, a root prefix, as
// `*(*[n]byte)(buffer.At(w, off)) = block`: a copy of a fixed size from a
// package-level array, which the compiler turns into a few vector moves
// instead of a memmove call. The caller has reserved the n bytes.
func At(buf []byte, off int) unsafe.Pointer { return at(buf, off) }

// store32 stores v little-endian at p, which has 4 bytes.
func store32(p unsafe.Pointer, v uint32) {
	if fastLE {
		*(*uint32)(p) = v
		return
	}
	binary.LittleEndian.PutUint32(unsafe.Slice((*byte)(p), 4), v)
}

// store64 stores v little-endian at p, which has 8 bytes.
func store64(p unsafe.Pointer, v uint64) {
	if fastLE {
		*(*uint64)(p) = v
		return
	}
	binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(p), 8), v)
}

// PutUint8At stores v at buf[off]. It does not check bounds.
func PutUint8At(buf []byte, off int, v uint8) {
	*(*uint8)(at(buf, off)) = v
}

// PutInt8At stores v at buf[off]. It does not check bounds.
func PutInt8At(buf []byte, off int, v int8) {
	*(*uint8)(at(buf, off)) = uint8(v)
}

// PutBoolAt stores 1 for true and 0 for false at buf[off]. It does not check
// bounds.
func PutBoolAt(buf []byte, off int, v bool) {
	var x uint8
	if v {
		x = 1
	}
	*(*uint8)(at(buf, off)) = x
}

// PutUint16At stores v little-endian at buf[off:off+2]. It does not check
// bounds.
func PutUint16At(buf []byte, off int, v uint16) {
	if fastLE {
		*(*uint16)(at(buf, off)) = v
		return
	}
	binary.LittleEndian.PutUint16(buf[off:], v)
}

// PutInt16At stores v little-endian at buf[off:off+2]. It does not check
// bounds.
func PutInt16At(buf []byte, off int, v int16) {
	PutUint16At(buf, off, uint16(v))
}

// PutUint32At stores v little-endian at buf[off:off+4]. It does not check
// bounds.
func PutUint32At(buf []byte, off int, v uint32) {
	if fastLE {
		*(*uint32)(at(buf, off)) = v
		return
	}
	binary.LittleEndian.PutUint32(buf[off:], v)
}

// PutInt32At stores v little-endian at buf[off:off+4]. It does not check
// bounds.
func PutInt32At(buf []byte, off int, v int32) {
	PutUint32At(buf, off, uint32(v))
}

// PutUint64At stores v little-endian at buf[off:off+8]. It does not check
// bounds.
func PutUint64At(buf []byte, off int, v uint64) {
	if fastLE {
		*(*uint64)(at(buf, off)) = v
		return
	}
	binary.LittleEndian.PutUint64(buf[off:], v)
}

// PutInt64At stores v little-endian at buf[off:off+8]. It does not check
// bounds.
func PutInt64At(buf []byte, off int, v int64) {
	PutUint64At(buf, off, uint64(v))
}

// PutFloat32At stores the IEEE 754 bits of v little-endian at
// buf[off:off+4]. It does not check bounds.
func PutFloat32At(buf []byte, off int, v float32) {
	PutUint32At(buf, off, math.Float32bits(v))
}

// PutFloat64At stores the IEEE 754 bits of v little-endian at
// buf[off:off+8]. It does not check bounds.
func PutFloat64At(buf []byte, off int, v float64) {
	PutUint64At(buf, off, math.Float64bits(v))
}

// ReadUint8At returns buf[off]. It does not check bounds.
func ReadUint8At(buf []byte, off int) uint8 {
	return *(*uint8)(at(buf, off))
}

// ReadInt8At returns buf[off] as an int8. It does not check bounds.
func ReadInt8At(buf []byte, off int) int8 {
	return int8(*(*uint8)(at(buf, off)))
}

// ReadUint16At loads a little-endian uint16 from buf[off:off+2]. It does not
// check bounds.
func ReadUint16At(buf []byte, off int) uint16 {
	if fastLE {
		return *(*uint16)(at(buf, off))
	}
	return binary.LittleEndian.Uint16(buf[off:])
}

// ReadInt16At loads a little-endian int16 from buf[off:off+2]. It does not
// check bounds.
func ReadInt16At(buf []byte, off int) int16 {
	return int16(ReadUint16At(buf, off))
}

// ReadUint32At loads a little-endian uint32 from buf[off:off+4]. It does not
// check bounds.
func ReadUint32At(buf []byte, off int) uint32 {
	if fastLE {
		return *(*uint32)(at(buf, off))
	}
	return binary.LittleEndian.Uint32(buf[off:])
}

// ReadInt32At loads a little-endian int32 from buf[off:off+4]. It does not
// check bounds.
func ReadInt32At(buf []byte, off int) int32 {
	return int32(ReadUint32At(buf, off))
}

// ReadUint64At loads a little-endian uint64 from buf[off:off+8]. It does not
// check bounds.
func ReadUint64At(buf []byte, off int) uint64 {
	if fastLE {
		return *(*uint64)(at(buf, off))
	}
	return binary.LittleEndian.Uint64(buf[off:])
}

// ReadInt64At loads a little-endian int64 from buf[off:off+8]. It does not
// check bounds.
func ReadInt64At(buf []byte, off int) int64 {
	return int64(ReadUint64At(buf, off))
}

// ReadFloat32At loads a little-endian IEEE 754 float32 from buf[off:off+4].
// It does not check bounds.
func ReadFloat32At(buf []byte, off int) float32 {
	return math.Float32frombits(ReadUint32At(buf, off))
}

// ReadFloat64At loads a little-endian IEEE 754 float64 from buf[off:off+8].
// It does not check bounds.
func ReadFloat64At(buf []byte, off int) float64 {
	return math.Float64frombits(ReadUint64At(buf, off))
}
