// Package grpccodec carries forygen messages over gRPC: a grpc-go
// encoding.CodecV2 named "fory" (content-subtype application/grpc+fory)
// whose payload is one Fory xlang message (docs/format.md §1), so Fory peers in
// other languages can read it.
//
// Register the codec once, at start-up, with the *serializer.Fory whose
// options (compatible or same-schema mode, limits) both sides agree on:
//
//	grpccodec.Register(serializer.New())
//
// Servers then answer any call whose content-subtype is "fory"; clients
// choose it per call or per connection:
//
//	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
//		grpc.WithDefaultCallOptions(grpc.CallContentSubtype(grpccodec.Name)))
//
// Request and response values must be non-nil pointers to forygen-generated
// types; anything else is an error, never a panic.
//
// # Sizing once
//
// A Fory message's size is known only once it is written, so Marshal writes
// the message exactly once, into a reused buffer, and copies the bytes into
// one wire buffer from grpc's mem pool, which grpc returns to the pool after
// writing the frame. There is no size pass that could disagree with the
// write pass, and no per-message garbage but the one-element mem.BufferSlice
// grpc's API requires (and, for messages of 256 bytes or less, the wire
// bytes themselves; see smallWire).
//
// # Contract: do not mutate a message while it is being sent
//
// As with protobuf-go, a message must not be modified by another goroutine
// while Marshal runs (while SendMsg or the unary call is in progress). If a
// slice or string field is replaced anyway, Marshal returns an error or a
// well-formed message: the gRPC frame is sized from the bytes actually
// written, and the generated writer reads each slice header and string
// field once, so every length prefix matches what follows it (docs/format.md
// §7, §8). A panic in the writer becomes an error. The message is not a
// consistent snapshot, and a read torn by the race (one value's pointer,
// another's length) is undefined in Go. A map written concurrently can
// abort the process (the runtime's "concurrent map iteration and map
// write"), which no codec can catch.
package grpccodec

import (
	"errors"
	"fmt"
	"reflect"
	"sync"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// Name is the codec's name and gRPC content-subtype: requests carry
// content-type application/grpc+fory.
const Name = "fory"

// maxPooledBuffer bounds the write buffers kept for reuse, so one huge
// message does not pin its buffer for the life of the process.
const maxPooledBuffer = 1 << 20

// Codec is a grpc-go encoding.CodecV2 for forygen messages. It is safe for
// concurrent use.
type Codec struct {
	f    *serializer.Fory
	pool mem.BufferPool
	bufs sync.Pool // *buffer.Buffer write buffers
	// zeroCopy is f's WithZeroCopy: decoded values would view gRPC's
	// buffers, so Unmarshal decodes a private copy instead.
	zeroCopy bool
}

var _ encoding.CodecV2 = (*Codec)(nil)

// New returns a codec that serializes with f; a nil f means serializer.New()
// (official Fory Go's defaults: compatible mode). New does not register the
// codec: pass it to grpc.ForceServerCodecV2 / grpc.ForceCodecV2, or use
// Register.
func New(f *serializer.Fory) *Codec {
	if f == nil {
		f = serializer.New()
	}
	c := &Codec{f: f, pool: mem.DefaultBufferPool(), zeroCopy: f.Runtime().Config().ZeroCopy}
	c.bufs.New = func() any { return buffer.New(1024) }
	return c
}

// Register creates a codec with New(f), registers it with grpc-go under
// Name and returns it. Like encoding.RegisterCodecV2 it must be called during
// initialization (in main before any server or client starts, or in an init
// function): grpc's codec registry is not synchronized. A later Register
// replaces the earlier codec.
func Register(f *serializer.Fory) *Codec {
	c := New(f)
	encoding.RegisterCodecV2(c)
	return c
}

// Name returns "fory", the content-subtype the codec serves.
func (c *Codec) Name() string { return Name }

// Marshal writes v, a non-nil pointer to a generated type, as one Fory
// message and returns it in a single buffer that the caller (gRPC) frees.
func (c *Codec) Marshal(v any) (out mem.BufferSlice, err error) {
	// gRPC messages are generated types; the root values serializer also
	// takes (an int, a string) are not messages.
	m, ok := v.(serializer.Message)
	if !ok || reflect.ValueOf(m).IsNil() { // every Message is a pointer type
		return nil, marshalError(v, serializer.ErrNotGenerated)
	}
	b := c.bufs.Get().(*buffer.Buffer)
	b.Reset()
	defer func() {
		// A panic in the generated writer (a message changed under it in a
		// way the single slice reads do not cover, such as a nil pointer
		// stored mid-write) is reported instead of crashing the process.
		// b is dropped because the panic may have left it mid-write.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("grpccodec: marshaling %T panicked (was it modified while being sent?): %v", v, r)
		}
	}()
	if err := m.ForySerializeTo(c.f, b); err != nil {
		c.putBuffer(b)
		return nil, marshalError(v, err)
	}
	wire := c.wireBuffer(b.Bytes())
	c.putBuffer(b)
	return mem.BufferSlice{wire}, nil
}

// smallWire is the largest message given a plain slice. grpc's default pool
// serves up to 256 bytes from a tier whose buffers are below mem's pooling
// threshold, which grpc never reference-counts or returns: taking one would
// only allocate with more steps. Larger messages come from the next tier
// (4 KiB), which grpc returns to the pool once the frame is written, so a
// message of a few hundred bytes costs no allocation for its bytes.
const smallWire = 256

// wireBuffer copies the written message into the buffer gRPC sends and
// frees.
func (c *Codec) wireBuffer(p []byte) mem.Buffer {
	if len(p) <= smallWire {
		return mem.SliceBuffer(append([]byte(nil), p...))
	}
	buf := c.pool.Get(len(p))
	copy(*buf, p)
	return mem.NewBuffer(buf, c.pool)
}

func (c *Codec) putBuffer(b *buffer.Buffer) {
	if len(b.Window()) <= maxPooledBuffer {
		c.bufs.Put(b)
	}
}

// Unmarshal reads one Fory message from data into v, a non-nil pointer to a
// generated type. A message in one buffer (the common case) is decoded in
// place; one split over several buffers is first copied into one pooled
// buffer. gRPC recycles data as soon as Unmarshal returns, which is safe
// because Deserialize never retains its input: decoded strings and byte
// slices are copies, and WithAliasStrings(true) aliases a private copy of
// the input (TestDecodedValuesOutliveBuffers holds the serializer to that).
// With WithZeroCopy(true) decoded values would view data, so the message
// is first copied into a new slice that gRPC does not recycle: one
// allocation per message, as with WithAliasStrings.
func (c *Codec) Unmarshal(data mem.BufferSlice, v any) (err error) {
	defer func() {
		// Decoding untrusted bytes must not take the server down; the
		// serializer is meant never to panic, this is the last line.
		if r := recover(); r != nil {
			err = fmt.Errorf("grpccodec: unmarshaling %T panicked: %v", v, r)
		}
	}()
	if _, ok := v.(serializer.Message); !ok {
		return unmarshalError(v, serializer.ErrNotGenerated)
	}
	if c.zeroCopy {
		err = c.f.Deserialize(data.Materialize(), v)
	} else if len(data) == 1 {
		err = c.f.Deserialize(data[0].ReadOnlyData(), v)
	} else {
		buf := data.MaterializeToBuffer(c.pool)
		err = c.f.Deserialize(buf.ReadOnlyData(), v)
		buf.Free()
	}
	if err != nil {
		return unmarshalError(v, err)
	}
	return nil
}

func marshalError(v any, err error) error {
	return fmt.Errorf("grpccodec: cannot marshal %T: %w", v, err)
}

func unmarshalError(v any, err error) error {
	if errors.Is(err, serializer.ErrNotGenerated) {
		return fmt.Errorf("grpccodec: cannot unmarshal into %T: %w", v, err)
	}
	return fmt.Errorf("grpccodec: unmarshaling %T: %w", v, err)
}
