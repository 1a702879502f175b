package e2e_test

import (
	"bytes"
	"io"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// TestStreamAllRoots writes a full value of every root type, in both modes,
// to one stream and reads it back whole, a byte at a time and in halves:
// every prefix of every message is recognised as incomplete, never as
// malformed, so the Decoder waits for the rest (decoding a truncated
// message reports lack of input for every kind of value and for TypeDefs).
func TestStreamAllRoots(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		var stream bytes.Buffer
		e := serializer.NewEncoder(f, &stream)
		var want []any
		for _, r := range roots() {
			v := deterministic(r)
			require.NoError(t, e.Encode(v), r.name)
			// What a standalone message decodes to.
			data, err := f.Serialize(v)
			require.NoError(t, err)
			back := r.fresh()
			require.NoError(t, f.Deserialize(data, back))
			want = append(want, back)
		}
		for name, rd := range map[string]func() io.Reader{
			"whole":    func() io.Reader { return bytes.NewReader(stream.Bytes()) },
			"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(stream.Bytes())) },
			"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(stream.Bytes())) },
		} {
			d := serializer.NewDecoder(f, rd())
			for i, r := range roots() {
				got := r.fresh()
				require.NoError(t, d.Decode(got), "compatible=%v %s: %s", compatible, name, r.name)
				require.True(t, reflect.DeepEqual(want[i], got), "compatible=%v %s: %s", compatible, name, r.name)
			}
			require.ErrorIs(t, d.Decode(roots()[0].fresh()), io.EOF)
		}
	}
}

// chunks reads its pieces one Read at a time.
type chunks [][]byte

func (c *chunks) Read(p []byte) (int, error) {
	for len(*c) > 0 && len((*c)[0]) == 0 {
		*c = (*c)[1:]
	}
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	(*c)[0] = (*c)[0][n:]
	return n, nil
}

// TestStreamEveryPrefix: for every root message and every split point k,
// a reader that delivers the first k bytes and then the rest decodes the
// message: the decode of each proper prefix reports lack of input.
func TestStreamEveryPrefix(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		for _, r := range roots() {
			data, err := f.Serialize(deterministic(r))
			require.NoError(t, err)
			for k := 1; k < len(data); k++ {
				c := chunks{append([]byte(nil), data[:k]...), append([]byte(nil), data[k:]...)}
				d := serializer.NewDecoder(f, &c)
				require.NoError(t, d.Decode(r.fresh()), "compatible=%v %s split at %d of %d", compatible, r.name, k, len(data))
			}
		}
	}
}
