package plan

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/internal/meta"
)

// Group is one of the three consecutive field groups of a struct body
// (docs/format.md §9.3).
type Group int

const (
	GroupFixed  Group = iota // non-nullable fixed-width primitives
	GroupVarint              // non-nullable compressed integers
	GroupOther               // nullable primitives, then everything else
)

func (g Group) String() string { return [...]string{"fixed", "varint", "other"}[g] }

// Field is a struct field with its wire decisions.
type Field struct {
	*model.Field
	// Identifier is the tag id (decimal) or the Go snake_case name (§6.2).
	Identifier string
	Group      Group
	Wire       *Wire
	// RefOff and RefOn are the field's track_ref (TrackRef) when the Fory
	// tracks references off and on: its TypeDef bit, and whether a
	// reference flag precedes its value.
	RefOff, RefOn bool
	// Unflagged is set on a field with RefOn that the other languages
	// write with no flag in a tracked same-schema message, where official
	// Go writes one: a struct or enum value, a dense array, a binary, with
	// no `ref` tag (docs/format.md §14.30). Compatible mode keeps the flag,
	// which the TypeDef declares (track_ref); so does WithOfficialGoForm.
	Unflagged bool
}

// Tagged reports whether the field has an `id=` tag.
func (f *Field) Tagged() bool { return f.Tag.ID >= 0 }

// Struct is the full plan of one generated struct.
type Struct struct {
	Model  *model.StructDecl
	Fields []*Field // in write order

	FixedBytes        int // sum of the fixed group's widths
	VarintMaxBytes    int // sum of the varint group's maximum widths
	MaxPrimitiveBytes int // schema hash + FixedBytes + VarintMaxBytes: the one Reserve of the write path

	// Fingerprint and SchemaHash are the same-schema fingerprint and hash
	// the other languages compute (§10.1); OfficialGoFingerprint and
	// OfficialGoHash official Go's, which marks pointer and any fields not
	// nullable (docs/format.md §14.29). They differ only for a struct with
	// such a field; its reader accepts both hashes, its writer writes
	// OfficialGoHash under serializer.WithOfficialGoForm.
	Fingerprint           string
	SchemaHash            int32
	OfficialGoFingerprint string
	OfficialGoHash        int32

	// ConsistentTypeID is 27 (by id) or 29 (by name); CompatibleTypeID 28 or 30.
	ConsistentTypeID uint8
	CompatibleTypeID uint8
	// ConsistentMeta is the same-schema type meta written when the type's
	// names are new in the message: type id, then user id or the two inline
	// meta strings (§5.1, §6.3).
	ConsistentMeta []byte
	// TypeDef is the compatible-mode TypeDef, header and body (§11).
	TypeDef []byte
	// TypeDefRef and RootCompatibleRef are TypeDef and RootCompatible when
	// the Fory tracks references; nil when they are the same bytes (no
	// field's track_ref bit depends on the option).
	TypeDefRef, RootCompatibleRef []byte
	// RefBits are the offsets in TypeDef of the bytes whose bit 0 (a
	// track_ref flag) tracking sets, when that is the whole difference
	// between TypeDef and TypeDefRef (RefBits): the generated code then
	// declares the TypeDef once and these offsets, and the runtime derives
	// TypeDefRef (meta.WithRefBits). Nil when TypeDefRef is nil or differs
	// otherwise, and the generated code declares both.
	RefBits []uint16
	// RefSensitive is set when tracking references changes how the body
	// is written: a field with RefOn, or list elements or map values that
	// are tracked (Wire.RefOn).
	RefSensitive bool
	// RootConsistent and RootCompatible are the first bytes of a message
	// whose root is this struct, in each mode (RootPrefix).
	RootConsistent []byte
	RootCompatible []byte
	// Recursive is set for a struct that can contain itself (see
	// Recursive); only its generated code counts nesting depth.
	Recursive bool
	// Flat is set for a struct with no struct anywhere in its fields (see
	// Flat): writing it needs no write context.
	Flat bool
}

// Identifier returns a field's identifier: its tag id, or its Go name in
// snake_case (docs/format.md §9.3, §6.2).
func Identifier(f *model.Field) string {
	if f.Tag.ID >= 0 {
		return strconv.Itoa(f.Tag.ID)
	}
	return meta.SnakeCase(f.GoName)
}

// lessIdentifier orders identifiers: both tagged → numeric; tagged before
// untagged; otherwise byte-wise (§9.3).
func lessIdentifier(a, b *Field) bool {
	switch {
	case a.Tagged() && b.Tagged():
		return a.Tag.ID < b.Tag.ID
	case a.Tagged() != b.Tagged():
		return a.Tagged()
	}
	return a.Identifier < b.Identifier
}

// GroupOf puts a field in its group (§9.3).
func GroupOf(w *Wire) Group {
	switch {
	case w.Nullable:
		return GroupOther
	case w.IsFixedScalar():
		return GroupFixed
	case w.IsVarint():
		return GroupVarint
	}
	return GroupOther
}

// logicalWidth is the width a primitive sorts by: the encoded width of a
// fixed scalar, the value width of a varint (8 before 4).
func logicalWidth(w *Wire) int {
	switch w.TypeID {
	case meta.TypeVarInt32, meta.TypeVarUint32:
		return 4
	case meta.TypeVarInt64, meta.TypeVarUint64, meta.TypeTaggedInt64, meta.TypeTaggedUint64:
		return 8
	}
	return w.Width
}

func isPrimitiveWire(w *Wire) bool { return w.IsFixedScalar() || w.IsVarint() }

// primitiveLess is the primitive order: width descending, type id ascending,
// identifier.
func primitiveLess(a, b *Field) bool {
	wa, wb := logicalWidth(a.Wire), logicalWidth(b.Wire)
	if wa != wb {
		return wa > wb
	}
	if a.Wire.TypeID != b.Wire.TypeID {
		return a.Wire.TypeID < b.Wire.TypeID
	}
	return lessIdentifier(a, b)
}

// Order sorts fields into write order: the fixed group, the varint group,
// then the other group with nullable primitives first (fixed before
// compressed, each in primitive order) and the rest by identifier (§9.3).
func Order(fields []*Field) []*Field {
	out := append([]*Field(nil), fields...)
	rank := func(f *Field) int {
		switch {
		case f.Group == GroupFixed:
			return 0
		case f.Group == GroupVarint:
			return 1
		case isPrimitiveWire(f.Wire) && f.Wire.IsFixedScalar():
			return 2
		case isPrimitiveWire(f.Wire):
			return 3
		}
		return 4
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ra, rb := rank(a), rank(b)
		if ra != rb {
			return ra < rb
		}
		if ra < 4 {
			return primitiveLess(a, b)
		}
		return lessIdentifier(a, b)
	})
	return out
}

// fingerprintTypeID is the type id a fingerprint uses: every user type is 0
// (§10.1).
func fingerprintTypeID(w *Wire) uint8 {
	switch {
	case meta.IsStructKind(w.TypeID), w.TypeID == meta.TypeEnum, w.TypeID == meta.TypeNamedEnum, w.TypeID == meta.TypeUnion,
		w.TypeID == meta.TypeExt, w.TypeID == meta.TypeNamedExt:
		// User types hash as 0 (official Go's fingerprint of an extension
		// field is the same by id and by name).
		return 0
	}
	return w.TypeID
}

// typeFingerprint renders `<tid>,<ref>,<nullable>[children]`; children always
// use ref 0 and nullable 0.
func typeFingerprint(w *Wire, ref, nullable bool) string {
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	s := fmt.Sprintf("%d,%s,%s", fingerprintTypeID(w), b(ref), b(nullable))
	switch w.TypeID {
	case meta.TypeList, meta.TypeSet:
		s += "[" + typeFingerprint(w.Elem, false, false) + "]"
	case meta.TypeMap:
		s += "[" + typeFingerprint(w.Key, false, false) + "|" + typeFingerprint(w.Elem, false, false) + "]"
	}
	return s
}

// Fingerprint builds the same-schema fingerprint as the specification,
// Python, JavaScript, Java and C++ compute it: fields sorted by identifier,
// each `<identifier>,<type fingerprint>;` (§10.1), a field nullable exactly
// when a null flag precedes its value (its TypeDef nullable bit): a pointer,
// an any, a `nullable`-tagged non-primitive, an Optional.
func Fingerprint(fields []*Field) string {
	return fingerprint(fields, func(f *Field) bool {
		return fingerprintNullable(f) || DeclaredNullable(f.Wire)
	})
}

// OfficialGoFingerprint is official Go's same-schema fingerprint: a plain
// pointer or any field fingerprints as not nullable, only an explicit
// `nullable` tag (or an Optional) sets the bit, on a non-primitive or a
// pointer to a primitive (docs/format.md §14.29).
func OfficialGoFingerprint(fields []*Field) string {
	return fingerprint(fields, fingerprintNullable)
}

// fingerprintNullable is the nullable bit official Go and the others agree
// on: a `nullable` tag or an Optional, except on a primitive value, which
// cannot be null.
func fingerprintNullable(f *Field) bool {
	return (f.Tag.Nullable || f.Wire.Go.Kind == model.Optional) && (!isPrimitiveWire(f.Wire) || f.Wire.Nullable)
}

func fingerprint(fields []*Field, nullable func(*Field) bool) string {
	sorted := append([]*Field(nil), fields...)
	sort.SliceStable(sorted, func(i, j int) bool { return lessIdentifier(sorted[i], sorted[j]) })
	var sb strings.Builder
	for _, f := range sorted {
		sb.WriteString(f.Identifier)
		sb.WriteByte(',')
		sb.WriteString(typeFingerprint(f.Wire, f.Tag.Ref, nullable(f)))
		sb.WriteByte(';')
	}
	return sb.String()
}

// MaxPrimitiveBytes is the bound of the one Reserve of a struct's write
// path: the schema hash plus the maximum widths of the fixed and varint
// groups.
func MaxPrimitiveBytes(fields []*Field) (fixed, varint, total int) {
	for _, f := range fields {
		switch f.Group {
		case GroupFixed:
			fixed += f.Wire.Width
		case GroupVarint:
			varint += f.Wire.Width
		}
	}
	return fixed, varint, schemaHashBytes + fixed + varint
}

// typeDefFieldType is a field's type in a TypeDef: struct fields carry their
// own kind, children are nullable by default (§11.2).
func typeDefFieldType(w *Wire) meta.FieldType {
	ft := meta.FieldType{TypeID: w.TypeID}
	child := func(c *Wire) meta.FieldType {
		t := typeDefFieldType(c)
		t.Nullable = !c.NotNull
		t.TrackRef = c.RefDeclared
		return t
	}
	switch w.TypeID {
	case meta.TypeList, meta.TypeSet:
		ft.Children = []meta.FieldType{child(w.Elem)}
	case meta.TypeMap:
		ft.Children = []meta.FieldType{child(w.Key), child(w.Elem)}
	}
	return ft
}

// TypeDefOf builds the compatible-mode TypeDef of a struct (§11); with
// tracking, the track_ref bits are the fields' RefOn instead of RefOff.
func TypeDefOf(s *model.StructDecl, fields []*Field, tracking bool) *meta.TypeDef {
	td := &meta.TypeDef{
		Compatible: !s.Reg.NonEvolving,
		ByName:     s.Reg.ByName,
		UserID:     s.Reg.ID,
		Namespace:  s.Reg.Namespace,
		TypeName:   s.Reg.Name,
		Kind:       compatibleKind(s.Reg),
	}
	for _, f := range fields {
		fd := meta.FieldDef{
			Name:     f.Identifier,
			TagID:    f.Tag.ID,
			Nullable: DeclaredNullable(f.Wire),
			TrackRef: f.RefOff,
			Type:     typeDefFieldType(f.Wire),
		}
		if tracking {
			// A nullable collection's flag becomes a reference flag with
			// tracking (TrackRef), but official Go declares it untracked
			// unless its tag says ref.
			fd.TrackRef = f.RefOn && (f.Tag.RefSet || !isContainer(f.Wire.TypeID))
		}
		td.Fields = append(td.Fields, fd)
	}
	return td
}

// compatibleKind is the type id of a struct's meta in compatible mode: a
// compatible struct, or for `evolving=false` the plain struct kind
// (docs/format.md §11.5).
func compatibleKind(reg model.Registration) uint8 {
	switch {
	case reg.NonEvolving && reg.ByName:
		return meta.TypeNamedStruct
	case reg.NonEvolving:
		return meta.TypeStruct
	case reg.ByName:
		return meta.TypeNamedCompatibleStruct
	}
	return meta.TypeCompatibleStruct
}

// DeclaredNullable is a field's nullable bit in its TypeDef: whether a
// null flag precedes its value. An any value always carries one (its
// reference flag), so an any field is declared nullable whatever its tag
// says, as the specification, Java and Python read it; official Go declares
// an untagged one not nullable and writes the flag all the same
// (docs/format.md §14.18).
func DeclaredNullable(w *Wire) bool {
	return w.Nullable || w.TypeID == meta.TypeUnknown
}

// ConsistentMeta is the same-schema type meta of a struct whose names are new
// in the message (§5.1, §6.3).
func ConsistentMeta(reg model.Registration) []byte {
	if !reg.ByName {
		return appendVarUint32([]byte{meta.TypeStruct}, reg.ID)
	}
	out := []byte{meta.TypeNamedStruct}
	out = meta.AppendInlineMetaString(out, meta.EncodeMetaString(reg.Namespace, meta.Namespace))
	out = meta.AppendInlineMetaString(out, meta.EncodeMetaString(reg.Name, meta.TypeName))
	return out
}

// TrackRef is official Fory Go's rule for a field's track_ref: tracking
// is on (the Fory's option, or an explicit `ref=` tag, which wins), the
// field's type can hold a reference (RefType), and a list, set or map is
// tracked only when its tag says so or it is nullable (docs/format.md
// §2.1).
func TrackRef(tag model.Tag, w *Wire, tracking bool) bool {
	on := tracking
	if tag.RefSet {
		on = tag.Ref
	}
	if !on || !RefType(w.TypeID) {
		return false
	}
	switch w.TypeID {
	case meta.TypeList, meta.TypeSet, meta.TypeMap:
		// A nullable one has a flag anyway, which tracking makes a
		// reference flag (official Go's 00 before a nullable set).
		return tag.RefSet || w.Nullable
	}
	return true
}

// Unflagged reports whether the other languages write a tracked field of
// f's type with no flag in same-schema mode (Field.Unflagged): a value that
// cannot be null and that they never share, a struct or enum value, a dense
// array or a binary (Python, JavaScript, Java and C++; official Go writes
// 0xFF or a reference flag).
func Unflagged(f *Field) bool {
	if !f.RefOn || f.Tag.RefSet || f.Wire.Nullable {
		return false
	}
	switch f.Wire.Go.Kind {
	case model.Struct, model.Enum:
		return true
	}
	return f.Wire.TypeID >= meta.TypeBinary && f.Wire.TypeID <= meta.TypeFloat64Array
}

// RefType reports whether values of a type id can take part in reference
// tracking: everything but the primitives, strings, times, dates,
// durations and decimals (docs/format.md §2.1).
func RefType(id uint8) bool {
	switch id {
	case meta.TypeString, meta.TypeTimestamp, meta.TypeDate, meta.TypeDuration, meta.TypeDecimal:
		return false
	}
	return !(id >= meta.TypeBool && id <= meta.TypeFloat64)
}

// markTrackedElems sets RefOn on list and set elements and map values that
// official Go tracks when the Fory tracks references: pointers to structs
// (and list elements that point to extension values) and the collections (lists, dense arrays, binaries, maps and sets), at
// every depth (list header 0x0d, map chunk 0x2c: docs/format.md §2.1),
// unless an element or value hint `_(ref=false)` opts them out.
func markTrackedElems(w *Wire) {
	e := w.Elem
	if e == nil || !isContainer(w.TypeID) {
		return
	}
	switch e.Go.Kind {
	case model.Pointer:
		e.RefOn = e.Go.Elem.Kind == model.Struct || e.Go.Elem.Kind == model.Ext && w.TypeID == meta.TypeList
	case model.Slice, model.Map, model.Set:
		e.RefOn = true
	}
	if e.RefSet {
		e.RefOn = e.RefOn && e.RefDeclared
	}
	markTrackedElems(e)
}

func isContainer(id uint8) bool {
	return id == meta.TypeList || id == meta.TypeSet || id == meta.TypeMap
}

// RootPrefix is the start of a message whose root struct has the given type
// meta: header, root flag, meta (§1). The root is the first type of a
// message, so its meta is always the full one: the names inline in
// same-schema mode, or in compatible mode the type id, shared-TypeDef index
// 0 marked new and the TypeDef (§11.3).
func RootPrefix(typeMeta []byte) []byte {
	return append([]byte{meta.HeaderXlang, meta.FlagNotNull}, typeMeta...)
}

func appendVarUint32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// PlanStruct plans one struct. Errors name the field.
func PlanStruct(s *model.StructDecl) (*Struct, []error) {
	var errs []error
	var fields []*Field
	for _, mf := range s.Fields {
		w, err := WireOf(mf.Type, mf.Tag)
		if err != nil {
			errs = append(errs, &Error{Pos: mf.Pos, Msg: fmt.Sprintf("%s.%s: %v", s.Name, mf.GoName, err)})
			continue
		}
		fl := &Field{Field: mf, Identifier: Identifier(mf), Group: GroupOf(w), Wire: w,
			RefOff: TrackRef(mf.Tag, w, false), RefOn: TrackRef(mf.Tag, w, true)}
		fl.Unflagged = Unflagged(fl)
		markTrackedElems(w)
		fields = append(fields, fl)
	}
	seen := map[string]*Field{}
	for _, f := range fields {
		if prev, ok := seen[f.Identifier]; ok {
			errs = append(errs, &Error{Pos: f.Pos, Msg: fmt.Sprintf("%s.%s: identifier %q is also used by field %s; give one of them a distinct id= tag",
				s.Name, f.GoName, f.Identifier, prev.GoName)})
		}
		seen[f.Identifier] = f
	}
	if len(errs) > 0 {
		return nil, errs
	}
	p := &Struct{Model: s, Fields: Order(fields)}
	p.FixedBytes, p.VarintMaxBytes, p.MaxPrimitiveBytes = MaxPrimitiveBytes(fields)
	p.Fingerprint = Fingerprint(fields)
	p.SchemaHash = meta.SchemaHash(p.Fingerprint)
	p.OfficialGoFingerprint = OfficialGoFingerprint(fields)
	p.OfficialGoHash = meta.SchemaHash(p.OfficialGoFingerprint)
	if p.SchemaHash == 0 || p.OfficialGoHash == 0 {
		// Official Go refuses a zero hash (§10.1); so do we, at generation time.
		return nil, []error{&Error{Pos: s.Pos, Msg: fmt.Sprintf("%s: schema hash is 0; rename or retag a field", s.Name)}}
	}
	p.ConsistentTypeID, p.CompatibleTypeID = meta.TypeStruct, compatibleKind(s.Reg)
	if s.Reg.ByName {
		p.ConsistentTypeID = meta.TypeNamedStruct
	}
	p.ConsistentMeta = ConsistentMeta(s.Reg)
	p.TypeDef = meta.EncodeTypeDef(TypeDefOf(s, p.Fields, false))
	// A flat writer has no context to ask which hash to write.
	p.Flat = Flat(s) && p.SchemaHash == p.OfficialGoHash
	p.RootConsistent = RootPrefix(p.ConsistentMeta)
	p.RootCompatible = RootPrefix(append([]byte{p.CompatibleTypeID, 0}, p.TypeDef...))
	if s.Reg.NonEvolving && !s.Reg.ByName {
		// STRUCT and the user id, no TypeDef: the same-schema meta.
		p.RootCompatible = p.RootConsistent
	} else if ref := meta.EncodeTypeDef(TypeDefOf(s, p.Fields, true)); !bytes.Equal(ref, p.TypeDef) {
		p.TypeDefRef = ref
		p.RootCompatibleRef = RootPrefix(append([]byte{p.CompatibleTypeID, 0}, ref...))
		p.RootCompatibleRef[1] = meta.FlagRefValue
		p.RefBits = RefBits(p.TypeDef, ref)
	}
	for _, f := range p.Fields {
		p.RefSensitive = p.RefSensitive || f.RefOn || f.Wire.Elem != nil && f.Wire.Elem.RefOn
	}
	return p, nil
}

// RefBits returns the offsets of the bytes of the TypeDef td whose bit 0
// the tracking TypeDef ref sets, when setting them and recomputing the
// header gives ref exactly (meta.WithRefBits); nil otherwise, and for a
// TypeDef too long for 16-bit offsets.
func RefBits(td, ref []byte) []uint16 {
	if len(td) != len(ref) || len(td) > math.MaxUint16 {
		return nil
	}
	var at []uint16
	for i := meta.TypeDefBodyStart(td); i < len(td); i++ { // the header is recomputed
		if td[i] != ref[i] {
			if td[i]|1 != ref[i] {
				return nil
			}
			at = append(at, uint16(i))
		}
	}
	if !bytes.Equal(meta.WithRefBits(td, at), ref) {
		return nil
	}
	return at
}

// Flat reports whether no field of s holds a struct, directly or inside a
// pointer, list, array or map. Writing such a struct defines no type meta
// and cannot nest or fail, so its writer needs only the buffer and the
// mode, not the per-message write context (docs/format.md §5.2, §11.3).
func Flat(s *model.StructDecl) bool {
	var hasStruct func(t *model.Type) bool
	hasStruct = func(t *model.Type) bool {
		// A marshaler can fail mid-message too: its error needs the write
		// context, which takes back what was written (EndWrite).
		return t != nil && (t.Kind == model.Struct || t.Kind == model.Any || t.Kind == model.Union || t.Kind.IsMarshaler() || t.Kind == model.Ext || hasStruct(t.Elem) || hasStruct(t.Key))
	}
	for _, f := range s.Fields {
		if hasStruct(f.Type) {
			return false
		}
	}
	return true
}

// Recursive returns the structs of one package that can contain themselves
// (through pointers, lists or maps). Only they can nest without a bound the
// schema sets, so only their generated code counts depth (WithMaxDepth): a
// value of a non-recursive type nests at most as deep as its type graph.
// Cycles cannot cross packages, since Go forbids import cycles.
func Recursive(pkgPath string, structs []*model.StructDecl) map[string]bool {
	edges := map[string][]string{}
	var refs func(t *model.Type, out *[]string)
	refs = func(t *model.Type, out *[]string) {
		if t == nil {
			return
		}
		if t.Kind == model.Struct && t.Named != nil && t.Named.PkgPath == pkgPath {
			name := t.Named.Name
			if t.Named.Inst != "" {
				name = t.Named.Inst // an instantiation: its generated type
			}
			*out = append(*out, name)
		}
		refs(t.Elem, out)
		refs(t.Key, out)
	}
	for _, s := range structs {
		var out []string
		for _, f := range s.Fields {
			refs(f.Type, &out)
		}
		edges[s.Name] = out
	}
	rec := map[string]bool{}
	// An any or union value can hold any struct, this one included.
	var open func(t *model.Type) bool
	open = func(t *model.Type) bool {
		return t != nil && (t.Kind == model.Any || t.Kind == model.Union || open(t.Elem) || open(t.Key))
	}
	for _, s := range structs {
		for _, f := range s.Fields {
			if open(f.Type) {
				rec[s.Name] = true
			}
		}
	}
	for _, s := range structs {
		// Depth-first search from s for a path back to s.
		seen := map[string]bool{}
		stack := append([]string(nil), edges[s.Name]...)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == s.Name {
				rec[s.Name] = true
				break
			}
			if !seen[n] {
				seen[n] = true
				stack = append(stack, edges[n]...)
			}
		}
	}
	return rec
}
