package meta

// The rules of a compatible-mode reader (docs/format.md §11.4) for a field
// whose received type differs from its own, and for a field it does not
// have. The runtime (serializer/foryimpl: buildEvolution, the ReadIntAs
// family, SkipField) reads by them, and the generator's `forygen -check`
// (gen/internal/plan.ReadAs, plan.Skippable) grades schema changes by them,
// so that what -check calls safe is what the reader accepts; the agreement
// test of gen drives every change kind through generated code to keep the
// two in step.

// Conversion is what a compatible-mode reader does with a value written as
// one type and read into a field declared as another.
type Conversion int

const (
	// Refused: the types do not convert; the message fails to decode
	// (ErrSchemaMismatch when the field mapping is built).
	Refused Conversion = iota
	// Same: the same type tree (the four struct kinds alike, child
	// nullability ignored); the value is read as the writer framed it.
	Same
	// Numeric: numeric scalars of another width, signedness or encoding;
	// each value converts exactly or fails the read.
	Numeric
	// Sequence: lists of scalars, dense arrays and BINARY of one element
	// domain; converted element by element, a null list element failing the
	// read into a slice of values.
	Sequence
)

func (c Conversion) String() string {
	return [...]string{"refused", "same", "numeric", "sequence"}[c]
}

// ConversionOf says how a value written as type from is read into a field
// declared as type to.
func ConversionOf(from, to *FieldType) Conversion {
	switch {
	case SameShape(from, to):
		return Same
	case IsNumeric(from.TypeID) && IsNumeric(to.TypeID):
		return Numeric
	case SeqDomain(from) != 0 && SeqDomain(from) == SeqDomain(to):
		return Sequence
	}
	return Refused
}

// SameShape compares two type trees as the reader does: the four struct
// kinds alike (the nested type meta identifies the struct), child
// nullability and tracking ignored (the list header and the chunk header
// say whether nulls and references occur).
func SameShape(a, b *FieldType) bool {
	if a.TypeID != b.TypeID && !(IsStructKind(a.TypeID) && IsStructKind(b.TypeID)) {
		return false
	}
	if len(a.Children) != len(b.Children) {
		return false
	}
	for i := range a.Children {
		if !SameShape(&a.Children[i], &b.Children[i]) {
			return false
		}
	}
	return true
}

// NumericDomain describes a numeric scalar type id: signedness, float-ness
// and value bits (a float's significand bits: integers up to 2^bits are
// exact). ok is false for other ids: bool and the 8- and 16-bit floats are
// not numbers to the reader's conversions.
func NumericDomain(id uint8) (signed, float bool, bits int, ok bool) {
	switch id {
	case TypeInt8:
		return true, false, 8, true
	case TypeInt16:
		return true, false, 16, true
	case TypeInt32, TypeVarInt32:
		return true, false, 32, true
	case TypeInt64, TypeVarInt64, TypeTaggedInt64:
		return true, false, 64, true
	case TypeUint8:
		return false, false, 8, true
	case TypeUint16:
		return false, false, 16, true
	case TypeUint32, TypeVarUint32:
		return false, false, 32, true
	case TypeUint64, TypeVarUint64, TypeTaggedUint64:
		return false, false, 64, true
	case TypeFloat32:
		return true, true, 24, true
	case TypeFloat64:
		return true, true, 53, true
	}
	return false, false, 0, false
}

// IsNumeric reports whether a type id is a numeric scalar that converts to
// the others (NumericDomain).
func IsNumeric(id uint8) bool {
	_, _, _, ok := NumericDomain(id)
	return ok
}

// IsUnsigned reports whether a type id is an unsigned integer.
func IsUnsigned(id uint8) bool { return id >= TypeUint8 && id <= TypeTaggedUint64 }

// IsFloat reports whether a type id is FLOAT32 or FLOAT64.
func IsFloat(id uint8) bool { return id == TypeFloat32 || id == TypeFloat64 }

// NumericExact reports whether every value of numeric scalar type from is
// exactly a value of numeric scalar type to, so that the reader's
// conversion never fails.
func NumericExact(from, to uint8) bool {
	fs, ff, fb, _ := NumericDomain(from)
	ts, tf, tb, _ := NumericDomain(to)
	switch {
	case ff && tf:
		return tb >= fb
	case ff:
		return false // a fraction or an out-of-range float fails an integer read
	case tf:
		if fs {
			return tb >= fb-1 // the sign bit costs nothing in a float
		}
		return tb >= fb
	case fs && !ts:
		return false // negative values
	case !fs && ts:
		return tb > fb
	}
	return tb >= fb
}

// SeqElem returns the element type id of a sequence the reader converts
// (docs/format.md §8.1, §8.2): a LIST of bools, numbers or 16-bit floats, a
// dense array, or BINARY (whose elements are UINT8), and whether the
// elements are packed (fixed width, no header, no null flags). id 0 means
// another type.
func SeqElem(ft *FieldType) (id uint8, dense bool) {
	switch ft.TypeID {
	case TypeList:
		if len(ft.Children) == 1 {
			switch e := ft.Children[0].TypeID; {
			case e == TypeBool, e == TypeFloat16, e == TypeBFloat16, IsNumeric(e):
				return e, false
			}
		}
		return 0, false
	case TypeBinary:
		return TypeUint8, true
	case TypeFloat8Array:
		// Not a plain packed array: the float8 kind comes first.
		return 0, false
	}
	if e := DenseArrayElem(ft.TypeID); e != 0 {
		return e, true
	}
	return 0, false
}

// SeqDomain is the element domain of a sequence (SeqElem): its element type
// id with the encodings of one integer width folded together (VARINT32 and
// INT32 are both INT32), or 0 when ft is not a sequence the reader
// converts.
func SeqDomain(ft *FieldType) uint8 {
	id, _ := SeqElem(ft)
	switch id {
	case TypeVarInt32:
		return TypeInt32
	case TypeVarInt64, TypeTaggedInt64:
		return TypeInt64
	case TypeVarUint32:
		return TypeUint32
	case TypeVarUint64, TypeTaggedUint64:
		return TypeUint64
	}
	return id
}

// Unskippable says why a reader that has only a field's TypeDef entry cannot
// step over its value, or "" when it can (docs/format.md §11.4): an
// extension value has no length, and a map's struct keys carry no TypeDef
// (§14.11). A map's struct values can be skipped only in chunks that carry
// their type meta, which Java, Python and JavaScript may write but official
// Go and forygen never do (they declare both sides); with goWriter set a
// map with struct values is named too: a reader learns it from the chunk
// header and fails the message there.
func Unskippable(ft *FieldType, goWriter bool) string {
	switch ft.TypeID {
	case TypeExt, TypeNamedExt:
		return "an extension value has no length: its bytes are its serializer's"
	case TypeMap:
		if len(ft.Children) == 2 && IsStructKind(ft.Children[0].TypeID) {
			return "a map with struct keys carries no TypeDef"
		}
		if goWriter && len(ft.Children) == 2 && IsStructKind(ft.Children[1].TypeID) {
			return "a map's struct values, as official Go and forygen write them, carry no TypeDef"
		}
	}
	for i := range ft.Children {
		if why := Unskippable(&ft.Children[i], goWriter); why != "" {
			return why
		}
	}
	return ""
}
