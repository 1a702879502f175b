package codecs

import (
	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/benchmarks/fixtures/evolved"
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// foryPtr is a pointer to a type with forygen generated methods only (the
// evolved types have no msgp or protobuf twins).
type foryPtr[E any] interface {
	*E
	serializer.Message
}

// withEvolved gives f an evolved reader: the standard forygen writer of
// value (compatible mode), read into E, which project says the fixture value
// becomes.
func withEvolved[T any, PT plainPtr[T], E any, PE foryPtr[E]](f Fixture, value func() T, project func(*T) E) Fixture {
	f.NewEvolved = func() Codec {
		w := &forygenCodec[T, PT]{name: Forygen, f: serializer.New(), v: value(), buf: buffer.New(256)}
		return &evolvedCodec[T, PT, E, PE]{w: w, f: serializer.New()}
	}
	f.EvolvedValue = func() any {
		v := value()
		return project(&v)
	}
	return f
}

// evolvedCodec writes with the fixture's types and reads with the evolved
// ones. The reader has its own Fory, as a peer process would; the runtime
// parses the writer's Media TypeDef when it first sees it and then finds the
// field mapping in its cache.
type evolvedCodec[T any, PT plainPtr[T], E any, PE foryPtr[E]] struct {
	w     *forygenCodec[T, PT]
	f     *serializer.Fory
	out   E
	fresh *E
}

func (c *evolvedCodec[T, PT, E, PE]) Name() string { return Forygen }

func (c *evolvedCodec[T, PT, E, PE]) Marshal() ([]byte, error) { return c.w.Marshal() }

func (c *evolvedCodec[T, PT, E, PE]) Unmarshal(data []byte) error {
	return PE(&c.out).ForyDeserialize(c.f, data)
}

func (c *evolvedCodec[T, PT, E, PE]) Decoded() any { return c.out }

func (c *evolvedCodec[T, PT, E, PE]) UnmarshalFresh(data []byte) error {
	c.fresh = new(E)
	return PE(c.fresh).ForyDeserialize(c.f, data)
}

func (c *evolvedCodec[T, PT, E, PE]) DecodedFresh() any { return *c.fresh }

// evolvedMediaContent is v in the evolved types: Media.Format dropped,
// Media.Language zero.
func evolvedMediaContent(v *fixtures.MediaContent) evolved.MediaContent {
	m := v.Media
	out := evolved.MediaContent{
		Media: evolved.Media{
			URI: m.URI, Title: m.Title, Width: m.Width, Height: m.Height,
			Duration: m.Duration, Size: m.Size, Bitrate: m.Bitrate, HasBitrate: m.HasBitrate,
			Persons: append([]string{}, m.Persons...), Player: evolved.Player(m.Player), Copyright: m.Copyright,
		},
		Images: make([]evolved.Image, len(v.Images)),
	}
	for i, im := range v.Images {
		out.Images[i] = evolved.Image{URI: im.URI, Title: im.Title, Width: im.Width, Height: im.Height, Size: evolved.Size(im.Size)}
	}
	return out
}

func evolvedMediaContentList(v *fixtures.MediaContentList) evolved.MediaContentList {
	out := evolved.MediaContentList{MediaContentList: make([]evolved.MediaContent, len(v.MediaContentList))}
	for i := range v.MediaContentList {
		out.MediaContentList[i] = evolvedMediaContent(&v.MediaContentList[i])
	}
	return out
}
