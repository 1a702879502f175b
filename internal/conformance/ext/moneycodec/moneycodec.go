// Package moneycodec is the body of the Money extension codecs of
// packages byid and byname, which differ only in their registration.
package moneycodec

import (
	"errors"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/conformance/ext/money"
)

var errCurrency = errors.New("money: a currency code is at most 127 bytes")

// Write writes v as official Go's test serializer does: the units as a
// varint64, the currency's length as an int8, its bytes; with one reserve
// and one commit, as generated code writes (package buffer's doc).
func Write(b *buffer.Buffer, v *money.Money) error {
	if len(v.Cur) > 127 {
		return errCurrency
	}
	b.Reserve(buffer.MaxVarUint64Len + 1 + len(v.Cur) + buffer.BatchSlack)
	w, off := b.Window(), b.WriterIndex()
	off = buffer.PutVarInt64At(w, off, v.Units)
	buffer.PutUint8At(w, off, uint8(len(v.Cur)))
	off++
	off += copy(w[off:], v.Cur)
	b.SetWriterIndex(off)
	return nil
}

// Read reads into v; the reader's error covers a short input.
func Read(r *buffer.Reader, v *money.Money) error {
	units := r.ReadVarInt64()
	n := r.ReadInt8()
	if n < 0 {
		return errCurrency
	}
	cur := r.ReadBytes(int(n))
	v.Units, v.Cur = units, string(cur)
	return nil
}
