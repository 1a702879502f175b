// Package byname is official Go's Order with a Money extension field, the
// extension registered by name (RegisterExtensionByName(Money{}, "ext.Money", s)).
package byname

import (
	"errors"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/conformance/ext/money"
)

//go:generate go run github.com/forygen/forygen/cmd/forygen

// MoneyCodec writes a Money as official Go's test serializer does: the
// units as a varint64, the currency's length as an int8, its bytes.
//
//fory:ext name=ext.Money type=github.com/forygen/forygen/internal/conformance/ext/money.Money
type MoneyCodec struct{}

var errCurrency = errors.New("money: a currency code is at most 127 bytes")

// WriteExt writes v.
func (MoneyCodec) WriteExt(b *buffer.Buffer, v *money.Money) error {
	if len(v.Cur) > 127 {
		return errCurrency
	}
	// One reserve and one commit, as generated code writes (package
	// buffer's doc): the bytes are official Go's WriteVarint64, WriteInt8
	// and the currency.
	b.Reserve(buffer.MaxVarUint64Len + 1 + len(v.Cur) + buffer.BatchSlack)
	w, off := b.Window(), b.WriterIndex()
	off = buffer.PutVarInt64At(w, off, v.Units)
	buffer.PutUint8At(w, off, uint8(len(v.Cur)))
	off++
	off += copy(w[off:], v.Cur)
	b.SetWriterIndex(off)
	return nil
}

// ReadExt reads into v; the reader's error covers a short input.
func (MoneyCodec) ReadExt(r *buffer.Reader, v *money.Money) error {
	units := r.ReadVarInt64()
	n := r.ReadInt8()
	if n < 0 {
		return errCurrency
	}
	cur := r.ReadBytes(int(n))
	v.Units, v.Cur = units, string(cur)
	return nil
}

//fory:generate id=301
type Order struct {
	Price money.Money
	Tip   *money.Money
	N     int32
}
