package buffer

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReserveGrowsAndPreserves(t *testing.T) {
	b := New(0)
	require.Empty(t, b.Window())
	b.Reserve(0)
	require.Empty(t, b.Window(), "Reserve(0) does not allocate")
	b.Reserve(-5)
	require.Empty(t, b.Window())

	var want []byte
	grows := 0
	prevCap := len(b.Window())
	for i := 0; i < 100000; i++ {
		b.Reserve(3)
		require.GreaterOrEqual(t, len(b.Window())-b.WriterIndex(), 3)
		if c := len(b.Window()); c != prevCap {
			grows++
			require.GreaterOrEqual(t, c, 2*prevCap, "growth doubles")
			prevCap = c
		}
		buf := b.Window()
		off := b.WriterIndex()
		PutUint8At(buf, off, byte(i))
		PutUint16At(buf, off+1, uint16(i))
		b.SetWriterIndex(off + 3)
		want = append(want, byte(i), byte(i), byte(i>>8))
	}
	require.Equal(t, want, b.Bytes())
	require.Equal(t, len(want), b.Len())
	require.LessOrEqual(t, grows, 20, "amortized: O(log n) reallocations")
	require.Equal(t, len(b.Window()), cap(b.Window()), "len == cap")
}

func TestReserveDoesNotGrowWhenRoomRemains(t *testing.T) {
	b := New(MaxVarUint64Len + BatchSlack)
	w := b.Window()
	b.Reserve(MaxVarUint64Len + BatchSlack)
	require.Same(t, &w[0], &b.Window()[0])
	b.SetWriterIndex(PutVarUint64At(b.Window(), 0, math.MaxUint64))
	require.Equal(t, refVarUint64(math.MaxUint64), b.Bytes())
	b.Reserve(len(w) - b.WriterIndex() + 1)
	require.NotSame(t, &w[0], &b.Window()[0], "grew")
	require.Equal(t, refVarUint64(math.MaxUint64), b.Bytes(), "kept the written bytes")
}

func TestResetKeepsCapacity(t *testing.T) {
	b := New(16)
	b.WriteUint64(1)
	b.WriteUint64(2)
	b.WriteUint64(3)
	c := len(b.Window())
	b.Reset()
	require.Equal(t, 0, b.Len())
	require.Empty(t, b.Bytes())
	require.Equal(t, c, len(b.Window()))
	b.WriteUint8(7)
	require.Equal(t, []byte{7}, b.Bytes())
	require.Equal(t, c, len(b.Window()))
}

// TestAdoptAppendsInPlace: an adopted slice is appended to in its own
// spare capacity, grows like append when that is short, and the buffer's
// own storage comes back untouched.
func TestAdoptAppendsInPlace(t *testing.T) {
	b := New(32)
	b.WriteUint8(9)
	own := b.Window()

	dst := make([]byte, 2, 8)
	dst[0], dst[1] = 1, 2
	old := b.Adopt(dst)
	require.Equal(t, 2, b.Len())
	b.WriteUint32(0x06050403)
	out := b.Bytes()
	require.Equal(t, []byte{1, 2, 3, 4, 5, 6}, out)
	require.Same(t, &dst[0], &out[0], "written in dst's capacity, not copied")

	b.WriteUint64(0) // 14 bytes > cap 8: grows, keeping the adopted prefix
	require.Equal(t, []byte{1, 2, 3, 4, 5, 6}, b.Bytes()[:6])
	require.Equal(t, 14, b.Len())

	b.Adopt(old[:0])
	require.Equal(t, 0, b.Len())
	require.Same(t, &own[0], &b.Window()[0], "own storage restored")
	require.Equal(t, len(own), len(b.Window()))

	var empty Buffer
	empty.Adopt(nil)
	empty.WriteUint8(5)
	require.Equal(t, []byte{5}, empty.Bytes())
}

func TestReserveHugeButValid(t *testing.T) {
	b := New(0)
	b.WriteUint8(1)
	b.Reserve(64 << 20)
	require.GreaterOrEqual(t, len(b.Window())-b.WriterIndex(), 64<<20)
	require.Equal(t, []byte{1}, b.Bytes())
	PutUint64At(b.Window(), b.WriterIndex()+64<<20-8, math.MaxUint64) // the last 8 reserved bytes

	require.Panics(t, func() { b.Reserve(math.MaxInt) }, "overflowing int is a caller bug, not a silent wrap")
}

func TestNewNegativeCapacity(t *testing.T) {
	b := New(-1)
	b.WriteUint8(1)
	require.Equal(t, []byte{1}, b.Bytes())
}

func TestFixedWriters(t *testing.T) {
	b := New(1)
	b.WriteUint8(0xab)
	b.WriteInt8(-2)
	b.WriteBool(true)
	b.WriteBool(false)
	b.WriteUint16(0x1234)
	b.WriteInt16(math.MinInt16)
	b.WriteUint32(0xdeadbeef)
	b.WriteInt32(math.MinInt32)
	b.WriteUint64(0x0102030405060708)
	b.WriteInt64(math.MinInt64)
	b.WriteFloat32(1.5)
	b.WriteFloat64(-0.25)

	var want []byte
	want = append(want, 0xab, 0xfe, 1, 0)
	want = binary.LittleEndian.AppendUint16(want, 0x1234)
	want = binary.LittleEndian.AppendUint16(want, 0x8000)
	want = binary.LittleEndian.AppendUint32(want, 0xdeadbeef)
	want = binary.LittleEndian.AppendUint32(want, 0x80000000)
	want = binary.LittleEndian.AppendUint64(want, 0x0102030405060708)
	want = binary.LittleEndian.AppendUint64(want, 0x8000000000000000)
	want = binary.LittleEndian.AppendUint32(want, math.Float32bits(1.5))
	want = binary.LittleEndian.AppendUint64(want, math.Float64bits(-0.25))
	require.Equal(t, want, b.Bytes())

	r := NewReader(b.Bytes())
	require.Equal(t, uint8(0xab), r.ReadUint8())
	require.Equal(t, int8(-2), r.ReadInt8())
	require.True(t, r.ReadBool())
	require.False(t, r.ReadBool())
	require.Equal(t, uint16(0x1234), r.ReadUint16())
	require.Equal(t, int16(math.MinInt16), r.ReadInt16())
	require.Equal(t, uint32(0xdeadbeef), r.ReadUint32())
	require.Equal(t, int32(math.MinInt32), r.ReadInt32())
	require.Equal(t, uint64(0x0102030405060708), r.ReadUint64())
	require.Equal(t, int64(math.MinInt64), r.ReadInt64())
	require.Equal(t, float32(1.5), r.ReadFloat32())
	require.Equal(t, -0.25, r.ReadFloat64())
	require.NoError(t, r.Err())
	require.Equal(t, 0, r.Remaining())
}

func TestHeaderWriters(t *testing.T) {
	b := New(0)
	b.WriteHeaderString(5<<2|2, "hello")
	b.WriteHeaderString(2, "")
	b.WriteHeaderBytes(math.MaxUint64, []byte{1, 2})
	b.WriteHeaderBytes(0, nil)
	b.WriteBytes([]byte{9, 8})
	b.WriteBytes(nil)

	want := []byte{0x16, 'h', 'e', 'l', 'l', 'o', 0x02}
	want = append(want, refVarUint64(math.MaxUint64)...)
	want = append(want, 1, 2, 0x00, 9, 8)
	require.Equal(t, want, b.Bytes())

	long := string(make([]byte, 300))
	b.Reset()
	b.WriteHeaderString(uint64(len(long))<<2|2, long)
	r := NewReader(b.Bytes())
	require.Equal(t, uint64(300<<2|2), r.ReadVarUint64())
	require.Equal(t, []byte(long), r.ReadBytes(300))
	require.Equal(t, 0, r.Remaining())
}

func TestRawSlicesRoundTrip(t *testing.T) {
	i16 := []int16{0, 1, -1, math.MinInt16, math.MaxInt16}
	u16 := []uint16{0, 1, math.MaxUint16, 0x1234}
	i32 := []int32{0, 1, -1, math.MinInt32, math.MaxInt32}
	u32 := []uint32{0, math.MaxUint32, 0x01020304}
	i64 := []int64{0, -1, math.MinInt64, math.MaxInt64}
	u64 := []uint64{0, math.MaxUint64, 0x0102030405060708}
	f32 := []float32{0, -1.5, float32(math.Inf(1)), math.MaxFloat32}
	f64 := []float64{0, -1.5, math.Inf(-1), math.SmallestNonzeroFloat64}
	bools := []bool{true, false, true, true}

	b := New(0)
	b.WriteUint8(0xee) // misalign everything after it
	b.WriteRawInt16s(i16)
	b.WriteRawUint16s(u16)
	b.WriteRawInt32s(i32)
	b.WriteRawUint32s(u32)
	b.WriteRawInt64s(i64)
	b.WriteRawUint64s(u64)
	b.WriteRawFloat32s(f32)
	b.WriteRawFloat64s(f64)
	b.WriteRawBools(bools)
	b.WriteRawInt64s(nil)

	// The wire image, built with encoding/binary.
	want := []byte{0xee}
	for _, v := range i16 {
		want = binary.LittleEndian.AppendUint16(want, uint16(v))
	}
	for _, v := range u16 {
		want = binary.LittleEndian.AppendUint16(want, v)
	}
	for _, v := range i32 {
		want = binary.LittleEndian.AppendUint32(want, uint32(v))
	}
	for _, v := range u32 {
		want = binary.LittleEndian.AppendUint32(want, v)
	}
	for _, v := range i64 {
		want = binary.LittleEndian.AppendUint64(want, uint64(v))
	}
	for _, v := range u64 {
		want = binary.LittleEndian.AppendUint64(want, v)
	}
	for _, v := range f32 {
		want = binary.LittleEndian.AppendUint32(want, math.Float32bits(v))
	}
	for _, v := range f64 {
		want = binary.LittleEndian.AppendUint64(want, math.Float64bits(v))
	}
	want = append(want, 1, 0, 1, 1)
	require.Equal(t, want, b.Bytes())

	forEachPlacement(want, func(in []byte) {
		r := NewReader(in)
		r.Skip(1)
		gi16 := make([]int16, len(i16))
		r.ReadRawInt16s(gi16)
		gu16 := make([]uint16, len(u16))
		r.ReadRawUint16s(gu16)
		gi32 := make([]int32, len(i32))
		r.ReadRawInt32s(gi32)
		gu32 := make([]uint32, len(u32))
		r.ReadRawUint32s(gu32)
		gi64 := make([]int64, len(i64))
		r.ReadRawInt64s(gi64)
		gu64 := make([]uint64, len(u64))
		r.ReadRawUint64s(gu64)
		gf32 := make([]float32, len(f32))
		r.ReadRawFloat32s(gf32)
		gf64 := make([]float64, len(f64))
		r.ReadRawFloat64s(gf64)
		gb := make([]bool, len(bools))
		r.ReadRawBools(gb)
		r.ReadRawInt64s(nil)
		require.NoError(t, r.Err())
		require.Equal(t, 0, r.Remaining())
		require.Equal(t, i16, gi16)
		require.Equal(t, u16, gu16)
		require.Equal(t, i32, gi32)
		require.Equal(t, u32, gu32)
		require.Equal(t, i64, gi64)
		require.Equal(t, u64, gu64)
		require.Equal(t, f32, gf32)
		require.Equal(t, f64, gf64)
		require.Equal(t, bools, gb)
	})
}

func TestReadRawBoolsNormalizes(t *testing.T) {
	r := NewReader([]byte{0, 1, 2, 0xff})
	got := make([]bool, 4)
	r.ReadRawBools(got)
	require.Equal(t, []bool{false, true, true, true}, got)
	require.True(t, got[2] == true, "a nonzero byte becomes a canonical true")
}

// TestReadRawBoolsEveryByte reads every byte value at every position of
// arrays of 0 to 20 bools (the eight- and four-byte steps and the tail):
// nonzero is true, and each bool's byte is exactly 0 or 1.
func TestReadRawBoolsEveryByte(t *testing.T) {
	// An empty array at the end of the input (checkptr: no pointer one
	// past it).
	r := NewReader(make([]byte, 16)) // a size class of its own: its end is the allocation's
	r.ReadRawBools(make([]bool, 16))
	r.ReadRawBools(nil)
	require.NoError(t, r.Err())
	for n := 0; n <= 20; n++ {
		for pos := 0; pos < n; pos++ {
			for v := 0; v < 256; v++ {
				in := make([]byte, n, n+8) // room after the input, as a message's next field
				for i := range in {
					in[i] = byte(i*37) & 1 // a pattern of 0 and 1 around the tested byte
				}
				in[pos] = byte(v)
				got := make([]bool, n)
				r := NewReader(in)
				r.ReadRawBools(got)
				require.NoError(t, r.Err())
				for i, b := range raw(got) {
					if want := in[i] != 0; got[i] != want || b > 1 {
						t.Fatalf("n=%d byte %d = %#x: bool %d is %v (byte %#x), want %v", n, pos, v, i, got[i], b, want)
					}
				}
			}
		}
	}
}

func TestReadRawTruncatedZeroesDst(t *testing.T) {
	in := []byte{1, 2, 3, 4, 5, 6, 7}
	type rawRead struct {
		name string
		run  func(r *Reader) bool // reads and reports whether dst is all zero
	}
	reads := []rawRead{
		{"int16", func(r *Reader) bool { d := []int16{9, 9, 9, 9}; r.ReadRawInt16s(d); return d[0] == 0 && d[3] == 0 }},
		{"uint16", func(r *Reader) bool { d := []uint16{9, 9, 9, 9}; r.ReadRawUint16s(d); return d[0] == 0 && d[3] == 0 }},
		{"int32", func(r *Reader) bool { d := []int32{9, 9}; r.ReadRawInt32s(d); return d[0] == 0 && d[1] == 0 }},
		{"uint32", func(r *Reader) bool { d := []uint32{9, 9}; r.ReadRawUint32s(d); return d[0] == 0 && d[1] == 0 }},
		{"int64", func(r *Reader) bool { d := []int64{9}; r.ReadRawInt64s(d); return d[0] == 0 }},
		{"uint64", func(r *Reader) bool { d := []uint64{9}; r.ReadRawUint64s(d); return d[0] == 0 }},
		{"float32", func(r *Reader) bool { d := []float32{9, 9}; r.ReadRawFloat32s(d); return d[0] == 0 && d[1] == 0 }},
		{"float64", func(r *Reader) bool { d := []float64{9}; r.ReadRawFloat64s(d); return d[0] == 0 }},
		{"bool", func(r *Reader) bool { d := make([]bool, 8); d[0] = true; r.ReadRawBools(d); return !d[0] }},
	}
	for _, rr := range reads {
		forEachPlacement(in, func(in []byte) {
			r := NewReader(in)
			require.True(t, rr.run(r), rr.name)
			require.ErrorIs(t, r.Err(), ErrTruncated, rr.name)
			require.Equal(t, 0, r.Offset(), rr.name)
		})
	}
}
