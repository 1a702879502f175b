package benchmarks

import (
	"strings"
	"testing"

	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// textCases are the strings of BenchmarkStrings/Decode: short and long
// ASCII, a long string whose first character is not ASCII (the UTF-8
// check hands it to utf8.Valid at once) and one of two-byte characters
// only.
var textCases = []struct{ name, s string }{
	{"ascii10", "0123456789"},
	{"ascii100", strings.Repeat("0123456789", 10)},
	{"ascii1M", strings.Repeat("a", 1<<20)},
	{"lead-e-1M", "é" + strings.Repeat("a", 1<<20-2)},
	{"e-1M", strings.Repeat("é", 1<<19)},
}

// BenchmarkStrings/Decode/<case> decodes a fixtures.Text holding one string
// into a reused value with the default options (UTF-8 checked, copied).
// BenchmarkStrings/Serialize/<fixture>/<check|nocheck> serializes the
// fixture with the write-side UTF-8 check on (the default) and off
// (WithUTF8Validation(false)).
func BenchmarkStrings(b *testing.B) {
	f := serializer.New()
	for _, tc := range textCases {
		b.Run("Decode/"+tc.name, func(b *testing.B) {
			// Encoded here, not for every cell: a profile of one cell
			// then shows no other cell's setup.
			in := fixtures.Text{S: tc.s}
			data, err := serializer.Serialize(&in)
			if err != nil {
				b.Fatal(err)
			}
			var out fixtures.Text
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.s)))
			for i := 0; i < b.N; i++ {
				if err := out.ForyDeserialize(f, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	mc, l := fixtures.NewMediaContent(), fixtures.NewMediaContentList()
	for _, fx := range []struct {
		name string
		v    serializer.Message
	}{{"MediaContent", &mc}, {"MediaContentList", &l}} {
		for _, mode := range []struct {
			name string
			f    *serializer.Fory
		}{{"check", f}, {"nocheck", serializer.New(serializer.WithUTF8Validation(false))}} {
			b.Run("Serialize/"+fx.name+"/"+mode.name, func(b *testing.B) {
				buf := buffer.New(1 << 14)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					buf.Reset()
					if err := fx.v.ForySerializeTo(mode.f, buf); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
