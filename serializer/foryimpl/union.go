package foryimpl

import (
	"fmt"
	"unsafe"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Unions (the specification's "Union value payload"): a UNION (33) field's
// payload, and the payload of a TYPED_UNION (34) or NAMED_UNION (35) root,
// is the case id as a varu32 and then the case value written like an any
// value: flag, type meta, payload (docs/format.md §11.4; golden files
// union_field_*, union_root_id, union_root_named).

// WriteUnionValue writes a union's payload: caseID, then v as WriteAny
// writes it.
func WriteUnionValue(c *WriteContext, caseID uint32, v any) {
	c.buf.WriteVarUint32(caseID)
	WriteAny(c, v)
}

// ReadUnionValue reads a union's payload; struct cases are read as *T.
// The caller checks that the case id and the value's type are one of the
// union's cases.
func ReadUnionValue(c *ReadContext) (caseID uint32, v any) {
	caseID = c.r.ReadVarUint32()
	if c.r.Err() != nil {
		return 0, nil
	}
	return caseID, ReadAny(c, false)
}

// UnionSpec is what the generator knows about a union type registered as
// a root: its registration, by user id or by namespace and type name.
type UnionSpec struct {
	GoName    string
	ByName    bool
	UserID    uint32
	Namespace string
	TypeName  string
}

// UnionInfo is the runtime view of a union type, built once by
// NewUnionType.
type UnionInfo struct {
	spec UnionSpec
	// info names the union in errors and is the root entry of the
	// message's type tables: its names in same-schema mode, its TypeDef in
	// compatible mode when registered by name.
	info *TypeInfo
	// consistentMeta and compatibleMeta are the root type meta in each
	// mode: `22 id` in both by id; by name `23` and the two inline meta
	// strings, or `23 00` and the non-struct TypeDef (docs/format.md §5.1,
	// §11.2).
	consistentMeta, compatibleMeta []byte
}

// NewUnionType builds a UnionInfo; generated code calls it once per type.
// It panics on a malformed spec, which only a hand-edited generated file
// can produce.
func NewUnionType(spec UnionSpec) *UnionInfo {
	if spec.GoName == "" || spec.ByName && spec.TypeName == "" {
		panic(fmt.Sprintf("serializer: bad generated union spec %+v", spec))
	}
	u := &UnionInfo{spec: spec, info: &TypeInfo{StructSpec: StructSpec{GoName: spec.GoName, ByName: spec.ByName,
		UserID: spec.UserID, Namespace: spec.Namespace, TypeName: spec.TypeName}}}
	u.consistentMeta, u.compatibleMeta, _ = u.userType().meta()
	return u
}

// WriteUnionRoot appends to b the message whose root is the union u
// holding case caseID with value v: header, root flag, the union's type
// meta, its payload. The flag is ff, or with reference tracking 00: official
// Go serializes the root as a pointer to the union, which is object 0, so a
// struct case is object 1. On error nothing is appended and the error is
// an *EncodeError.
func (f *Runtime) WriteUnionRoot(b *buffer.Buffer, u *UnionInfo, caseID uint32, v any) error {
	root := u.info
	if f.opts.Compatible && !u.spec.ByName {
		// TYPED_UNION carries its user id and takes no TypeDef entry: the
		// first struct case's TypeDef is entry 0.
		root = nil
	}
	c := f.BeginWrite(b, root)
	start := b.WriterIndex()
	b.WriteUint8(meta.HeaderXlang)
	if c.trackRef {
		b.WriteUint8(meta.FlagRefValue)
		c.refs.lookup(refKey{unsafe.Pointer(u), 0}) // the root, object 0
	} else {
		b.WriteUint8(FlagNotNull)
	}
	if c.compatible {
		b.WriteBytes(u.compatibleMeta)
	} else {
		b.WriteBytes(u.consistentMeta)
	}
	WriteUnionValue(c, caseID, v)
	return c.EndWrite(start)
}

// ReadUnionRoot reads data, exactly one message whose root is the union
// u, and returns its case id and value (struct cases as *T). The error is
// a *DecodeError.
func (f *Runtime) ReadUnionRoot(data []byte, u *UnionInfo) (caseID uint32, v any, err error) {
	c := f.BeginRead(data)
	r := &c.r
	if h := r.ReadUint8(); h != meta.HeaderXlang && r.Err() == nil {
		r.Fail(malformed("message header 0x%02x is not an xlang header without out-of-band buffers", h))
	}
	switch fl := r.ReadUint8(); {
	case r.Err() != nil:
	case fl == FlagNotNull:
	case fl == meta.FlagRefValue && c.trackRef:
		// The root is object 0 (official Go tracks the pointer to the
		// union it serializes); nothing inside can refer back to it as a
		// value, but the ids must stay in step.
		c.newRef()
	case fl == FlagNull:
		r.Fail(malformed("null root value"))
	default:
		r.Fail(malformed("bad root flag 0x%02x before a union", fl))
	}
	if r.Err() == nil {
		c.readUnionMeta(u)
	}
	if r.Err() == nil {
		caseID, v = ReadUnionValue(c)
	}
	if err = f.EndRead(c, u.info); err != nil {
		return 0, nil, err
	}
	return caseID, v, nil
}

// readUnionMeta reads a union root's type meta and checks it names u.
func (c *ReadContext) readUnionMeta(u *UnionInfo) { c.readUserMeta(u.userType()) }

func (u *UnionInfo) userType() userType {
	s := &u.spec
	return userType{"union", s.GoName, meta.TypeTypedUnion, meta.TypeNamedUnion, s.ByName, s.UserID, s.Namespace, s.TypeName}
}

// userType is a user type registered by id (idKind and the user id on
// the wire) or by name (nameKind and its names: two meta strings in
// same-schema mode, a shared non-struct TypeDef in compatible mode), as
// unions, enums and extension types are (docs/format.md §5.1, §11.2).
type userType struct {
	what, goName        string // "union", "enum", "extension type"; the Go name
	idKind, nameKind    byte
	byName              bool
	userID              uint32
	namespace, typeName string
}

// meta returns t's type meta as a root value: by id, idKind and the user
// id in both modes; by name, nameKind and two inline meta strings in
// same-schema mode, and in compatible mode nameKind, 00 (new shared entry
// 0) and td, its non-struct TypeDef (nil by id).
func (t userType) meta() (consistent, compatible, td []byte) {
	if !t.byName {
		m := buffer.New(8)
		m.WriteUint8(t.idKind)
		m.WriteVarUint32(t.userID)
		consistent = append([]byte(nil), m.Bytes()...)
		return consistent, consistent, nil
	}
	consistent = []byte{t.nameKind}
	consistent = meta.AppendInlineMetaString(consistent, meta.EncodeMetaString(t.namespace, meta.Namespace))
	consistent = meta.AppendInlineMetaString(consistent, meta.EncodeMetaString(t.typeName, meta.TypeName))
	td = meta.EncodeTypeDef(&meta.TypeDef{Kind: t.nameKind, ByName: true, Namespace: t.namespace, TypeName: t.typeName})
	return consistent, append([]byte{t.nameKind, 0}, td...), td
}

// readUserMeta reads the type meta of a value of the user type t and
// checks that it names t; a mismatch is ErrSchemaMismatch saying which.
func (c *ReadContext) readUserMeta(t userType) {
	r := &c.r
	id := r.ReadUint8()
	if r.Err() != nil {
		return
	}
	want := t.idKind
	if t.byName {
		want = t.nameKind
	}
	if id != want {
		r.Fail(mismatch("type id %d where the %s %s (type id %d) was expected", id, t.what, t.goName, want))
		return
	}
	if !t.byName {
		if uid := r.ReadVarUint32(); uid != t.userID && r.Err() == nil {
			r.Fail(mismatch("%s id %d where %s (id %d) was expected", t.what, uid, t.goName, t.userID))
		}
		return
	}
	var ns, name string
	if c.compatible {
		d := c.readSharedTypeDef(nil)
		if d == nil {
			return
		}
		if d.def.Kind != t.nameKind {
			r.Fail(mismatch("a TypeDef of kind %d where the %s %s was expected", d.def.Kind, t.what, t.goName))
			return
		}
		ns, name = d.def.Namespace, d.def.TypeName
	} else {
		ns = c.readMetaString(meta.Namespace)
		name = c.readMetaString(meta.TypeName)
		if r.Err() != nil {
			return
		}
	}
	if ns != t.namespace || name != t.typeName {
		r.Fail(mismatch("%s %q.%q where %s (%q.%q) was expected", t.what, ns, name, t.goName, t.namespace, t.typeName))
	}
}

// AnyListAs is a decoded []any as a []E, for a union case of a list type
// other than []any (a LIST in an any decodes as []any); false when an
// element is not an E. A nil list stays nil.
func AnyListAs[E any](v any) ([]E, bool) {
	if l, ok := v.([]E); ok {
		return l, true
	}
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]E, len(l))
	for i, e := range l {
		if out[i], ok = e.(E); !ok {
			return nil, false
		}
	}
	return out, true
}

// AnyMapAs is a decoded map[any]any as a map[K]V, for a union case of a
// map type (a MAP in an any decodes as map[any]any); false when a key or
// value is not of the case's types.
func AnyMapAs[K comparable, V any](v any) (map[K]V, bool) {
	if m, ok := v.(map[K]V); ok {
		return m, true
	}
	m, ok := v.(map[any]any)
	if !ok {
		return nil, false
	}
	out := make(map[K]V, len(m))
	for k, e := range m {
		kk, ok1 := k.(K)
		ee, ok2 := e.(V)
		if !ok1 || !ok2 {
			return nil, false
		}
		out[kk] = ee
	}
	return out, true
}
