package serializer

import (
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer/foryimpl"
)

// The carrier types of this package held in an any (a field of type any,
// a []any element, a map[any]any key or value): written as official Fory
// Go writes fory.Date, fory.Decimal, float16.Float16 and fory.Set in an
// interface, and read back as Date, Decimal, Float16, BFloat16 and, for
// any set, Set[any] (docs/format.md §12.7).

var (
	float16Root = foryimpl.NewRootCodec("serializer.Float16", meta.TypeFloat16, false, nil,
		func(_ *foryimpl.Runtime, b *buffer.Buffer, v Float16) error { b.WriteUint16(uint16(v)); return nil },
		func(c *foryimpl.ReadContext, _ byte) Float16 { return Float16(c.Reader().ReadUint16()) })
	bfloat16Root = foryimpl.NewRootCodec("serializer.BFloat16", meta.TypeBFloat16, false, nil,
		func(_ *foryimpl.Runtime, b *buffer.Buffer, v BFloat16) error { b.WriteUint16(uint16(v)); return nil },
		func(c *foryimpl.ReadContext, _ byte) BFloat16 { return BFloat16(c.Reader().ReadUint16()) })
)

func init() {
	foryimpl.RegisterAnyCarrier(dateRoot, false, true, true)
	// A Decimal holds a big.Int: it cannot be a Go map key. Official Go
	// tracks a *Decimal, not a Decimal value.
	foryimpl.RegisterAnyCarrier(decimalRoot, true, true, false)
	foryimpl.RegisterAnyCarrier(float16Root, false, true, true)
	foryimpl.RegisterAnyCarrier(bfloat16Root, false, true, true)
	foryimpl.RegisterAnySet[Set[any]]()
	foryimpl.RegisterAnySet[Set[bool]]()
	foryimpl.RegisterAnySet[Set[int8]]()
	foryimpl.RegisterAnySet[Set[int16]]()
	foryimpl.RegisterAnySet[Set[int32]]()
	foryimpl.RegisterAnySet[Set[int64]]()
	foryimpl.RegisterAnySet[Set[int]]()
	foryimpl.RegisterAnySet[Set[uint8]]()
	foryimpl.RegisterAnySet[Set[uint16]]()
	foryimpl.RegisterAnySet[Set[uint32]]()
	foryimpl.RegisterAnySet[Set[uint64]]()
	foryimpl.RegisterAnySet[Set[uint]]()
	foryimpl.RegisterAnySet[Set[float32]]()
	foryimpl.RegisterAnySet[Set[float64]]()
	foryimpl.RegisterAnySet[Set[string]]()
	foryimpl.RegisterAnySet[Set[Date]]()
	foryimpl.RegisterAnyReader(meta.TypeSet, func(c *foryimpl.ReadContext) any {
		if s := foryimpl.ReadAnySet[Set[any]](c); s != nil {
			return s
		}
		return nil
	})
}
