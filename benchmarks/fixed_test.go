package benchmarks

import (
	"testing"

	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// BenchmarkFixedCost/<direction>/<mode> serializes and deserializes an empty
// struct: what remains is the fixed cost of a call (header, root flag, type
// meta or TypeDef, entry checks, context set-up). Serialize and Deserialize
// call the generated entry points; SerializeAny and DeserializeAny call
// Fory's methods taking an any, which add a type assertion and an
// interface call. Empty is flat and has primitive fields only, so its entry
// points need no write or read context; SerializeWithContext and
// DeserializeWithContext measure a root that can contain structs
// (fixtures.EmptyList, with no items).
func BenchmarkFixedCost(b *testing.B) {
	// Baseline is the benchmark loop around a call that does nothing: what
	// the harness adds to every other sub-benchmark.
	b.Run("Baseline", func(b *testing.B) {
		var v fixtures.Empty
		f, buf := serializer.New(), buffer.New(256)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf.Reset()
			if err := nop(&v, f, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	modes := []struct {
		name string
		f    *serializer.Fory
	}{
		{"compatible", serializer.New()},
		{"consistent", serializer.New(serializer.WithCompatible(false))},
	}
	for _, m := range modes {
		var v fixtures.Empty
		buf := buffer.New(256)
		b.Run("Serialize/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := v.ForySerializeTo(m.f, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("SerializeAny/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			out := make([]byte, 0, 256)
			var err error
			for i := 0; i < b.N; i++ {
				if out, err = m.f.SerializeAppend(out[:0], &v); err != nil {
					b.Fatal(err)
				}
			}
		})
		data, err := m.f.Serialize(&v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("Deserialize/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := v.ForyDeserialize(m.f, data); err != nil {
					b.Fatal(err)
				}
			}
		})
		var l fixtures.EmptyList
		b.Run("SerializeWithContext/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := l.ForySerializeTo(m.f, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		ldata, err := m.f.Serialize(&l)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("DeserializeWithContext/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := l.ForyDeserialize(m.f, ldata); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("DeserializeAny/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := m.f.Deserialize(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

//go:noinline
func nop(*fixtures.Empty, *serializer.Fory, *buffer.Buffer) error { return nil }
