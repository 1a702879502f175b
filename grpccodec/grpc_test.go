package grpccodec_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"

	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
	"github.com/forygen/forygen/serializer"
)

func callCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func expectedMediaEcho() *testmsg.MediaContent {
	m := testmsg.NewMediaContent()
	serverTransform(m)
	return m
}

func TestRegisteredUnderFory(t *testing.T) {
	c := encoding.GetCodecV2("fory")
	require.NotNil(t, c)
	// ExampleRegister registers a codec of its own, so with -count > 1 this
	// may not be foryCodec, but it is always a grpccodec.Codec.
	assert.IsType(t, &grpccodec.Codec{}, c)
	assert.Equal(t, "fory", c.Name())
}

func TestUnaryFixtures(t *testing.T) {
	srv, conn := startServer(t)
	ctx := callCtx(t)

	var media testmsg.MediaContent
	require.NoError(t, conn.Invoke(ctx, methodEchoMedia, testmsg.NewMediaContent(), &media))
	want := expectedMediaEcho()
	assert.Equal(t, want.Media, media.Media)
	require.Len(t, media.Images, len(want.Images))
	for i := range want.Images {
		assert.Equal(t, want.Images[i], media.Images[i], "image %d", i)
	}
	// The server decoded exactly the fixture.
	assert.Equal(t, testmsg.NewMediaContent(), srv.lastMedia.Load())

	var sample testmsg.Sample
	require.NoError(t, conn.Invoke(ctx, methodEchoSample, testmsg.NewSample(), &sample))
	wantSample := testmsg.NewSample()
	wantSample.IntValue = -wantSample.IntValue
	assert.Equal(t, *wantSample, sample)

	var num testmsg.NumericStruct
	require.NoError(t, conn.Invoke(ctx, methodEchoNumeric, testmsg.NewNumericStruct(), &num))
	wantNum := testmsg.NewNumericStruct()
	wantNum.F12++
	assert.Equal(t, *wantNum, num)
	assert.EqualValues(t, 3, srv.calls.Load())
}

func TestServerStreaming(t *testing.T) {
	_, conn := startServer(t)
	stream, err := conn.NewStream(callCtx(t), samplesStream, methodSamples)
	require.NoError(t, err)
	req := testmsg.NewNumericStruct()
	req.F8 = 5
	require.NoError(t, stream.SendMsg(req))
	require.NoError(t, stream.CloseSend())
	for i := int32(0); i < req.F8; i++ {
		var got testmsg.Sample
		require.NoError(t, stream.RecvMsg(&got), "message %d", i)
		want := testmsg.NewSample()
		want.IntValue = i
		want.LongValue = int64(req.F1)
		assert.Equal(t, *want, got, "message %d", i)
	}
	var extra testmsg.Sample
	assert.ErrorIs(t, stream.RecvMsg(&extra), io.EOF)
}

func TestBidiStreaming(t *testing.T) {
	srv, conn := startServer(t)
	stream, err := conn.NewStream(callCtx(t), chatStream, methodChat)
	require.NoError(t, err)
	const n = 4
	for i := 0; i < n; i++ {
		m := testmsg.NewMediaContent()
		m.Media.Duration = int64(i) * 1000
		m.Images = m.Images[:i%3+1]
		require.NoError(t, stream.SendMsg(m))

		var got testmsg.MediaContent
		require.NoError(t, stream.RecvMsg(&got))
		serverTransform(m)
		assert.Equal(t, *m, got, "message %d", i)
	}
	require.NoError(t, stream.CloseSend())
	var extra testmsg.MediaContent
	assert.ErrorIs(t, stream.RecvMsg(&extra), io.EOF)
	assert.EqualValues(t, n, srv.calls.Load())
}

// countingCodec records the largest number of buffers a message arrived in.
type countingCodec struct {
	*grpccodec.Codec
	maxBuffers atomic.Int64
}

func (c *countingCodec) Unmarshal(data mem.BufferSlice, v any) error {
	for n := int64(len(data)); ; {
		old := c.maxBuffers.Load()
		if n <= old || c.maxBuffers.CompareAndSwap(old, n) {
			break
		}
	}
	return c.Codec.Unmarshal(data, v)
}

// bigMedia is a MediaContent of roughly 300 KiB, more than one HTTP/2 frame
// (16 KiB), so gRPC hands it to Unmarshal as several buffers.
func bigMedia() *testmsg.MediaContent {
	m := testmsg.NewMediaContent()
	base := m.Images
	m.Images = nil
	for i := 0; i < 4000; i++ {
		img := base[i%len(base)]
		img.URI = fmt.Sprintf("%s?i=%d", img.URI, i)
		img.Width = int32(i)
		m.Images = append(m.Images, img)
	}
	return m
}

func TestLargeMessagesArriveInSeveralBuffers(t *testing.T) {
	serverCodec := &countingCodec{Codec: grpccodec.New(serializer.New())}
	clientCodec := &countingCodec{Codec: grpccodec.New(serializer.New())}
	srv, conn := startServer(t, grpc.ForceServerCodecV2(serverCodec))

	req := bigMedia()
	var got testmsg.MediaContent
	require.NoError(t, conn.Invoke(callCtx(t), methodEchoMedia, req, &got, grpc.ForceCodecV2(clientCodec)))
	assert.Greater(t, serverCodec.maxBuffers.Load(), int64(1), "the request was not split; the test does not cover multi-buffer reads")
	assert.Greater(t, clientCodec.maxBuffers.Load(), int64(1), "the reply was not split")
	assert.Equal(t, bigMedia(), srv.lastMedia.Load())
	want := bigMedia()
	serverTransform(want)
	assert.Equal(t, want, &got)
}

func TestConcurrentCalls(t *testing.T) {
	srv, conn := startServer(t)
	ctx := callCtx(t)
	const goroutines, calls = 16, 200
	const streams, perStream = 4, 50
	var wg sync.WaitGroup
	errs := make(chan error, goroutines+streams) // at most one each
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				req := testmsg.NewMediaContent()
				req.Media.Duration = int64(g*calls + i)
				var got testmsg.MediaContent
				if err := conn.Invoke(ctx, methodEchoMedia, req, &got); err != nil {
					errs <- fmt.Errorf("goroutine %d call %d: %w", g, i, err)
					return
				}
				serverTransform(req)
				if !assert.ObjectsAreEqual(*req, got) {
					errs <- fmt.Errorf("goroutine %d call %d: reply differs: %+v", g, i, got)
					return
				}
			}
		}(g)
	}
	// Bidirectional streams at the same time, on the same connection.
	for s := 0; s < streams; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			stream, err := conn.NewStream(ctx, chatStream, methodChat)
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < perStream; i++ {
				m := testmsg.NewMediaContent()
				m.Media.Size = int64(s*perStream + i)
				if err := stream.SendMsg(m); err != nil {
					errs <- fmt.Errorf("stream %d send %d: %w", s, i, err)
					return
				}
				var got testmsg.MediaContent
				if err := stream.RecvMsg(&got); err != nil {
					errs <- fmt.Errorf("stream %d recv %d: %w", s, i, err)
					return
				}
				serverTransform(m)
				if !assert.ObjectsAreEqual(*m, got) {
					errs <- fmt.Errorf("stream %d message %d differs: %+v", s, i, got)
					return
				}
			}
			if err := stream.CloseSend(); err != nil {
				errs <- err
			}
		}(s)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.EqualValues(t, goroutines*calls+streams*perStream, srv.calls.Load())
}

func requireStatus(t *testing.T, err error, code codes.Code, contains string) {
	t.Helper()
	require.Error(t, err)
	st, ok := status.FromError(err)
	require.True(t, ok, "not a gRPC status error: %v", err)
	t.Logf("status: %v", st)
	assert.Equal(t, code, st.Code(), "status %v", st)
	assert.Contains(t, st.Message(), contains)
}

func TestWrongTypesAreStatusErrors(t *testing.T) {
	srv, conn := startServer(t)
	ctx := callCtx(t)
	var reply testmsg.MediaContent

	// A request the client codec cannot marshal never leaves the client.
	err := conn.Invoke(ctx, methodEchoMedia, &struct{ URI string }{"x"}, &reply)
	requireStatus(t, err, codes.Internal, "forygen-generated")
	err = conn.Invoke(ctx, methodEchoMedia, testmsg.MediaContent{}, &reply)
	requireStatus(t, err, codes.Internal, "forygen-generated")
	err = conn.Invoke(ctx, methodEchoMedia, (*testmsg.MediaContent)(nil), &reply)
	requireStatus(t, err, codes.Internal, "forygen-generated")
	assert.EqualValues(t, 0, srv.calls.Load())

	// A reply value the client cannot decode into.
	var notGenerated struct{ URI string }
	err = conn.Invoke(ctx, methodEchoMedia, testmsg.NewMediaContent(), &notGenerated)
	requireStatus(t, err, codes.Internal, "forygen-generated")

	// A server handler returning a non-generated value.
	var num testmsg.NumericStruct
	err = conn.Invoke(ctx, methodWrongReply, testmsg.NewNumericStruct(), &num)
	requireStatus(t, err, codes.Internal, "forygen-generated")
}

// rawCodec sends fixed bytes under the fory content-subtype, to put corrupt
// payloads on the wire.
type rawCodec struct{ payload []byte }

func (c rawCodec) Name() string { return grpccodec.Name }
func (c rawCodec) Marshal(any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(c.payload)}, nil
}
func (c rawCodec) Unmarshal(mem.BufferSlice, any) error {
	return errors.New("rawCodec does not decode")
}

func TestCorruptPayloadsAreStatusErrors(t *testing.T) {
	srv, conn := startServer(t)
	ctx := callCtx(t)
	valid, err := serializer.Serialize(testmsg.NewMediaContent())
	require.NoError(t, err)
	sample, err := serializer.Serialize(testmsg.NewSample())
	require.NoError(t, err)

	cases := map[string][]byte{
		"empty":       {},
		"garbage":     []byte("this is not a fory message"),
		"truncated":   valid[:len(valid)/2],
		"trailing":    append(append([]byte{}, valid...), 0),
		"other type":  sample,
		"bad header":  append([]byte{0x02}, valid[1:]...),
		"bad varints": append(valid[:3:3], 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	}
	for name, payload := range cases {
		t.Run(name, func(t *testing.T) {
			var reply testmsg.MediaContent
			err := conn.Invoke(ctx, methodEchoMedia, &reply, &reply, grpc.ForceCodecV2(rawCodec{payload}))
			requireStatus(t, err, codes.Internal, "grpccodec: unmarshaling *testmsg.MediaContent")
		})
	}
	assert.EqualValues(t, 0, srv.calls.Load(), "a handler ran on a corrupt request")

	// A reply that is a valid message of another type fails on the client.
	var media testmsg.MediaContent
	err = conn.Invoke(ctx, methodEchoNumeric, testmsg.NewNumericStruct(), &media)
	requireStatus(t, err, codes.Internal, "schema mismatch")
	assert.True(t, strings.Contains(err.Error(), "MediaContent"), err.Error())
}
