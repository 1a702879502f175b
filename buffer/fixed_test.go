package buffer

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// ReadRawFixed reads what the per-type bulk readers read, for every width,
// and on a shortage records ErrTruncated, zeroes dst and reads nothing.
func TestReadRawFixed(t *testing.T) {
	var b Buffer
	i8 := []int8{-128, -1, 0, 1, 127}
	u16 := []uint16{0, 1, 0x1234, math.MaxUint16}
	i32 := []int32{math.MinInt32, -1, 0, 7, math.MaxInt32}
	f32 := []float32{float32(math.Inf(-1)), -0.5, 0, 3.25}
	u64 := []uint64{0, 1 << 63, math.MaxUint64, 0x0102030405060708}
	f64 := []float64{math.SmallestNonzeroFloat64, -2.5, math.MaxFloat64}
	for _, v := range i8 {
		b.WriteInt8(v)
	}
	b.WriteRawUint16s(u16)
	b.WriteRawInt32s(i32)
	b.WriteRawFloat32s(f32)
	b.WriteRawUint64s(u64)
	b.WriteRawFloat64s(f64)
	data := b.Bytes()

	r := NewReader(data)
	got8, got16, got32 := make([]int8, len(i8)), make([]uint16, len(u16)), make([]int32, len(i32))
	gotf32, got64, gotf64 := make([]float32, len(f32)), make([]uint64, len(u64)), make([]float64, len(f64))
	ReadRawFixed(r, got8)
	ReadRawFixed(r, got16)
	ReadRawFixed(r, got32)
	ReadRawFixed(r, gotf32)
	ReadRawFixed(r, got64)
	ReadRawFixed(r, gotf64)
	if r.Err() != nil || r.Remaining() != 0 {
		t.Fatalf("err %v, %d bytes left", r.Err(), r.Remaining())
	}
	if !slices.Equal(got8, i8) || !slices.Equal(got16, u16) || !slices.Equal(got32, i32) ||
		!slices.Equal(gotf32, f32) || !slices.Equal(got64, u64) || !slices.Equal(gotf64, f64) {
		t.Fatalf("read %v %v %v %v %v %v", got8, got16, got32, gotf32, got64, gotf64)
	}

	// One byte short of four int32s.
	r = NewReader(data[:15])
	dst := []int32{1, 2, 3, 4}
	ReadRawFixed(r, dst)
	if !errors.Is(r.Err(), ErrTruncated) || !slices.Equal(dst, []int32{0, 0, 0, 0}) || r.Offset() != 0 {
		t.Fatalf("short read: err %v, dst %v, offset %d", r.Err(), dst, r.Offset())
	}
}
