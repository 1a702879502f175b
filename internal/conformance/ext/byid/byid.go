// Package byid is official Go's Order with a Money extension field, the
// extension registered by id (RegisterExtension(Money{}, 300, s)).
package byid

import (
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/conformance/ext/money"
	"github.com/forygen/forygen/internal/conformance/ext/moneycodec"
)

//go:generate go run github.com/forygen/forygen/cmd/forygen

// MoneyCodec writes a Money as official Go's test serializer does
// (moneycodec).
//
//fory:ext id=300 type=github.com/forygen/forygen/internal/conformance/ext/money.Money
type MoneyCodec struct{}

// WriteExt writes v.
func (MoneyCodec) WriteExt(b *buffer.Buffer, v *money.Money) error { return moneycodec.Write(b, v) }

// ReadExt reads into v.
func (MoneyCodec) ReadExt(r *buffer.Reader, v *money.Money) error { return moneycodec.Read(r, v) }

//fory:generate id=301
type Order struct {
	Price money.Money
	Tip   *money.Money
	N     int32
}

// MoneyStruct is Money as a generated struct, for BenchmarkExtField: an
// extension field should cost no more than a struct field of the same
// content.
//
//fory:generate id=305
type MoneyStruct struct {
	Units int64
	Cur   string
}

// OrderStruct is Order with MoneyStruct fields.
//
//fory:generate id=306
type OrderStruct struct {
	Price MoneyStruct
	Tip   *MoneyStruct
	N     int32
}

// Holder holds an extension value in an any.
//
//fory:generate id=302
type Holder struct{ V any }

// Bag holds extension values as list elements and map values.
//
//fory:generate id=303
type Bag struct {
	L []money.Money
	M map[string]money.Money
	P []*money.Money
}
