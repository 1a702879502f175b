package ext

import (
	"testing"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/conformance/ext/byid"
	"github.com/forygen/forygen/internal/conformance/ext/money"
	"github.com/forygen/forygen/serializer"
)

// BenchmarkExtField compares an Order whose Money fields are extension
// values with OrderStruct, the same content as generated struct fields
// (README "Types you don't own": an extension field costs no more than a
// struct field of the same size).
func BenchmarkExtField(b *testing.B) {
	for _, m := range []struct {
		name string
		f    *serializer.Fory
	}{{"compatible", serializer.New()}, {"same-schema", serializer.New(serializer.WithCompatible(false))}} {
		ext := byid.Order{Price: money.Money{Units: 1234, Cur: "USD"}, Tip: &money.Money{Units: 5, Cur: "EUR"}, N: 7}
		st := byid.OrderStruct{Price: byid.MoneyStruct{Units: 1234, Cur: "USD"}, Tip: &byid.MoneyStruct{Units: 5, Cur: "EUR"}, N: 7}
		buf := buffer.New(256)
		b.Run("Serialize/ext/"+m.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := ext.ForySerializeTo(m.f, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Serialize/struct/"+m.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := st.ForySerializeTo(m.f, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		extData, _ := m.f.Serialize(&ext)
		stData, _ := m.f.Serialize(&st)
		b.Run("Deserialize/ext/"+m.name, func(b *testing.B) {
			var out byid.Order
			for i := 0; i < b.N; i++ {
				if err := out.ForyDeserialize(m.f, extData); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Deserialize/struct/"+m.name, func(b *testing.B) {
			var out byid.OrderStruct
			for i := 0; i < b.N; i++ {
				if err := out.ForyDeserialize(m.f, stData); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
