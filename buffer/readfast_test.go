package buffer

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadVarUint32Byte checks the one-byte fast path against ReadVarUint32:
// it reads exactly the encodings of one byte, and for anything else (a
// longer encoding, the end of the input, a recorded error) reads nothing.
func TestReadVarUint32Byte(t *testing.T) {
	for lead := 0; lead < 3; lead++ {
		for b := 0; b < 256; b++ {
			for _, tail := range [][]byte{nil, {0x01}, {0x80, 0x80, 0x80, 0x80, 0x01, 0, 0, 0}} {
				in := append(make([]byte, lead), byte(b))
				in = append(in, tail...)
				r, ref := NewReader(in), NewReader(in)
				r.Skip(lead)
				ref.Skip(lead)
				v, ok := r.ReadVarUint32Byte()
				require.Equal(t, b < 0x80, ok, "byte %#x", b)
				if !ok {
					require.Zero(t, v)
					require.Equal(t, lead, r.Offset(), "a refused byte is not consumed")
					continue
				}
				require.Equal(t, ref.ReadVarUint32(), v)
				require.Equal(t, ref.Offset(), r.Offset())
				require.NoError(t, r.Err())
			}
		}
	}
	// At the end of the input, and after an error, nothing is read.
	r := NewReader([]byte{0x05})
	r.Skip(1)
	_, ok := r.ReadVarUint32Byte()
	require.False(t, ok)
	r = NewReader([]byte{0x05, 0x05})
	r.Fail(errors.New("earlier failure"))
	_, ok = r.ReadVarUint32Byte()
	require.False(t, ok)
	require.Zero(t, r.Offset())
}

// TestReadSmallLength: a one-byte length is read exactly when it is a
// one-byte varint, at most maxN, and its elements fit after it; otherwise
// nothing is read.
func TestReadSmallLength(t *testing.T) {
	for _, min := range []int{1, 2, 8} {
		for rest := 0; rest < 20; rest++ {
			for _, maxN := range []uint64{0, 3, 1 << 40} {
				for b := 0; b < 256; b++ {
					in := append([]byte{byte(b)}, make([]byte, rest)...)
					r := NewReader(in)
					n := r.ReadSmallLength(min, maxN)
					ok := b < 0x80 && b*min <= rest && uint64(b) <= maxN
					if !ok {
						require.Equal(t, -1, n, "byte %#x min %d rest %d max %d", b, min, rest, maxN)
						require.Zero(t, r.Offset())
						continue
					}
					require.Equal(t, b, n)
					require.Equal(t, 1, r.Offset())
				}
			}
		}
	}
	r := NewReader(nil)
	require.Equal(t, -1, r.ReadSmallLength(1, 10))
	r = NewReader([]byte{0, 0})
	r.Fail(errors.New("earlier failure"))
	require.Equal(t, -1, r.ReadSmallLength(1, 10))
	require.Zero(t, r.Offset())
}

// TestDrop: after Drop the Reader reads nothing and keeps its error.
func TestDrop(t *testing.T) {
	r := NewReader([]byte{1, 2, 3})
	r.Skip(2)
	r.Drop()
	require.Zero(t, r.Offset())
	require.Zero(t, r.Remaining())
	require.Empty(t, r.Bytes())
	require.False(t, r.Need(1))
	require.Error(t, r.Err())
	r.Reset([]byte{7})
	require.Equal(t, uint8(7), r.ReadUint8())
}

// TestReadSmallByteLength: as ReadSmallLength, for a byte length that must
// also be a multiple of the element width.
func TestReadSmallByteLength(t *testing.T) {
	for _, width := range []int{1, 2, 4, 8} {
		for rest := 0; rest < 20; rest++ {
			for _, maxN := range []uint64{0, 4, 1 << 40} {
				for b := 0; b < 256; b++ {
					r := NewReader(append([]byte{byte(b)}, make([]byte, rest)...))
					n := r.ReadSmallByteLength(width, maxN)
					if b < 0x80 && b%width == 0 && b <= rest && uint64(b) <= maxN {
						require.Equal(t, b, n)
						require.Equal(t, 1, r.Offset())
						continue
					}
					require.Equal(t, -1, n, "byte %#x width %d rest %d max %d", b, width, rest, maxN)
					require.Zero(t, r.Offset())
				}
			}
		}
	}
	r := NewReader([]byte{0, 0})
	r.Fail(errors.New("earlier failure"))
	require.Equal(t, -1, r.ReadSmallByteLength(1, 10))
}

// TestReadSmallByteLengthAfter: ReadSmallByteLength's length after the
// lead byte, both read or neither.
func TestReadSmallByteLengthAfter(t *testing.T) {
	for _, lead := range []byte{0, 0xff} {
		for _, first := range []byte{0, 1, 0xfe, 0xff} {
			for rest := 0; rest < 12; rest++ {
				for b := 0; b < 256; b++ {
					in := append([]byte{first, byte(b)}, make([]byte, rest)...)
					r := NewReader(in)
					n := r.ReadSmallByteLengthAfter(lead, 4, 8)
					if first == lead && b < 0x80 && b%4 == 0 && b <= rest && b <= 8 {
						require.Equal(t, b, n)
						require.Equal(t, 2, r.Offset())
						continue
					}
					require.Equal(t, -1, n, "lead %#x first %#x byte %#x rest %d", lead, first, b, rest)
					require.Zero(t, r.Offset())
				}
			}
		}
	}
	require.Equal(t, -1, NewReader([]byte{0}).ReadSmallByteLengthAfter(0, 1, 10), "no length byte")
	r := NewReader([]byte{0, 0, 0})
	r.Fail(errors.New("earlier failure"))
	require.Equal(t, -1, r.ReadSmallByteLengthAfter(0, 1, 10))
}

// TestMatchInt32: the expected value is read; another value, a short
// input or a recorded error read nothing.
func TestMatchInt32(t *testing.T) {
	in := []byte{0x78, 0x56, 0x34, 0x12, 0xff}
	r := NewReader(in)
	require.False(t, r.MatchInt32(0x12345679))
	require.Zero(t, r.Offset())
	require.True(t, r.MatchInt32(0x12345678))
	require.Equal(t, 4, r.Offset())
	require.False(t, r.MatchInt32(0), "one byte left")
	require.Equal(t, 4, r.Offset())
	r = NewReader(in)
	r.Fail(errors.New("earlier failure"))
	require.False(t, r.MatchInt32(0x12345678))
	require.Zero(t, r.Offset())
	require.NoError(t, NewReader(in).Err())
}

// TestReadSmallVarUint32: a one-byte varu32 of at most max is read;
// anything else reads nothing.
func TestReadSmallVarUint32(t *testing.T) {
	for _, max := range []uint32{0, 5, 0x7f, 1 << 31} {
		for b := 0; b < 256; b++ {
			r := NewReader([]byte{byte(b), 0x01})
			v := r.ReadSmallVarUint32(max)
			if b < 0x80 && uint32(b) <= max {
				require.Equal(t, b, v)
				require.Equal(t, 1, r.Offset())
				continue
			}
			require.Equal(t, -1, v, "byte %#x max %d", b, max)
			require.Zero(t, r.Offset())
		}
	}
	require.Equal(t, -1, NewReader(nil).ReadSmallVarUint32(10))
	r := NewReader([]byte{1})
	r.Fail(errors.New("earlier failure"))
	require.Equal(t, -1, r.ReadSmallVarUint32(10))
}
