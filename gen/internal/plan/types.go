// Package plan makes every wire-format decision for a struct as pure
// functions: field identifiers, the three field groups and their order, the
// fingerprint and schema hash, the sum of maximum primitive widths, and the
// constant bytes (type meta, TypeDef). Names follow docs/format.md.
package plan

import (
	"fmt"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"

	"github.com/forygen/forygen/internal/meta"
)

// Widths the planner sums (docs/format.md §3): the longest varints, and the
// same-schema hash before a struct body.
const (
	maxVarUint32Len = 5
	maxVarUint64Len = 9
	maxTaggedLen    = 9
	schemaHashBytes = 4
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
	// RefSet and RefDeclared are an element, key or value hint's `ref=`
	// (`_(ref=true)`): the TypeDef declares the child tracked (its
	// track_ref bit) when RefDeclared, with or without tracking, and
	// `ref=false` keeps struct pointer elements untracked.
	RefSet      bool
	RefDeclared bool
	// NotNull is an element, key or value hint's `nullable=false`: its
	// TypeDef nullable bit is 0 (children are nullable by default).
	NotNull bool
}

// IsVarint reports whether the wire type is a compressed integer.
func (w *Wire) IsVarint() bool {
	switch w.TypeID {
	case meta.TypeVarInt32, meta.TypeVarUint32, meta.TypeVarInt64, meta.TypeVarUint64, meta.TypeTaggedInt64, meta.TypeTaggedUint64:
		return true
	}
	return false
}

// IsFixedScalar reports whether the wire type is a fixed-width primitive.
func (w *Wire) IsFixedScalar() bool {
	switch w.TypeID {
	case meta.TypeBool, meta.TypeInt8, meta.TypeInt16, meta.TypeInt32, meta.TypeInt64, meta.TypeUint8, meta.TypeUint16, meta.TypeUint32, meta.TypeUint64,
		meta.TypeFloat16, meta.TypeBFloat16, meta.TypeFloat32, meta.TypeFloat64:
		return true
	}
	return false
}

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
		var hint string
		switch k {
		case model.Int32, model.Uint32:
			hint = "use encoding=varint, encoding=fixed or no encoding tag (tagged applies to int64 and uint64 only)"
		case model.Int, model.Uint:
			hint = "declare the field int64/uint64 to use tagged"
		default:
			// The 8- and 16-bit integers, bool and the floats have one
			// encoding.
			hint = fmt.Sprintf("a %s is always written fixed-width; remove the encoding tag", k)
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
			return meta.TypeFloat16, 2, nil
		case model.BFloat16:
			return meta.TypeBFloat16, 2, nil
		case model.Bool:
			return meta.TypeBool, 1, nil
		case model.Int8:
			return meta.TypeInt8, 1, nil
		case model.Uint8:
			return meta.TypeUint8, 1, nil
		case model.Int16:
			return meta.TypeInt16, 2, nil
		case model.Uint16:
			return meta.TypeUint16, 2, nil
		case model.Float32:
			return meta.TypeFloat32, 4, nil
		default:
			return meta.TypeFloat64, 8, nil
		}
	case model.Int32:
		switch encoding {
		case "", "varint":
			return meta.TypeVarInt32, maxVarUint32Len, nil
		case "fixed":
			return meta.TypeInt32, 4, nil
		}
		return bad()
	case model.Uint32:
		switch encoding {
		case "", "varint":
			return meta.TypeVarUint32, maxVarUint32Len, nil
		case "fixed":
			return meta.TypeUint32, 4, nil
		}
		return bad()
	case model.Int64, model.Int:
		switch {
		case encoding == "", encoding == "varint" && k == model.Int64:
			return meta.TypeVarInt64, maxVarUint64Len, nil
		case encoding == "varint":
			return meta.TypeVarInt32, maxVarUint32Len, nil
		case encoding == "fixed" && k == model.Int:
			return meta.TypeInt32, 4, nil
		}
		switch encoding {
		case "fixed":
			if k == model.Int64 {
				return meta.TypeInt64, 8, nil
			}
		case "tagged":
			if k == model.Int64 {
				return meta.TypeTaggedInt64, maxTaggedLen, nil
			}
		}
		return bad()
	case model.Uint64, model.Uint:
		switch {
		case encoding == "", encoding == "varint" && k == model.Uint64:
			return meta.TypeVarUint64, maxVarUint64Len, nil
		case encoding == "varint":
			return meta.TypeVarUint32, maxVarUint32Len, nil
		case encoding == "fixed" && k == model.Uint:
			return meta.TypeUint32, 4, nil
		}
		switch encoding {
		case "fixed":
			if k == model.Uint64 {
				return meta.TypeUint64, 8, nil
			}
		case "tagged":
			if k == model.Uint64 {
				return meta.TypeTaggedUint64, maxTaggedLen, nil
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
		"bool":     {[]model.Kind{model.Bool}, meta.TypeBoolArray, 1},
		"int8":     {[]model.Kind{model.Int8}, meta.TypeInt8Array, 1},
		"int16":    {[]model.Kind{model.Int16}, meta.TypeInt16Array, 2},
		"int32":    {[]model.Kind{model.Int32}, meta.TypeInt32Array, 4},
		"int64":    {[]model.Kind{model.Int64}, meta.TypeInt64Array, 8},
		"uint8":    {[]model.Kind{model.Uint8}, meta.TypeUint8Array, 1},
		"uint16":   {[]model.Kind{model.Uint16}, meta.TypeUint16Array, 2},
		"uint32":   {[]model.Kind{model.Uint32}, meta.TypeUint32Array, 4},
		"uint64":   {[]model.Kind{model.Uint64}, meta.TypeUint64Array, 8},
		"float32":  {[]model.Kind{model.Float32}, meta.TypeFloat32Array, 4},
		"float64":  {[]model.Kind{model.Float64}, meta.TypeFloat64Array, 8},
		"float16":  {[]model.Kind{model.Float16}, meta.TypeFloat16Array, 2},
		"bfloat16": {[]model.Kind{model.BFloat16}, meta.TypeBFloat16Array, 2},
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

// WireOf computes the wire type of a Go type with the field's tag applied:
// its encoding, nullability and type hint at the top level, and the hint's
// element, key and value nodes at every level below (official Fory Go's
// nested hints); a node without a hint takes the inferred default.
func WireOf(t *model.Type, tag model.Tag) (*Wire, error) {
	if h := tag.Hint; h != nil && (h.Nullable != nil || h.Ref != nil) {
		return nil, fmt.Errorf("type=%s: nullable= and ref= of the field itself belong in the tag (fory:\"nullable,ref,type=…\"), not in the hint's outer node", h.Original)
	}
	w, err := wireOf(t, tag, true)
	if err != nil {
		if h := tag.Hint; h != nil && !strings.HasPrefix(err.Error(), "type=") {
			// Name the whole hint: the error may be about a nested node.
			return nil, fmt.Errorf("type=%s: %v", h.Original, err)
		}
		return nil, err
	}
	return w, nil
}

// childWire plans an element, key or value of Go type t under the hint node
// h (nil: the inferred default): the node's nullable= and ref= become the
// child's TypeDef bits (NotNull, RefSet/RefDeclared), as official Go's
// TypeDef declares them.
func childWire(t *model.Type, h *model.Hint) (*Wire, error) {
	w, err := wireOf(t, model.Tag{ID: -1, Hint: h}, false)
	if err != nil || h == nil {
		return w, err
	}
	if h.Nullable != nil {
		carrier := t.Kind == model.Pointer || t.Kind == model.Optional
		switch {
		case *h.Nullable && !carrier:
			return nil, fmt.Errorf("%s: nullable=true needs a pointer or Optional element, not %s; declare the element a pointer", h.Original, t.Kind)
		case !*h.Nullable && carrier && !(t.Kind == model.Pointer && t.Elem.Kind == model.Struct):
			// A struct pointer element may be declared not nullable, as
			// foryc declares list<ref Leaf> (golden set 3 group 4): only
			// the TypeDef bit changes; the elements header still says
			// whether an element is null.
			return nil, fmt.Errorf("%s: nullable=false on a %s element is not supported; declare the element a value", h.Original, t.Kind)
		}
		w.NotNull = !*h.Nullable
	}
	if h.Ref != nil {
		w.RefSet, w.RefDeclared = true, *h.Ref
	}
	return w, nil
}

// scalarHintKinds are the Go kinds a scalar hint node may name.
var scalarHintKinds = map[string][]model.Kind{
	"bool": {model.Bool}, "int8": {model.Int8}, "int16": {model.Int16}, "int32": {model.Int32},
	"int64": {model.Int64, model.Int}, "uint8": {model.Uint8}, "uint16": {model.Uint16}, "uint32": {model.Uint32},
	"uint64": {model.Uint64, model.Uint}, "float16": {model.Float16}, "bfloat16": {model.BFloat16},
	"float32": {model.Float32}, "float64": {model.Float64}, "string": {model.String}, "timestamp": {model.Time},
	"date": {model.Date}, "duration": {model.Duration}, "decimal": {model.Decimal},
}

func wireOf(t *model.Type, tag model.Tag, top bool) (*Wire, error) {
	hint := tag.Hint
	encoding := tag.Encoding
	if hint != nil && hint.Encoding != "" {
		if hint.Name != "_" && !scalarHint(hint.Name) {
			return nil, fmt.Errorf("%s: encoding= applies to integer nodes, not %s", hint.Original, hint.Name)
		}
		encoding = hint.Encoding
	}
	if t.Kind == model.Pointer {
		if t.Elem.Kind == model.Pointer {
			return nil, fmt.Errorf("pointer to pointer is not supported")
		}
		if t.Elem.Kind == model.Any || t.Elem.Kind == model.Union {
			return nil, fmt.Errorf("a pointer to %s is not supported; use the %s itself, which can be nil", t.Elem.Kind, t.Elem.Kind)
		}
		if t.Elem.Kind == model.Optional {
			return nil, fmt.Errorf("a pointer to serializer.Optional is not supported; use the Optional itself or a pointer to its value")
		}
		inner, err := wireOf(t.Elem, tag, top)
		if err != nil {
			return nil, err
		}
		cp := *inner
		cp.Go = t
		cp.Nullable = true
		if top && tag.NullableSet && !tag.Nullable {
			// Official Go writes the struct without a null flag; a nil
			// pointer is refused when written (official Go writes a zero
			// value for it).
			if t.Elem.Kind != model.Struct {
				return nil, fmt.Errorf("nullable=false on a pointer to %s is not supported; use a non-pointer field", t.Elem.Kind)
			}
			cp.Nullable = false
		}
		return &cp, nil
	}
	w := &Wire{Go: t}
	if top && tag.Nullable && !t.Kind.IsPrimitive() {
		w.Nullable = true
	}
	if encoding != "" && !t.Kind.IsPrimitive() && t.Kind != model.Optional {
		return nil, fmt.Errorf("encoding=%s applies only to integer fields", encoding)
	}
	if hint != nil && scalarHint(hint.Name) && !(hint.Name == "bytes" && t.Kind == model.Slice) {
		if err := checkScalarHint(hint, t); err != nil {
			return nil, err
		}
		if hint.Element != nil || hint.Key != nil || hint.Value != nil {
			return nil, fmt.Errorf("%s: a scalar has no element, key or value", hint.Original)
		}
		hint = nil
	}
	if hint != nil && hint.Name == "_" {
		// The inferred type, with its children's hints applied.
		switch {
		case hint.Element == nil && hint.Key == nil && hint.Value == nil:
			hint = nil
		case (t.Kind == model.Slice || t.Kind == model.Array) && hint.Key == nil && hint.Value == nil:
			hint = &model.Hint{Name: "list", Element: hint.Element, Original: hint.Original}
		case t.Kind == model.Set && hint.Key == nil && hint.Value == nil:
			hint = &model.Hint{Name: "set", Element: hint.Element, Original: hint.Original}
		case t.Kind == model.Map && hint.Element == nil:
			hint = &model.Hint{Name: "map", Key: hint.Key, Value: hint.Value, Original: hint.Original}
		default:
			return nil, fmt.Errorf("%s: its element, key or value does not match the Go type %s", hint.Original, t.Kind)
		}
	}
	if hint != nil {
		switch hint.Name {
		case "list", "array", "set":
			if hint.Key != nil || hint.Value != nil {
				return nil, fmt.Errorf("%s: %s takes element=, not key= or value=", hint.Original, hint.Name)
			}
		case "map":
			if hint.Element != nil {
				return nil, fmt.Errorf("%s: map takes key= and value=, not element=", hint.Original)
			}
		}
	}
	switch {
	case t.Kind.IsPrimitive():
		if hint != nil {
			return nil, fmt.Errorf("%s does not apply to %s", hint.Original, t.Kind)
		}
		if !top && encoding != "" && (t.Kind == model.Int || t.Kind == model.Uint) {
			// 32 bits, as official Go declares it, but only a field's value
			// is range-checked before it is written.
			return nil, fmt.Errorf("encoding=%s on an element or Optional of Go type %s is not supported; declare it %s32 or %s64", encoding, t.Kind, t.Kind, t.Kind)
		}
		id, width, err := scalarWire(t.Kind, encoding)
		if err != nil {
			return nil, err
		}
		w.TypeID, w.Width = id, width
		return w, nil
	}
	if hint != nil {
		switch t.Kind {
		case model.Slice, model.Array, model.Set, model.Map, model.Optional:
		default:
			return nil, fmt.Errorf("%s does not apply to %s", hint.Original, t.Kind)
		}
	}
	switch {
	case t.Kind == model.String:
		w.TypeID = meta.TypeString
	case t.Kind == model.Enum:
		w.TypeID = meta.TypeEnum
	case t.Kind == model.Time:
		w.TypeID = meta.TypeTimestamp
	case t.Kind == model.Duration:
		w.TypeID = meta.TypeDuration
	case t.Kind == model.Date:
		w.TypeID = meta.TypeDate
	case t.Kind == model.Decimal:
		w.TypeID = meta.TypeDecimal
	case t.Kind == model.Ext:
		w.TypeID = meta.TypeExt
		if t.Reg.ByName {
			w.TypeID = meta.TypeNamedExt
		}
	case t.Kind == model.Text:
		// Its MarshalText bytes as a string (README "Types you don't own").
		w.TypeID = meta.TypeString
	case t.Kind == model.Binary:
		// Its MarshalBinary bytes.
		w.TypeID = meta.TypeBinary
	case t.Kind == model.Any:
		// Every value carries its flag and type meta (docs/format.md §12.3),
		// so a nullable tag adds no second flag; the TypeDef declares the
		// field nullable either way (DeclaredNullable).
		if hint != nil {
			return nil, fmt.Errorf("type=%s does not apply to an any field", hint.Original)
		}
		w.TypeID, w.Nullable = meta.TypeUnknown, false
	case t.Kind == model.Union:
		w.TypeID = meta.TypeUnion
	case t.Kind == model.Struct:
		w.TypeID = compatibleKind(t.Reg)
	case t.Kind == model.Slice || t.Kind == model.Array:
		var elemHint *model.Hint
		if hint != nil {
			switch hint.Name {
			case "bytes":
				if t.Kind != model.Slice || t.Elem.Kind != model.Uint8 || t.Elem.Named != nil {
					return nil, fmt.Errorf("type=bytes needs a []byte field")
				}
				w.TypeID = meta.TypeBinary
				return w, nil
			case "array":
				e := hint.Element
				if e == nil {
					return nil, fmt.Errorf("%s: array needs element=, e.g. array(element=int32)", hint.Original)
				}
				if e.Nullable != nil || e.Ref != nil || e.Encoding != "" || e.Element != nil || e.Key != nil || e.Value != nil {
					return nil, fmt.Errorf("%s: an array element is a plain number or bool, without arguments", hint.Original)
				}
				if t.Elem.Named != nil && t.Elem.Kind != model.Float16 && t.Elem.Kind != model.BFloat16 {
					return nil, fmt.Errorf("%s: a dense array of the named type %s is not supported; use its underlying type", hint.Original, t.Elem.Named.Name)
				}
				id, width, err := denseArrayType(t.Elem.Kind, e.Name)
				if err != nil {
					return nil, err
				}
				w.TypeID = id
				w.Elem = &Wire{TypeID: 0, Go: t.Elem, Width: width}
				return w, nil
			case "list":
				elemHint = hint.Element
			default:
				return nil, fmt.Errorf("type=%s is not supported on a %s field", hint.Original, t.Kind)
			}
		}
		elem, err := childWire(t.Elem, elemHint)
		if err != nil {
			return nil, err
		}
		w.TypeID = meta.TypeList
		w.Elem = elem
	case t.Kind == model.Optional:
		// An Optional is its value behind a null flag, as a pointer is.
		if !top {
			return nil, fmt.Errorf("serializer.Optional is supported as a field, not as a list, array or set element or a map value; use a pointer to its value (*T), which is nullable there")
		}
		inner, err := wireOf(t.Elem, model.Tag{ID: -1, Encoding: encoding, Hint: hint}, false)
		if err != nil {
			return nil, err
		}
		inner.Go, inner.Nullable = t, true
		return inner, nil
	case t.Kind == model.Set:
		var elemHint *model.Hint
		if hint != nil {
			if hint.Name != "set" {
				return nil, fmt.Errorf("type=%s is not supported on a set field", hint.Original)
			}
			elemHint = hint.Element
		}
		elem, err := childWire(t.Elem, elemHint)
		if err != nil {
			return nil, err
		}
		w.TypeID, w.Elem = meta.TypeSet, elem
	case t.Kind == model.Map:
		var keyHint, valHint *model.Hint
		if hint != nil {
			if hint.Name != "map" {
				return nil, fmt.Errorf("type=%s is not supported on a map field", hint.Original)
			}
			keyHint, valHint = hint.Key, hint.Value
		}
		if keyHint != nil && keyHint.Name == "array" {
			// Official Go parses it and refuses it when writing.
			return nil, fmt.Errorf("type=%s: array type hint is not valid for map keys; remove key=array(…) (an array key is a list)", hint.Original)
		}
		switch t.Key.Kind {
		case model.Bool, model.Int8, model.Int16, model.Int32, model.Int64, model.Int, model.Uint8, model.Uint16,
			model.Uint32, model.Uint64, model.Uint, model.String, model.Enum:
		case model.Pointer:
			// A nullable key (official Go's map[*string]*string): a nil key
			// is a null-key chunk (docs/format.md §8.4).
			if e := t.Key.Elem; e.Kind != model.String && e.Kind != model.Enum && !scalarKey(e.Kind) {
				return nil, fmt.Errorf("map key type *%s is not supported (a pointer key points to a bool, integer, string or enum)", e.Kind)
			}
			switch v := t.Elem; {
			case v.Kind == model.Pointer && v.Elem.Kind == model.Struct, v.Kind == model.Slice, v.Kind == model.Map, v.Kind == model.Set, v.Kind == model.Any:
				return nil, fmt.Errorf("a map with pointer keys holds bool, integer, float, string, enum or struct values, or pointers to them; not %s", v.Kind)
			}
		case model.Struct:
			// A comparable generated struct (Go checks it): its body, the
			// key declared, as official Go writes map[Point]string
			// (docs/format.md §8.4).
		case model.Array:
			if !scalarKey(t.Key.Elem.Kind) {
				return nil, fmt.Errorf("map key type [%d]%s is not supported (an array key's elements are bool, integer, string or enum)", t.Key.Len, t.Key.Elem.Kind)
			}
		default:
			return nil, fmt.Errorf("map key type %s is not supported (bool, integer, string, enum, struct and array keys are)", t.Key.Kind)
		}
		if v := t.Elem; v.Kind == model.Pointer && v.Elem.Kind == model.Ext {
			return nil, fmt.Errorf("a map of pointers to the extension type %s is not supported (a list of them is, and a map of them as values)", v.Elem.Named.Name)
		}
		key, err := childWire(t.Key, keyHint)
		if err != nil {
			return nil, err
		}
		val, err := childWire(t.Elem, valHint)
		if err != nil {
			return nil, err
		}
		if val.TypeID == meta.TypeUnknown && key.TypeID != meta.TypeString {
			return nil, fmt.Errorf("a map with any values needs string keys (map[string]any)")
		}
		if val.TypeID == meta.TypeUnion || key.TypeID == meta.TypeUnion {
			return nil, fmt.Errorf("a union as a map key or value is not supported")
		}
		w.TypeID, w.Key, w.Elem = meta.TypeMap, key, val
	default:
		return nil, fmt.Errorf("type %s is not supported", t.Kind)
	}
	return w, nil
}

// scalarKey reports whether an array map key may hold elements of kind k.
func scalarKey(k model.Kind) bool {
	switch k {
	case model.Bool, model.Int8, model.Int16, model.Int32, model.Int64, model.Int, model.Uint8, model.Uint16,
		model.Uint32, model.Uint64, model.Uint, model.String, model.Enum:
		return true
	}
	return false
}

func scalarHint(name string) bool {
	switch name {
	case "_", "list", "array", "set", "map":
		return false
	}
	return true
}

// checkScalarHint checks that a scalar hint node names the Go type it is
// on (through a pointer or an Optional): forygen converts no value to
// another type.
func checkScalarHint(h *model.Hint, t *model.Type) error {
	base := t
	if base.Kind == model.Optional {
		base = base.Elem
	}
	for _, k := range scalarHintKinds[h.Name] {
		if k == base.Kind {
			return nil
		}
	}
	return fmt.Errorf("%s does not match the Go type %s; name the Go type's own scalar or use _", h.Original, base.Kind)
}
