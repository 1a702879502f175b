package codecs

import (
	"fmt"

	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/benchmarks/idlfixtures"
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// The IDL comparison (issue 30): package idlfixtures, what forygen idl
// writes from idl/bench.fdl, against the hand-annotated types of package
// fixtures, with the same Fory options on both sides. A cell is named
// <source>-<options>: source hand (package fixtures) or idl (package
// idlfixtures); options as the forygen codecs' (compatible: serializer.New();
// consistent: WithCompatible(false); ref: WithTrackRef(true), the options
// foryc's generated Go uses). Marshal, Unmarshal and UnmarshalFresh are the
// forygen codecs' calls.
const (
	IDLHand = "hand"
	IDLIDL  = "idl"
)

// IDLSources lists the two sides, IDLOptions the option sets, in table order.
var (
	IDLSources = []string{IDLHand, IDLIDL}
	IDLOptions = []string{"ref", "compatible", "consistent"}
)

// idlFory returns a Fory with the named option set.
func idlFory(options string) (*serializer.Fory, error) {
	switch options {
	case "compatible":
		return serializer.New(), nil
	case "consistent":
		return serializer.New(serializer.WithCompatible(false)), nil
	case "ref":
		return serializer.New(serializer.WithTrackRef(true)), nil
	}
	return nil, fmt.Errorf("unknown options %q", options)
}

// IDLFixture is one fixture in both sources.
type IDLFixture struct {
	Name string
	// Hand and IDL return fresh copies of the fixture value in each source.
	Hand, IDL func() any
	// New returns the cell's codec (source IDLHand or IDLIDL).
	New func(source, options string) (Codec, error)
	// SameShape reports whether the two sources write the same bytes.
	SameShape bool
}

// IDLFixtures returns the fixtures of FixtureNames in both sources.
func IDLFixtures() []IDLFixture {
	return []IDLFixture{
		idlFixture("NumericStruct", fixtures.NewNumericStruct, func() idlfixtures.NumericStruct { return IDLNumericStruct(fixtures.NewNumericStruct()) }, true),
		idlFixture("Sample", fixtures.NewSample, func() idlfixtures.Sample { return IDLSample(fixtures.NewSample()) }, true),
		idlFixture("MediaContent", fixtures.NewMediaContent, func() idlfixtures.MediaContent { return IDLMediaContent(fixtures.NewMediaContent()) }, false),
		idlFixture("NumericStructList", fixtures.NewNumericStructList, func() idlfixtures.NumericStructList { return IDLNumericStructList(fixtures.NewNumericStructList()) }, true),
		idlFixture("SampleList", fixtures.NewSampleList, func() idlfixtures.SampleList { return IDLSampleList(fixtures.NewSampleList()) }, true),
		idlFixture("MediaContentList", fixtures.NewMediaContentList, func() idlfixtures.MediaContentList { return IDLMediaContentList(fixtures.NewMediaContentList()) }, false),
		idlFixture("SmallMessage", fixtures.NewSmallMessage, func() idlfixtures.SmallMessage { return IDLSmallMessage(fixtures.NewSmallMessage()) }, true),
	}
}

type message[T any] interface {
	*T
	serializer.Message
}

func idlFixture[H any, PH message[H], I any, PI message[I]](name string, hand func() H, idl func() I, same bool) IDLFixture {
	return IDLFixture{
		Name:      name,
		Hand:      func() any { return hand() },
		IDL:       func() any { return idl() },
		SameShape: same,
		New: func(source, options string) (Codec, error) {
			f, err := idlFory(options)
			if err != nil {
				return nil, err
			}
			switch source {
			case IDLHand:
				return &messageCodec[H, PH]{name: source + "-" + options, f: f, v: hand(), buf: buffer.New(256)}, nil
			case IDLIDL:
				return &messageCodec[I, PI]{name: source + "-" + options, f: f, v: idl(), buf: buffer.New(256)}, nil
			}
			return nil, fmt.Errorf("unknown source %q", source)
		},
	}
}

// messageCodec is forygenCodec for any generated message type.
type messageCodec[T any, PT message[T]] struct {
	name  string
	f     *serializer.Fory
	v     T
	buf   *buffer.Buffer
	out   T
	fresh *T
}

func (c *messageCodec[T, PT]) Name() string { return c.name }

func (c *messageCodec[T, PT]) Marshal() ([]byte, error) {
	c.buf.Reset()
	if err := PT(&c.v).ForySerializeTo(c.f, c.buf); err != nil {
		return nil, err
	}
	return c.buf.Bytes(), nil
}

func (c *messageCodec[T, PT]) Unmarshal(data []byte) error {
	return PT(&c.out).ForyDeserialize(c.f, data)
}

func (c *messageCodec[T, PT]) Decoded() any { return c.out }

func (c *messageCodec[T, PT]) UnmarshalFresh(data []byte) error {
	c.fresh = new(T)
	return PT(c.fresh).ForyDeserialize(c.f, data)
}

func (c *messageCodec[T, PT]) DecodedFresh() any { return *c.fresh }

// IDLNumericStruct and the functions below convert a fixture value into its
// idlfixtures twin (field by field where the Go types differ: IDL names
// URI Uri, gives Go's int as int64 and a message field as a pointer).
func IDLNumericStruct(v fixtures.NumericStruct) idlfixtures.NumericStruct {
	return idlfixtures.NumericStruct(v)
}

func IDLSample(v fixtures.Sample) idlfixtures.Sample { return idlfixtures.Sample(v) }

func IDLMedia(v fixtures.Media) idlfixtures.Media {
	return idlfixtures.Media{
		Uri: v.URI, Title: v.Title, Width: v.Width, Height: v.Height, Format: v.Format,
		Duration: v.Duration, Size: v.Size, Bitrate: v.Bitrate, HasBitrate: v.HasBitrate,
		Persons: v.Persons, Player: idlfixtures.Player(v.Player), Copyright: v.Copyright,
	}
}

func IDLImage(v fixtures.Image) idlfixtures.Image {
	return idlfixtures.Image{Uri: v.URI, Title: v.Title, Width: v.Width, Height: v.Height, Size: idlfixtures.Size(v.Size)}
}

func IDLMediaContent(v fixtures.MediaContent) idlfixtures.MediaContent {
	m := IDLMedia(v.Media)
	out := idlfixtures.MediaContent{Media: &m}
	if v.Images != nil {
		out.Images = make([]idlfixtures.Image, len(v.Images))
		for i, im := range v.Images {
			out.Images[i] = IDLImage(im)
		}
	}
	return out
}

func IDLNumericStructList(v fixtures.NumericStructList) idlfixtures.NumericStructList {
	out := idlfixtures.NumericStructList{NumericStructs: make([]idlfixtures.NumericStruct, len(v.NumericStructs))}
	for i, x := range v.NumericStructs {
		out.NumericStructs[i] = IDLNumericStruct(x)
	}
	return out
}

func IDLSampleList(v fixtures.SampleList) idlfixtures.SampleList {
	out := idlfixtures.SampleList{SampleList: make([]idlfixtures.Sample, len(v.SampleList))}
	for i, x := range v.SampleList {
		out.SampleList[i] = IDLSample(x)
	}
	return out
}

func IDLMediaContentList(v fixtures.MediaContentList) idlfixtures.MediaContentList {
	out := idlfixtures.MediaContentList{MediaContentList: make([]idlfixtures.MediaContent, len(v.MediaContentList))}
	for i, x := range v.MediaContentList {
		out.MediaContentList[i] = IDLMediaContent(x)
	}
	return out
}

func IDLSmallMessage(v fixtures.SmallMessage) idlfixtures.SmallMessage {
	return idlfixtures.SmallMessage{Name: v.Name, BirthDay: v.BirthDay, Phone: v.Phone, Siblings: int64(v.Siblings), Spouse: v.Spouse, Money: v.Money}
}
