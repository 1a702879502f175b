package serializer_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/streams"
	"github.com/forygen/forygen/serializer"
)

// officialStreams are the files official Fory Go wrote (testdata/streams)
// and the values it wrote into them.
var officialStreams = []struct {
	file       string
	compatible bool
	values     []any
}{
	{"stream_user_compatible.bin", true, []any{
		&streams.User{ID: 1, Name: "a", Tags: []string{"x"}}, &streams.User{ID: 2, Name: "bb"}, &streams.User{ID: 3, Tags: []string{"y", "z"}}}},
	{"stream_user_consistent.bin", false, []any{
		&streams.User{ID: 1, Name: "a", Tags: []string{"x"}}, &streams.User{ID: 2, Name: "bb"}, &streams.User{ID: 3, Tags: []string{"y", "z"}}}},
	{"stream_mixed_compatible.bin", true, []any{
		&streams.User{ID: 1, Name: "a", Tags: []string{"x"}}, &streams.Item{SKU: "sku-1", Qty: 7}, &streams.User{ID: 2, Name: "bb"}}},
	{"stream_mixed_consistent.bin", false, []any{
		&streams.User{ID: 1, Name: "a", Tags: []string{"x"}}, &streams.Item{SKU: "sku-1", Qty: 7}, &streams.User{ID: 2, Name: "bb"}}},
}

// fresh returns a new zero value of v's type.
func fresh(v any) any {
	switch v.(type) {
	case *streams.User:
		return new(streams.User)
	case *streams.Item:
		return new(streams.Item)
	}
	panic("unknown type")
}

// normalized is v with nil slices made empty: the wire does not tell them
// apart and decoding gives empty slices (README, "nil and empty").
func normalized(v any) any {
	if u, ok := v.(*streams.User); ok && u.Tags == nil {
		c := *u
		c.Tags = []string{}
		return &c
	}
	return v
}

// TestStreamOfficial: the Decoder reads official Fory Go's streams, whole or
// a byte at a time, and the Encoder writes the same bytes from the same
// values.
func TestStreamOfficial(t *testing.T) {
	for _, tc := range officialStreams {
		data, err := os.ReadFile(filepath.Join("testdata", "streams", tc.file))
		require.NoError(t, err)
		f := serializer.New(serializer.WithCompatible(tc.compatible))
		for name, r := range map[string]io.Reader{
			"whole": bytes.NewReader(data), "one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"half": iotest.HalfReader(bytes.NewReader(data)), "data err": iotest.DataErrReader(bytes.NewReader(data)),
		} {
			d := serializer.NewDecoder(f, r)
			for i, want := range tc.values {
				got := fresh(want)
				require.NoError(t, d.Decode(got), "%s %s message %d", tc.file, name, i)
				require.Equal(t, normalized(want), got, "%s %s message %d", tc.file, name, i)
			}
			require.ErrorIs(t, d.Decode(new(streams.User)), io.EOF, "%s %s: end of stream", tc.file, name)
		}
		var out bytes.Buffer
		e := serializer.NewEncoder(f, &out)
		for _, v := range tc.values {
			require.NoError(t, e.Encode(v))
		}
		require.Equal(t, data, out.Bytes(), "%s: the Encoder's bytes", tc.file)
	}
}

// TestStreamCut: a stream cut at every offset decodes the messages before
// the cut; at a message boundary the next Decode is io.EOF, inside a message
// a DecodeError wrapping io.ErrUnexpectedEOF and ErrMalformed whose offset
// is within the stream.
func TestStreamCut(t *testing.T) {
	tc := officialStreams[2]
	data, err := os.ReadFile(filepath.Join("testdata", "streams", tc.file))
	require.NoError(t, err)
	f := serializer.New()
	var ends []int
	for off, v := range tc.values {
		b, err := f.Serialize(v)
		require.NoError(t, err)
		if off > 0 {
			ends = append(ends, ends[off-1]+len(b))
		} else {
			ends = append(ends, len(b))
		}
	}
	for cut := 0; cut <= len(data); cut++ {
		d := serializer.NewDecoder(f, iotest.OneByteReader(bytes.NewReader(data[:cut])))
		i := 0
		for ; i < len(tc.values) && ends[i] <= cut; i++ {
			require.NoError(t, d.Decode(fresh(tc.values[i])), "cut %d message %d", cut, i)
		}
		next := any(new(streams.User))
		if i < len(tc.values) {
			next = fresh(tc.values[i])
		}
		err := d.Decode(next)
		if i < len(tc.values) && (i == 0 && cut > 0 || i > 0 && cut > ends[i-1]) {
			var de *serializer.DecodeError
			require.True(t, errors.As(err, &de), "cut %d: %v", cut, err)
			require.ErrorIs(t, err, serializer.ErrMalformed, "cut %d", cut)
			// As encoding/json and encoding/gob (issue 27 item 13).
			require.ErrorIs(t, err, io.ErrUnexpectedEOF, "cut %d", cut)
			require.Contains(t, err.Error(), "the stream ends inside the message", "cut %d", cut)
			require.LessOrEqual(t, de.Offset, cut, "cut %d", cut)
		} else {
			require.Equal(t, io.EOF, err, "cut %d", cut) // a clean end is io.EOF itself, not wrapped
		}
	}
}

// endless is a reader that never ends: a start, then zeros forever.
type endless struct {
	start []byte
	n     int
}

func (r *endless) Read(p []byte) (int, error) {
	k := copy(p, r.start)
	r.start = r.start[k:]
	clear(p[k:])
	r.n += len(p)
	return len(p), nil
}

// TestStreamHostile: a message that claims more bytes than the limit fails
// with ErrLimit after reading about the limit, never the claimed size, and
// in few decode attempts.
func TestStreamHostile(t *testing.T) {
	// A same-schema User whose Name claims 2^30 bytes.
	start := []byte{0x01, 0xff, 0x1b, 0x64, 0x6d, 0xd2, 0x2c, 0x89, 0x02, 0x82, 0x80, 0x80, 0x80, 0x10}
	r := &endless{start: start}
	d := serializer.NewDecoder(serializer.New(serializer.WithCompatible(false)), r)
	d.SetMaxMessageSize(1 << 16)
	err := d.Decode(new(streams.User))
	require.ErrorIs(t, err, serializer.ErrLimit)
	require.LessOrEqual(t, r.n, 4<<16, "bytes read for a limit of 64 KiB")

	// A reader error inside a message is returned as is.
	boom := errors.New("boom")
	d = serializer.NewDecoder(serializer.New(serializer.WithCompatible(false)), io.MultiReader(bytes.NewReader(start), iotest.ErrReader(boom)))
	require.ErrorIs(t, d.Decode(new(streams.User)), boom)

	// Not a generated type.
	require.ErrorIs(t, d.Decode(42), serializer.ErrNotGenerated)
}

// FuzzDecoder feeds arbitrary bytes, cut into reads of arbitrary sizes, to
// a Decoder: it never panics, and every error is io.EOF at a message
// boundary or a *DecodeError, whatever the input.
func FuzzDecoder(f *testing.F) {
	for _, tc := range officialStreams {
		data, err := os.ReadFile(filepath.Join("testdata", "streams", tc.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(1), tc.compatible)
		f.Add(data[:len(data)-3], uint8(7), tc.compatible)
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, compatible bool) {
		fy := serializer.New(serializer.WithCompatible(compatible))
		var r io.Reader = bytes.NewReader(data)
		if chunk > 0 {
			r = &chunkReader{data: data, n: int(chunk)}
		}
		d := serializer.NewDecoder(fy, r)
		d.SetMaxMessageSize(1 << 16)
		for i := 0; i < 64; i++ {
			var v any = new(streams.User)
			if i%2 == 1 {
				v = new(streams.Item)
			}
			err := d.Decode(v)
			if err == nil {
				continue
			}
			var de *serializer.DecodeError
			if !errors.Is(err, io.EOF) && !errors.As(err, &de) {
				t.Fatalf("message %d: %T %v", i, err, err)
			}
			return
		}
	})
}

// chunkReader reads n bytes at a time.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(c.n, len(p), len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}
