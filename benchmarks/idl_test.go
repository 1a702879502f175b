package benchmarks

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
)

// BenchmarkIDL/<Direction>/<Fixture>/<source>-<options> measures the hand
// fixtures (source hand, package fixtures) and forygen idl's output of the
// same schema (source idl, package idlfixtures from idl/bench.fdl) under the
// same Fory options (codecs.IDLOptions): Serialize, Deserialize (into a
// reused target) and DeserializeFresh, as BenchmarkSerialize,
// BenchmarkDeserialize and BenchmarkDeserializeFresh do.
// instructions.sh idl counts their instructions.
func BenchmarkIDL(b *testing.B) {
	for _, dir := range []string{"Serialize", "Deserialize", "DeserializeFresh"} {
		b.Run(dir, func(b *testing.B) {
			for _, f := range codecs.IDLFixtures() {
				b.Run(f.Name, func(b *testing.B) {
					for _, opt := range codecs.IDLOptions {
						for _, src := range codecs.IDLSources {
							b.Run(src+"-"+opt, func(b *testing.B) {
								c := idlCodec(b, f, src, opt)
								data, err := c.Marshal()
								if err != nil {
									b.Fatal(err)
								}
								data = bytes.Clone(data)
								b.SetBytes(int64(len(data)))
								b.ReportAllocs()
								b.ResetTimer()
								for i := 0; i < b.N; i++ {
									switch dir {
									case "Serialize":
										_, err = c.Marshal()
									case "Deserialize":
										err = c.Unmarshal(data)
									default:
										err = c.UnmarshalFresh(data)
									}
									if err != nil {
										b.Fatal(err)
									}
								}
							})
						}
					}
				})
			}
		})
	}
}

// idlCodec returns the cell's codec after checking that it round-trips its
// value twice, through the reused target and into new values.
func idlCodec(tb testing.TB, f codecs.IDLFixture, src, opt string) codecs.Codec {
	tb.Helper()
	want := f.Hand()
	if src == codecs.IDLIDL {
		want = f.IDL()
	}
	c, err := f.New(src, opt)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		data, err := c.Marshal()
		if err != nil {
			tb.Fatalf("%s/%s: marshal: %v", f.Name, c.Name(), err)
		}
		data = bytes.Clone(data)
		if err := c.Unmarshal(data); err != nil {
			tb.Fatalf("%s/%s: unmarshal: %v", f.Name, c.Name(), err)
		}
		if got := c.Decoded(); !reflect.DeepEqual(got, want) {
			tb.Fatalf("%s/%s: round trip #%d differs:\n got %+v\nwant %+v", f.Name, c.Name(), i+1, got, want)
		}
		if err := c.UnmarshalFresh(data); err != nil {
			tb.Fatalf("%s/%s: unmarshal fresh: %v", f.Name, c.Name(), err)
		}
		if got := c.DecodedFresh(); !reflect.DeepEqual(got, want) {
			tb.Fatalf("%s/%s: fresh round trip #%d differs:\n got %+v\nwant %+v", f.Name, c.Name(), i+1, got, want)
		}
	}
	return c
}

// TestIDLFixtures: the IDL types round-trip the benchmark data in every
// option set, and where the IDL gives the fixtures' wire shape
// (SameShape: all but MediaContent and MediaContentList, whose media field
// IDL makes nullable) their bytes are the hand fixtures' bytes; where it
// does not, the bytes differ.
func TestIDLFixtures(t *testing.T) {
	if got := len(codecs.IDLFixtures()); got != len(codecs.FixtureNames) {
		t.Fatalf("%d IDL fixtures, want %d", got, len(codecs.FixtureNames))
	}
	for i, f := range codecs.IDLFixtures() {
		if f.Name != codecs.FixtureNames[i] {
			t.Fatalf("IDL fixture %d is %s, want %s", i, f.Name, codecs.FixtureNames[i])
		}
		for _, opt := range codecs.IDLOptions {
			hand, err := idlCodec(t, f, codecs.IDLHand, opt).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			hand = bytes.Clone(hand)
			idl, err := idlCodec(t, f, codecs.IDLIDL, opt).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if eq := bytes.Equal(hand, idl); eq != f.SameShape {
				t.Errorf("%s/%s: hand and IDL bytes equal = %v, want %v (%d and %d bytes)", f.Name, opt, eq, f.SameShape, len(hand), len(idl))
			}
		}
	}
}

// TestIDLFixturesCrossRead: in compatible mode each side reads the other's
// bytes, also for MediaContent and MediaContentList, whose TypeDefs differ
// only in the nullability of Media: the difference is the field's flag
// byte, not the data.
func TestIDLFixturesCrossRead(t *testing.T) {
	for _, f := range codecs.IDLFixtures() {
		for _, opt := range []string{"compatible", "ref"} {
			hand := idlCodec(t, f, codecs.IDLHand, opt)
			idl := idlCodec(t, f, codecs.IDLIDL, opt)
			data, err := hand.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if err := idl.UnmarshalFresh(bytes.Clone(data)); err != nil {
				t.Errorf("%s/%s: the IDL type reading the hand fixture's bytes: %v", f.Name, opt, err)
			} else if got, want := idl.DecodedFresh(), f.IDL(); !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: the IDL type read the hand fixture's bytes as %+v, want %+v", f.Name, opt, got, want)
			}
			if data, err = idl.Marshal(); err != nil {
				t.Fatal(err)
			}
			if err := hand.UnmarshalFresh(bytes.Clone(data)); err != nil {
				t.Errorf("%s/%s: the hand fixture reading the IDL type's bytes: %v", f.Name, opt, err)
			} else if got, want := hand.DecodedFresh(), f.Hand(); !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: the hand fixture read the IDL type's bytes as %+v, want %+v", f.Name, opt, got, want)
			}
		}
	}
}
