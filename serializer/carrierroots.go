package serializer

import (
	"math/big"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer/foryimpl"
)

// The carrier types of this package as roots (RootValue): a Date, a
// Decimal, and sets of int32, int64 and string, as official Fory Go writes
// f.Serialize(fory.Date{…}), f.Serialize(&decimal) and f.Serialize(set).
var (
	dateRoot    = foryimpl.DateRootCodec[Date]()
	decimalRoot = foryimpl.DecimalRootCodec(func(d *Decimal) *big.Int { return &d.Unscaled },
		func(d *Decimal) *int32 { return &d.Scale })
	int32SetRoot = foryimpl.SetRootCodec[Set[int32]]("serializer.Set[int32]", meta.TypeVarInt32, 1,
		func(b *buffer.Buffer, e int32) error { b.WriteVarInt32(e); return nil },
		func(c *foryimpl.ReadContext) int32 { return c.Reader().ReadVarInt32() })
	int64SetRoot = foryimpl.SetRootCodec[Set[int64]]("serializer.Set[int64]", meta.TypeVarInt64, 1,
		func(b *buffer.Buffer, e int64) error { b.WriteVarInt64(e); return nil },
		func(c *foryimpl.ReadContext) int64 { return c.Reader().ReadVarInt64() })
	stringSetRoot = foryimpl.SetRootCodec[Set[string]]("serializer.Set[string]", meta.TypeString, 1,
		func(b *buffer.Buffer, e string) error {
			if !foryimpl.ValidString(e) {
				return &EncodeError{Type: "serializer.Set[string]", Err: ErrInvalidValue}
			}
			foryimpl.WriteString(b, e)
			return nil
		},
		func(c *foryimpl.ReadContext) string { return c.ReadString() })
)

// writeCarrierRoot writes v, a carrier root value or a pointer to one;
// handled is false for any other v.
func (f *Fory) writeCarrierRoot(b *buffer.Buffer, v any) (handled bool, err error) {
	switch x := v.(type) {
	case Date:
		return true, foryimpl.WriteRootWith(&f.rt, b, x, dateRoot)
	case *Date:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, dateRoot)
	case *Decimal:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, decimalRoot)
	case Set[int32]:
		return true, foryimpl.WriteRootWith(&f.rt, b, x, int32SetRoot)
	case *Set[int32]:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, int32SetRoot)
	case Set[int64]:
		return true, foryimpl.WriteRootWith(&f.rt, b, x, int64SetRoot)
	case *Set[int64]:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, int64SetRoot)
	case Set[string]:
		return true, foryimpl.WriteRootWith(&f.rt, b, x, stringSetRoot)
	case *Set[string]:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, stringSetRoot)
	}
	return f.rt.WriteExtRoot(b, v)
}

// readCarrierRoot reads data into v, a pointer to a carrier root type;
// handled is false for any other v.
func (f *Fory) readCarrierRoot(data []byte, v any) (handled bool, err error) {
	switch x := v.(type) {
	case *Date:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.ReadRootWith(&f.rt, data, x, dateRoot)
	case *Decimal:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.ReadRootWith(&f.rt, data, x, decimalRoot)
	case *Set[int32]:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.ReadRootWith(&f.rt, data, x, int32SetRoot)
	case *Set[int64]:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.ReadRootWith(&f.rt, data, x, int64SetRoot)
	case *Set[string]:
		if x == nil {
			return false, nil
		}
		return true, foryimpl.ReadRootWith(&f.rt, data, x, stringSetRoot)
	}
	return f.rt.ReadExtRoot(data, v)
}

// writeCarrierValue is writeCarrierRoot for MarshalValue: the type switch
// on p inline, so that p, the caller's &v, does not escape
// (TestMarshalValueAppendAllocs).
func writeCarrierValue[T RootValue](f *Fory, b *buffer.Buffer, p *T) (handled bool, err error) {
	switch x := any(p).(type) {
	case *Date:
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, dateRoot)
	case *Decimal:
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, decimalRoot)
	case *Set[int32]:
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, int32SetRoot)
	case *Set[int64]:
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, int64SetRoot)
	case *Set[string]:
		return true, foryimpl.WriteRootWith(&f.rt, b, *x, stringSetRoot)
	}
	return false, nil
}
