package grpccodec_test

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
	"github.com/forygen/forygen/grpccodec/internal/testpb"
)

// The benchmark service has one echo method per payload type: the same
// handler shape, one server, and the codec chosen by the call's
// content-subtype (proto by default, fory with CallContentSubtype). Each call
// is a client marshal, a server unmarshal, a server marshal and a client
// unmarshal of MediaContent, as in grpc-go's benchmark/benchmain unary
// workload with its payload replaced by the fixture.
const benchService = "forygen.grpccodec.bench.Media"

const (
	benchEchoFory  = "/" + benchService + "/EchoFory"
	benchEchoProto = "/" + benchService + "/EchoProto"
)

type benchServer struct {
	contentType atomic.Value // string: the last request's content-type
}

func (s *benchServer) record(ctx context.Context) {
	if md, ok := metadata.FromIncomingContext(ctx); ok && len(md["content-type"]) > 0 {
		s.contentType.Store(md["content-type"][0])
	}
}

var benchDesc = grpc.ServiceDesc{
	ServiceName: benchService,
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "EchoFory", Handler: func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			in := new(testmsg.MediaContent)
			if err := dec(in); err != nil {
				return nil, err
			}
			srv.(*benchServer).record(ctx)
			return in, nil
		}},
		{MethodName: "EchoProto", Handler: func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			in := new(testpb.MediaContent)
			if err := dec(in); err != nil {
				return nil, err
			}
			srv.(*benchServer).record(ctx)
			return in, nil
		}},
	},
}

// startBenchServer serves benchDesc on 127.0.0.1 and returns one client
// connection (grpc-go's benchmark default) whose calls use subtype ("" for
// the default proto codec).
func startBenchServer(tb testing.TB, subtype string) (*benchServer, *grpc.ClientConn) {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	srv := grpc.NewServer()
	impl := &benchServer{}
	srv.RegisterService(&benchDesc, impl)
	go func() { _ = srv.Serve(lis) }() // returns when Stop runs
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if subtype != "" {
		opts = append(opts, grpc.WithDefaultCallOptions(grpc.CallContentSubtype(subtype)))
	}
	conn, err := grpc.NewClient(lis.Addr().String(), opts...)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		conn.Close()
		srv.Stop()
	})
	return impl, conn
}

// benchCall returns one unary call of the given codec, in the shape of
// generated client stubs: a fresh reply value per call.
func benchCall(codec string, conn *grpc.ClientConn) func(context.Context) error {
	if codec == grpccodec.Name {
		req := testmsg.NewMediaContent()
		return func(ctx context.Context) error {
			return conn.Invoke(ctx, benchEchoFory, req, new(testmsg.MediaContent))
		}
	}
	req := testpb.FromMediaContent(testmsg.NewMediaContent())
	return func(ctx context.Context) error {
		return conn.Invoke(ctx, benchEchoProto, req, new(testpb.MediaContent))
	}
}

// TestBenchServiceBothCodecs checks what the benchmark compares: both
// methods echo the fixture, each under its own content-type.
func TestBenchServiceBothCodecs(t *testing.T) {
	ctx := callCtx(t)

	srv, conn := startBenchServer(t, grpccodec.Name)
	var fory testmsg.MediaContent
	require.NoError(t, conn.Invoke(ctx, benchEchoFory, testmsg.NewMediaContent(), &fory))
	assert.Equal(t, testmsg.NewMediaContent(), &fory)
	assert.Equal(t, "application/grpc+fory", srv.contentType.Load())

	srv, conn = startBenchServer(t, "")
	var pb testpb.MediaContent
	require.NoError(t, conn.Invoke(ctx, benchEchoProto, testpb.FromMediaContent(testmsg.NewMediaContent()), &pb))
	assert.Equal(t, testmsg.NewMediaContent(), testpb.ToMediaContent(&pb))
	assert.Equal(t, "application/grpc", srv.contentType.Load())

	// Payload sizes, for the README table.
	foryBytes, err := foryCodec.Marshal(testmsg.NewMediaContent())
	require.NoError(t, err)
	pbBytes, err := proto.Marshal(testpb.FromMediaContent(testmsg.NewMediaContent()))
	require.NoError(t, err)
	t.Logf("MediaContent payload: fory %d bytes, proto %d bytes", foryBytes.Len(), len(pbBytes))
	foryBytes.Free()
}

// BenchmarkUnaryMediaContent: unary calls over loopback from 1, 8 and 64
// concurrent callers on one connection. ns/op is wall time per call (the
// inverse of throughput), calls/s the throughput, cpu-ns/op the process CPU
// time (client, server, GC) per call; allocs/op and B/op count client and
// server together, since both run in this process.
func BenchmarkUnaryMediaContent(b *testing.B) {
	// The codecs alternate so that a change in machine load between
	// sub-benchmarks hits both alike.
	for _, callers := range []int{1, 8, 64} {
		for _, codec := range []string{"proto", grpccodec.Name} {
			b.Run(fmt.Sprintf("callers=%d/codec=%s", callers, codec), func(b *testing.B) {
				subtype := codec
				if codec == "proto" {
					subtype = ""
				}
				_, conn := startBenchServer(b, subtype)
				call := benchCall(codec, conn)
				ctx := context.Background()
				// Warm the connection and the pools.
				for i := 0; i < 100; i++ {
					if err := call(ctx); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := processCPU()
				var next atomic.Int64
				var wg sync.WaitGroup
				for g := 0; g < callers; g++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						call := benchCall(codec, conn)
						for next.Add(1) <= int64(b.N) {
							if err := call(ctx); err != nil {
								b.Error(err)
								return
							}
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
				if cpu := processCPU() - cpu0; cpu0 > 0 {
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}

// BenchmarkCodecMediaContent isolates the codecs from the transport: one
// Marshal (and Free, as gRPC does after writing) or one Unmarshal of the
// fixture through each registered CodecV2.
func BenchmarkCodecMediaContent(b *testing.B) {
	type side struct {
		name  string
		req   any
		reply func() any
	}
	for _, s := range []side{
		{"proto", testpb.FromMediaContent(testmsg.NewMediaContent()), func() any { return new(testpb.MediaContent) }},
		{grpccodec.Name, testmsg.NewMediaContent(), func() any { return new(testmsg.MediaContent) }},
	} {
		codec := encoding.GetCodecV2(s.name)
		b.Run("codec="+s.name+"/op=marshal", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				out, err := codec.Marshal(s.req)
				if err != nil {
					b.Fatal(err)
				}
				out.Free()
			}
		})
		b.Run("codec="+s.name+"/op=unmarshal", func(b *testing.B) {
			data, err := codec.Marshal(s.req)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := codec.Unmarshal(data, s.reply()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
