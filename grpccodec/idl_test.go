package grpccodec_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/forygen/forygen/grpccodec"
	greeter "github.com/forygen/forygen/grpccodec/internal/idlgreeter"
	idlall "github.com/forygen/forygen/grpccodec/internal/idlsvc"
)

// The stubs forygen idl -grpc writes (internal/idlsvc from
// internal/conformance/idl/testdata/everything.fdl, internal/idlgreeter
// from service.fdl), over a real grpc-go server on loopback.

// serve registers the services with grpc.NewServer(opts...) (without a
// codec option the server uses grpc's registered "fory" codec) and
// returns a connection with no default call options: the generated client
// forces its own codec.
func serve(t *testing.T, register func(*grpc.Server), opts ...grpc.ServerOption) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer(opts...)
	register(srv)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() {
		conn.Close()
		srv.Stop()
		if err := <-done; err != nil {
			panic(fmt.Sprintf("server: %v", err))
		}
	})
	return conn
}

type greeterServer struct {
	greeter.UnimplementedGreeterServer
}

func (greeterServer) SayHello(_ context.Context, in *greeter.HelloRequest) (*greeter.HelloReply, error) {
	return &greeter.HelloReply{Reply: "hello " + in.Name}, nil
}

func TestIDLGreeter(t *testing.T) {
	conn := serve(t, func(s *grpc.Server) { greeter.RegisterGreeterServer(s, greeterServer{}) })
	out, err := greeter.NewGreeterClient(conn).SayHello(callCtx(t), &greeter.HelloRequest{Name: "world"})
	require.NoError(t, err)
	assert.Equal(t, "hello world", out.Reply)
}

// The payload of a call is the message foryc's Go peers write: official
// Go's bytes for these values (compatible mode, reference tracking, from
// internal/conformance/idl/testdata/official.json).
func TestIDLGreeterPayload(t *testing.T) {
	for _, c := range []struct {
		v   any
		hex string
	}{
		{&greeter.HelloRequest{Name: "world"}, "01001c0008e08679bab7a325c19b8787e50ac41516776f726c64"},
		{&greeter.HelloReply{Reply: "hello world"}, "01001c000880ddd05d9dfd37c1f0bdb0c20fc4152e68656c6c6f20776f726c64"},
	} {
		bs, err := greeter.ForyCodec.Marshal(c.v)
		require.NoError(t, err)
		assert.Equal(t, c.hex, hex.EncodeToString(bs.Materialize()))
		bs.Free()
	}
}

type everywhere struct {
	idlall.UnimplementedEverywhereServer
}

func (everywhere) Get(_ context.Context, in *idlall.Leaf) (*idlall.Everything, error) {
	return &idlall.Everything{S: in.Label, I32: in.Weight, Leaf: in, Shared: in, SharedAgain: in,
		Choice: idlall.LeafChoice(in), OptChoice: idlall.NumChoice(in.Weight), Names: []string{in.Label, in.Label}}, nil
}

func (everywhere) Watch(in *idlall.Leaf, stream idlall.Everywhere_WatchServer) error {
	for i := int32(0); i < in.Weight; i++ {
		if err := stream.Send(&idlall.Leaf{Label: fmt.Sprintf("%s-%d", in.Label, i), Weight: i}); err != nil {
			return err
		}
	}
	return nil
}

func (everywhere) Upload(stream idlall.Everywhere_UploadServer) error {
	var labels []string
	var sum int32
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return stream.SendAndClose(&idlall.Leaf{Label: strings.Join(labels, "+"), Weight: sum})
		}
		if err != nil {
			return err
		}
		labels = append(labels, in.Label)
		sum += in.Weight
	}
}

func (everywhere) Chat(stream idlall.Everywhere_ChatServer) error {
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var out idlall.Choice
		if err := in.Visit(idlall.ChoiceVisitor{
			Leaf: func(l *idlall.Leaf) error {
				out = idlall.LeafChoice(&idlall.Leaf{Label: l.Label + "!", Weight: l.Weight + 1})
				return nil
			},
			Text: func(s string) error { out = idlall.TextChoice(strings.ToUpper(s)); return nil },
			Num:  func(n int32) error { out = idlall.NumChoice(2 * n); return nil },
		}); err != nil {
			return err
		}
		if err := stream.Send(&out); err != nil {
			return err
		}
	}
}

func TestIDLStreams(t *testing.T) {
	// The server answers with the stubs' codec (foryc's options: tracking
	// on), as a server talking to foryc peers would.
	conn := serve(t, func(s *grpc.Server) { idlall.RegisterEverywhereServer(s, everywhere{}) }, grpc.ForceServerCodecV2(idlall.ForyCodec))
	c := idlall.NewEverywhereClient(conn)
	ctx := callCtx(t)

	// Unary: a message with shared references and unions comes back.
	ev, err := c.Get(ctx, &idlall.Leaf{Label: "a", Weight: 3})
	require.NoError(t, err)
	assert.Equal(t, "a", ev.S)
	assert.Equal(t, int32(3), ev.I32)
	require.NotNil(t, ev.Leaf)
	assert.Same(t, ev.Shared, ev.SharedAgain, "one object, tracked by reference")
	leaf, ok := ev.Choice.AsLeaf()
	require.True(t, ok)
	assert.Equal(t, "a", leaf.Label)
	n, ok := ev.OptChoice.AsNum()
	require.True(t, ok)
	assert.Equal(t, int32(3), n)

	// Server streaming.
	w, err := c.Watch(ctx, &idlall.Leaf{Label: "w", Weight: 4})
	require.NoError(t, err)
	var got []string
	for {
		l, err := w.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		got = append(got, l.Label)
	}
	assert.Equal(t, []string{"w-0", "w-1", "w-2", "w-3"}, got)

	// Client streaming.
	u, err := c.Upload(ctx)
	require.NoError(t, err)
	for i, s := range []string{"x", "y", "z"} {
		require.NoError(t, u.Send(&idlall.Leaf{Label: s, Weight: int32(i + 1)}))
	}
	sum, err := u.CloseAndRecv()
	require.NoError(t, err)
	assert.Equal(t, &idlall.Leaf{Label: "x+y+z", Weight: 6}, sum)

	// Bidirectional, with union messages.
	chat, err := c.Chat(ctx)
	require.NoError(t, err)
	send := []idlall.Choice{idlall.TextChoice("hi"), idlall.NumChoice(21), idlall.LeafChoice(&idlall.Leaf{Label: "l", Weight: 1})}
	for i := range send {
		require.NoError(t, chat.Send(&send[i]))
		back, err := chat.Recv()
		require.NoError(t, err)
		switch i {
		case 0:
			s, ok := back.AsText()
			assert.True(t, ok)
			assert.Equal(t, "HI", s)
		case 1:
			n, ok := back.AsNum()
			assert.True(t, ok)
			assert.Equal(t, int32(42), n)
		case 2:
			l, ok := back.AsLeaf()
			assert.True(t, ok)
			assert.Equal(t, &idlall.Leaf{Label: "l!", Weight: 2}, l)
		}
	}
	require.NoError(t, chat.CloseSend())
	_, err = chat.Recv()
	assert.ErrorIs(t, err, io.EOF)
}

// A server that implements nothing answers Unimplemented, for unary and
// streaming methods.
func TestIDLUnimplemented(t *testing.T) {
	conn := serve(t, func(s *grpc.Server) { idlall.RegisterEverywhereServer(s, idlall.UnimplementedEverywhereServer{}) })
	c := idlall.NewEverywhereClient(conn)
	_, err := c.Get(callCtx(t), &idlall.Leaf{})
	assert.Equal(t, codes.Unimplemented, status.Code(err))
	w, err := c.Watch(callCtx(t), &idlall.Leaf{})
	require.NoError(t, err)
	_, err = w.Recv()
	assert.Equal(t, codes.Unimplemented, status.Code(err))
}

// BenchmarkIDLUnary: a unary call through the generated client costs what
// the same call written by hand (conn.Invoke with grpccodec registered and
// the content subtype as a default call option) costs. The server is the
// generated one in both.
func BenchmarkIDLUnary(b *testing.B) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	srv := grpc.NewServer(grpc.ForceServerCodecV2(greeter.ForyCodec))
	greeter.RegisterGreeterServer(srv, greeterServer{})
	go srv.Serve(lis)
	b.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.CallContentSubtype(grpccodec.Name)))
	require.NoError(b, err)
	b.Cleanup(func() { conn.Close() })
	ctx := context.Background()
	in := &greeter.HelloRequest{Name: "world"}
	client := greeter.NewGreeterClient(conn)
	calls := map[string]func() error{
		"stub": func() error { _, err := client.SayHello(ctx, in); return err },
		"invoke": func() error {
			out := new(greeter.HelloReply)
			return conn.Invoke(ctx, "/demo.greeter.Greeter/SayHello", in, out)
		},
	}
	for _, name := range []string{"stub", "invoke", "stub", "invoke"} {
		call := calls[name]
		b.Run(name, func(b *testing.B) {
			for i := 0; i < 100; i++ {
				require.NoError(b, call())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
