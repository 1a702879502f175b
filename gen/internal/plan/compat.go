package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"

	"github.com/forygen/forygen/internal/meta"
)

// This file decides whether a schema change is safe for peers on the old
// schema. Which types convert is the compatible-mode reader's rule, and its
// one statement is internal/meta's (meta.ConversionOf, meta.NumericExact,
// meta.Unskippable; docs/format.md §11.4), which the runtime reads by too:
// identical type trees (the four struct kinds alike) read directly; numeric
// scalars convert, failing on a value the local type cannot hold; lists,
// dense arrays and BINARY of one element domain convert element by element;
// everything else is refused, and the message fails to decode. This file
// grades what converts: safe when every value crosses, lossy when some
// cannot (out of range, a null where the reader has no null). gen's
// TestReaderAgreement checks each change kind against the reader.

// TypeRef is a field type as the schema sees it: the Fory type id tree of a
// Wire, with the registration of the structs and enums it names. It is what a
// lock file records and what two versions of a field are compared by.
type TypeRef struct {
	TypeID uint8
	// Nullable is set on a child (list, set element, map key or value) that
	// is written behind a null flag; a field's own nullability is kept
	// beside its TypeRef.
	Nullable bool
	// Ref is set on a child whose values carry reference flags when the
	// Fory tracks references (Wire.RefOn).
	Ref      bool
	Reg      string // "id=N" or "name=ns.T" for struct and enum types
	Children []TypeRef
}

// TypeRefOf is the TypeRef of a planned wire type.
func TypeRefOf(w *Wire) TypeRef {
	t := TypeRef{TypeID: w.TypeID}
	if meta.IsStructKind(w.TypeID) || w.TypeID == meta.TypeEnum || w.TypeID == meta.TypeNamedEnum {
		g := w.Go
		for g != nil && (g.Kind == model.Pointer || g.Kind == model.Optional) {
			g = g.Elem
		}
		if g != nil {
			t.Reg = g.Reg.String()
		}
	}
	child := func(c *Wire) TypeRef {
		r := TypeRefOf(c)
		r.Nullable, r.Ref = c.Nullable, c.RefOn
		return r
	}
	switch w.TypeID {
	case meta.TypeList, meta.TypeSet:
		t.Children = []TypeRef{child(w.Elem)}
	case meta.TypeMap:
		t.Children = []TypeRef{child(w.Key), child(w.Elem)}
	}
	return t
}

// namedTypes are the type ids this package plans that TypeName spells by
// name; the others (any values and unions) it spells typeN.
var namedTypes = func() map[uint8]bool {
	m := map[uint8]bool{}
	for _, id := range []uint8{meta.TypeBool, meta.TypeInt8, meta.TypeInt16, meta.TypeInt32, meta.TypeVarInt32,
		meta.TypeInt64, meta.TypeVarInt64, meta.TypeTaggedInt64, meta.TypeUint8, meta.TypeUint16, meta.TypeUint32,
		meta.TypeVarUint32, meta.TypeUint64, meta.TypeVarUint64, meta.TypeTaggedUint64, meta.TypeFloat16,
		meta.TypeBFloat16, meta.TypeFloat32, meta.TypeFloat64, meta.TypeString, meta.TypeList, meta.TypeSet,
		meta.TypeMap, meta.TypeEnum, meta.TypeNamedEnum, meta.TypeStruct, meta.TypeCompatibleStruct,
		meta.TypeNamedStruct, meta.TypeNamedCompatibleStruct, meta.TypeDuration, meta.TypeTimestamp, meta.TypeDate,
		meta.TypeDecimal, meta.TypeBinary, meta.TypeBoolArray, meta.TypeInt8Array, meta.TypeInt16Array,
		meta.TypeInt32Array, meta.TypeInt64Array, meta.TypeUint8Array, meta.TypeUint16Array, meta.TypeUint32Array,
		meta.TypeUint64Array, meta.TypeFloat16Array, meta.TypeBFloat16Array, meta.TypeFloat32Array,
		meta.TypeFloat64Array, meta.TypeExt, meta.TypeNamedExt} {
		m[id] = true
	}
	return m
}()

// TypeName is the lowercase name of a type id (docs/format.md §4.1), as
// fory.lock spells it: "var_uint32", "named_compatible_struct".
func TypeName(id uint8) string {
	if namedTypes[id] {
		return strings.ToLower(meta.TypeIDName(id))
	}
	return "type" + strconv.Itoa(int(id))
}

// String spells a TypeRef: `?` before a nullable child, `&` before a child
// tracked by reference when the Fory tracks references, the registration
// in parentheses, children in angle brackets:
// `map<string,?&compatible_struct(id=5)>`.
func (t TypeRef) String() string {
	var sb strings.Builder
	t.write(&sb)
	return sb.String()
}

func (t TypeRef) write(sb *strings.Builder) {
	if t.Nullable {
		sb.WriteByte('?')
	}
	if t.Ref {
		sb.WriteByte('&')
	}
	sb.WriteString(TypeName(t.TypeID))
	if t.Reg != "" {
		sb.WriteString("(" + t.Reg + ")")
	}
	if len(t.Children) > 0 {
		sb.WriteByte('<')
		for i, c := range t.Children {
			if i > 0 {
				sb.WriteByte(',')
			}
			c.write(sb)
		}
		sb.WriteByte('>')
	}
}

// ParseTypeRef reads what TypeRef.String writes, and refuses what it
// never writes: a type id this package does not know, a list or set
// without exactly one element type, a map without exactly a key and a
// value type, type arguments or a registration on a type that takes none
// (a lock file is edited by hand: issue 25 item 3).
func ParseTypeRef(s string) (TypeRef, error) {
	t, rest, err := parseTypeRef(s, 0)
	if err != nil {
		return TypeRef{}, err
	}
	if rest != "" {
		return TypeRef{}, fmt.Errorf("type %q: unexpected %q", s, rest)
	}
	if err := t.check(); err != nil {
		return TypeRef{}, fmt.Errorf("type %q: %v", s, err)
	}
	return t, nil
}

// unnamedTypes are the type ids this package plans that have no name in
// namedTypes; TypeName spells them typeN.
var unnamedTypes = map[uint8]bool{meta.TypeUnknown: true, meta.TypeUnion: true, meta.TypeTypedUnion: true, meta.TypeNamedUnion: true}

// maxTypeRefDepth bounds the nesting ParseTypeRef reads; no Go type this
// generator accepts comes near it.
const maxTypeRefDepth = 64

// check refuses a TypeRef that TypeRefOf cannot make.
func (t TypeRef) check() error {
	want := 0
	switch t.TypeID {
	case meta.TypeList, meta.TypeSet:
		want = 1
	case meta.TypeMap:
		want = 2
	}
	if len(t.Children) != want {
		return fmt.Errorf("%s takes %d type arguments, not %d", TypeName(t.TypeID), want, len(t.Children))
	}
	if t.Reg != "" {
		if !meta.IsStructKind(t.TypeID) && t.TypeID != meta.TypeEnum && t.TypeID != meta.TypeNamedEnum {
			return fmt.Errorf("%s takes no registration (%s)", TypeName(t.TypeID), t.Reg)
		}
		if !strings.HasPrefix(t.Reg, "id=") && !strings.HasPrefix(t.Reg, "name=") {
			return fmt.Errorf("registration %q: want id=N or name=ns.T", t.Reg)
		}
	}
	for _, c := range t.Children {
		if err := c.check(); err != nil {
			return err
		}
	}
	return nil
}

func parseTypeRef(s string, depth int) (TypeRef, string, error) {
	var t TypeRef
	if depth > maxTypeRefDepth {
		return t, "", fmt.Errorf("types nested deeper than %d", maxTypeRefDepth)
	}
	if rest, ok := strings.CutPrefix(s, "?"); ok {
		t.Nullable, s = true, rest
	}
	if rest, ok := strings.CutPrefix(s, "&"); ok {
		t.Ref, s = true, rest
	}
	end := strings.IndexAny(s, "(<,>")
	if end < 0 {
		end = len(s)
	}
	name := s[:end]
	found := false
	for id := range namedTypes {
		if TypeName(id) == name {
			t.TypeID, found = id, true
			break
		}
	}
	if n, err := strconv.ParseUint(strings.TrimPrefix(name, "type"), 10, 8); !found && strings.HasPrefix(name, "type") && err == nil && unnamedTypes[uint8(n)] && name == TypeName(uint8(n)) {
		// A type id without a name here (TypeName's fallback).
		t.TypeID, found = uint8(n), true
	}
	if !found {
		return t, "", fmt.Errorf("unknown type name %q", name)
	}
	s = s[end:]
	if rest, ok := strings.CutPrefix(s, "("); ok {
		close := strings.IndexByte(rest, ')')
		if close < 0 {
			return t, "", fmt.Errorf("missing ) after %s(", name)
		}
		t.Reg, s = rest[:close], rest[close+1:]
	}
	if rest, ok := strings.CutPrefix(s, "<"); ok {
		s = rest
		for {
			c, rest, err := parseTypeRef(s, depth+1)
			if err != nil {
				return t, "", err
			}
			t.Children = append(t.Children, c)
			switch {
			case strings.HasPrefix(rest, ","):
				s = rest[1:]
				continue
			case strings.HasPrefix(rest, ">"):
				s = rest[1:]
			default:
				return t, "", fmt.Errorf("missing > after the children of %s", name)
			}
			break
		}
	}
	return t, s, nil
}

// Verdict classifies a schema change.
type Verdict int

const (
	// Safe: peers on either schema read each other's messages without loss.
	Safe Verdict = iota
	// Lossy: messages still decode, but some values cannot cross: a read fails
	// on a value the narrower type cannot hold, or a null becomes a zero value.
	Lossy
	// Breaking: a peer on one of the schemas refuses the other's messages.
	Breaking
)

func (v Verdict) String() string { return [...]string{"safe", "lossy", "breaking"}[v] }

func worst(a, b Verdict) Verdict { return max(a, b) }

// fieldType is a TypeRef as a TypeDef has it, for the reader's rules.
func fieldType(t TypeRef) meta.FieldType {
	ft := meta.FieldType{TypeID: t.TypeID, Nullable: t.Nullable, TrackRef: t.Ref}
	for _, c := range t.Children {
		ft.Children = append(ft.Children, fieldType(c))
	}
	return ft
}

// sameRegs reports whether the structs and enums two same-shaped trees name
// are the same registered types.
func sameRegs(a, b TypeRef) bool {
	if a.Reg != b.Reg {
		return false
	}
	for i := range a.Children {
		if !sameRegs(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}

// sameChildRefs reports whether the children of two same-shaped trees are
// tracked alike.
func sameChildRefs(a, b TypeRef) bool {
	for i := range a.Children {
		if a.Children[i].Ref != b.Children[i].Ref || !sameChildRefs(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}

// nullsLost reports whether a child of from may hold a null where the same
// child of to cannot (two trees of the same shape).
func nullsLost(from, to TypeRef) bool {
	for i := range from.Children {
		if from.Children[i].Nullable && !to.Children[i].Nullable || nullsLost(from.Children[i], to.Children[i]) {
			return true
		}
	}
	return false
}

// ReadAs classifies reading a value written as type from into a field
// declared as type to, in compatible mode, and says why.
func ReadAs(from, to TypeRef) (Verdict, string) {
	f, t := fieldType(from), fieldType(to)
	switch meta.ConversionOf(&f, &t) {
	case meta.Same:
		if !sameRegs(from, to) {
			return Breaking, fmt.Sprintf("%s is not %s: the nested type meta names another registered type", from, to)
		}
		if !sameChildRefs(from, to) {
			return Breaking, fmt.Sprintf("%s and %s track elements differently: with reference tracking on, the message fails to decode", from, to)
		}
		if nullsLost(from, to) {
			return Lossy, fmt.Sprintf("%s is read as %s: a null element reads as the zero value (a null map value fails the read)", from, to)
		}
		return Safe, ""
	case meta.Numeric:
		if meta.NumericExact(from.TypeID, to.TypeID) {
			return Safe, fmt.Sprintf("%s converts exactly to %s", TypeName(from.TypeID), TypeName(to.TypeID))
		}
		return Lossy, fmt.Sprintf("a %s value that %s cannot hold fails the read", TypeName(from.TypeID), TypeName(to.TypeID))
	case meta.Sequence:
		if from.TypeID == meta.TypeList && from.Children[0].Nullable && to.TypeID != meta.TypeList {
			return Lossy, fmt.Sprintf("%s converts element by element to %s; a null element fails the read", from, to)
		}
		return Safe, fmt.Sprintf("%s converts element by element to %s", from, to)
	}
	return Breaking, fmt.Sprintf("%s cannot be read as %s: the message fails to decode", from, to)
}

// Unskippable says why a reader that does not declare a field of type t
// cannot step over it with the TypeDef alone, as official Go and forygen
// write it, or "" when it can (meta.Unskippable): a map's struct keys, and
// its struct values as these writers declare them, carry no type meta
// (docs/format.md §14.11).
func Unskippable(t TypeRef) string {
	ft := fieldType(t)
	return meta.Unskippable(&ft, true)
}

// FieldSchema is a field as a lock file records it: what its TypeDef entry
// says (identifier, type, nullability, track_ref).
type FieldSchema struct {
	Identifier string
	Type       TypeRef
	Nullable   bool
	Ref        bool // track_ref in a Fory that does not track references (Field.RefOff)
	Tracked    bool // track_ref in a Fory that does (Field.RefOn)
}

// FieldSchemaOf is a planned field's FieldSchema.
func FieldSchemaOf(f *Field) FieldSchema {
	return FieldSchema{Identifier: f.Identifier, Type: TypeRefOf(f.Wire), Nullable: DeclaredNullable(f.Wire), Ref: f.RefOff, Tracked: f.RefOn}
}

// FieldChange classifies a change of one field (same identifier) in
// compatible mode. oldPeer says what a peer on the old schema sees in
// messages of the new one; newPeer what the new code sees in old messages.
func FieldChange(old, new FieldSchema) (v Verdict, oldPeer, newPeer string) {
	v1, oldPeer := ReadAs(new.Type, old.Type)
	v2, newPeer := ReadAs(old.Type, new.Type)
	v = worst(v1, v2)
	// An any value carries its own flag whatever the bit says (a lock
	// written before any fields were declared nullable says false).
	if old.Nullable != new.Nullable && !(old.Type.TypeID == meta.TypeUnknown && new.Type.TypeID == meta.TypeUnknown) {
		if new.Nullable {
			oldPeer = join(oldPeer, "a null from the new side reads as the zero value")
		} else {
			newPeer = join(newPeer, "a null from the old side reads as the zero value")
		}
		v = worst(v, Lossy)
	}
	// Without reference tracking a ref field carries a flag (ff, or fd for
	// null) that the TypeDef's track_ref bit announces: the reader follows
	// the writer's bit, so adding or removing ref is safe in compatible
	// mode (same-schema mode has it in the hash).
	if old.Tracked != new.Tracked {
		v = Breaking
		oldPeer = join(oldPeer, "with reference tracking on, a value this field shares with another arrives as a back-reference "+
			"that the side which does not track the field cannot resolve: the message fails to decode")
		newPeer = join(newPeer, "the same, in the other direction")
	}
	return v, oldPeer, newPeer
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// MapMembers returns the registrations of the structs a type tree holds as
// map keys or values. Map entries are written without type meta in both
// modes, so a reader needs their exact schema (docs/format.md §14.11): any
// change to such a struct breaks peers on the old schema.
func MapMembers(t TypeRef) []string {
	var out []string
	var walk func(t TypeRef, inMap bool)
	walk = func(t TypeRef, inMap bool) {
		if inMap && meta.IsStructKind(t.TypeID) && t.Reg != "" {
			out = append(out, t.Reg)
		}
		for _, c := range t.Children {
			walk(c, inMap || t.TypeID == meta.TypeMap)
		}
	}
	walk(t, false)
	return out
}

// Enum constants are not on the wire: an enum value is its ordinal, a
// var_uint32 (docs/format.md §12), and forygen's reader accepts any ordinal
// its Go type can hold (foryimpl.ReadContext.ReadEnum), named by a constant
// or not. So a constant renamed with its ordinal is safe; one renumbered
// means another value to each side (breaking); one removed still decodes
// from old peers, but as a value this code no longer names (lossy); one
// added is safe, old peers reading it as an unnamed value of their enum.

// EnumMaxOrdinal is the largest ordinal forygen's reader accepts for an enum
// of base kind base (model.Kind.String()): the kind's maximum, at most the
// wire's 2^32-1; a larger one fails the read as a schema mismatch.
func EnumMaxOrdinal(base string) uint64 {
	switch base {
	case "int8":
		return 1<<7 - 1
	case "uint8":
		return 1<<8 - 1
	case "int16":
		return 1<<15 - 1
	case "uint16":
		return 1<<16 - 1
	case "int32":
		return 1<<31 - 1
	}
	return 1<<32 - 1
}
