package grpccodec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/mem"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
	"github.com/forygen/forygen/serializer"
)

func TestNameAndNilFory(t *testing.T) {
	c := grpccodec.New(nil)
	assert.Equal(t, "fory", c.Name())
	out, err := c.Marshal(testmsg.NewNumericStruct())
	require.NoError(t, err)
	defer out.Free()
	// nil means official Fory Go's defaults, the same bytes as the package
	// level serializer.
	want, err := serializer.Serialize(testmsg.NewNumericStruct())
	require.NoError(t, err)
	assert.Equal(t, want, out.Materialize())
}

func TestMarshalMatchesSerializer(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		c := grpccodec.New(f)
		for _, v := range []serializer.Message{testmsg.NewMediaContent(), testmsg.NewSample(), testmsg.NewNumericStruct(), bigMedia()} {
			out, err := c.Marshal(v)
			require.NoError(t, err)
			require.Len(t, out, 1, "Marshal returns one buffer")
			want, err := f.Serialize(v)
			require.NoError(t, err)
			assert.Equal(t, want, out[0].ReadOnlyData(), "%T compatible=%v", v, compatible)
			out.Free()
		}
	}
}

func TestRoundTripBothModes(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		c := grpccodec.New(serializer.New(serializer.WithCompatible(compatible)))
		out, err := c.Marshal(testmsg.NewSample())
		require.NoError(t, err)
		var got testmsg.Sample
		require.NoError(t, c.Unmarshal(out, &got))
		out.Free()
		assert.Equal(t, testmsg.NewSample(), &got)
	}
	// Same-schema bytes are not compatible-mode bytes: the options matter.
	same := grpccodec.New(serializer.New(serializer.WithCompatible(false)))
	comp := grpccodec.New(serializer.New())
	out, err := same.Marshal(testmsg.NewSample())
	require.NoError(t, err)
	var got testmsg.Sample
	assert.Error(t, comp.Unmarshal(out, &got))
}

func TestUnmarshalMultiBuffer(t *testing.T) {
	c := grpccodec.New(serializer.New())
	payload, err := serializer.Serialize(testmsg.NewMediaContent())
	require.NoError(t, err)
	want := testmsg.NewMediaContent()

	// Every split into two buffers, including empty halves.
	for k := 0; k <= len(payload); k++ {
		data := mem.BufferSlice{mem.SliceBuffer(payload[:k]), mem.SliceBuffer(payload[k:])}
		var got testmsg.MediaContent
		require.NoError(t, c.Unmarshal(data, &got), "split at %d", k)
		require.Equal(t, want, &got, "split at %d", k)
	}

	// One byte per buffer.
	var data mem.BufferSlice
	for i := range payload {
		data = append(data, mem.SliceBuffer(payload[i:i+1]))
	}
	var got testmsg.MediaContent
	require.NoError(t, c.Unmarshal(data, &got))
	assert.Equal(t, want, &got)

	// A large message in pooled, reference-counted buffers of 16 KiB, as
	// gRPC's transport delivers it; Free afterwards must balance the pool.
	big := bigMedia()
	payload, err = serializer.Serialize(big)
	require.NoError(t, err)
	pool := &scribblePool{}
	data = nil
	for off := 0; off < len(payload); off += 16 << 10 {
		data = append(data, mem.Copy(payload[off:min(off+16<<10, len(payload))], pool))
	}
	require.Greater(t, len(data), 1)
	var gotBig testmsg.MediaContent
	require.NoError(t, c.Unmarshal(data, &gotBig))
	data.Free()
	assert.Equal(t, pool.gets, pool.puts, "buffers not returned")
	assert.Equal(t, big, &gotBig, "decoded value changed when the input buffers were recycled")

	// A split message that is corrupt is still an error.
	payload, err = serializer.Serialize(testmsg.NewMediaContent())
	require.NoError(t, err)
	half := len(payload) / 2
	truncated := mem.BufferSlice{mem.SliceBuffer(payload[:half]), mem.SliceBuffer(payload[half : len(payload)-1])}
	assert.ErrorIs(t, c.Unmarshal(truncated, &got), serializer.ErrMalformed)
}

// scribblePool hands out buffers above grpc's pooling threshold (so
// mem.NewBuffer reference-counts them) and overwrites every buffer returned
// to it, which exposes any decoded value still pointing into it.
type scribblePool struct{ gets, puts int }

func (p *scribblePool) Get(n int) *[]byte {
	p.gets++
	b := make([]byte, n, max(n, 2<<10))
	return &b
}

func (p *scribblePool) Put(b *[]byte) {
	p.puts++
	s := (*b)[:cap(*b)]
	for i := range s {
		s[i] = 0xAA
	}
}

// splitPooled serializes v and spreads it over pooled buffers of at most
// chunk bytes, as gRPC's transport delivers a message.
func splitPooled(t *testing.T, f *serializer.Fory, pool *scribblePool, v any, chunk int) mem.BufferSlice {
	payload, err := f.Serialize(v)
	require.NoError(t, err)
	var data mem.BufferSlice
	for off := 0; off < len(payload); off += chunk {
		data = append(data, mem.Copy(payload[off:min(off+chunk, len(payload))], pool))
	}
	return data
}

// TestDecodedValuesOutliveBuffers: gRPC frees (and may reuse) the received
// buffers as soon as Unmarshal returns. The codec hands every buffer back
// and relies on the serializer not retaining its input, also with
// WithAliasStrings(true), whose strings must view a private copy, and with
// WithZeroCopy(true), for which the codec makes that copy itself. The
// scribble pool overwrites every returned buffer, so a decoded value still
// pointing into one would change.
func TestDecodedValuesOutliveBuffers(t *testing.T) {
	for _, mode := range []struct {
		name string
		opt  serializer.Option
	}{{"copy", serializer.WithAliasStrings(false)}, {"alias", serializer.WithAliasStrings(true)}, {"zerocopy", serializer.WithZeroCopy(true)}} {
		f := serializer.New(mode.opt)
		c := grpccodec.New(f)
		for _, tc := range []struct {
			name  string
			value *testmsg.MediaContent
			chunk int
		}{
			{"one buffer", testmsg.NewMediaContent(), 1 << 20},
			// Over grpc's pooling threshold (1 KiB), so taken from the pool
			// and scribbled over when freed.
			{"one pooled buffer", bigMedia(), 1 << 20},
			{"several buffers", bigMedia(), 16 << 10},
		} {
			pool := &scribblePool{}
			data := splitPooled(t, f, pool, tc.value, tc.chunk)
			require.Equal(t, tc.chunk == 1<<20, len(data) == 1)
			var got testmsg.MediaContent
			require.NoError(t, c.Unmarshal(data, &got))
			data.Free() // what gRPC does when Unmarshal returns
			assert.Equal(t, pool.gets, pool.puts, "%s %s: buffers kept", mode.name, tc.name)
			assert.Equal(t, tc.value, &got, "%s %s: decoded value changed when the buffers were recycled", mode.name, tc.name)
		}
	}
}

// panicky is a hand-written serializer.Message whose writer and reader
// panic half-way, standing in for a generated writer that trips over a
// message mutated under it.
type panicky struct{ testmsg.NumericStruct }

func (p *panicky) ForySerializeTo(f *serializer.Fory, b *buffer.Buffer) error {
	f.Runtime().BeginWrite(b, p.ForyType())
	b.WriteUint8(1)
	panic("writer blew up")
}

func (*panicky) ForyDeserialize(f *serializer.Fory, data []byte) error {
	f.Runtime().BeginRead(data)
	panic("reader blew up")
}

func TestNeverPanics(t *testing.T) {
	c := grpccodec.New(serializer.New())
	bad := []any{nil, 42, "text", []byte{1}, testmsg.MediaContent{}, (*testmsg.MediaContent)(nil), &struct{ A int }{}, new(*testmsg.MediaContent)}
	for _, v := range bad {
		assert.NotPanics(t, func() {
			out, err := c.Marshal(v)
			assert.ErrorIs(t, err, serializer.ErrNotGenerated, "%T", v)
			assert.Nil(t, out)
			payload, _ := serializer.Serialize(testmsg.NewMediaContent())
			err = c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(payload)}, v)
			assert.ErrorIs(t, err, serializer.ErrNotGenerated, "%T", v)
			assert.Contains(t, err.Error(), "grpccodec: cannot unmarshal into")
		}, "%T", v)
	}

	var out mem.BufferSlice
	var err error
	require.NotPanics(t, func() { out, err = c.Marshal(&panicky{}) })
	assert.ErrorContains(t, err, "writer blew up")
	assert.Nil(t, out)
	// The codec still works after a recovered panic.
	out, err = c.Marshal(testmsg.NewNumericStruct())
	require.NoError(t, err)
	require.NotPanics(t, func() { err = c.Unmarshal(out, &panicky{}) })
	assert.ErrorContains(t, err, "reader blew up")
	var num testmsg.NumericStruct
	require.NoError(t, c.Unmarshal(out, &num))
	assert.Equal(t, testmsg.NewNumericStruct(), &num)
}

// With reference tracking on the Fory it is given, the codec writes what
// the Fory writes (root flag 00, shared images once) and decoding restores
// the sharing, also from a message split over several buffers.
func TestTrackRef(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(true))
		c := grpccodec.New(f)
		img := &testmsg.Image{URI: "u", Width: 3}
		in := &testmsg.Album{Cover: img, Thumb: img, Images: []*testmsg.Image{img, nil, img}}
		out, err := c.Marshal(in)
		require.NoError(t, err)
		want, err := f.Serialize(in)
		require.NoError(t, err)
		data := out.Materialize()
		out.Free()
		require.Equal(t, want, data)
		require.Equal(t, byte(0x00), data[1], "root flag of a tracked root")
		// Split into one-byte buffers: the codec joins them.
		var split mem.BufferSlice
		for _, b := range data {
			split = append(split, mem.SliceBuffer([]byte{b}))
		}
		var got testmsg.Album
		require.NoError(t, c.Unmarshal(split, &got))
		require.Same(t, got.Cover, got.Thumb)
		require.Same(t, got.Cover, got.Images[0])
		require.Same(t, got.Cover, got.Images[2])
		require.Nil(t, got.Images[1])
		require.Equal(t, *img, *got.Cover)
		// The benchmark types as IDL-generated peers send them.
		out, err = c.Marshal(testmsg.NewSample())
		require.NoError(t, err)
		var s testmsg.Sample
		require.NoError(t, c.Unmarshal(out, &s))
		out.Free()
		require.Equal(t, testmsg.NewSample(), &s)
	}
}
