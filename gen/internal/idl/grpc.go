package idl

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/forygen/forygen/gen/internal/schema"
)

// checkServices resolves every rpc's request and response: a message or a
// union (schema-idl.md, "RPC Type Rules").
func (w *writer) checkServices() {
	for _, s := range w.f.ast.Services {
		names := map[string]bool{}
		for _, m := range s.Methods {
			if names[m.Name] {
				w.errorf(m.Pos, "service %s: method %s declared twice", s.Name, m.Name)
			}
			names[m.Name] = true
			for _, side := range []struct {
				name string
				pos  schema.Pos
			}{{m.Request, m.RequestPos}, {m.Response, m.ResponsePos}} {
				d := resolve(w.scope, side.name, nil)
				switch {
				case d == nil:
					w.errorf(side.pos, "service %s: rpc %s: unknown type %s", s.Name, m.Name, side.name)
				case d.kind == "enum":
					w.errorf(side.pos, "service %s: rpc %s: %s is an enum; requests and responses are messages or unions", s.Name, m.Name, side.name)
				}
			}
		}
	}
}

const grpccodecPkg = "github.com/forygen/forygen/grpccodec"

// grpcFile writes the services' client and server stubs in the shape
// protoc-gen-go-grpc and foryc give them (NewXClient, XServer,
// UnimplementedXServer, RegisterXServer, X_MethodClient/Server for
// streams), with grpccodec as the codec: ForyCodec, a Fory with foryc's
// runtime options (compatible mode, reference tracking), which the client
// forces on every call and which init registers as grpc's "fory" codec
// unless the program has registered one.
func (w *writer) grpcFile() []byte {
	g := &writer{c: w.c, f: w.f, scope: w.scope, imports: map[string]string{}}
	g.use("context", "context")
	g.use("google.golang.org/grpc", "grpc")
	g.use("google.golang.org/grpc/codes", "codes")
	g.use("google.golang.org/grpc/status", "status")
	// The package's codec, once: in the first file of the run with services.
	if !w.c.grpcShared {
		w.c.grpcShared = true
		ser := g.ser()
		g.use(grpccodecPkg, "grpccodec")
		g.use("google.golang.org/grpc/encoding", "encoding")
		g.printf("// ForyCodec is the codec of the services' calls: Fory with the options\n")
		g.printf("// foryc's generated peers use (compatible mode, reference tracking).\n")
		g.printf("var ForyCodec = grpccodec.New(%s.New(%s.WithCompatible(true), %s.WithTrackRef(true)))\n\n", ser, ser, ser)
		g.printf("func init() {\n\t// A server decodes calls with the codec registered as \"fory\"; the\n")
		g.printf("\t// program's own grpccodec.Register, if any, comes later and wins.\n")
		g.printf("\tif encoding.GetCodecV2(grpccodec.Name) == nil {\n\t\tencoding.RegisterCodecV2(ForyCodec)\n\t}\n}\n\n")
		g.printf("// foryCall is the call option of every call: the codec, made once.\nvar foryCall = []grpc.CallOption{grpc.ForceCodecV2(ForyCodec)}\n\n")
		g.printf("// foryCallOptions puts the codec before a call's own options; a call\n// without options allocates nothing for it.\n")
		g.printf("func foryCallOptions(opts []grpc.CallOption) []grpc.CallOption {\n\tif len(opts) == 0 {\n\t\treturn foryCall\n\t}\n")
		g.printf("\treturn append(append(make([]grpc.CallOption, 0, len(opts)+1), foryCall...), opts...)\n}\n\n")
	}
	pkg := w.f.ast.Package
	for _, s := range w.f.ast.Services {
		full := s.Name
		if pkg != "" {
			full = pkg + "." + s.Name
		}
		g.service(s, full)
	}
	body := g.b.Bytes()
	var out bytes.Buffer
	out.WriteString(header(w.c.cfg, w.f))
	fmt.Fprintf(&out, "\npackage %s\n\n", w.f.goName)
	writeImports(&out, g.imports)
	out.Write(body)
	return gofmt(w.f, w.c, out.Bytes())
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (g *writer) service(s *schema.Service, full string) {
	name := s.Name
	client := lowerFirst(name) + "Client"
	desc := "_" + name + "_serviceDesc"
	typ := func(t string) string {
		if d := resolve(g.scope, t, nil); d != nil {
			return g.typeName(d)
		}
		return t
	}
	streamIndex := map[*schema.Method]int{}
	n := 0
	for _, m := range s.Methods {
		if m.ClientStream || m.ServerStream {
			streamIndex[m] = n
			n++
		}
	}
	// Client.
	g.printf("// %sClient is the client API of service %s.\ntype %sClient interface {\n", name, full, name)
	for _, m := range s.Methods {
		req, resp := typ(m.Request), typ(m.Response)
		switch {
		case !m.ClientStream && !m.ServerStream:
			g.printf("\t%s(ctx context.Context, in *%s, opts ...grpc.CallOption) (*%s, error)\n", m.Name, req, resp)
		case !m.ClientStream:
			g.printf("\t%s(ctx context.Context, in *%s, opts ...grpc.CallOption) (%s_%sClient, error)\n", m.Name, req, name, m.Name)
		default:
			g.printf("\t%s(ctx context.Context, opts ...grpc.CallOption) (%s_%sClient, error)\n", m.Name, name, m.Name)
		}
	}
	g.printf("}\n\ntype %s struct {\n\tcc grpc.ClientConnInterface\n}\n\n", client)
	g.printf("// New%sClient returns a client of service %s on cc.\nfunc New%sClient(cc grpc.ClientConnInterface) %sClient {\n\treturn &%s{cc}\n}\n\n", name, full, name, name, client)
	for _, m := range s.Methods {
		req, resp := typ(m.Request), typ(m.Response)
		path := "/" + full + "/" + m.Name
		opts := "callOpts := foryCallOptions(opts)"
		switch {
		case !m.ClientStream && !m.ServerStream:
			g.printf("func (c *%s) %s(ctx context.Context, in *%s, opts ...grpc.CallOption) (*%s, error) {\n\t%s\n", client, m.Name, req, resp, opts)
			g.printf("\tout := new(%s)\n\tif err := c.cc.Invoke(ctx, %q, in, out, callOpts...); err != nil {\n\t\treturn nil, err\n\t}\n\treturn out, nil\n}\n\n", resp, path)
			continue
		case !m.ClientStream:
			g.printf("func (c *%s) %s(ctx context.Context, in *%s, opts ...grpc.CallOption) (%s_%sClient, error) {\n\t%s\n", client, m.Name, req, name, m.Name, opts)
		default:
			g.printf("func (c *%s) %s(ctx context.Context, opts ...grpc.CallOption) (%s_%sClient, error) {\n\t%s\n", client, m.Name, name, m.Name, opts)
		}
		sc := lowerFirst(name) + m.Name + "Client"
		g.printf("\tstream, err := c.cc.NewStream(ctx, &%s.Streams[%d], %q, callOpts...)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n", desc, streamIndex[m], path)
		g.printf("\tx := &%s{stream}\n", sc)
		if !m.ClientStream {
			g.printf("\tif err := x.ClientStream.SendMsg(in); err != nil {\n\t\treturn nil, err\n\t}\n\tif err := x.ClientStream.CloseSend(); err != nil {\n\t\treturn nil, err\n\t}\n")
		}
		g.printf("\treturn x, nil\n}\n\n")
		// The stream's client interface.
		g.printf("// %s_%sClient is the client side of stream %s.%s.\ntype %s_%sClient interface {\n", name, m.Name, name, m.Name, name, m.Name)
		if m.ClientStream {
			g.printf("\tSend(*%s) error\n", req)
			if !m.ServerStream {
				g.printf("\tCloseAndRecv() (*%s, error)\n", resp)
			}
		}
		if m.ServerStream {
			g.printf("\tRecv() (*%s, error)\n", resp)
		}
		g.printf("\tgrpc.ClientStream\n}\n\ntype %s struct {\n\tgrpc.ClientStream\n}\n\n", sc)
		if m.ClientStream {
			g.printf("func (x *%s) Send(m *%s) error { return x.ClientStream.SendMsg(m) }\n\n", sc, req)
			if !m.ServerStream {
				g.printf("func (x *%s) CloseAndRecv() (*%s, error) {\n\tif err := x.ClientStream.CloseSend(); err != nil {\n\t\treturn nil, err\n\t}\n", sc, resp)
				g.printf("\tm := new(%s)\n\tif err := x.ClientStream.RecvMsg(m); err != nil {\n\t\treturn nil, err\n\t}\n\treturn m, nil\n}\n\n", resp)
			}
		}
		if m.ServerStream {
			g.printf("func (x *%s) Recv() (*%s, error) {\n\tm := new(%s)\n\tif err := x.ClientStream.RecvMsg(m); err != nil {\n\t\treturn nil, err\n\t}\n\treturn m, nil\n}\n\n", sc, resp, resp)
		}
	}
	// Server.
	g.printf("// %sServer is the server API of service %s. Implementations must embed\n// Unimplemented%sServer, which answers the methods they lack.\ntype %sServer interface {\n", name, full, name, name)
	for _, m := range s.Methods {
		g.printf("\t%s\n", serverSig(name, m, typ))
	}
	g.printf("\tmustEmbedUnimplemented%sServer()\n}\n\n", name)
	g.printf("// Unimplemented%sServer answers every method with codes.Unimplemented.\ntype Unimplemented%sServer struct{}\n\n", name, name)
	for _, m := range s.Methods {
		g.printf("func (Unimplemented%sServer) %s {\n", name, serverSig(name, m, typ))
		if !m.ClientStream && !m.ServerStream {
			g.printf("\treturn nil, status.Error(codes.Unimplemented, %q)\n}\n\n", "method "+m.Name+" not implemented")
		} else {
			g.printf("\treturn status.Error(codes.Unimplemented, %q)\n}\n\n", "method "+m.Name+" not implemented")
		}
	}
	g.printf("func (Unimplemented%sServer) mustEmbedUnimplemented%sServer() {}\n\n", name, name)
	g.printf("// Register%sServer registers srv, the implementation of service %s, with s.\nfunc Register%sServer(s grpc.ServiceRegistrar, srv %sServer) {\n\ts.RegisterService(&%s, srv)\n}\n\n", name, full, name, name, desc)
	for _, m := range s.Methods {
		req, resp := typ(m.Request), typ(m.Response)
		path := "/" + full + "/" + m.Name
		h := "_" + name + "_" + m.Name + "_Handler"
		if !m.ClientStream && !m.ServerStream {
			g.printf("func %s(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {\n", h)
			g.printf("\tin := new(%s)\n\tif err := dec(in); err != nil {\n\t\treturn nil, err\n\t}\n\tif interceptor == nil {\n\t\treturn srv.(%sServer).%s(ctx, in)\n\t}\n", req, name, m.Name)
			g.printf("\tinfo := &grpc.UnaryServerInfo{Server: srv, FullMethod: %q}\n", path)
			g.printf("\thandler := func(ctx context.Context, req any) (any, error) {\n\t\treturn srv.(%sServer).%s(ctx, req.(*%s))\n\t}\n\treturn interceptor(ctx, in, info, handler)\n}\n\n", name, m.Name, req)
			continue
		}
		ss := lowerFirst(name) + m.Name + "Server"
		g.printf("func %s(srv any, stream grpc.ServerStream) error {\n", h)
		if !m.ClientStream {
			g.printf("\tm := new(%s)\n\tif err := stream.RecvMsg(m); err != nil {\n\t\treturn err\n\t}\n\treturn srv.(%sServer).%s(m, &%s{stream})\n}\n\n", req, name, m.Name, ss)
		} else {
			g.printf("\treturn srv.(%sServer).%s(&%s{stream})\n}\n\n", name, m.Name, ss)
		}
		g.printf("// %s_%sServer is the server side of stream %s.%s.\ntype %s_%sServer interface {\n", name, m.Name, name, m.Name, name, m.Name)
		if m.ServerStream {
			g.printf("\tSend(*%s) error\n", resp)
		} else {
			g.printf("\tSendAndClose(*%s) error\n", resp)
		}
		if m.ClientStream {
			g.printf("\tRecv() (*%s, error)\n", req)
		}
		g.printf("\tgrpc.ServerStream\n}\n\ntype %s struct {\n\tgrpc.ServerStream\n}\n\n", ss)
		if m.ServerStream {
			g.printf("func (x *%s) Send(m *%s) error { return x.ServerStream.SendMsg(m) }\n\n", ss, resp)
		} else {
			g.printf("func (x *%s) SendAndClose(m *%s) error { return x.ServerStream.SendMsg(m) }\n\n", ss, resp)
		}
		if m.ClientStream {
			g.printf("func (x *%s) Recv() (*%s, error) {\n\tm := new(%s)\n\tif err := x.ServerStream.RecvMsg(m); err != nil {\n\t\treturn nil, err\n\t}\n\treturn m, nil\n}\n\n", ss, req, req)
		}
	}
	g.printf("var %s = grpc.ServiceDesc{\n\tServiceName: %q,\n\tHandlerType: (*%sServer)(nil),\n\tMethods: []grpc.MethodDesc{\n", desc, full, name)
	for _, m := range s.Methods {
		if !m.ClientStream && !m.ServerStream {
			g.printf("\t\t{MethodName: %q, Handler: _%s_%s_Handler},\n", m.Name, name, m.Name)
		}
	}
	g.printf("\t},\n\tStreams: []grpc.StreamDesc{\n")
	for _, m := range s.Methods {
		if m.ClientStream || m.ServerStream {
			g.printf("\t\t{StreamName: %q, Handler: _%s_%s_Handler, ServerStreams: %v, ClientStreams: %v},\n", m.Name, name, m.Name, m.ServerStream, m.ClientStream)
		}
	}
	g.printf("\t},\n\tMetadata: %q,\n}\n\n", filepath.Base(g.f.path))
}

func serverSig(svc string, m *schema.Method, typ func(string) string) string {
	req, resp := typ(m.Request), typ(m.Response)
	switch {
	case !m.ClientStream && !m.ServerStream:
		return fmt.Sprintf("%s(context.Context, *%s) (*%s, error)", m.Name, req, resp)
	case !m.ClientStream:
		return fmt.Sprintf("%s(*%s, %s_%sServer) error", m.Name, req, svc, m.Name)
	}
	return fmt.Sprintf("%s(%s_%sServer) error", m.Name, svc, m.Name)
}
