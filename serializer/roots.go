package serializer

import (
	"github.com/forygen/forygen/serializer/foryimpl"
	"math"
	"time"

	"github.com/forygen/forygen/buffer"
)

// RootValue is the constraint of MarshalValue, MarshalValueAppend and
// UnmarshalValue: the non-struct values a message can have as its root,
// written as official Fory Go writes f.Serialize(value) for them
// (docs/format.md §12.2):
//
//   - bool, the integers (int and uint as the 64-bit varints), float32,
//     float64, string, time.Time and time.Duration;
//   - slices of fixed-width numbers and bools as dense arrays ([]int32 is
//     INT32_ARRAY, []int is INT64_ARRAY), []byte as BINARY;
//   - []string as a LIST;
//   - maps from string, int32 or int64 to bool, int32, int64, float64 or
//     string, and map[string]int and map[int]int, as a MAP;
//   - Date as a DATE, Decimal as a DECIMAL, and Set[int32], Set[int64] and
//     Set[string] as a SET.
//
// A nil slice or map is written as a null root and decodes as nil. The
// types are exact: a named type over one of them is not a RootValue.
type RootValue interface {
	bool | int8 | int16 | int32 | int64 | int | uint8 | uint16 | uint32 | uint64 | uint |
		float32 | float64 | string | time.Time | time.Duration |
		[]byte | []bool | []int8 | []int16 | []int32 | []int64 | []int |
		[]uint16 | []uint32 | []uint64 | []float32 | []float64 | []string |
		map[string]bool | map[string]int32 | map[string]int64 | map[string]int | map[string]float64 | map[string]string |
		map[int32]bool | map[int32]int32 | map[int32]int64 | map[int32]float64 | map[int32]string |
		map[int64]bool | map[int64]int32 | map[int64]int64 | map[int64]float64 | map[int64]string |
		map[int]int |
		Date | Decimal | Set[int32] | Set[int64] | Set[string]
}

// MarshalValue writes a message whose root is v, a non-struct value, and
// returns bytes the caller owns. Serialize(v) writes the same bytes.
func MarshalValue[T RootValue](f *Fory, v T) ([]byte, error) {
	b := f.getBuffer()
	b.Reset()
	ok, err := writeCarrierValue(f, b, &v)
	if !ok {
		_, err = f.rt.WriteRootPointer(b, &v)
	}
	var out []byte
	if err == nil {
		out = make([]byte, b.Len())
		copy(out, b.Bytes())
	}
	f.putBuffer(b)
	return out, err
}

// MarshalValueAppend appends the message whose root is v to dst and
// returns the extended slice; with the last result's dst[:0] passed again
// it does not allocate. On error it returns dst.
func MarshalValueAppend[T RootValue](f *Fory, dst []byte, v T) ([]byte, error) {
	b, old := f.adopt(dst)
	ok, err := writeCarrierValue(f, b, &v)
	if !ok {
		_, err = f.rt.WriteRootPointer(b, &v)
	}
	return f.release(b, old, dst, err)
}

// UnmarshalValue reads data, exactly one message whose root is a T, into
// v. *v is replaced only when the message decodes; a null root (a nil slice
// or map) sets it to nil. A nil v is ErrNotGenerated. Errors are
// *DecodeError values, as for Deserialize.
func UnmarshalValue[T RootValue](f *Fory, data []byte, v *T) error {
	if v == nil {
		return ErrNotGenerated
	}
	if ok, err := f.readCarrierRoot(data, v); ok {
		return err
	}
	_, err := f.rt.ReadRootValue(data, v)
	return err
}

// rootTarget is a pointer to a root value as a Message, for the Decoder.
type rootTarget struct{ p any }

func (r rootTarget) ForySerializeTo(f *Fory, b *buffer.Buffer) error {
	if ok, err := f.rt.WriteRootValue(b, r.p); ok {
		return err
	}
	if ok, err := f.writeCarrierRoot(b, r.p); ok {
		return err
	}
	return ErrNotGenerated
}

func (r rootTarget) ForyDeserialize(f *Fory, data []byte) error {
	if ok, err := f.rt.ReadRootValue(data, r.p); ok {
		return err
	}
	if ok, err := f.readCarrierRoot(data, r.p); ok {
		return err
	}
	return ErrNotGenerated
}

// MarshalList writes a message whose root is s, a list of a generated
// struct, as official Fory Go writes f.Serialize(s), and returns bytes the
// caller owns. A nil s is a null root.
func MarshalList[T any, P Generated[T]](f *Fory, s []T) ([]byte, error) {
	b, old := f.adopt(nil)
	err := foryimpl.WriteStructListRoot[T, P](&f.rt, b, s)
	return f.release(b, old, nil, err)
}

// UnmarshalList reads data, exactly one message whose root is a list of T,
// into *s; *s is replaced only when the message decodes (a null root sets
// it to nil). Null elements from a peer are zero values.
func UnmarshalList[T any, P Generated[T]](f *Fory, data []byte, s *[]T) error {
	if s == nil {
		return ErrNotGenerated
	}
	return foryimpl.ReadStructListRoot[T, P](&f.rt, data, s)
}

// MarshalPtrList is MarshalList for a list of pointers: nil elements are
// null, and with WithTrackRef(true) an element repeated is written once.
func MarshalPtrList[T any, P Generated[T]](f *Fory, s []*T) ([]byte, error) {
	b, old := f.adopt(nil)
	err := foryimpl.WriteStructPtrListRoot[T, P](&f.rt, b, s)
	return f.release(b, old, nil, err)
}

// UnmarshalPtrList is UnmarshalList for a list of pointers.
func UnmarshalPtrList[T any, P Generated[T]](f *Fory, data []byte, s *[]*T) error {
	if s == nil {
		return ErrNotGenerated
	}
	return foryimpl.ReadStructPtrListRoot[T, P](&f.rt, data, s)
}

// MarshalPtrMap writes a message whose root is m, a map from strings to a
// generated struct's pointers, as official Fory Go writes f.Serialize(m):
// nil values are null. A nil m is a null root.
func MarshalPtrMap[T any, P Generated[T]](f *Fory, m map[string]*T) ([]byte, error) {
	b, old := f.adopt(nil)
	err := foryimpl.WriteStructPtrMapRoot[T, P](&f.rt, b, m)
	return f.release(b, old, nil, err)
}

// UnmarshalPtrMap reads data, exactly one message whose root is a map from
// strings to T's pointers, into *m, replaced only when the message decodes
// (a null root sets it to nil).
func UnmarshalPtrMap[T any, P Generated[T]](f *Fory, data []byte, m *map[string]*T) error {
	if m == nil {
		return ErrNotGenerated
	}
	return foryimpl.ReadStructPtrMapRoot[T, P](&f.rt, data, m)
}

// Enum is a generated enum type (//fory:enum): an integer type with the
// registration the generator wrote for it.
type Enum interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint
	ForyEnumType() *foryimpl.EnumInfo
}

// MarshalEnum writes a message whose root is the enum value v, as
// official Fory Go writes f.Serialize(v). A negative value or one that is
// not an ordinal is an *EncodeError.
func MarshalEnum[E Enum](f *Fory, v E) ([]byte, error) {
	b, old := f.adopt(nil)
	n := int64(v)
	if v > 0 && uint64(v) > math.MaxInt64 {
		n = -1 // no ordinal
	}
	err := f.rt.WriteEnumRoot(b, v.ForyEnumType(), n)
	return f.release(b, old, nil, err)
}

// UnmarshalEnum reads data, exactly one message whose root is an E, into
// *v, set only when the message decodes.
func UnmarshalEnum[E Enum](f *Fory, data []byte, v *E) error {
	if v == nil {
		return ErrNotGenerated
	}
	var zero E
	n, err := f.rt.ReadEnumRoot(data, zero.ForyEnumType())
	if err == nil {
		*v = E(n)
	}
	return err
}
