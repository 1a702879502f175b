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
