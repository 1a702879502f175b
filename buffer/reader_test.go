package buffer

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decCase is one encoded value and the read that must decode it.
type decCase struct {
	name string
	enc  []byte
	read func(r *Reader) any
	want any
}

func decCases() []decCase {
	var cs []decCase
	for _, u := range uint64Boundaries() {
		if u <= math.MaxUint32 {
			cs = append(cs, decCase{"varu32", refVarUint32(uint32(u)), func(r *Reader) any { return r.ReadVarUint32() }, uint32(u)})
		}
		cs = append(cs,
			decCase{"varu64", refVarUint64(u), func(r *Reader) any { return r.ReadVarUint64() }, u},
			decCase{"taggedu64", refTaggedUint64(u), func(r *Reader) any { return r.ReadTaggedUint64() }, u},
			decCase{"uint64", binary.LittleEndian.AppendUint64(nil, u), func(r *Reader) any { return r.ReadUint64() }, u},
			decCase{"uint32", binary.LittleEndian.AppendUint32(nil, uint32(u)), func(r *Reader) any { return r.ReadUint32() }, uint32(u)},
			decCase{"uint16", binary.LittleEndian.AppendUint16(nil, uint16(u)), func(r *Reader) any { return r.ReadUint16() }, uint16(u)},
			decCase{"uint8", []byte{uint8(u)}, func(r *Reader) any { return r.ReadUint8() }, uint8(u)},
			decCase{"float64", binary.LittleEndian.AppendUint64(nil, u), func(r *Reader) any { return math.Float64bits(r.ReadFloat64()) }, u},
			decCase{"float32", binary.LittleEndian.AppendUint32(nil, uint32(u)), func(r *Reader) any { return math.Float32bits(r.ReadFloat32()) }, uint32(u)},
		)
	}
	for _, s := range int64Boundaries() {
		if s >= math.MinInt32 && s <= math.MaxInt32 {
			cs = append(cs, decCase{"zz32", refVarUint32(refZigZag32(int32(s))), func(r *Reader) any { return r.ReadVarInt32() }, int32(s)})
		}
		cs = append(cs,
			decCase{"zz64", refVarUint64(refZigZag64(s)), func(r *Reader) any { return r.ReadVarInt64() }, s},
			decCase{"taggedi64", refTaggedInt64(s), func(r *Reader) any { return r.ReadTaggedInt64() }, s},
			decCase{"int64", binary.LittleEndian.AppendUint64(nil, uint64(s)), func(r *Reader) any { return r.ReadInt64() }, s},
			decCase{"int32", binary.LittleEndian.AppendUint32(nil, uint32(s)), func(r *Reader) any { return r.ReadInt32() }, int32(s)},
			decCase{"int16", binary.LittleEndian.AppendUint16(nil, uint16(s)), func(r *Reader) any { return r.ReadInt16() }, int16(s)},
			decCase{"int8", []byte{uint8(s)}, func(r *Reader) any { return r.ReadInt8() }, int8(s)},
		)
	}
	return cs
}

// TestReadsDecodeEveryBoundary reads each encoding at alignments 0..7, both
// flush with the end of the input (the byte-at-a-time paths) and followed by
// 16 more bytes (the 8-byte-load fast paths).
func TestReadsDecodeEveryBoundary(t *testing.T) {
	for _, c := range decCases() {
		for align := 0; align < 8; align++ {
			for _, tail := range []int{0, 16} {
				in := make([]byte, align+len(c.enc)+tail)
				copy(in[align:], c.enc)
				forEachPlacement(in, func(in []byte) {
					r := NewReader(in)
					r.Skip(align)
					got := c.read(r)
					require.NoError(t, r.Err(), "%s %x align=%d tail=%d", c.name, c.enc, align, tail)
					require.Equal(t, c.want, got, "%s %x align=%d tail=%d", c.name, c.enc, align, tail)
					require.Equal(t, align+len(c.enc), r.Offset(), c.name)
				})
			}
		}
	}
}

// TestEveryPrefixIsTruncated cuts every encoding short at every length: the
// read fails with ErrTruncated at the value's offset, returns zero and does
// not move.
func TestEveryPrefixIsTruncated(t *testing.T) {
	for _, c := range decCases() {
		for cut := 0; cut < len(c.enc); cut++ {
			in := append([]byte{0xee, 0xee, 0xee}, c.enc[:cut]...)
			forEachPlacement(in, func(in []byte) {
				r := NewReader(in)
				r.Skip(3)
				got := c.read(r)
				require.ErrorIs(t, r.Err(), ErrTruncated, "%s %x cut=%d", c.name, c.enc, cut)
				var e *Error
				require.ErrorAs(t, r.Err(), &e)
				require.Equal(t, 3, e.Offset)
				require.Equal(t, 3, r.Offset())
				require.Zero(t, got)
			})
		}
	}
}

func TestVarUint32Overflow(t *testing.T) {
	bad := [][]byte{
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, // 6 bytes
		{0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		{0x80, 0x80, 0x80, 0x80, 0x80}, // continuation on the 5th byte, at the end of input
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	}
	for c := 0x10; c <= 0xff; c++ { // 5th byte above 0x0f
		bad = append(bad, []byte{0xff, 0xff, 0xff, 0xff, byte(c)})
	}
	for _, enc := range bad {
		for _, tail := range []int{0, 16} {
			in := append(append([]byte{0x05}, enc...), make([]byte, tail)...)
			forEachPlacement(in, func(in []byte) {
				r := NewReader(in)
				require.Equal(t, uint32(5), r.ReadVarUint32())
				require.Zero(t, r.ReadVarUint32())
				require.ErrorIs(t, r.Err(), ErrVarintOverflow, "%x tail=%d", enc, tail)
				require.Equal(t, 1, r.Offset())
				require.Equal(t, "buffer: varint overflows 32 bits at offset 1", r.Err().Error())

				r.Reset(in)
				r.ReadUint8()
				require.Zero(t, r.ReadVarInt32())
				require.ErrorIs(t, r.Err(), ErrVarintOverflow)
			})
		}
	}
}

func TestNonMinimalVarintsAccepted(t *testing.T) {
	cases := []struct {
		enc []byte
		u32 uint32
		ok  bool
		u64 uint64
	}{
		{[]byte{0x80, 0x00}, 0, true, 0},
		{[]byte{0xff, 0x80, 0x00}, 0x7f, true, 0x7f},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x00}, 0, true, 0},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, math.MaxUint32, true, math.MaxUint32},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, false, 0},
		{[]byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, false, 1},
	}
	for _, c := range cases {
		for _, tail := range []int{0, 16} {
			in := append(append([]byte(nil), c.enc...), make([]byte, tail)...)
			forEachPlacement(in, func(in []byte) {
				r := NewReader(in)
				require.Equal(t, c.u64, r.ReadVarUint64(), "%x", c.enc)
				require.NoError(t, r.Err())
				require.Equal(t, len(c.enc), r.Offset())
				r.Reset(in)
				v := r.ReadVarUint32()
				if c.ok {
					require.NoError(t, r.Err(), "%x", c.enc)
					require.Equal(t, c.u32, v)
					require.Equal(t, len(c.enc), r.Offset())
				} else {
					require.ErrorIs(t, r.Err(), ErrVarintOverflow)
				}
			})
		}
	}
}

func TestTaggedLongFormIgnoresFirstByteHighBits(t *testing.T) {
	// Bit 0 alone selects the 9-byte form; the reader follows docs/format.md §3
	// and takes the 8 bytes after the first.
	in := []byte{0xff, 1, 2, 3, 4, 5, 6, 7, 8}
	r := NewReader(in)
	require.Equal(t, int64(0x0807060504030201), r.ReadTaggedInt64())
	r.Reset(in)
	require.Equal(t, uint64(0x0807060504030201), r.ReadTaggedUint64())
	require.NoError(t, r.Err())
}

func TestReadBool(t *testing.T) {
	r := NewReader([]byte{0, 1, 2, 0xff})
	assert.False(t, r.ReadBool())
	assert.True(t, r.ReadBool())
	assert.True(t, r.ReadBool())
	assert.True(t, r.ReadBool())
	assert.False(t, r.ReadBool())
	require.ErrorIs(t, r.Err(), ErrTruncated)
}

func TestStickyErrors(t *testing.T) {
	in := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	r := NewReader(in)
	r.ReadVarUint32()
	first := r.Err()
	require.ErrorIs(t, first, ErrVarintOverflow)
	require.Equal(t, 0, r.Offset())
	require.Equal(t, 0, r.Remaining())
	require.Equal(t, in, r.Bytes(), "Bytes is still the whole input")

	// Every later read returns zero and does not move, though bytes remain.
	assert.Zero(t, r.ReadUint8())
	assert.Zero(t, r.ReadInt8())
	assert.False(t, r.ReadBool())
	assert.Zero(t, r.ReadUint16())
	assert.Zero(t, r.ReadInt16())
	assert.Zero(t, r.ReadUint32())
	assert.Zero(t, r.ReadInt32())
	assert.Zero(t, r.ReadUint64())
	assert.Zero(t, r.ReadInt64())
	assert.Zero(t, r.ReadFloat32())
	assert.Zero(t, r.ReadFloat64())
	assert.Zero(t, r.ReadVarUint32())
	assert.Zero(t, r.ReadVarInt32())
	assert.Zero(t, r.ReadVarUint64())
	assert.Zero(t, r.ReadVarInt64())
	assert.Zero(t, r.ReadTaggedInt64())
	assert.Zero(t, r.ReadTaggedUint64())
	assert.Nil(t, r.ReadBytes(1))
	dst := []int32{7, 7}
	r.ReadRawInt32s(dst)
	assert.Equal(t, []int32{0, 0}, dst)
	r.Skip(1)
	assert.False(t, r.Need(1))
	r.SetOffset(4)
	r.Fail(errors.New("later"))
	assert.Equal(t, 0, r.Offset())
	assert.Same(t, first, r.Err())

	r.Reset(in)
	require.NoError(t, r.Err())
	require.Equal(t, uint8(0xff), r.ReadUint8())
}

func TestErrorOffsetAndMessage(t *testing.T) {
	in := make([]byte, 14)
	r := NewReader(in)
	r.Skip(12)
	r.ReadUint32()
	err := r.Err()
	require.EqualError(t, err, "buffer: truncated input at offset 12")
	require.ErrorIs(t, err, ErrTruncated)
	require.NotErrorIs(t, err, ErrVarintOverflow)
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, 12, e.Offset)
	require.Same(t, ErrTruncated, e.Unwrap())
}

func TestFail(t *testing.T) {
	custom := errors.New("serializer: unknown type id")
	r := NewReader([]byte{1, 2, 3})
	r.Fail(nil)
	require.NoError(t, r.Err())
	r.ReadUint8()
	r.Fail(custom)
	require.ErrorIs(t, r.Err(), custom)
	require.EqualError(t, r.Err(), "serializer: unknown type id at offset 1")
	require.Zero(t, r.ReadUint8(), "reads stop after Fail")

	// An *Error keeps its own offset.
	inner := &Error{Offset: 40, Err: ErrTruncated}
	r.Reset([]byte{1, 2, 3})
	r.Fail(inner)
	require.Same(t, inner, r.Err())
}

func TestNeedAndSkip(t *testing.T) {
	for _, n := range []int{-1, math.MinInt, math.MaxInt, 5, math.MaxInt - 2} {
		r := NewReader([]byte{1, 2, 3, 4})
		r.Skip(1)
		require.False(t, r.Need(n), "n=%d", n)
		require.ErrorIs(t, r.Err(), ErrTruncated)
		require.Equal(t, 1, r.Offset())

		r.Reset([]byte{1, 2, 3, 4})
		r.Skip(n)
		require.ErrorIs(t, r.Err(), ErrTruncated)
		require.Equal(t, 0, r.Offset())
	}
	r := NewReader([]byte{1, 2, 3, 4})
	require.True(t, r.Need(0))
	require.True(t, r.Need(4))
	r.Skip(4)
	require.True(t, r.Need(0))
	require.Equal(t, 0, r.Remaining())
	require.NoError(t, r.Err())
}

// TestNeedRun is the pattern generated readers use for a run of fixed-width
// fields: one Need, unchecked loads at constant offsets, one SetOffset.
func TestNeedRun(t *testing.T) {
	b := New(0)
	b.WriteInt32(-7)
	b.WriteFloat64(2.5)
	b.WriteBool(true)
	b.WriteInt16(300)
	in := b.Bytes()

	r := NewReader(in)
	require.True(t, r.Need(15))
	buf, off := r.Bytes(), r.Offset()
	require.Equal(t, int32(-7), ReadInt32At(buf, off))
	require.Equal(t, 2.5, ReadFloat64At(buf, off+4))
	require.Equal(t, uint8(1), ReadUint8At(buf, off+12))
	require.Equal(t, int16(300), ReadInt16At(buf, off+13))
	r.SetOffset(off + 15)
	require.Equal(t, 0, r.Remaining())
	require.False(t, r.Need(1))
}

func TestReadBytes(t *testing.T) {
	in := []byte{1, 2, 3, 4, 5}
	r := NewReader(in)
	p := r.ReadBytes(2)
	require.Equal(t, []byte{1, 2}, p)
	require.Equal(t, 2, cap(p), "capacity ends at the length")
	p[0] = 9
	require.Equal(t, byte(9), in[0], "aliases the input")
	_ = append(p, 0xaa)
	require.Equal(t, byte(3), in[2], "append does not overwrite the input")
	require.Equal(t, []byte{}, r.ReadBytes(0))
	require.Nil(t, r.ReadBytes(-1))
	require.ErrorIs(t, r.Err(), ErrTruncated)
	require.Equal(t, 2, r.Offset())

	r.Reset(in)
	require.Nil(t, r.ReadBytes(6))
	require.ErrorIs(t, r.Err(), ErrTruncated)
	r.Reset(in)
	require.Equal(t, in, r.ReadBytes(5))
}

func TestReaderOverCappedInput(t *testing.T) {
	// Bytes past len(b) are not input, even when cap(b) covers them.
	backing := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	r := NewReader(backing[:2])
	require.Equal(t, []byte{1, 2}, r.Bytes())
	require.Zero(t, r.ReadUint32())
	require.ErrorIs(t, r.Err(), ErrTruncated)

	var zero Reader
	require.Zero(t, zero.ReadVarUint64())
	require.ErrorIs(t, zero.Err(), ErrTruncated)
	require.Empty(t, zero.Bytes())
}
