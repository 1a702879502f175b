package marshal

import (
	"testing"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/conformance/marshal/peer"
	"github.com/forygen/forygen/serializer"
)

// BenchmarkMarshalField compares the marshaler adapter (own.Host) with
// doing its work by hand: calling each marshaler, keeping its result as
// the string or bytes of peer.Host, and serializing that. README "Types
// you don't own": an adapter costs the marshaler's own work plus one copy.
func BenchmarkMarshalField(b *testing.B) {
	f := serializer.New()
	o, _ := sample()
	buf := buffer.New(512)
	b.Run("Serialize/adapter", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf.Reset()
			if err := o.ForySerializeTo(f, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Serialize/by-hand", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var p peer.Host
			addr, _ := o.Addr.MarshalText()
			prefix, _ := o.Prefix.MarshalText()
			home, _ := o.Home.MarshalBinary()
			big, _ := o.Big.MarshalText()
			code, _ := o.Code.MarshalText()
			ps, bs := string(prefix), string(big)
			p.Addr, p.Prefix, p.Home, p.Big, p.Name, p.Port, p.Code = string(addr), &ps, home, &bs, o.Name, o.Port, string(code)
			buf.Reset()
			if err := p.ForySerializeTo(f, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	data, err := f.Serialize(&o)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Deserialize/adapter", func(b *testing.B) {
		b.ReportAllocs()
		var out = o
		for i := 0; i < b.N; i++ {
			if err := out.ForyDeserialize(f, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Deserialize/by-hand", func(b *testing.B) {
		b.ReportAllocs()
		var p peer.Host
		out := o
		for i := 0; i < b.N; i++ {
			if err := p.ForyDeserialize(f, data); err != nil {
				b.Fatal(err)
			}
			_ = out.Addr.UnmarshalText([]byte(p.Addr))
			_ = out.Prefix.UnmarshalText([]byte(*p.Prefix))
			_ = out.Home.UnmarshalBinary(p.Home)
			_ = out.Big.UnmarshalText([]byte(*p.Big))
			_ = out.Code.UnmarshalText([]byte(p.Code))
		}
	})
}
