// Package codecs puts every serializer the benchmarks compare behind one
// interface, so the correctness tests, the go test benchmarks and the report
// (cmd/report) measure exactly the same code.
//
// A Codec is bound to one fixture value: Marshal encodes that value and
// Unmarshal decodes into a target the codec keeps. Both reuse their buffers
// and targets wherever the codec's API allows, because that is how a
// throughput-minded user calls them:
//
//   - forygen, forygen-consistent, forygen-ref: one *buffer.Buffer, Reset before each
//     call of the generated ForySerializeTo (what Fory.SerializeTo calls
//     after a type assertion); ForyDeserialize into one reused value
//     (forygen's generated readers reset the value, reuse its slices'
//     storage and allocate fresh strings).
//   - protobuf: MarshalAppend into a reused slice; Unmarshal into one reused
//     message (proto.Unmarshal resets it first, dropping its slices).
//   - protobuf-convert: as protobuf, plus the plain struct ↔ message
//     conversion (fixtures.ToProto*/FromProto*) inside every call, as Fory's
//     own benchmark does: the cost an application with plain structs pays.
//   - vtprotobuf: SizeVT, then MarshalToSizedBufferVT into a reused slice;
//     ResetVT and UnmarshalVT into one reused message. ResetVT comes with
//     vtprotobuf's pool feature (pb/gen.sh turns it on for every message): it
//     keeps the repeated fields' backing arrays and resets their elements in
//     place, and the pooled UnmarshalVT fills them again, so vtprotobuf
//     reuses slices as forygen and msgp do. (UnmarshalVT appends to repeated
//     fields, so a reset is required.)
//   - msgp: MarshalMsg(buf[:0]); UnmarshalMsg into one reused value, which
//     msgp's generated code decodes in place, reusing slice capacity. Structs
//     are maps keyed by field name, msgp's default.
//   - msgp-tuple: the same calls on the types of package fixtures/msgptuple,
//     generated with //msgp:tuple (structs as arrays of their fields, which
//     msgp users who care about speed choose). Those types have the
//     fixtures' layout, so the codec views the fixture value and its targets
//     through a pointer conversion, without copying.
//
// UnmarshalFresh decodes into a new zero value instead (a new plain struct
// for forygen and msgp, a new message for protobuf and vtprotobuf), as a
// program that keeps every decoded message does: nothing is reused, so every
// slice and nested message is allocated.
//
// Fixture.NewEvolved (MediaContent and MediaContentList) is forygen reading
// those bytes with a later schema (package fixtures/evolved).
package codecs

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/benchmarks/fixtures/msgptuple"
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
	"google.golang.org/protobuf/proto"
)

// Codec names, in the order tables and charts list them.
const (
	Forygen           = "forygen"
	ForygenConsistent = "forygen-consistent"
	// ForygenRef is forygen with reference tracking (WithTrackRef), as
	// Fory's IDL compiler sets up every peer: nothing in the fixtures is
	// shared, so it measures what tracking costs.
	ForygenRef      = "forygen-ref"
	Protobuf        = "protobuf"
	ProtobufConvert = "protobuf-convert"
	VTProtobuf      = "vtprotobuf"
	Msgp            = "msgp"
	// MsgpTuple is msgp with //msgp:tuple (package fixtures/msgptuple).
	MsgpTuple = "msgp-tuple"
)

// Names lists every codec.
var Names = []string{Forygen, ForygenConsistent, ForygenRef, Protobuf, ProtobufConvert, VTProtobuf, Msgp, MsgpTuple}

// Fixture names, in the order tables and charts list them.
var FixtureNames = []string{"NumericStruct", "Sample", "MediaContent", "NumericStructList", "SampleList", "MediaContentList", "SmallMessage"}

// Codec encodes one fixture value and decodes into a target it keeps.
type Codec interface {
	// Name is the codec's name (one of Names).
	Name() string
	// Marshal encodes the codec's fixture value. The bytes stay valid until
	// the next Marshal call, which reuses the buffer.
	Marshal() ([]byte, error)
	// Unmarshal decodes one whole message into the codec's reused target.
	Unmarshal(data []byte) error
	// Decoded returns the target of the last Unmarshal as the fixture's
	// plain struct (converting from protobuf where needed). It may share
	// memory with the target, so it is valid until the next Unmarshal.
	Decoded() any
	// UnmarshalFresh decodes one whole message into a new zero value (a
	// new message for protobuf and vtprotobuf), which the codec keeps
	// until the next call.
	UnmarshalFresh(data []byte) error
	// DecodedFresh returns the value of the last UnmarshalFresh as Decoded
	// does.
	DecodedFresh() any
}

// Fixture is one benchmark data set.
type Fixture struct {
	// Name is the fixture's name (one of FixtureNames).
	Name string
	// Value returns a fresh copy of the fixture's plain struct.
	Value func() any
	// New returns the named codec bound to a fresh copy of the value.
	New func(codec string) (Codec, error)
	// NewEvolved, nil for fixtures without an evolved schema, returns a
	// forygen codec (compatible mode) whose Marshal writes the fixture value
	// as New(Forygen) does and whose Unmarshal and UnmarshalFresh read those
	// bytes into the evolved schema's types (package fixtures/evolved), with
	// their own Fory, as a reader with a later version of the schema would.
	// Its Decoded and DecodedFresh return the evolved value.
	NewEvolved func() Codec
	// EvolvedValue, nil where NewEvolved is, returns what the evolved
	// reader decodes: the fixture value in the evolved types (the removed
	// field dropped, the added one zero).
	EvolvedValue func() any
}

// EvolvedNames lists the fixtures that have an evolved reader, in
// FixtureNames order.
var EvolvedNames = []string{"MediaContent", "MediaContentList"}

// Fixtures returns all fixtures in FixtureNames order.
func Fixtures() []Fixture {
	return []Fixture{
		withTuple[fixtures.NumericStruct, msgptuple.NumericStruct](
			fixture("NumericStruct", fixtures.NewNumericStruct, fixtures.ToProtoNumericStruct, fixtures.FromProtoNumericStruct),
			fixtures.NewNumericStruct),
		withTuple[fixtures.Sample, msgptuple.Sample](
			fixture("Sample", fixtures.NewSample, fixtures.ToProtoSample, fixtures.FromProtoSample),
			fixtures.NewSample),
		withTuple[fixtures.MediaContent, msgptuple.MediaContent](
			withEvolved(fixture("MediaContent", fixtures.NewMediaContent, fixtures.ToProtoMediaContent, fixtures.FromProtoMediaContent),
				fixtures.NewMediaContent, evolvedMediaContent),
			fixtures.NewMediaContent),
		withTuple[fixtures.NumericStructList, msgptuple.NumericStructList](
			fixture("NumericStructList", fixtures.NewNumericStructList, fixtures.ToProtoNumericStructList, fixtures.FromProtoNumericStructList),
			fixtures.NewNumericStructList),
		withTuple[fixtures.SampleList, msgptuple.SampleList](
			fixture("SampleList", fixtures.NewSampleList, fixtures.ToProtoSampleList, fixtures.FromProtoSampleList),
			fixtures.NewSampleList),
		withTuple[fixtures.MediaContentList, msgptuple.MediaContentList](
			withEvolved(fixture("MediaContentList", fixtures.NewMediaContentList, fixtures.ToProtoMediaContentList, fixtures.FromProtoMediaContentList),
				fixtures.NewMediaContentList, evolvedMediaContentList),
			fixtures.NewMediaContentList),
		withTuple[fixtures.SmallMessage, msgptuple.SmallMessage](
			fixture("SmallMessage", fixtures.NewSmallMessage, fixtures.ToProtoSmallMessage, fixtures.FromProtoSmallMessage),
			fixtures.NewSmallMessage),
	}
}

// Select returns the fixtures and codec names listed in the comma-separated
// lists (empty or "all" selects everything), in canonical order.
func Select(fixtureList, codecList string) ([]Fixture, []string, error) {
	fx, err := pick(fixtureList, FixtureNames, "fixture")
	if err != nil {
		return nil, nil, err
	}
	cs, err := pick(codecList, Names, "codec")
	if err != nil {
		return nil, nil, err
	}
	var out []Fixture
	for _, f := range Fixtures() {
		for _, n := range fx {
			if f.Name == n {
				out = append(out, f)
			}
		}
	}
	return out, cs, nil
}

func pick(list string, all []string, what string) ([]string, error) {
	list = strings.TrimSpace(list)
	if list == "" || list == "all" {
		return all, nil
	}
	want := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		found := false
		for _, a := range all {
			if strings.EqualFold(a, s) {
				want[a], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown %s %q (known: %s)", what, s, strings.Join(all, ", "))
		}
	}
	var out []string
	for _, a := range all {
		if want[a] {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no %s selected", what)
	}
	return out, nil
}

// plainPtr is a pointer to a fixture's plain struct: forygen and msgp
// generated methods.
type plainPtr[T any] interface {
	*T
	serializer.Message
	MarshalMsg(b []byte) ([]byte, error)
	UnmarshalMsg(b []byte) ([]byte, error)
}

// protoPtr is a pointer to a fixture's protobuf message: protobuf-go and
// vtprotobuf generated methods.
type protoPtr[M any] interface {
	*M
	proto.Message
	ResetVT()
	SizeVT() int
	MarshalToSizedBufferVT(b []byte) (int, error)
	UnmarshalVT(b []byte) error
}

func fixture[T any, PT plainPtr[T], M any, PM protoPtr[M]](name string, value func() T, to func(*T) PM, from func(PM) T) Fixture {
	return Fixture{
		Name:  name,
		Value: func() any { return value() },
		New: func(codec string) (Codec, error) {
			switch codec {
			case Forygen:
				return &forygenCodec[T, PT]{name: codec, f: serializer.New(), v: value(), buf: buffer.New(256)}, nil
			case ForygenConsistent:
				return &forygenCodec[T, PT]{name: codec, f: serializer.New(serializer.WithCompatible(false)), v: value(), buf: buffer.New(256)}, nil
			case ForygenRef:
				return &forygenCodec[T, PT]{name: codec, f: serializer.New(serializer.WithTrackRef(true)), v: value(), buf: buffer.New(256)}, nil
			case Protobuf:
				v := value()
				return &protobufCodec[T, M, PM]{msg: to(&v), out: PM(new(M)), from: from}, nil
			case ProtobufConvert:
				return &protobufConvertCodec[T, M, PM]{v: value(), msg: PM(new(M)), to: to, from: from}, nil
			case VTProtobuf:
				v := value()
				return &vtprotobufCodec[T, M, PM]{msg: to(&v), out: PM(new(M)), from: from}, nil
			case Msgp:
				return &msgpCodec[T, PT]{v: value()}, nil
			}
			return nil, fmt.Errorf("unknown codec %q", codec)
		},
	}
}

type forygenCodec[T any, PT plainPtr[T]] struct {
	name  string
	f     *serializer.Fory
	v     T
	buf   *buffer.Buffer
	out   T
	fresh *T
}

func (c *forygenCodec[T, PT]) Name() string { return c.name }

func (c *forygenCodec[T, PT]) Marshal() ([]byte, error) {
	c.buf.Reset()
	if err := PT(&c.v).ForySerializeTo(c.f, c.buf); err != nil {
		return nil, err
	}
	return c.buf.Bytes(), nil
}

func (c *forygenCodec[T, PT]) Unmarshal(data []byte) error {
	return PT(&c.out).ForyDeserialize(c.f, data)
}

func (c *forygenCodec[T, PT]) Decoded() any { return c.out }

func (c *forygenCodec[T, PT]) UnmarshalFresh(data []byte) error {
	c.fresh = new(T)
	return PT(c.fresh).ForyDeserialize(c.f, data)
}

func (c *forygenCodec[T, PT]) DecodedFresh() any { return *c.fresh }

type protobufCodec[T, M any, PM protoPtr[M]] struct {
	msg   PM
	buf   []byte
	out   PM
	fresh PM
	from  func(PM) T
}

func (c *protobufCodec[T, M, PM]) Name() string { return Protobuf }

func (c *protobufCodec[T, M, PM]) Marshal() ([]byte, error) {
	b, err := proto.MarshalOptions{}.MarshalAppend(c.buf[:0], c.msg)
	c.buf = b
	return b, err
}

func (c *protobufCodec[T, M, PM]) Unmarshal(data []byte) error { return proto.Unmarshal(data, c.out) }

func (c *protobufCodec[T, M, PM]) Decoded() any { return c.from(c.out) }

func (c *protobufCodec[T, M, PM]) UnmarshalFresh(data []byte) error {
	c.fresh = PM(new(M))
	return proto.Unmarshal(data, c.fresh)
}

func (c *protobufCodec[T, M, PM]) DecodedFresh() any { return c.from(c.fresh) }

type protobufConvertCodec[T, M any, PM protoPtr[M]] struct {
	v     T
	buf   []byte
	msg   PM
	out   T
	fresh *T
	to    func(*T) PM
	from  func(PM) T
}

func (c *protobufConvertCodec[T, M, PM]) Name() string { return ProtobufConvert }

func (c *protobufConvertCodec[T, M, PM]) Marshal() ([]byte, error) {
	b, err := proto.MarshalOptions{}.MarshalAppend(c.buf[:0], c.to(&c.v))
	c.buf = b
	return b, err
}

func (c *protobufConvertCodec[T, M, PM]) Unmarshal(data []byte) error {
	if err := proto.Unmarshal(data, c.msg); err != nil {
		return err
	}
	c.out = c.from(c.msg)
	return nil
}

func (c *protobufConvertCodec[T, M, PM]) Decoded() any { return c.out }

// UnmarshalFresh decodes into a new message and converts it into a new plain
// struct.
func (c *protobufConvertCodec[T, M, PM]) UnmarshalFresh(data []byte) error {
	msg := PM(new(M))
	if err := proto.Unmarshal(data, msg); err != nil {
		return err
	}
	c.fresh = new(T)
	*c.fresh = c.from(msg)
	return nil
}

func (c *protobufConvertCodec[T, M, PM]) DecodedFresh() any { return *c.fresh }

type vtprotobufCodec[T, M any, PM protoPtr[M]] struct {
	msg   PM
	buf   []byte
	out   PM
	fresh PM
	from  func(PM) T
}

func (c *vtprotobufCodec[T, M, PM]) Name() string { return VTProtobuf }

func (c *vtprotobufCodec[T, M, PM]) Marshal() ([]byte, error) {
	n := c.msg.SizeVT()
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	b := c.buf[:n]
	// MarshalToSizedBufferVT writes backwards from the end of b; with
	// len(b) == SizeVT() it fills b exactly.
	if _, err := c.msg.MarshalToSizedBufferVT(b); err != nil {
		return nil, err
	}
	return b, nil
}

// Unmarshal resets the reused message with ResetVT (pool feature), which
// keeps its repeated fields' storage for UnmarshalVT to fill again.
func (c *vtprotobufCodec[T, M, PM]) Unmarshal(data []byte) error {
	c.out.ResetVT()
	return c.out.UnmarshalVT(data)
}

func (c *vtprotobufCodec[T, M, PM]) Decoded() any { return c.from(c.out) }

func (c *vtprotobufCodec[T, M, PM]) UnmarshalFresh(data []byte) error {
	c.fresh = PM(new(M))
	return c.fresh.UnmarshalVT(data)
}

func (c *vtprotobufCodec[T, M, PM]) DecodedFresh() any { return c.from(c.fresh) }

type msgpCodec[T any, PT plainPtr[T]] struct {
	v     T
	buf   []byte
	out   T
	fresh *T
}

func (c *msgpCodec[T, PT]) Name() string { return Msgp }

func (c *msgpCodec[T, PT]) Marshal() ([]byte, error) {
	b, err := PT(&c.v).MarshalMsg(c.buf[:0])
	c.buf = b
	return b, err
}

// errTrailing reports bytes after a msgp message; forygen and protobuf reject
// (or, for protobuf, consume) everything in the input, so msgp checks too.
var errTrailing = errors.New("msgp: trailing bytes after the message")

func (c *msgpCodec[T, PT]) Unmarshal(data []byte) error {
	rest, err := PT(&c.out).UnmarshalMsg(data)
	if err == nil && len(rest) != 0 {
		err = errTrailing
	}
	return err
}

func (c *msgpCodec[T, PT]) Decoded() any { return c.out }

func (c *msgpCodec[T, PT]) UnmarshalFresh(data []byte) error {
	c.fresh = new(T)
	rest, err := PT(c.fresh).UnmarshalMsg(data)
	if err == nil && len(rest) != 0 {
		err = errTrailing
	}
	return err
}

func (c *msgpCodec[T, PT]) DecodedFresh() any { return *c.fresh }

// tuplePtr is a pointer to a fixture's twin in package msgptuple: msgp's
// tuple-form generated methods.
type tuplePtr[U any] interface {
	*U
	MarshalMsg(b []byte) ([]byte, error)
	UnmarshalMsg(b []byte) ([]byte, error)
}

// withTuple adds the msgp-tuple codec to f: msgp's tuple form on U, the
// msgptuple twin of the fixture type T. U has T's layout (checked here by
// size, and field by field by msgptuple's TestLayoutMatchesFixtures), so the
// codec converts pointers between them: no copy inside or outside the loop.
func withTuple[T, U any, PU tuplePtr[U]](f Fixture, value func() T) Fixture {
	if unsafe.Sizeof(*new(T)) != unsafe.Sizeof(*new(U)) {
		panic(fmt.Sprintf("codecs: %s: msgptuple's type is not the fixture's layout", f.Name))
	}
	plain := f.New
	f.New = func(codec string) (Codec, error) {
		if codec != MsgpTuple {
			return plain(codec)
		}
		v := value()
		return &msgpTupleCodec[T, U, PU]{v: (*U)(unsafe.Pointer(&v))}, nil
	}
	return f
}

type msgpTupleCodec[T, U any, PU tuplePtr[U]] struct {
	v     *U
	buf   []byte
	out   U
	fresh *U
}

func (c *msgpTupleCodec[T, U, PU]) Name() string { return MsgpTuple }

func (c *msgpTupleCodec[T, U, PU]) Marshal() ([]byte, error) {
	b, err := PU(c.v).MarshalMsg(c.buf[:0])
	c.buf = b
	return b, err
}

func (c *msgpTupleCodec[T, U, PU]) Unmarshal(data []byte) error {
	rest, err := PU(&c.out).UnmarshalMsg(data)
	if err == nil && len(rest) != 0 {
		err = errTrailing
	}
	return err
}

func (c *msgpTupleCodec[T, U, PU]) Decoded() any { return *(*T)(unsafe.Pointer(&c.out)) }

func (c *msgpTupleCodec[T, U, PU]) UnmarshalFresh(data []byte) error {
	c.fresh = new(U)
	rest, err := PU(c.fresh).UnmarshalMsg(data)
	if err == nil && len(rest) != 0 {
		err = errTrailing
	}
	return err
}

func (c *msgpTupleCodec[T, U, PU]) DecodedFresh() any { return *(*T)(unsafe.Pointer(c.fresh)) }
