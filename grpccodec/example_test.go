package grpccodec_test

import (
	"context"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
	"github.com/forygen/forygen/serializer"
)

// The README's quick start, compiled and run.

type mediaServer struct{}

func (mediaServer) Echo(_ context.Context, in *testmsg.MediaContent) (*testmsg.MediaContent, error) {
	in.Media.Title = "echoed"
	return in, nil
}

var mediaDesc = grpc.ServiceDesc{
	ServiceName: "media.Media",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Echo",
		Handler: func(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
			in := new(testmsg.MediaContent) // a forygen-generated type
			if err := dec(in); err != nil {
				return nil, err
			}
			if icpt == nil {
				return srv.(mediaServer).Echo(ctx, in)
			}
			info := &grpc.UnaryServerInfo{Server: srv, FullMethod: "/media.Media/Echo"}
			return icpt(ctx, in, info, func(ctx context.Context, req any) (any, error) {
				return srv.(mediaServer).Echo(ctx, req.(*testmsg.MediaContent))
			})
		},
	}},
}

func ExampleRegister() {
	// Once, at start-up, on both sides.
	grpccodec.Register(serializer.New())

	// Server.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		fmt.Println("server:", info.FullMethod)
		return h(ctx, req)
	}))
	srv.RegisterService(&mediaDesc, mediaServer{})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()

	// Client.
	conn, err := grpc.NewClient(lis.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.CallContentSubtype(grpccodec.Name)))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	var out testmsg.MediaContent
	if err := conn.Invoke(context.Background(), "/media.Media/Echo", testmsg.NewMediaContent(), &out); err != nil {
		panic(err)
	}
	fmt.Println("client:", out.Media.Title, len(out.Images), "images")
	// Output:
	// server: /media.Media/Echo
	// client: echoed 3 images
}
