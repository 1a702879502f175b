package foryimpl

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/forygen/forygen/internal/meta"
)

// Values an any holds whose Go types this package cannot name: the
// carrier types of package serializer (Date, Decimal, Float16, BFloat16,
// Set) and generated enums. They are written as official Go writes them
// in an interface-typed field — the type id (an enum's ENUM and user id,
// or NAMED_ENUM and its names or shared TypeDef), then the payload — and
// read back as the carrier type, a Set as Set[any], an enum as its
// generated Go type (docs/format.md §12.7; golden files of
// internal/conformance/anykinds). serializer and generated code register
// them at init; a lookup is one map probe by the interface's type word.

// anyCarrier is how an any value of one Go type is written.
type anyCarrier struct {
	id    byte
	write func(c *WriteContext, v any)
	// user is set for a generated enum or union: its type meta is its
	// registration (writeUserMeta), its payload write's.
	user *anyUser
	// shared: a map or pointer, tracked by identity with tracking on.
	shared bool
	// hashable: a value can be a Go map key (a Date can, a Decimal, which
	// holds a big.Int, and a Set cannot).
	hashable bool
	isNil    func(v any) bool
	// assign stores a decoded value into a *T (extension roots); nil
	// when the type has no root of this kind.
	assign func(p, v any) bool
}

// anyReader reads the payload of a carrier type id into an any.
type anyReader struct {
	read func(c *ReadContext) any
}

// anyUser is a generated enum or union as an any holds it: its
// registration, and the reader of its payload.
type anyUser struct {
	what             string    // "enum" or "union", for errors
	info             *TypeInfo // its names, meta and TypeDef (newUserInfo)
	idKind, nameKind byte
	read             func(c *ReadContext) any
}

// userKey finds an anyUser by its kind and registration: the user id, or
// the namespace and type name.
type userKey struct {
	kind     byte
	id       uint32
	ns, name string
}

type carrierSnapshot struct {
	byType map[unsafe.Pointer]*anyCarrier
	users  map[userKey][]*anyUser
}

var carrierRegistry struct {
	mu      sync.Mutex
	types   map[unsafe.Pointer]*anyCarrier
	users   []*anyUser
	snap    atomic.Pointer[carrierSnapshot]
	readers [256]atomic.Pointer[anyReader]
}

func (u *anyUser) key() userKey {
	if t := u.info; t.ByName {
		return userKey{kind: u.nameKind, ns: t.Namespace, name: t.TypeName}
	}
	return userKey{kind: u.idKind, id: u.info.UserID}
}

// newUserInfo is the TypeInfo of a user type t held in an any: its
// same-schema meta, and by name the names and TypeDef its entry in the
// message's tables carries (writeConsistentMeta, writeSharedTypeDef).
func newUserInfo(t userType) *TypeInfo {
	info := &TypeInfo{StructSpec: StructSpec{GoName: t.goName, ByName: t.byName, UserID: t.userID,
		Namespace: t.namespace, TypeName: t.typeName}}
	info.ConsistentMeta, _, info.TypeDef = t.meta()
	info.consistentTypeID, info.compatibleTypeID = t.idKind, t.idKind
	if t.byName {
		info.consistentTypeID, info.compatibleTypeID = t.nameKind, t.nameKind
	}
	info.tracked = info
	return info
}

func carriers() *carrierSnapshot {
	if s := carrierRegistry.snap.Load(); s != nil {
		return s
	}
	r := &carrierRegistry
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.snap.Load(); s != nil {
		return s
	}
	s := &carrierSnapshot{byType: make(map[unsafe.Pointer]*anyCarrier, len(r.types)), users: map[userKey][]*anyUser{}}
	for k, v := range r.types {
		s.byType[k] = v
	}
	for _, u := range r.users {
		k := u.key()
		s.users[k] = append(s.users[k], u)
	}
	r.snap.Store(s)
	return s
}

func registerCarrier(typ unsafe.Pointer, k *anyCarrier, user *anyUser) {
	r := &carrierRegistry
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.types == nil {
		r.types = map[unsafe.Pointer]*anyCarrier{}
	}
	if old, dup := r.types[typ]; dup {
		if old.user != nil && user != nil && old.user.info != user.info && old.user.key() != user.key() {
			// Two registrations of one Go type (two extension codecs
			// for it): an any holding one cannot say which to write.
			name, b := user.info.GoName, user.info
			r.types[typ] = &anyCarrier{id: old.id, write: func(c *WriteContext, _ any) {
				c.Fail(&EncodeError{Type: name, Err: &detail{sentinel: ErrInvalidValue, msg: fmt.Sprintf(
					"an any value of a type registered twice (%s and %s): it is ambiguous; write it as a field", registration(old.user.info.ByName, old.user.info.Namespace, old.user.info.TypeName, old.user.info.UserID),
					registration(b.ByName, b.Namespace, b.TypeName, b.UserID))}})
			}}
			r.snap.Store(nil)
		}
		return // the same Go type registered again
	}
	r.types[typ] = k
	if user != nil {
		r.users = append(r.users, user)
	}
	r.snap.Store(nil)
}

// RegisterAnyCarrier makes any values of Go type T written as the root
// codec k writes its payload, under k's type id; withPtr adds *T, written
// as its T and, with tracking, tracked by its address, as official Go
// tracks a *Decimal. When read is set, k's type id in an any reads as a T;
// hashable says a T can be a Go map key (a key of a map[any]any).
func RegisterAnyCarrier[T any](k *rootCodec[T], withPtr, read, hashable bool) {
	write := codecWriter(k)
	c := &anyCarrier{id: k.id, write: write, shared: k.tracked && k.isNil != nil, hashable: hashable}
	if k.isNil != nil {
		c.isNil = func(v any) bool { return k.isNil(v.(T)) }
	}
	var zero T
	registerCarrier(typeWord(zero), c, nil)
	if withPtr {
		pw := func(c *WriteContext, v any) { write(c, *v.(*T)) }
		registerCarrier(typeWord((*T)(nil)), &anyCarrier{id: k.id, write: pw, shared: true, hashable: true,
			isNil: func(v any) bool { return v.(*T) == nil }}, nil)
	}
	if read {
		RegisterAnyReader(k.id, func(c *ReadContext) any {
			v := k.read(c, k.id)
			if c.r.Err() != nil {
				return nil
			}
			return v
		})
	}
}

// RegisterAnyReader makes the type id id in an any read by read; the last
// registration of an id wins.
func RegisterAnyReader(id byte, read func(c *ReadContext) any) {
	carrierRegistry.readers[id].Store(&anyReader{read: read})
}

// RegisterAnySet makes any values of the set type S written as SET (type
// id 23): the count, then the elements as a list of any values is written
// (one type meta after the header when they share a Go type), with the
// tracking bit whenever tracking is on, as official Go writes a Set held
// in an interface.
func RegisterAnySet[S ~map[E]struct{}, E comparable]() {
	var zero S
	registerCarrier(typeWord(zero), &anyCarrier{id: meta.TypeSet, shared: true,
		isNil: func(v any) bool { return v.(S) == nil },
		write: func(c *WriteContext, v any) {
			s := v.(S)
			keys := make([]E, 0, len(s))
			for e := range s {
				keys = append(keys, e)
			}
			writeAnyList(c, keys, true)
		}}, nil)
}

// ReadAnySet reads a SET held in an any into S, a set of any values: the
// elements are read as a list of any values; one a Go map cannot hold (a
// list, a map, a set) is ErrUnsupported, a repeated one malformed.
func ReadAnySet[S ~map[any]struct{}](c *ReadContext) S {
	if !c.enterAny() {
		return nil
	}
	defer func() { c.depth-- }()
	l := c.readAnyList(-1)
	if c.r.Err() != nil {
		return nil
	}
	s := MakeMap[S](c, len(l))
	if c.r.Err() != nil {
		return nil
	}
	for i, e := range l {
		if !hashable(e) {
			c.r.Fail(&detail{sentinel: ErrUnsupported, msg: fmt.Sprintf("set element %d is a %T, which a Go set cannot hold", i, e)})
			return nil
		}
		if _, dup := s[e]; dup {
			c.r.Fail(malformed("set element %d repeats an earlier element", i))
			return nil
		}
		s[e] = struct{}{}
	}
	return s
}

// enumInt is the Go types a generated enum may have.
type enumInt interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint
}

// NewEnumType builds the EnumInfo of the generated enum E; generated code
// calls it once per enum. It also makes E's values writable in an any,
// and E's registration read back as an E.
func NewEnumType[E enumInt](spec EnumSpec) *EnumInfo {
	e := newEnumInfo(spec)
	u := &anyUser{what: "enum", info: e.info, idKind: meta.TypeEnum, nameKind: meta.TypeNamedEnum,
		read: func(c *ReadContext) any {
			o := c.ReadEnum(e.spec.Max)
			if c.r.Err() != nil {
				return nil
			}
			return E(o)
		}}
	var zero E
	registerCarrier(typeWord(zero), &anyCarrier{id: meta.TypeEnum, user: u, hashable: true,
		write: func(c *WriteContext, v any) {
			n := int64(v.(E))
			if n < 0 || n > math.MaxUint32 || uint32(n) > e.spec.Max {
				c.Fail(EnumOutOfRange(e.info, "", n))
				return
			}
			c.buf.WriteVarUint32(uint32(n))
		}}, u)
	return e
}

// unionSetter is the pointer of a union type U: ForyUnionSet stores a case.
type unionSetter[U any] interface {
	*U
	ForyUnionSet(caseID uint32, value any)
}

// RegisterAnyUnion makes values of the union type U (and *U) writable in
// an any, as official Go writes a union held in an interface: TYPED_UNION
// and the user id (NAMED_UNION and its names or TypeDef), then the union's
// payload (the case id, the case value as an any value); with tracking a
// *U is tracked by its address. U's registration reads back as a U value.
// check and from are the union's generated case checks (a case id and the
// Go type of its value).
func RegisterAnyUnion[U interface{ ForyUnionGet() (uint32, any) }, PU unionSetter[U]](u *UnionInfo,
	check func(id uint32, v any) bool, from func(id uint32, v any) (any, bool)) {
	au := &anyUser{what: "union", info: newUserInfo(u.userType()), idKind: meta.TypeTypedUnion, nameKind: meta.TypeNamedUnion,
		read: func(c *ReadContext) any {
			id, v := ReadUnionValue(c)
			if c.r.Err() != nil {
				return nil
			}
			cv, ok := from(id, v)
			if !ok {
				c.UnionMismatch(u.spec.GoName, id, v)
				return nil
			}
			var x U
			PU(&x).ForyUnionSet(id, cv)
			return x
		}}
	write := func(c *WriteContext, x U) {
		id, v := x.ForyUnionGet()
		if !check(id, v) {
			c.Fail(UnionCaseError(u.spec.GoName, id, v))
			return
		}
		WriteUnionValue(c, id, v)
	}
	var zero U
	registerCarrier(typeWord(zero), &anyCarrier{id: meta.TypeTypedUnion, user: au, hashable: false,
		write: func(c *WriteContext, v any) { write(c, v.(U)) }}, au)
	registerCarrier(typeWord((*U)(nil)), &anyCarrier{id: meta.TypeTypedUnion, user: au, shared: true, hashable: false,
		isNil: func(v any) bool { return v.(*U) == nil },
		write: func(c *WriteContext, v any) { write(c, *v.(*U)) }}, nil)
}

// writeUserMeta writes a user type's meta in an any: its id kind and user
// id; by name, its name kind and names (back-references after the first
// time) in same-schema mode, and a shared TypeDef entry in compatible mode.
func (c *WriteContext) writeUserMeta(t *TypeInfo) {
	if c.compatible && t.ByName {
		c.writeSharedTypeDef(t.compatibleTypeID, t, t)
		return
	}
	c.writeConsistentMeta(t, t)
}

// readUserAnyMeta reads the rest of a user type's meta in an any (its
// kind, id, is read) and finds the generated enum or union it names.
func (c *ReadContext) readUserAnyMeta(id byte) *anyUser {
	r := &c.r
	reg := carriers()
	what := "enum"
	switch id {
	case meta.TypeTypedUnion, meta.TypeNamedUnion:
		what = "union"
	case meta.TypeExt, meta.TypeNamedExt:
		what = "extension type"
	}
	var k userKey
	switch {
	case id == meta.TypeEnum || id == meta.TypeTypedUnion || id == meta.TypeExt:
		uid := r.ReadVarUint32()
		if r.Err() != nil {
			return nil
		}
		k = userKey{kind: id, id: uid}
	case c.compatible:
		d := c.readSharedTypeDef(nil)
		if d == nil {
			return nil
		}
		if d.def.Kind != id {
			r.Fail(mismatch("type id %d in an any value refers to a TypeDef of kind %d", id, d.def.Kind))
			return nil
		}
		k = userKey{kind: id, ns: d.def.Namespace, name: d.def.TypeName}
	default:
		ns := c.readMetaString(meta.Namespace)
		name := c.readMetaString(meta.TypeName)
		if r.Err() != nil {
			return nil
		}
		k = userKey{kind: id, ns: ns, name: name}
	}
	desc := fmt.Sprintf("%s %q.%q", what, k.ns, k.name)
	if k.name == "" {
		desc = what + " id " + itoa(int(k.id))
	}
	switch us := reg.users[k]; len(us) {
	case 1:
		return us[0]
	case 0:
		r.Fail(mismatch("an any value holds %s, which no generated %s is registered as", desc, what))
	default:
		r.Fail(mismatch("an any value holds %s, which several generated %ss are registered as (%s and %s)", desc, what, us[0].info.GoName, us[1].info.GoName))
	}
	return nil
}

// carrierValue classifies v by the carrier registry; ok is false when its
// type is not registered.
func carrierValue(v any) (anyValue, bool) {
	k := carriers().byType[typeWord(v)]
	if k == nil {
		return anyValue{}, false
	}
	a := anyValue{id: k.id, write: k.write, user: k.user}
	if k.isNil != nil && k.isNil(v) {
		a.null = true
	}
	if k.shared {
		a.shared = true
		a.k = refKey{dataWord(v), -1}
	}
	return a, true
}

// carrierHashable reports whether v, of a registered carrier type, can be
// a Go map key; true for other types.
func carrierHashable(v any) bool {
	k := carriers().byType[typeWord(v)]
	return k == nil || k.hashable
}
