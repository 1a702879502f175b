package benchmarks

import (
	"bytes"
	"testing"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
)

// BenchmarkSerialize/<Fixture>/<codec> encodes the fixture value into the
// codec's reused buffer (see package codecs for how each codec is called).
// SetBytes is the encoded size, so MB/s compares throughput of payload.
func BenchmarkSerialize(b *testing.B) {
	for _, f := range codecs.Fixtures() {
		b.Run(f.Name, func(b *testing.B) {
			for _, name := range codecs.Names {
				b.Run(name, func(b *testing.B) {
					c := newCodec(b, f, name)
					data, err := c.Marshal()
					if err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := c.Marshal(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkDeserialize/<Fixture>/<codec> decodes the codec's own encoding of
// the fixture into the codec's reused target.
func BenchmarkDeserialize(b *testing.B) {
	for _, f := range codecs.Fixtures() {
		b.Run(f.Name, func(b *testing.B) {
			for _, name := range codecs.Names {
				b.Run(name, func(b *testing.B) {
					c := newCodec(b, f, name)
					data, err := c.Marshal()
					if err != nil {
						b.Fatal(err)
					}
					data = bytes.Clone(data)
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if err := c.Unmarshal(data); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkDeserializeFresh/<Fixture>/<codec> decodes the codec's own
// encoding of the fixture into a new zero value on every iteration (a new
// plain struct for forygen and msgp, a new message for protobuf and
// vtprotobuf): nothing is reused, as in a program that keeps every message it
// decodes.
func BenchmarkDeserializeFresh(b *testing.B) {
	for _, f := range codecs.Fixtures() {
		b.Run(f.Name, func(b *testing.B) {
			for _, name := range codecs.Names {
				b.Run(name, func(b *testing.B) {
					c := newCodec(b, f, name)
					data, err := c.Marshal()
					if err != nil {
						b.Fatal(err)
					}
					data = bytes.Clone(data)
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if err := c.UnmarshalFresh(data); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkDeserializeEvolved/<Fixture>/forygen (MediaContent and
// MediaContentList) decodes the bytes the forygen codec (compatible mode)
// writes for the fixture with a reader whose schema has evolved (package
// fixtures/evolved: Media has lost one field and gained another), into one
// reused value, as BenchmarkDeserialize does.
func BenchmarkDeserializeEvolved(b *testing.B) {
	for _, f := range codecs.Fixtures() {
		if f.NewEvolved == nil {
			continue
		}
		b.Run(f.Name, func(b *testing.B) {
			b.Run(codecs.Forygen, func(b *testing.B) {
				if err := codecs.VerifyEvolved(f); err != nil {
					b.Fatal(err)
				}
				c := f.NewEvolved()
				data, err := c.Marshal()
				if err != nil {
					b.Fatal(err)
				}
				data = bytes.Clone(data)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := c.Unmarshal(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// newCodec returns the codec after checking it round-trips the fixture, so a
// benchmark never measures a codec that gives wrong results.
func newCodec(b *testing.B, f codecs.Fixture, name string) codecs.Codec {
	b.Helper()
	if _, err := codecs.Verify(f, []string{name}); err != nil {
		b.Fatal(err)
	}
	c, err := f.New(name)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// TestBenchmarkNames keeps the benchmark matrix in step with the codecs
// package: names are part of the published results.
func TestBenchmarkNames(t *testing.T) {
	want := []string{"forygen", "forygen-consistent", "forygen-ref", "protobuf", "protobuf-convert", "vtprotobuf", "msgp", "msgp-tuple"}
	if !equal(codecs.Names, want) {
		t.Fatalf("codec names %v, want %v", codecs.Names, want)
	}
	wantFx := []string{"NumericStruct", "Sample", "MediaContent", "NumericStructList", "SampleList", "MediaContentList", "SmallMessage"}
	if !equal(codecs.FixtureNames, wantFx) {
		t.Fatalf("fixture names %v, want %v", codecs.FixtureNames, wantFx)
	}
	var evolved []string
	for _, f := range codecs.Fixtures() {
		if f.NewEvolved != nil {
			evolved = append(evolved, f.Name)
		}
	}
	if want := []string{"MediaContent", "MediaContentList"}; !equal(evolved, want) || !equal(codecs.EvolvedNames, want) {
		t.Fatalf("fixtures with an evolved reader %v (EvolvedNames %v), want %v", evolved, codecs.EvolvedNames, want)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
