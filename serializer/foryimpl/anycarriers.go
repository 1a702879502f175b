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
	// enum is set for a generated enum: its meta is written by
	// writeEnumMeta, its ordinal by write.
	enum *EnumInfo
	// shared: a map or pointer, tracked by identity with tracking on.
	shared bool
	// hashable: a value can be a Go map key (a Date can, a Decimal, which
	// holds a big.Int, and a Set cannot).
	hashable bool
	isNil    func(v any) bool
}

// anyReader reads the payload of a carrier type id into an any.
type anyReader struct {
	read func(c *ReadContext) any
}

type carrierSnapshot struct {
	byType     map[unsafe.Pointer]*anyCarrier
	enumByID   map[uint32][]*EnumInfo
	enumByName map[[2]string][]*EnumInfo
}

var carrierRegistry struct {
	mu      sync.Mutex
	types   map[unsafe.Pointer]*anyCarrier
	enums   []*EnumInfo
	snap    atomic.Pointer[carrierSnapshot]
	readers [256]atomic.Pointer[anyReader]
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
	s := &carrierSnapshot{byType: make(map[unsafe.Pointer]*anyCarrier, len(r.types)),
		enumByID: map[uint32][]*EnumInfo{}, enumByName: map[[2]string][]*EnumInfo{}}
	for k, v := range r.types {
		s.byType[k] = v
	}
	for _, e := range r.enums {
		if e.spec.ByName {
			k := [2]string{e.spec.Namespace, e.spec.TypeName}
			s.enumByName[k] = append(s.enumByName[k], e)
		} else {
			s.enumByID[e.spec.UserID] = append(s.enumByID[e.spec.UserID], e)
		}
	}
	r.snap.Store(s)
	return s
}

func registerCarrier(typ unsafe.Pointer, k *anyCarrier, enum *EnumInfo) {
	r := &carrierRegistry
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.types == nil {
		r.types = map[unsafe.Pointer]*anyCarrier{}
	}
	if _, dup := r.types[typ]; dup {
		return // the same Go type registered again
	}
	r.types[typ] = k
	if enum != nil {
		r.enums = append(r.enums, enum)
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
	e.from = func(o uint32) any { return E(o) }
	var zero E
	registerCarrier(typeWord(zero), &anyCarrier{id: meta.TypeEnum, enum: e, hashable: true,
		write: func(c *WriteContext, v any) {
			n := int64(v.(E))
			if n < 0 || n > math.MaxUint32 || uint32(n) > e.spec.Max {
				c.Fail(EnumOutOfRange(e.info, "", n))
				return
			}
			c.buf.WriteVarUint32(uint32(n))
		}}, e)
	return e
}

// writeEnumMeta writes an enum's type meta in an any: ENUM and the user
// id; NAMED_ENUM and its names (back-references after the first time) in
// same-schema mode, NAMED_ENUM and a shared TypeDef entry in compatible
// mode.
func (c *WriteContext) writeEnumMeta(e *EnumInfo) {
	if c.compatible && e.spec.ByName {
		c.writeSharedTypeDef(meta.TypeNamedEnum, e.info, e.info)
		return
	}
	c.writeConsistentMeta(e.info, e.info)
}

// readEnumAnyMeta reads the rest of an enum's type meta in an any (the
// type id, at the reader, is read) and finds the generated enum it names.
func (c *ReadContext) readEnumAnyMeta(id byte) *EnumInfo {
	r := &c.r
	reg := carriers()
	var es []*EnumInfo
	var what string
	switch {
	case id == meta.TypeEnum:
		uid := r.ReadVarUint32()
		if r.Err() != nil {
			return nil
		}
		es, what = reg.enumByID[uid], "enum id "+itoa(int(uid))
	case c.compatible:
		d := c.readSharedTypeDef(nil)
		if d == nil {
			return nil
		}
		if d.def.Kind != meta.TypeNamedEnum {
			r.Fail(mismatch("NAMED_ENUM type meta of an any value refers to a TypeDef of kind %d", d.def.Kind))
			return nil
		}
		es, what = reg.enumByName[[2]string{d.def.Namespace, d.def.TypeName}], fmt.Sprintf("enum %q.%q", d.def.Namespace, d.def.TypeName)
	default:
		ns := c.readMetaString(meta.Namespace)
		name := c.readMetaString(meta.TypeName)
		if r.Err() != nil {
			return nil
		}
		es, what = reg.enumByName[[2]string{ns, name}], fmt.Sprintf("enum %q.%q", ns, name)
	}
	switch len(es) {
	case 1:
		return es[0]
	case 0:
		r.Fail(mismatch("an any value holds %s, which no generated enum is registered as", what))
	default:
		r.Fail(mismatch("an any value holds %s, which several generated enums are registered as (%s and %s)", what, es[0].spec.GoName, es[1].spec.GoName))
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
	a := anyValue{id: k.id, write: k.write, enum: k.enum}
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
