package grpccodec_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"

	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
)

// Loopback load (issue 17, item 2): one server with the fory codec and 32
// clients, each on its own connection, calling it for a bounded time with a
// mix of valid calls, corrupt payloads, calls cancelled mid-flight, streams
// cancelled mid-conversation and a few 4 MiB messages. Valid calls must
// return the expected reply, corrupt ones a status error (codes.Internal),
// cancelled ones Canceled or DeadlineExceeded; the server must stay up,
// and once the clients and the server are stopped no goroutine is left.

const (
	loadClients  = 32
	loadDuration = 2500 * time.Millisecond
	loadBigCalls = 4       // clients that start with a 4 MiB call
	bigPayload   = 4 << 20 // bytes of the big messages' string
	maxMsgSize   = 16 << 20
)

// corruptCodec marshals with the fory codec and then damages the bytes
// with mutate before they go on the wire; replies are decoded normally.
type corruptCodec struct {
	*grpccodec.Codec
	mutate func([]byte) []byte
}

func (c corruptCodec) Marshal(v any) (mem.BufferSlice, error) {
	out, err := c.Codec.Marshal(v)
	if err != nil {
		return nil, err
	}
	b := out.Materialize()
	out.Free()
	return mem.BufferSlice{mem.SliceBuffer(c.mutate(b))}, nil
}

// bigMediaContent is a MediaContent of a little over 4 MiB: its copyright
// string holds bigPayload bytes.
func bigMediaContent(seed int) *testmsg.MediaContent {
	m := testmsg.NewMediaContent()
	m.Media.Copyright = strings.Repeat(string(rune('a'+seed%26)), bigPayload)
	m.Media.Duration = int64(seed)
	return m
}

// loadCounts counts outcomes by kind of call.
type loadCounts struct {
	valid, corrupt, corruptAccepted, garbage, cancelled, cancelledDone, streams, big atomic.Int64
}

func TestLoopbackLoad(t *testing.T) {
	baseline := runtime.NumGoroutine()

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(maxMsgSize), grpc.MaxSendMsgSize(maxMsgSize))
	impl := &fixtureServer{}
	srv.RegisterService(&fixtureDesc, impl)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	addr := lis.Addr().String()
	dial := func() *grpc.ClientConn {
		conn, err := grpc.NewClient(addr,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultCallOptions(grpc.CallContentSubtype(grpccodec.Name),
				grpc.MaxCallRecvMsgSize(maxMsgSize), grpc.MaxCallSendMsgSize(maxMsgSize)))
		require.NoError(t, err)
		return conn
	}
	conns := make([]*grpc.ClientConn, loadClients)
	for i := range conns {
		conns[i] = dial()
	}

	var (
		n        loadCounts
		stop     atomic.Bool
		mu       sync.Mutex
		failures []string
		wg       sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
		stop.Store(true)
	}
	started := time.Now()
	deadline := started.Add(loadDuration)
	for c := 0; c < loadClients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			conn := conns[c]
			rng := rand.New(rand.NewPCG(17, uint64(c)))
			for i := 0; !stop.Load() && time.Now().Before(deadline); i++ {
				what := fmt.Sprintf("client %d call %d", c, i)
				if i == 0 && c < loadBigCalls {
					// The big calls overlap with everything else.
					loadBig(conn, what, c, fail)
					n.big.Add(1)
					continue
				}
				switch k := rng.IntN(100); {
				case k < 40:
					loadValid(conn, what, rng, fail)
					n.valid.Add(1)
				case k < 65:
					if loadCorrupt(conn, what, rng, fail) {
						n.corruptAccepted.Add(1)
					}
					n.corrupt.Add(1)
				case k < 75:
					loadGarbage(conn, what, rng, fail)
					n.garbage.Add(1)
				case k < 93:
					if loadCancelled(conn, what, rng, fail) {
						n.cancelledDone.Add(1)
					}
					n.cancelled.Add(1)
				default:
					loadStream(conn, what, rng, fail)
					n.streams.Add(1)
				}
			}
		}(c)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(loadDuration + 60*time.Second):
		stop.Store(true)
		buf := make([]byte, 4<<20)
		t.Fatalf("clients still running a minute after the deadline:\n%s", buf[:runtime.Stack(buf, true)])
	}
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("%v: %d valid, %d corrupt (%d still decoded), %d garbage, %d cancelled (%d finished first), %d streams, %d of 4 MiB; %d handler calls",
		time.Since(started).Round(time.Millisecond), n.valid.Load(), n.corrupt.Load(), n.corruptAccepted.Load(),
		n.garbage.Load(), n.cancelled.Load(), n.cancelledDone.Load(), n.streams.Load(), n.big.Load(), impl.calls.Load())

	// The server is still up: a new connection gets a correct reply.
	select {
	case err := <-served:
		t.Fatalf("the server stopped during the load: %v", err)
	default:
	}
	after := dial()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	var got testmsg.MediaContent
	require.NoError(t, after.Invoke(ctx, methodEchoMedia, testmsg.NewMediaContent(), &got))
	cancel()
	assert.Equal(t, *expectedMediaEcho(), got)

	// Stop everything; no goroutine may be left behind.
	for _, conn := range append(conns, after) {
		require.NoError(t, conn.Close())
	}
	srv.Stop()
	require.NoError(t, <-served)
	settle := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(settle) {
		time.Sleep(20 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > baseline {
		buf := make([]byte, 4<<20)
		t.Fatalf("%d goroutines after the load, %d before:\n%s", g, baseline, buf[:runtime.Stack(buf, true)])
	}
}

func callContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

// loadValid makes one valid call of a random method and checks the reply.
func loadValid(conn *grpc.ClientConn, what string, rng *rand.Rand, fail func(string, ...any)) {
	ctx, cancel := callContext()
	defer cancel()
	switch rng.IntN(3) {
	case 0:
		req := testmsg.NewMediaContent()
		req.Media.Duration = rng.Int64()
		req.Images = req.Images[:rng.IntN(len(req.Images)+1)]
		var got testmsg.MediaContent
		if err := conn.Invoke(ctx, methodEchoMedia, req, &got); err != nil {
			fail("%s: EchoMediaContent: %v", what, err)
			return
		}
		serverTransform(req)
		if !assert.ObjectsAreEqual(*req, got) {
			fail("%s: EchoMediaContent replied %+v, want %+v", what, got, *req)
		}
	case 1:
		req := testmsg.NewSample()
		req.IntValue = rng.Int32()
		var got testmsg.Sample
		if err := conn.Invoke(ctx, methodEchoSample, req, &got); err != nil {
			fail("%s: EchoSample: %v", what, err)
			return
		}
		req.IntValue = -req.IntValue
		if !assert.ObjectsAreEqual(*req, got) {
			fail("%s: EchoSample replied %+v, want %+v", what, got, *req)
		}
	default:
		req := testmsg.NewNumericStruct()
		req.F3 = rng.Int32()
		var got testmsg.NumericStruct
		if err := conn.Invoke(ctx, methodEchoNumeric, req, &got); err != nil {
			fail("%s: EchoNumericStruct: %v", what, err)
			return
		}
		req.F12++
		if got != *req {
			fail("%s: EchoNumericStruct replied %+v, want %+v", what, got, *req)
		}
	}
}

// loadBig echoes a message of a little over 4 MiB.
func loadBig(conn *grpc.ClientConn, what string, seed int, fail func(string, ...any)) {
	ctx, cancel := callContext()
	defer cancel()
	var got testmsg.MediaContent
	if err := conn.Invoke(ctx, methodEchoMedia, bigMediaContent(seed), &got); err != nil {
		fail("%s: 4 MiB EchoMediaContent: %v", what, err)
		return
	}
	want := bigMediaContent(seed)
	serverTransform(want)
	if !assert.ObjectsAreEqual(*want, got) {
		fail("%s: the 4 MiB reply differs (copyright %d bytes, %d images)", what, len(got.Media.Copyright), len(got.Images))
	}
}

// requireCode checks that err is a status error with one of codes.
func requireCode(err error, what string, fail func(string, ...any), want ...codes.Code) {
	st, ok := status.FromError(err)
	if !ok {
		fail("%s: not a status error: %v", what, err)
		return
	}
	for _, c := range want {
		if st.Code() == c {
			return
		}
	}
	fail("%s: status %v, want one of %v", what, st, want)
}

// loadCorrupt sends a valid request damaged after marshaling: bytes
// flipped, cut short or appended. A truncated or extended message must be
// refused; a flipped one may still decode (then the reply must decode too).
// It reports whether the server accepted the request.
func loadCorrupt(conn *grpc.ClientConn, what string, rng *rand.Rand, fail func(string, ...any)) bool {
	ctx, cancel := callContext()
	defer cancel()
	kind := rng.IntN(3)
	flips := make([]uint64, 1+rng.IntN(4))
	for i := range flips {
		flips[i] = rng.Uint64()
	}
	cut := rng.Uint64()
	codec := corruptCodec{Codec: foryCodec, mutate: func(b []byte) []byte {
		switch kind {
		case 0:
			for _, f := range flips {
				b[f%uint64(len(b))] ^= byte(1 + f>>56%255)
			}
			return b
		case 1:
			return b[:cut%uint64(len(b))]
		default:
			return append(b, byte(cut))
		}
	}}
	var err error
	method := methodEchoMedia
	if rng.IntN(2) == 0 {
		method = methodEchoSample
		var got testmsg.Sample
		err = conn.Invoke(ctx, method, testmsg.NewSample(), &got, grpc.ForceCodecV2(codec))
	} else {
		var got testmsg.MediaContent
		err = conn.Invoke(ctx, method, testmsg.NewMediaContent(), &got, grpc.ForceCodecV2(codec))
	}
	what = fmt.Sprintf("%s: %s with a corrupt request (kind %d)", what, method, kind)
	if err == nil {
		if kind != 0 {
			fail("%s: the server accepted it", what)
		}
		return true
	}
	requireCode(err, what, fail, codes.Internal)
	return false
}

// loadGarbage sends random bytes, or a valid message of another type.
func loadGarbage(conn *grpc.ClientConn, what string, rng *rand.Rand, fail func(string, ...any)) {
	ctx, cancel := callContext()
	defer cancel()
	var payload []byte
	if rng.IntN(2) == 0 {
		payload = make([]byte, rng.IntN(64))
		for i := range payload {
			payload[i] = byte(rng.Uint32())
		}
	} else {
		out, err := foryCodec.Marshal(testmsg.NewNumericStruct())
		if err != nil {
			fail("%s: %v", what, err)
			return
		}
		payload = out.Materialize()
		out.Free()
	}
	var got testmsg.MediaContent
	err := conn.Invoke(ctx, methodEchoMedia, &got, &got, grpc.ForceCodecV2(rawCodec{payload}))
	if err == nil {
		fail("%s: garbage %x was accepted", what, payload)
		return
	}
	requireCode(err, fmt.Sprintf("%s: garbage %x", what, payload), fail, codes.Internal)
}

// loadCancelled starts a valid call whose context is cancelled (or times
// out) after a random delay (mostly below a millisecond, sometimes long
// enough for the call to finish under load): it must either finish
// with the right reply or fail with Canceled or DeadlineExceeded. It
// reports whether the call finished.
func loadCancelled(conn *grpc.ClientConn, what string, rng *rand.Rand, fail func(string, ...any)) bool {
	delay := time.Duration(rng.IntN(1000)) * time.Microsecond
	if rng.IntN(4) == 0 {
		delay *= 100
	}
	var ctx context.Context
	var cancel context.CancelFunc
	if rng.IntN(2) == 0 {
		ctx, cancel = context.WithTimeout(context.Background(), delay)
	} else {
		ctx, cancel = context.WithCancel(context.Background())
		t := time.AfterFunc(delay, cancel)
		defer t.Stop()
	}
	defer cancel()
	req := testmsg.NewMediaContent()
	req.Media.Size = rng.Int64()
	var got testmsg.MediaContent
	err := conn.Invoke(ctx, methodEchoMedia, req, &got)
	if err == nil {
		serverTransform(req)
		if !assert.ObjectsAreEqual(*req, got) {
			fail("%s: cancellable call replied %+v, want %+v", what, got, *req)
		}
		return true
	}
	requireCode(err, what+": cancelled call", fail, codes.Canceled, codes.DeadlineExceeded)
	return false
}

// loadStream opens a bidirectional stream, exchanges a few messages (one
// of them possibly corrupt, which ends the stream with codes.Internal) and
// then either closes it properly or cancels its context mid-stream.
func loadStream(conn *grpc.ClientConn, what string, rng *rand.Rand, fail func(string, ...any)) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opts := []grpc.CallOption{}
	corruptAt := -1
	if rng.IntN(3) == 0 {
		corruptAt = rng.IntN(3)
		sent := 0
		opts = append(opts, grpc.ForceCodecV2(corruptCodec{Codec: foryCodec, mutate: func(b []byte) []byte {
			sent++
			if sent-1 == corruptAt {
				return b[:len(b)/2]
			}
			return b
		}}))
	}
	stream, err := conn.NewStream(ctx, chatStream, methodChat, opts...)
	if err != nil {
		fail("%s: NewStream: %v", what, err)
		return
	}
	msgs := 1 + rng.IntN(3)
	for i := 0; i < msgs; i++ {
		m := testmsg.NewMediaContent()
		m.Media.Width = int32(i)
		if err := stream.SendMsg(m); err != nil {
			if errors.Is(err, io.EOF) && corruptAt >= 0 && i > corruptAt {
				// The server ended the stream; RecvMsg has its status.
				break
			}
			fail("%s: stream send %d: %v", what, i, err)
			return
		}
		var got testmsg.MediaContent
		err := stream.RecvMsg(&got)
		if i == corruptAt {
			if err == nil {
				fail("%s: stream message %d was corrupt and still echoed", what, i)
				return
			}
			requireCode(err, fmt.Sprintf("%s: stream message %d corrupt", what, i), fail, codes.Internal)
			return
		}
		if err != nil {
			fail("%s: stream recv %d: %v", what, i, err)
			return
		}
		serverTransform(m)
		if !assert.ObjectsAreEqual(*m, got) {
			fail("%s: stream message %d differs: %+v", what, i, got)
			return
		}
	}
	if rng.IntN(2) == 0 {
		cancel()
		var extra testmsg.MediaContent
		err := stream.RecvMsg(&extra)
		requireCode(err, what+": cancelled stream", fail, codes.Canceled)
		return
	}
	if err := stream.CloseSend(); err != nil {
		fail("%s: CloseSend: %v", what, err)
		return
	}
	var extra testmsg.MediaContent
	if err := stream.RecvMsg(&extra); !errors.Is(err, io.EOF) {
		fail("%s: after CloseSend, RecvMsg = %v, want io.EOF", what, err)
	}
}
