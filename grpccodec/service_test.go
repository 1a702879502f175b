package grpccodec_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
	"github.com/forygen/forygen/serializer"
)

// The test service is declared by hand (no protoc): a grpc.ServiceDesc whose
// handlers decode into forygen types through whatever codec the call's
// content-subtype selects.
const serviceName = "forygen.grpccodec.test.Fixtures"

const (
	methodEchoMedia   = "/" + serviceName + "/EchoMediaContent"
	methodEchoSample  = "/" + serviceName + "/EchoSample"
	methodEchoNumeric = "/" + serviceName + "/EchoNumericStruct"
	methodWrongReply  = "/" + serviceName + "/WrongReply"
	methodSamples     = "/" + serviceName + "/Samples"
	methodChat        = "/" + serviceName + "/Chat"
)

// fixtureServer records what it decoded so tests can check the server side
// as well as the reply.
type fixtureServer struct {
	lastMedia atomic.Pointer[testmsg.MediaContent]
	calls     atomic.Int64
}

// serverTransform is what the server does to a MediaContent before echoing
// it, so an echo proves a decode and an encode on the server.
func serverTransform(m *testmsg.MediaContent) {
	m.Media.Title = "seen by server"
	m.Media.Bitrate++
	m.Images = append(m.Images, testmsg.Image{URI: "server://" + strconv.Itoa(len(m.Images)), Width: -1, Size: testmsg.SizeSmall})
}

func unaryHandler[T any, P interface {
	*T
	serializer.Message
}](fn func(s *fixtureServer, req P) (any, error)) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
		req := P(new(T))
		if err := dec(req); err != nil {
			return nil, err
		}
		s := srv.(*fixtureServer)
		s.calls.Add(1)
		return fn(s, req)
	}
}

// samplesHandler is server streaming: the request's F8 says how many Samples
// to send; Sample i has IntValue = i and the request's F1 as LongValue.
func samplesHandler(_ any, stream grpc.ServerStream) error {
	var req testmsg.NumericStruct
	if err := stream.RecvMsg(&req); err != nil {
		return err
	}
	for i := int32(0); i < req.F8; i++ {
		s := testmsg.NewSample()
		s.IntValue = i
		s.LongValue = int64(req.F1)
		if err := stream.SendMsg(s); err != nil {
			return err
		}
	}
	return nil
}

// chatHandler is bidirectional: every MediaContent received is transformed
// and sent back, until the client closes its side.
func chatHandler(srv any, stream grpc.ServerStream) error {
	s := srv.(*fixtureServer)
	for {
		var m testmsg.MediaContent
		if err := stream.RecvMsg(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		s.calls.Add(1)
		serverTransform(&m)
		if err := stream.SendMsg(&m); err != nil {
			return err
		}
	}
}

var fixtureDesc = grpc.ServiceDesc{
	ServiceName: serviceName,
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "EchoMediaContent", Handler: unaryHandler(func(s *fixtureServer, m *testmsg.MediaContent) (any, error) {
			cp := *m
			cp.Images = slices.Clone(m.Images)
			s.lastMedia.Store(&cp)
			serverTransform(m)
			return m, nil
		})},
		{MethodName: "EchoSample", Handler: unaryHandler(func(_ *fixtureServer, m *testmsg.Sample) (any, error) {
			m.IntValue = -m.IntValue
			return m, nil
		})},
		{MethodName: "EchoNumericStruct", Handler: unaryHandler(func(_ *fixtureServer, m *testmsg.NumericStruct) (any, error) {
			m.F12++
			return m, nil
		})},
		// WrongReply answers with a value the codec cannot marshal.
		{MethodName: "WrongReply", Handler: unaryHandler(func(_ *fixtureServer, _ *testmsg.NumericStruct) (any, error) {
			return &struct{ X int }{1}, nil
		})},
	},
	Streams: []grpc.StreamDesc{
		{StreamName: "Samples", Handler: samplesHandler, ServerStreams: true},
		{StreamName: "Chat", Handler: chatHandler, ServerStreams: true, ClientStreams: true},
	},
}

var (
	samplesStream = &fixtureDesc.Streams[0]
	chatStream    = &fixtureDesc.Streams[1]
)

// foryCodec is the codec every test server and client uses: registered
// once, before any server starts, as Register requires.
var foryCodec = grpccodec.Register(serializer.New())

// startServer runs a server for the fixture service on 127.0.0.1 and returns
// a client connection whose calls use the fory content-subtype. Both are
// closed when the test ends.
func startServer(t testing.TB, serverOpts ...grpc.ServerOption) (*fixtureServer, *grpc.ClientConn) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer(serverOpts...)
	impl := &fixtureServer{}
	srv.RegisterService(&fixtureDesc, impl)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.CallContentSubtype(grpccodec.Name)))
	require.NoError(t, err)
	t.Cleanup(func() {
		conn.Close()
		srv.Stop()
		if err := <-done; err != nil {
			panic(fmt.Sprintf("server: %v", err))
		}
	})
	return impl, conn
}
