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
	small := testmsg.NewMediaContent() // 362 bytes: below grpc's pooling threshold
	big := bigMedia()                  // pooled wire buffer
	marshal := func(v any) func() {
		return func() {
			out, err := c.Marshal(v)
			if err != nil {
				panic(err)
			}
			out.Free()
		}
	}
	c.Marshal(big) // warm the write-buffer pool at the large size
	// Below the threshold gRPC wants a plain slice: the wire bytes, the
	// mem.Buffer interface value holding it and the one-element BufferSlice.
	assert.LessOrEqual(t, testing.AllocsPerRun(200, marshal(small)), 3.0)
	// Above it the wire buffer is pooled: only the BufferSlice remains.
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
