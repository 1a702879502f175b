//go:build !race

package grpccodec_test

// Built without -race only: the race detector makes sync.Pool drop items at
// random, so allocation counts are not meaningful under it.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/mem"

	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
	"github.com/forygen/forygen/serializer"
)

func TestAllocations(t *testing.T) {
	c := grpccodec.New(serializer.New())
	tiny := testmsg.NewNumericStruct() // 78 bytes: a plain slice
	small := testmsg.NewMediaContent() // 362 bytes: grpc's 4 KiB pool tier
	big := bigMedia()                  // ~300 KiB: grpc's pool too
	for _, v := range []any{tiny, small, big} {
		out, err := c.Marshal(v)
		require.NoError(t, err)
		require.Len(t, out, 1)
		// What gRPC will do with the buffer: reference-counted buffers go
		// back to the pool, plain slices are left to the collector.
		_, plain := out[0].(mem.SliceBuffer)
		assert.Equal(t, out.Len() <= 256, plain, "%T of %d bytes", v, out.Len())
		out.Free()
	}
	marshal := func(v any) func() {
		return func() {
			out, err := c.Marshal(v)
			if err != nil {
				panic(err)
			}
			out.Free()
		}
	}
	// A tiny message: the wire bytes, the mem.Buffer interface value holding
	// the slice, and the one-element BufferSlice.
	assert.LessOrEqual(t, testing.AllocsPerRun(200, marshal(tiny)), 3.0)
	// Pooled wire buffers: only the BufferSlice remains.
	assert.LessOrEqual(t, testing.AllocsPerRun(200, marshal(small)), 1.0)
	assert.LessOrEqual(t, testing.AllocsPerRun(50, marshal(big)), 1.0)

	// Unmarshal of one buffer allocates exactly what decoding does.
	payload, err := serializer.Serialize(small)
	require.NoError(t, err)
	data := mem.BufferSlice{mem.SliceBuffer(payload)}
	f := serializer.New()
	direct := testing.AllocsPerRun(200, func() {
		var m testmsg.MediaContent
		if err := f.Deserialize(payload, &m); err != nil {
			panic(err)
		}
	})
	viaCodec := testing.AllocsPerRun(200, func() {
		var m testmsg.MediaContent
		if err := c.Unmarshal(data, &m); err != nil {
			panic(err)
		}
	})
	assert.Equal(t, direct, viaCodec)
}
