package foryimpl

import (
	"math"
	"math/big"
	"time"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Roots of the carrier types package serializer declares (a date, a
// decimal, a set), which this package cannot name: serializer builds their
// codecs with these constructors and calls WriteRootWith and ReadRootWith
// (docs/format.md §12.2).

// NewRootCodec builds a root codec: name for errors, the type id, whether
// official Go tracks the kind (its root flag is then 00 with tracking),
// isNil (nil for a type that cannot be nil), and the payload's writer and
// reader.
func NewRootCodec[T any](name string, id byte, tracked bool, isNil func(T) bool,
	write func(f *Runtime, b *buffer.Buffer, v T) error, read func(c *ReadContext, id byte) T) *rootCodec[T] {
	return &rootCodec[T]{info: rootInfo(name), id: id, tracked: tracked, isNil: isNil, write: write, read: read}
}

// WriteRootWith appends the message whose root is v; on error nothing is
// appended.
func WriteRootWith[T any](f *Runtime, b *buffer.Buffer, v T, k *rootCodec[T]) error {
	return writeRoot(f, b, v, k)
}

// ReadRootWith reads data, exactly one message whose root is a T, into *p,
// set only when the whole message decodes.
func ReadRootWith[T any](f *Runtime, data []byte, p *T, k *rootCodec[T]) error {
	_, err := readRoot(f, data, p, k)
	return err
}

// DateRootCodec is the codec of a root DATE (type id 39) held in D, a
// struct with the layout of Date.
func DateRootCodec[D ~struct {
	Year  int
	Month time.Month
	Day   int
}]() *rootCodec[D] {
	return NewRootCodec("serializer.Date", meta.TypeDate, false, nil,
		func(_ *Runtime, b *buffer.Buffer, d D) error { WriteDate(b, Date(d)); return nil },
		func(c *ReadContext, _ byte) D { return D(c.ReadDate()) })
}

// DecimalRootCodec is the codec of a root DECIMAL (type id 40); unscaled
// and scale give the value's parts.
func DecimalRootCodec[D any](unscaled func(*D) *big.Int, scale func(*D) *int32) *rootCodec[D] {
	var k *rootCodec[D]
	// Official Go writes a decimal root through a pointer, which it
	// tracks: 00 with tracking.
	k = NewRootCodec("serializer.Decimal", meta.TypeDecimal, true, nil,
		func(_ *Runtime, b *buffer.Buffer, d D) error {
			if err := CheckDecimal(k.info, "", unscaled(&d), *scale(&d)); err != nil {
				return err
			}
			WriteDecimal(b, unscaled(&d), *scale(&d))
			return nil
		},
		func(c *ReadContext, _ byte) D {
			var d D
			*scale(&d) = c.ReadDecimal(unscaled(&d))
			return d
		})
	return k
}

// SetRootCodec is the codec of a root SET of E (type id 23), held in S, a
// map of E to struct{}: the count, then the elements header, official Go's
// 08 "same type" (09 with tracking, each element then behind ff) and the
// element type elemID, then the elements; a repeated element is refused
// on reading, as in a set field.
func SetRootCodec[S ~map[E]struct{}, E comparable](name string, elemID byte, minBytes int,
	put func(b *buffer.Buffer, e E) error, get func(c *ReadContext) E) *rootCodec[S] {
	var k *rootCodec[S]
	k = NewRootCodec(name, meta.TypeSet, true, func(s S) bool { return s == nil },
		func(f *Runtime, b *buffer.Buffer, s S) error {
			if uint64(len(s)) > math.MaxUint32 {
				return tooLong(k.info, len(s))
			}
			b.WriteVarUint32(uint32(len(s)))
			if len(s) == 0 {
				return nil
			}
			tracked := f.opts.TrackRef
			h := byte(meta.ListSameType)
			if tracked {
				h |= meta.ListTrackRef
			}
			b.WriteUint8(h)
			b.WriteUint8(elemID)
			for e := range s {
				if tracked {
					b.WriteUint8(FlagNotNull)
				}
				if err := put(b, e); err != nil {
					return err
				}
			}
			return nil
		},
		func(c *ReadContext, _ byte) S {
			n := c.ReadLength(minBytes)
			if c.r.Err() != nil {
				return nil
			}
			s := MakeMap[S](c, n)
			if n == 0 {
				return s
			}
			hasNull, tracked := c.ReadListHeaderRef(elemID)
			for i := 0; i < n && c.r.Err() == nil; i++ {
				if hasNull || tracked {
					if !c.ReadValueFlag() {
						break
					}
				}
				e := get(c)
				if c.r.Err() != nil {
					break
				}
				if _, dup := s[e]; dup {
					c.r.Fail(malformed("set element %d repeats an earlier element", i))
					break
				}
				s[e] = struct{}{}
			}
			return s
		})
	return k
}
