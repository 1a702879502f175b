// Package plan makes every wire-format decision for a struct as pure
// functions: field identifiers, the three field groups and their order, the
// fingerprint and schema hash, the sum of maximum primitive widths, and the
// constant bytes (type meta, TypeDef). Names follow docs/format.md.
package plan

import (
	"fmt"

	"github.com/forygen/forygen/gen/internal/model"
)

// Fory internal type ids (docs/format.md §4.1).
const (
	TypeUnknown              = 0 // an any value: its type meta comes with it
	TypeBool                 = 1
	TypeInt8                 = 2
	TypeInt16                = 3
	TypeInt32                = 4
	TypeVarInt32             = 5
	TypeInt64                = 6
	TypeVarInt64             = 7
	TypeTaggedInt64          = 8
	TypeUint8                = 9
	TypeUint16               = 10
	TypeUint32               = 11
	TypeVarUint32            = 12
	TypeUint64               = 13
	TypeVarUint64            = 14
	TypeTaggedUint64         = 15
	TypeFloat16              = 17
	TypeBFloat16             = 18
	TypeFloat32              = 19
	TypeFloat64              = 20
	TypeString               = 21
	TypeList                 = 22
	TypeSet                  = 23
	TypeMap                  = 24
	TypeEnum                 = 25
	TypeNamedEnum            = 26
	TypeStruct               = 27
	TypeCompatibleStruct     = 28
	TypeNamedStruct          = 29
	TypeNamedCompatible      = 30
	TypeUnion                = 33
	TypeTypedUnion           = 34
	TypeNamedUnion           = 35
	TypeDuration             = 37
	TypeTimestamp            = 38
	TypeDate                 = 39
	TypeDecimal              = 40
	TypeBinary               = 41
	TypeBoolArray            = 43
	TypeInt8Array            = 44
	TypeInt16Array           = 45
	TypeInt32Array           = 46
	TypeInt64Array           = 47
	TypeUint8Array           = 48
	TypeUint16Array          = 49
	TypeUint32Array          = 50
	TypeUint64Array          = 51
	TypeFloat16Array         = 53
	TypeBFloat16Array        = 54
	TypeFloat32Array         = 55
	TypeFloat64Array         = 56
	maxVarUint32Len          = 5
	maxVarUint64Len          = 9
	maxTaggedLen             = 9
	schemaHashBytes          = 4
	listHeaderSameTypeDecl   = 0x0c
	listHeaderStructSameType = 0x08
)

// Wire is the wire type of a value: its Fory type id and, for containers,
// the wire types of its elements.
type Wire struct {
	TypeID uint8
	Go     *model.Type // the Go type this wire type encodes
	Elem   *Wire       // LIST element, dense array element, map value
	Key    *Wire       // map key
	// Width is the encoded width of a fixed-width scalar (or the element of a
	// dense array), or the maximum width of a varint; 0 otherwise.
	Width int
	// Nullable is set when the value is written behind a null flag
	// (docs/format.md §2): pointers, and `nullable`-tagged non-primitive fields.
	Nullable bool
	// RefOn is set on list and set elements and map values that carry a
	// reference flag when the Fory tracks references (markTrackedElems).
	RefOn bool
	// RefDeclared is set by an element or value hint `_(ref=true)`: the
	// TypeDef declares the child tracked (its track_ref bit), with or
	// without tracking.
	RefDeclared bool
}

// IsVarint reports whether the wire type is a compressed integer.
func (w *Wire) IsVarint() bool {
	switch w.TypeID {
	case TypeVarInt32, TypeVarUint32, TypeVarInt64, TypeVarUint64, TypeTaggedInt64, TypeTaggedUint64:
		return true
	}
	return false
}

// IsFixedScalar reports whether the wire type is a fixed-width primitive.
func (w *Wire) IsFixedScalar() bool {
	switch w.TypeID {
	case TypeBool, TypeInt8, TypeInt16, TypeInt32, TypeInt64, TypeUint8, TypeUint16, TypeUint32, TypeUint64,
		TypeFloat16, TypeBFloat16, TypeFloat32, TypeFloat64:
		return true
	}
	return false
}

// IsStructType reports whether the type id is one of the four struct kinds.
func IsStructType(id uint8) bool { return id >= TypeStruct && id <= TypeNamedCompatible }

// Error is a planning error tied to a field.
type Error struct {
	Pos model.Pos
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// scalarWire maps a primitive kind and an `encoding=` tag to its wire type
// (docs/format.md §4.2). int and uint are the 64-bit kinds: untagged they are
// VARINT64 / VAR_UINT64; `encoding=varint` and `encoding=fixed` declare them
// 32-bit (VARINT32 / VAR_UINT32, INT32 / UINT32) as official Go does
// (§14.14), and the generated writer refuses a value outside 32 bits where
// official Go truncates it. `encoding=tagged` is refused, as official Go.
func scalarWire(k model.Kind, encoding string) (id uint8, width int, err error) {
	bad := func() (uint8, int, error) {
		hint := "use encoding=varint or no encoding tag"
		switch {
		case (k == model.Int || k == model.Uint) && encoding == "tagged":
			hint = "declare the field int64/uint64 to use tagged"
		case encoding == "tagged":
			hint = "tagged applies to int64 and uint64 only"
		}
		return 0, 0, fmt.Errorf("encoding=%s is not valid for %s; %s", encoding, k, hint)
	}
	switch k {
	case model.Bool, model.Int8, model.Uint8, model.Int16, model.Uint16, model.Float32, model.Float64,
		model.Float16, model.BFloat16:
		if encoding != "" && encoding != "fixed" {
			return bad()
		}
		switch k {
		case model.Float16:
			return TypeFloat16, 2, nil
		case model.BFloat16:
			return TypeBFloat16, 2, nil
		case model.Bool:
			return TypeBool, 1, nil
		case model.Int8:
			return TypeInt8, 1, nil
		case model.Uint8:
			return TypeUint8, 1, nil
		case model.Int16:
			return TypeInt16, 2, nil
		case model.Uint16:
			return TypeUint16, 2, nil
		case model.Float32:
			return TypeFloat32, 4, nil
		default:
			return TypeFloat64, 8, nil
		}
	case model.Int32:
		switch encoding {
		case "", "varint":
			return TypeVarInt32, maxVarUint32Len, nil
		case "fixed":
			return TypeInt32, 4, nil
		}
		return bad()
	case model.Uint32:
		switch encoding {
		case "", "varint":
			return TypeVarUint32, maxVarUint32Len, nil
		case "fixed":
			return TypeUint32, 4, nil
		}
		return bad()
	case model.Int64, model.Int:
		switch {
		case encoding == "", encoding == "varint" && k == model.Int64:
			return TypeVarInt64, maxVarUint64Len, nil
		case encoding == "varint":
			return TypeVarInt32, maxVarUint32Len, nil
		case encoding == "fixed" && k == model.Int:
			return TypeInt32, 4, nil
		}
		switch encoding {
		case "fixed":
			if k == model.Int64 {
				return TypeInt64, 8, nil
			}
		case "tagged":
			if k == model.Int64 {
				return TypeTaggedInt64, maxTaggedLen, nil
			}
		}
		return bad()
	case model.Uint64, model.Uint:
		switch {
		case encoding == "", encoding == "varint" && k == model.Uint64:
			return TypeVarUint64, maxVarUint64Len, nil
		case encoding == "varint":
			return TypeVarUint32, maxVarUint32Len, nil
		case encoding == "fixed" && k == model.Uint:
			return TypeUint32, 4, nil
		}
		switch encoding {
		case "fixed":
			if k == model.Uint64 {
				return TypeUint64, 8, nil
			}
		case "tagged":
			if k == model.Uint64 {
				return TypeTaggedUint64, maxTaggedLen, nil
			}
		}
		return bad()
	}
	return 0, 0, fmt.Errorf("%s is not a primitive", k)
}

// denseArrayType maps an `array(element=X)` element name to the dense array
// type id and element width (docs/format.md §8.2). The element must match the Go
// element kind exactly.
func denseArrayType(elem model.Kind, hint string) (uint8, int, error) {
	want := map[string]struct {
		kinds []model.Kind
		id    uint8
		width int
	}{
		"bool":     {[]model.Kind{model.Bool}, TypeBoolArray, 1},
		"int8":     {[]model.Kind{model.Int8}, TypeInt8Array, 1},
		"int16":    {[]model.Kind{model.Int16}, TypeInt16Array, 2},
		"int32":    {[]model.Kind{model.Int32}, TypeInt32Array, 4},
		"int64":    {[]model.Kind{model.Int64}, TypeInt64Array, 8},
		"uint8":    {[]model.Kind{model.Uint8}, TypeUint8Array, 1},
		"uint16":   {[]model.Kind{model.Uint16}, TypeUint16Array, 2},
		"uint32":   {[]model.Kind{model.Uint32}, TypeUint32Array, 4},
		"uint64":   {[]model.Kind{model.Uint64}, TypeUint64Array, 8},
		"float32":  {[]model.Kind{model.Float32}, TypeFloat32Array, 4},
		"float64":  {[]model.Kind{model.Float64}, TypeFloat64Array, 8},
		"float16":  {[]model.Kind{model.Float16}, TypeFloat16Array, 2},
		"bfloat16": {[]model.Kind{model.BFloat16}, TypeBFloat16Array, 2},
	}
	w, ok := want[hint]
	if !ok {
		return 0, 0, fmt.Errorf("array element %q is not a dense array element type", hint)
	}
	for _, k := range w.kinds {
		if k == elem {
			return w.id, w.width, nil
		}
	}
	return 0, 0, fmt.Errorf("array(element=%s) does not match the Go element type %s", hint, elem)
}

// WireOf computes the wire type of a Go type with the field's tag applied at
// the top level; elements, keys and values take their inferred defaults.
func WireOf(t *model.Type, tag model.Tag) (*Wire, error) {
	w, err := wireOf(t, tag, true)
	if err != nil {
		return nil, err
	}
	return w, nil
}

func wireOf(t *model.Type, tag model.Tag, top bool) (*Wire, error) {
	if t.Kind == model.Pointer {
		inner, err := wireOf(t.Elem, tag, top)
		if err != nil {
			return nil, err
		}
		if t.Elem.Kind == model.Pointer {
			return nil, fmt.Errorf("pointer to pointer is not supported")
		}
		if t.Elem.Kind == model.Any || t.Elem.Kind == model.Union {
			return nil, fmt.Errorf("a pointer to %s is not supported; use the %s itself, which can be nil", t.Elem.Kind, t.Elem.Kind)
		}
		if t.Elem.Kind == model.Optional {
			return nil, fmt.Errorf("a pointer to serializer.Optional is not supported; use the Optional itself or a pointer to its value")
		}
		if top && tag.NullableSet && !tag.Nullable {
			// Official Go then writes a nil pointer as the zero value; a
			// value field says the same thing plainly.
			return nil, fmt.Errorf("nullable=false on a pointer field is not supported; use a non-pointer field")
		}
		cp := *inner
		cp.Go = t
		cp.Nullable = true
		return &cp, nil
	}
	w := &Wire{Go: t}
	if top && tag.Nullable && !t.Kind.IsPrimitive() {
		w.Nullable = true
	}
	encoding := ""
	if top {
		encoding = tag.Encoding
	}
	if encoding != "" && !t.Kind.IsPrimitive() {
		return nil, fmt.Errorf("encoding=%s applies only to integer fields", encoding)
	}
	var hint *model.Hint
	if top {
		hint = tag.Hint
	}
	if hint != nil && hint.Name == "_" {
		hint = nil
	}
	switch {
	case t.Kind.IsPrimitive():
		if hint != nil {
			return nil, fmt.Errorf("type=%s does not apply to %s", hint.Original, t.Kind)
		}
		id, width, err := scalarWire(t.Kind, encoding)
		if err != nil {
			return nil, err
		}
		w.TypeID, w.Width = id, width
	case t.Kind == model.String:
		w.TypeID = TypeString
	case t.Kind == model.Enum:
		w.TypeID = TypeEnum
	case t.Kind == model.Time:
		w.TypeID = TypeTimestamp
	case t.Kind == model.Duration:
		w.TypeID = TypeDuration
	case t.Kind == model.Date:
		w.TypeID = TypeDate
	case t.Kind == model.Decimal:
		w.TypeID = TypeDecimal
	case t.Kind == model.Any:
		// Every value carries its flag and type meta (docs/format.md §12.3),
		// so a nullable tag adds no second flag; the TypeDef declares the
		// field nullable either way (DeclaredNullable).
		if hint != nil {
			return nil, fmt.Errorf("type=%s does not apply to an any field", hint.Original)
		}
		w.TypeID, w.Nullable = TypeUnknown, false
	case t.Kind == model.Union:
		w.TypeID = TypeUnion
	case t.Kind == model.Struct:
		if t.Reg.ByName {
			w.TypeID = TypeNamedCompatible
		} else {
			w.TypeID = TypeCompatibleStruct
		}
	case t.Kind == model.Slice || t.Kind == model.Array:
		if hint != nil {
			switch hint.Name {
			case "bytes":
				if t.Kind != model.Slice || t.Elem.Kind != model.Uint8 || t.Elem.Named != nil {
					return nil, fmt.Errorf("type=bytes needs a []byte field")
				}
				w.TypeID = TypeBinary
				return w, nil
			case "array":
				if t.Kind != model.Slice {
					return nil, fmt.Errorf("type=array needs a slice field")
				}
				id, width, err := denseArrayType(t.Elem.Kind, hint.Element)
				if err != nil {
					return nil, err
				}
				w.TypeID = id
				w.Elem = &Wire{TypeID: 0, Go: t.Elem, Width: width}
				return w, nil
			case "list":
			default:
				return nil, fmt.Errorf("type=%s is not supported on a %s field", hint.Original, t.Kind)
			}
		}
		elem, err := wireOf(t.Elem, model.Tag{ID: -1}, false)
		if err != nil {
			return nil, err
		}
		w.TypeID = TypeList
		w.Elem = elem
	case t.Kind == model.Optional:
		// An Optional is its value behind a null flag, as a pointer is.
		if !top {
			return nil, fmt.Errorf("serializer.Optional is supported as a field, not as a list, array or set element or a map value; use a pointer to its value (*T), which is nullable there")
		}
		inner, err := wireOf(t.Elem, model.Tag{ID: -1}, false)
		if err != nil {
			return nil, err
		}
		inner.Go, inner.Nullable = t, true
		return inner, nil
	case t.Kind == model.Set:
		if hint != nil {
			return nil, fmt.Errorf("type=%s is not supported on a set field", hint.Original)
		}
		elem, err := wireOf(t.Elem, model.Tag{ID: -1}, false)
		if err != nil {
			return nil, err
		}
		w.TypeID, w.Elem = TypeSet, elem
	case t.Kind == model.Map:
		if hint != nil && hint.Name != "map" {
			return nil, fmt.Errorf("type=%s is not supported on a map field", hint.Original)
		}
		switch t.Key.Kind {
		case model.Bool, model.Int8, model.Int16, model.Int32, model.Int64, model.Int, model.Uint8, model.Uint16,
			model.Uint32, model.Uint64, model.Uint, model.String, model.Enum:
		default:
			return nil, fmt.Errorf("map key type %s is not supported (bool, integer, string and enum keys are)", t.Key.Kind)
		}
		key, err := wireOf(t.Key, model.Tag{ID: -1}, false)
		if err != nil {
			return nil, err
		}
		val, err := wireOf(t.Elem, model.Tag{ID: -1}, false)
		if err != nil {
			return nil, err
		}
		if val.TypeID == TypeUnknown && key.TypeID != TypeString {
			return nil, fmt.Errorf("a map with any values needs string keys (map[string]any)")
		}
		if val.TypeID == TypeUnion || key.TypeID == TypeUnion {
			return nil, fmt.Errorf("a union as a map key or value is not supported")
		}
		w.TypeID, w.Key, w.Elem = TypeMap, key, val
	default:
		return nil, fmt.Errorf("type %s is not supported", t.Kind)
	}
	return w, nil
}
