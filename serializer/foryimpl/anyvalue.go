package foryimpl

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/forygen/forygen/internal/meta"
)

// `any` values (docs/format.md §5.2, §14.18): a flag, the value's own type
// meta and its payload, as official Fory Go writes an interface-typed
// field, a []any element and a map[string]any value. Generated structs an
// any may hold are found in a registry filled by generated init functions
// (RegisterAny); everything else is a fixed set of Go types, picked by one
// type switch. The dynamic type of a struct value held in an interface is
// told by the interface's type word, looked up in the registry; nothing on
// the way uses reflection.

// AnyType is a generated struct's entry in the registry of types an any
// value may hold.
type AnyType struct {
	Info  *TypeInfo           // the struct's TypeInfo (NewStructType)
	New   func() Message      // returns a new *T
	Deref func(m Message) any // returns *m.(*T) as a T value in an interface
	Ptr   any                 // (*T)(nil): identifies *T values held in an any
	Val   any                 // T{}: identifies T values held in an any
}

// anyEntry is a registered AnyType with what the codec needs at run time.
type anyEntry struct {
	AnyType
	ptrType, valType unsafe.Pointer // the type words of *T and T
	size             uint64         // what new(T) allocates, for the budget
	// direct: an interface holds a T in its data word itself (T is
	// pointer-shaped), not a pointer to a copy.
	direct bool
}

// anySnapshot is the registry as lookups see it: immutable, rebuilt after
// a registration.
type anySnapshot struct {
	byVal    map[unsafe.Pointer]*anyEntry
	byPtr    map[unsafe.Pointer]*anyEntry
	byID     map[uint32][]*anyEntry
	byName   map[[2]string][]*anyEntry
	byHeader map[uint64][]*anyEntry // by the first 8 bytes of TypeDef (both tracking forms)
}

var anyRegistry struct {
	mu   sync.Mutex
	all  []*anyEntry
	snap atomic.Pointer[anySnapshot]
}

// eface is the layout of an interface value: its type word and data word.
type eface struct {
	typ, data unsafe.Pointer
}

func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }
func dataWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).data }

// RegisterAnyOf is RegisterAny for the generated struct T, whose AnyType
// functions are the same for every generated struct: the one line a
// generated init function writes a struct (issue 28).
func RegisterAnyOf[T any, P StructMessage[T]](info *TypeInfo) {
	RegisterAny(AnyType{
		Info:  info,
		New:   func() Message { return P(new(T)) },
		Deref: func(m Message) any { return *m.(P) },
		Ptr:   P(nil),
		Val:   *new(T),
	})
}

// RegisterAny records t; generated code calls it from init() for every
// generated struct. Several Go types may share a registration (id or
// namespace+name) across packages: registering is never an error, but
// decoding such an id in an any value is an error naming both Go types.
// It panics on an incomplete AnyType, which only a hand-edited generated
// file can produce.
func RegisterAny(t AnyType) {
	if t.Info == nil || t.New == nil || t.Deref == nil || t.Ptr == nil || t.Val == nil {
		panic("serializer: RegisterAny with an incomplete AnyType; regenerate")
	}
	// Reflection runs here, once per type, never on a read or write.
	rt := reflect.TypeOf(t.Val)
	if reflect.TypeOf(t.Ptr) != reflect.PointerTo(rt) {
		panic(fmt.Sprintf("serializer: RegisterAny(%s): Ptr is not a pointer to Val's type; regenerate", t.Info.GoName))
	}
	e := &anyEntry{AnyType: t, ptrType: typeWord(t.Ptr), valType: typeWord(t.Val),
		size: allocSize(uint64(rt.Size())), direct: pointerShaped(rt)}
	// Check what the codec assumes of the interface layout: a zero T held
	// in an interface has a nil data word exactly when T is pointer-shaped.
	z := t.Deref(t.New())
	if typeWord(z) != e.valType || typeWord(t.New()) != e.ptrType || (dataWord(z) == nil) != e.direct {
		panic(fmt.Sprintf("serializer: RegisterAny(%s): New and Deref do not match Ptr and Val; regenerate", t.Info.GoName))
	}
	anyRegistry.mu.Lock()
	anyRegistry.all = append(anyRegistry.all, e)
	anyRegistry.snap.Store(nil)
	anyRegistry.mu.Unlock()
}

// pointerShaped reports whether the compiler stores a value of type t in an
// interface's data word directly (Go's "direct interface" types).
func pointerShaped(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Struct:
		return t.NumField() == 1 && pointerShaped(t.Field(0).Type)
	case reflect.Array:
		return t.Len() == 1 && pointerShaped(t.Elem())
	}
	return false
}

// anyTypes returns the registry, building the snapshot after registrations.
func anyTypes() *anySnapshot {
	if s := anyRegistry.snap.Load(); s != nil {
		return s
	}
	anyRegistry.mu.Lock()
	defer anyRegistry.mu.Unlock()
	if s := anyRegistry.snap.Load(); s != nil {
		return s
	}
	s := &anySnapshot{byVal: map[unsafe.Pointer]*anyEntry{}, byPtr: map[unsafe.Pointer]*anyEntry{},
		byID: map[uint32][]*anyEntry{}, byName: map[[2]string][]*anyEntry{}, byHeader: map[uint64][]*anyEntry{}}
	for _, e := range anyRegistry.all {
		if s.byPtr[e.ptrType] != nil {
			continue // the same Go type registered again
		}
		s.byPtr[e.ptrType], s.byVal[e.valType] = e, e
		if t := e.Info; t.ByName {
			k := [2]string{t.Namespace, t.TypeName}
			s.byName[k] = append(s.byName[k], e)
		} else {
			s.byID[t.UserID] = append(s.byID[t.UserID], e)
		}
		h := e.Info.typeDefHeader
		s.byHeader[h] = append(s.byHeader[h], e)
		if tr := e.Info.tracked; tr != e.Info {
			s.byHeader[tr.typeDefHeader] = append(s.byHeader[tr.typeDefHeader], e)
		}
	}
	anyRegistry.snap.Store(s)
	return s
}

// unique returns the one entry of es, or records an error naming the
// registration: unknown, or shared by several Go types.
func (c *ReadContext) unique(es []*anyEntry, what string) *anyEntry {
	switch len(es) {
	case 1:
		return es[0]
	case 0:
		c.r.Fail(mismatch("an any value holds %s, which no generated struct is registered as", what))
		return nil
	}
	if pref := c.opts.AnyTypes; len(pref) > 0 {
		var pick *anyEntry
		n := 0
		for _, e := range es {
			for _, t := range pref {
				if e.Info == t {
					pick, n = e, n+1
				}
			}
		}
		if n == 1 {
			return pick
		}
	}
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Info.GoName
	}
	sort.Strings(names)
	c.r.Fail(mismatch("an any value holds %s, which several Go types are registered as (%s and %s): it is ambiguous; name the one to decode with serializer.WithAnyTypes",
		what, names[0], names[1]))
	return nil
}

// ---------------------------------------------------------------------------
// Writing

// anyValue is a non-nil value of an any, classified once by its Go type.
type anyValue struct {
	id     byte      // the type id; meta.TypeStruct for structs, whose meta t gives
	t      *TypeInfo // structs
	m      Message   // structs: what ForyWrite is called on
	isPtr  bool      // a *T, whose list and map type meta official Go keys by *T
	null   bool      // a nil pointer, slice or map: written as null
	shared bool      // a pointer, slice or map: tracked by identity (k)
	k      refKey
	write  func(c *WriteContext, v any) // the payload of other values
	nested byte                         // or: nestedList, nestedStringMap, nestedAnyMap
	user   *anyUser                     // a generated enum or union, whose meta is its registration
}

// Containers of any values held in an any, written by writePayload itself.
const (
	nestedList = 1 + iota
	nestedStringMap
	nestedAnyMap
)

// needsRef is official Go's NeedWriteRef of the value's type id: whether
// a list or map chunk of such values is written with its tracking bit.
func (a *anyValue) needsRef() bool {
	// The scalars and strings (1..21), NONE, times, dates and decimals
	// (36..40).
	id := a.id
	return !(id >= meta.TypeBool && id <= meta.TypeString || id >= meta.TypeNone && id <= meta.TypeDecimal)
}

func codecWriter[T any](k *rootCodec[T]) func(c *WriteContext, v any) {
	return func(c *WriteContext, v any) {
		if err := k.write(c.f, c.buf, v.(T)); err != nil {
			c.Fail(err)
		}
	}
}

var (
	wBool, wInt8, wInt16, wInt32      = codecWriter(&boolRoot), codecWriter(&int8Root), codecWriter(&int16Root), codecWriter(&int32Root)
	wInt64, wInt, wUint8, wUint16     = codecWriter(&int64Root), codecWriter(&intRoot), codecWriter(&uint8Root), codecWriter(&uint16Root)
	wUint32, wUint64, wUint           = codecWriter(&uint32Root), codecWriter(&uint64Root), codecWriter(&uintRoot)
	wFloat32, wFloat64, wString       = codecWriter(&float32Root), codecWriter(&float64Root), codecWriter(&stringRoot)
	wTime, wDuration                  = codecWriter(&timeRoot), codecWriter(&durationRoot)
	wBytes, wBools, wInt8s, wInt16s   = codecWriter(&bytesRoot), codecWriter(&boolsRoot), codecWriter(&int8sRoot), codecWriter(&int16sRoot)
	wInt32s, wInt64s, wInts, wUint16s = codecWriter(&int32sRoot), codecWriter(&int64sRoot), codecWriter(&intsRoot), codecWriter(&uint16sRoot)
	wUint32s, wUint64s                = codecWriter(&uint32sRoot), codecWriter(&uint64sRoot)
	wFloat32s, wFloat64s, wStrings    = codecWriter(&float32sRoot), codecWriter(&float64sRoot), codecWriter(&stringsRoot)
	wMapStringBool, wMapStringInt32   = codecWriter(&mapStringBool), codecWriter(&mapStringInt32)
	wMapStringInt64, wMapStringInt    = codecWriter(&mapStringInt64), codecWriter(&mapStringInt)
	wMapStringFloat64, wMapStringStr  = codecWriter(&mapStringFloat64), codecWriter(&mapStringString)
	wMapInt32Bool, wMapInt32Int32     = codecWriter(&mapInt32Bool), codecWriter(&mapInt32Int32)
	wMapInt32Int64, wMapInt32Float64  = codecWriter(&mapInt32Int64), codecWriter(&mapInt32Float64)
	wMapInt32String, wMapInt64Bool    = codecWriter(&mapInt32String), codecWriter(&mapInt64Bool)
	wMapInt64Int32, wMapInt64Int64    = codecWriter(&mapInt64Int32), codecWriter(&mapInt64Int64)
	wMapInt64Float64, wMapInt64String = codecWriter(&mapInt64Float64), codecWriter(&mapInt64String)
	wMapIntInt                        = codecWriter(&mapIntInt)
)

func sliceValue[E any](id byte, s []E, w func(*WriteContext, any)) anyValue {
	return anyValue{id: id, null: s == nil, shared: true, k: refKey{unsafe.Pointer(unsafe.SliceData(s)), len(s)}, write: w}
}

func mapValue(id byte, m any, isNil bool, w func(*WriteContext, any)) anyValue {
	// A map is pointer-shaped: the interface's data word is the map.
	return anyValue{id: id, null: isNil, shared: true, k: refKey{dataWord(m), -1}, write: w}
}

// classify says how v, a non-nil interface, is written; ok is false for a
// Go type an any value cannot hold, and the error is recorded.
func (c *WriteContext) classify(v any) (anyValue, bool) {
	a, ok := classifyValue(v)
	if _, msg := v.(Message); !ok && msg {
		c.Fail(NoInstance(v))
	} else if !ok {
		msg := "an any value of this type cannot be written (register generated structs; funcs, channels and other unregistered types have no Fory type)"
		// The cold path may reflect: a named scalar is the common mistake.
		if t := reflect.TypeOf(v); t.PkgPath() != "" && t.Kind() >= reflect.Bool && t.Kind() <= reflect.Float64 || t.Kind() == reflect.String && t.PkgPath() != "" {
			msg = fmt.Sprintf("a named %s type has no Fory type id of its own (official Go refuses it too): store %s(v), or declare it //fory:enum", t.Kind(), t.Kind())
		}
		c.Fail(&EncodeError{Type: fmt.Sprintf("%T", v), Err: &detail{sentinel: ErrInvalidValue, msg: msg}})
	}
	return a, ok
}

func classifyValue(v any) (anyValue, bool) {
	switch x := v.(type) {
	case bool:
		return anyValue{id: meta.TypeBool, write: wBool}, true
	case int8:
		return anyValue{id: meta.TypeInt8, write: wInt8}, true
	case int16:
		return anyValue{id: meta.TypeInt16, write: wInt16}, true
	case int32:
		return anyValue{id: meta.TypeVarInt32, write: wInt32}, true
	case int64:
		return anyValue{id: meta.TypeVarInt64, write: wInt64}, true
	case int:
		return anyValue{id: meta.TypeVarInt64, write: wInt}, true
	case uint8:
		return anyValue{id: meta.TypeUint8, write: wUint8}, true
	case uint16:
		return anyValue{id: meta.TypeUint16, write: wUint16}, true
	case uint32:
		return anyValue{id: meta.TypeVarUint32, write: wUint32}, true
	case uint64:
		return anyValue{id: meta.TypeVarUint64, write: wUint64}, true
	case uint:
		return anyValue{id: meta.TypeVarUint64, write: wUint}, true
	case float32:
		return anyValue{id: meta.TypeFloat32, write: wFloat32}, true
	case float64:
		return anyValue{id: meta.TypeFloat64, write: wFloat64}, true
	case string:
		return anyValue{id: meta.TypeString, write: wString}, true
	case time.Time:
		return anyValue{id: meta.TypeTimestamp, write: wTime}, true
	case time.Duration:
		return anyValue{id: meta.TypeDuration, write: wDuration}, true
	case []byte:
		return sliceValue(meta.TypeBinary, x, wBytes), true
	case []bool:
		return sliceValue(meta.TypeBoolArray, x, wBools), true
	case []int8:
		return sliceValue(meta.TypeInt8Array, x, wInt8s), true
	case []int16:
		return sliceValue(meta.TypeInt16Array, x, wInt16s), true
	case []int32:
		return sliceValue(meta.TypeInt32Array, x, wInt32s), true
	case []int64:
		return sliceValue(meta.TypeInt64Array, x, wInt64s), true
	case []int:
		return sliceValue(meta.TypeInt64Array, x, wInts), true
	case []uint16:
		return sliceValue(meta.TypeUint16Array, x, wUint16s), true
	case []uint32:
		return sliceValue(meta.TypeUint32Array, x, wUint32s), true
	case []uint64:
		return sliceValue(meta.TypeUint64Array, x, wUint64s), true
	case []float32:
		return sliceValue(meta.TypeFloat32Array, x, wFloat32s), true
	case []float64:
		return sliceValue(meta.TypeFloat64Array, x, wFloat64s), true
	case []string:
		return sliceValue(meta.TypeList, x, wStrings), true
	case []any:
		a := sliceValue(meta.TypeList, x, nil)
		a.nested = nestedList
		return a, true
	case map[string]any:
		a := mapValue(meta.TypeMap, v, x == nil, nil)
		a.nested = nestedStringMap
		return a, true
	case map[any]any:
		a := mapValue(meta.TypeMap, v, x == nil, nil)
		a.nested = nestedAnyMap
		return a, true
	case map[string]bool:
		return mapValue(meta.TypeMap, v, x == nil, wMapStringBool), true
	case map[string]int32:
		return mapValue(meta.TypeMap, v, x == nil, wMapStringInt32), true
	case map[string]int64:
		return mapValue(meta.TypeMap, v, x == nil, wMapStringInt64), true
	case map[string]int:
		return mapValue(meta.TypeMap, v, x == nil, wMapStringInt), true
	case map[string]float64:
		return mapValue(meta.TypeMap, v, x == nil, wMapStringFloat64), true
	case map[string]string:
		return mapValue(meta.TypeMap, v, x == nil, wMapStringStr), true
	case map[int32]bool:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt32Bool), true
	case map[int32]int32:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt32Int32), true
	case map[int32]int64:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt32Int64), true
	case map[int32]float64:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt32Float64), true
	case map[int32]string:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt32String), true
	case map[int64]bool:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt64Bool), true
	case map[int64]int32:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt64Int32), true
	case map[int64]int64:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt64Int64), true
	case map[int64]float64:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt64Float64), true
	case map[int64]string:
		return mapValue(meta.TypeMap, v, x == nil, wMapInt64String), true
	case map[int]int:
		return mapValue(meta.TypeMap, v, x == nil, wMapIntInt), true
	case Message:
		// A generated *T: its own TypeInfo, no registry needed. A generic
		// struct's unregistered instantiation has none (NoInstance).
		t := x.ForyType()
		if t == nil {
			return anyValue{}, false
		}
		p := dataWord(v)
		return anyValue{id: meta.TypeStruct, t: t, m: x, isPtr: true, null: p == nil, shared: true, k: refKey{p, 0}}, true
	}
	if e := anyTypes().byVal[typeWord(v)]; e != nil {
		// A T value: ForyWrite reads it through a *T. The interface holds
		// a pointer to its copy of the value, or, for a pointer-shaped T,
		// the value itself, which then needs a word of memory to point at.
		p := dataWord(v)
		if e.direct {
			w := new(unsafe.Pointer)
			*w = p
			p = unsafe.Pointer(w)
		}
		var x any
		*(*eface)(unsafe.Pointer(&x)) = eface{typ: e.ptrType, data: p}
		return anyValue{id: meta.TypeStruct, t: e.Info, m: x.(Message)}, true
	}
	return carrierValue(v)
}

// writeFlag writes a's flag: null, a back-reference or a new tracked
// object with reference tracking, or present. It reports true when nothing
// follows.
func (c *WriteContext) writeFlag(a *anyValue) bool {
	if a.null {
		c.buf.WriteUint8(FlagNull)
		return true
	}
	if c.trackRef && a.shared {
		return c.writeRef(a.k)
	}
	c.buf.WriteUint8(FlagNotNull)
	return false
}

// writeMeta writes a's type meta; elem says it is a list element or map
// value, whose *T official Go keys as its own type (WriteStructMetaPtr).
func (c *WriteContext) writeMeta(a *anyValue, elem bool) {
	switch {
	case a.user != nil:
		c.writeUserMeta(a.user.info)
	case a.t == nil:
		c.buf.WriteUint8(a.id)
	case elem && a.isPtr:
		c.WriteStructMetaPtr(a.t)
	default:
		c.WriteStructMeta(a.t)
	}
}

func (c *WriteContext) writePayload(a *anyValue, v any) {
	switch {
	case a.t != nil:
		// Bounded here too: a struct that is not recursive by its declared
		// fields can still hold itself through an any.
		if c.enterAny() {
			a.m.ForyWrite(c)
		}
		c.depth--
	case a.nested == nestedList:
		WriteAnyList(c, v.([]any))
	case a.nested == nestedStringMap:
		writeStringAnyMap(c, v.(map[string]any), false)
	case a.nested == nestedAnyMap:
		writeAnyAnyMap(c, v.(map[any]any))
	default:
		a.write(c, v)
	}
}

// WriteAny writes an any value as official Go writes an `any` struct field:
// its flag (ff, or fd for nil; with reference tracking pointers to structs,
// slices and maps go through the reference table: 00 the first time, fe and
// the id after), the type meta (a struct's as WriteStructMeta writes it;
// other values their type id, as official Go picks it for the Go type) and
// the payload. A value of a type it cannot write records an *EncodeError
// with ErrInvalidValue naming the Go type.
func WriteAny(c *WriteContext, v any) {
	if v == nil {
		c.buf.WriteUint8(FlagNull)
		return
	}
	a, ok := c.classify(v)
	if !ok || c.writeFlag(&a) {
		return
	}
	c.writeMeta(&a, false)
	c.writePayload(&a, v)
}

// enterAny bounds the nesting of containers inside any values on write: a
// []any that holds itself would otherwise recurse forever.
func (c *WriteContext) enterAny() bool {
	c.depth++
	if c.depth > c.maxDepth {
		if c.err == nil {
			c.err = &EncodeError{Type: "any", Err: encodeLimit("values nested deeper than the maximum depth %d (WithMaxDepth; a list or map that contains itself needs WithTrackRef)", c.maxDepth)}
		}
		return false
	}
	return c.err == nil
}

// WriteAnyList writes a []any field's payload as official Go writes it: the
// length and, for a non-empty list, the elements header (same type when
// every non-nil element has one Go type, nulls, tracking), then either the
// one element type meta and the payloads, or each element's own type meta
// and payload, each behind a flag when the header says so (docs/format.md
// §8.1).
func WriteAnyList(c *WriteContext, l []any) { writeAnyList(c, l, false) }

// writeAnyList is WriteAnyList for elements of any type E, as []Shape is
// written (WriteAnyListOf): each element is written as an any. set says
// the elements are a SET's, which official Go writes with the tracking
// bit whenever tracking is on (09 and ff before each element for a set of
// int32), where a list of values it does not track has none.
func writeAnyList[E any](c *WriteContext, l []E, set bool) {
	c.buf.WriteVarUint32(uint32(len(l)))
	if len(l) == 0 {
		return
	}
	if !c.enterAny() {
		return
	}
	defer func() { c.depth-- }()
	hasNull, same := false, true
	var first any
	var firstType unsafe.Pointer
	for _, e := range l {
		v := any(e)
		if v == nil || isNilValue(v) {
			hasNull = true
			continue
		}
		if first == nil {
			first, firstType = v, typeWord(v)
		} else if typeWord(v) != firstType {
			same = false
		}
	}
	var fa anyValue
	if first == nil {
		same = false
	} else if same {
		var ok bool
		if fa, ok = c.classify(first); !ok {
			return
		}
	}
	h := byte(0)
	if hasNull {
		h |= meta.ListHasNull
	}
	if same {
		h |= meta.ListSameType
	}
	track := c.trackRef && (set || !same || fa.needsRef())
	if track {
		h |= meta.ListTrackRef
	}
	c.buf.WriteUint8(h)
	if same {
		c.writeMeta(&fa, true)
	}
	for _, e := range l {
		v := any(e)
		if c.err != nil {
			return
		}
		if v == nil || same && typeWord(v) != firstType {
			// A nil, or a typed nil of another type than the elements
			// (every non-nil element has firstType): null, as official Go
			// writes it.
			c.buf.WriteUint8(FlagNull)
			continue
		}
		a := fa
		if !same || fa.t != nil || fa.shared {
			// Per-element state: the struct pointer or slice itself.
			var ok bool
			if a, ok = c.classify(v); !ok {
				return
			}
		}
		switch {
		case a.null:
			// A typed nil (a nil *T, slice or map): hasNull is set.
			c.buf.WriteUint8(FlagNull)
			continue
		case track && a.shared:
			if c.writeRef(a.k) {
				continue
			}
		case track || hasNull:
			c.buf.WriteUint8(FlagNotNull)
		}
		if !same {
			c.writeMeta(&a, true)
		}
		c.writePayload(&a, v)
	}
}

// WriteStringAnyMap writes a map[string]any field's payload as official Go
// writes it: the entry count, then chunks of consecutive entries whose
// values have one Go type (header 04: key declared; value type meta once
// per chunk after the size, then key and value payloads; 0x08 with
// tracking for values it tracks), and a chunk of its own (14, then the
// key) for a nil value (docs/format.md §8.4). Entry order is Go's map
// order.
func WriteStringAnyMap(c *WriteContext, m map[string]any) { writeStringAnyMap(c, m, true) }

// anyChunks writes the chunk framing of a map whose values are any values
// (docs/format.md §8.4): a chunk holds consecutive entries whose keys and
// values have one Go type each, at most 255; a null value is a chunk of its
// own.
type anyChunks struct {
	c       *WriteContext
	decl    byte // meta.MapKeyDeclared for a map[string]any field, else 0
	sizeAt  int  // the open chunk's size byte, -1 when none is open
	n       int
	tracked bool // the open chunk's values carry reference flags
	kt, vt  unsafe.Pointer
}

func (w *anyChunks) close() {
	if w.sizeAt >= 0 {
		w.c.buf.Bytes()[w.sizeAt] = byte(w.n)
	}
	w.sizeAt, w.n = -1, 0
}

// nullValue closes the open chunk and writes a null-value chunk's header;
// the key follows, with its type meta when the key is not declared.
func (w *anyChunks) nullValue() {
	w.close()
	w.c.buf.WriteUint8(w.decl | meta.MapValueHasNull)
}

// entry opens a chunk for a key of type kt (its meta ka, nil when
// declared) and the value va unless the open chunk takes them, and
// counts the entry; the key's payload, then the value's flag and payload
// (value) follow.
func (w *anyChunks) entry(kt unsafe.Pointer, ka *anyValue, v any, va *anyValue) {
	c, b := w.c, w.c.buf
	if vt := typeWord(v); w.sizeAt < 0 || w.n == meta.MapChunkMax || vt != w.vt || kt != w.kt {
		w.close()
		h := w.decl
		if w.tracked = c.trackRef && va.needsRef(); w.tracked {
			h |= meta.MapValueTrackRef
		}
		b.WriteUint8(h)
		w.sizeAt = b.WriterIndex()
		b.WriteUint8(0)
		if ka != nil {
			c.writeMeta(ka, false)
		}
		c.writeMeta(va, true)
		w.kt, w.vt = kt, vt
	}
	w.n++
}

// value writes an entry's value after its key: its reference flag in a
// tracked chunk, then its payload.
func (w *anyChunks) value(v any, va *anyValue) {
	if w.tracked && w.c.writeFlag(va) {
		return
	}
	w.c.writePayload(va, v)
}

// writeStringAnyMap writes a map[string]any: keys declared (a field) or
// with their type meta (a map held in an any).
func writeStringAnyMap[V any](c *WriteContext, m map[string]V, keyDeclared bool) {
	c.buf.WriteVarUint32(uint32(len(m)))
	if len(m) == 0 || !c.enterAny() {
		return
	}
	defer func() { c.depth-- }()
	w := anyChunks{c: c, sizeAt: -1}
	var ka *anyValue
	if keyDeclared {
		w.decl = meta.MapKeyDeclared
	} else {
		ka = &anyValue{id: meta.TypeString}
	}
	check := c.CheckUTF8()
	for k, e := range m {
		v := any(e)
		if c.err != nil {
			return
		}
		if check && !ValidString(k) {
			c.Fail(InvalidUTF8(anyMapInfo, "key"))
			return
		}
		var va anyValue
		if v != nil {
			var ok bool
			if va, ok = c.classify(v); !ok {
				return
			}
		}
		if v == nil || va.null {
			w.nullValue()
			if !keyDeclared {
				c.buf.WriteUint8(meta.TypeString)
			}
			WriteString(c.buf, k)
			continue
		}
		w.entry(nil, ka, v, &va)
		WriteString(c.buf, k)
		w.value(v, &va)
	}
	w.close()
}

// writeAnyAnyMap writes a map[any]any, every key with its type meta.
func writeAnyAnyMap(c *WriteContext, m map[any]any) {
	c.buf.WriteVarUint32(uint32(len(m)))
	if len(m) == 0 || !c.enterAny() {
		return
	}
	defer func() { c.depth-- }()
	w := anyChunks{c: c, sizeAt: -1}
	for k, v := range m {
		if c.err != nil {
			return
		}
		var va anyValue
		ok := true
		if v != nil {
			if va, ok = c.classify(v); !ok {
				return
			}
		}
		if k == nil {
			// A null key is a chunk of its own: 12 when the value is null
			// too, else 02 (and 08 for a tracked kind), the value's
			// reference flag when tracked, its type meta and payload.
			w.close()
			if v == nil || va.null {
				c.buf.WriteUint8(meta.MapKeyHasNull | meta.MapValueHasNull)
				continue
			}
			h := byte(meta.MapKeyHasNull)
			tracked := c.trackRef && va.needsRef()
			if tracked {
				h |= meta.MapValueTrackRef
			}
			c.buf.WriteUint8(h)
			if tracked && c.writeFlag(&va) {
				continue
			}
			c.writeMeta(&va, true)
			c.writePayload(&va, v)
			continue
		}
		ka, ok := c.mapKey(k)
		if !ok {
			return
		}
		if v == nil || va.null {
			w.nullValue()
			c.writeMeta(&ka, false)
			c.writePayload(&ka, k)
			continue
		}
		w.entry(typeWord(k), &ka, v, &va)
		c.writePayload(&ka, k)
		w.value(v, &va)
	}
	w.close()
}

var anyMapInfo = rootInfo("map[string]any")

// isNilValue reports a typed nil pointer, slice or map in an interface.
func isNilValue(v any) bool {
	a, ok := classifyValue(v)
	return ok && a.null
}

// mapKey classifies a non-nil map key: strings, scalars and times; a key
// that can be shared or is a struct is refused, as its flag and table
// entries would need more framing than forygen writes (and reads).
func (c *WriteContext) mapKey(k any) (anyValue, bool) {
	a, ok := c.classify(k)
	if ok && (a.shared || a.t != nil) {
		c.Fail(&EncodeError{Type: fmt.Sprintf("%T", k), Err: &detail{sentinel: ErrInvalidValue, msg: "a map key in an any map must be a scalar, string or time"}})
		return anyValue{}, false
	}
	return a, ok
}

// ---------------------------------------------------------------------------
// Reading

// anyMeta is a value's type as its type meta gives it.
type anyMeta struct {
	id   byte
	e    *anyEntry  // structs
	user *anyUser   // enums and unions
	ev   *Evolution // structs written with another schema (compatible mode)
	ok   bool
}

// readAnyMeta reads a value's type meta (docs/format.md §5.1). A struct's
// registration is found first (by user id, names or TypeDef) and the meta
// then read again by ReadStructMeta, which checks it and, in compatible
// mode, caches the TypeDef and its field mapping.
func (c *ReadContext) readAnyMeta() anyMeta {
	r := &c.r
	in, off := r.Bytes(), r.Offset()
	if off >= len(in) {
		r.ReadUint8() // records the truncation
		return anyMeta{}
	}
	id := in[off]
	switch id {
	case meta.TypeStruct, meta.TypeCompatibleStruct, meta.TypeNamedStruct, meta.TypeNamedCompatibleStruct:
		e := c.peekStruct(id)
		if e == nil {
			return anyMeta{}
		}
		ev := c.ReadStructMeta(e.Info)
		return anyMeta{id: meta.TypeStruct, e: e, ev: ev, ok: r.Err() == nil}
	}
	r.Skip(1)
	switch id {
	case meta.TypeBool, meta.TypeInt8, meta.TypeInt16, meta.TypeInt32, meta.TypeVarInt32, meta.TypeInt64,
		meta.TypeVarInt64, meta.TypeTaggedInt64, meta.TypeUint8, meta.TypeUint16, meta.TypeUint32,
		meta.TypeVarUint32, meta.TypeUint64, meta.TypeVarUint64, meta.TypeTaggedUint64, meta.TypeFloat32,
		meta.TypeFloat64, meta.TypeString, meta.TypeDuration, meta.TypeTimestamp, meta.TypeBinary,
		meta.TypeBoolArray, meta.TypeInt8Array, meta.TypeInt16Array, meta.TypeInt32Array, meta.TypeInt64Array,
		meta.TypeUint8Array, meta.TypeUint16Array, meta.TypeUint32Array, meta.TypeUint64Array,
		meta.TypeFloat32Array, meta.TypeFloat64Array, meta.TypeList, meta.TypeMap, meta.TypeNone:
		return anyMeta{id: id, ok: true}
	case meta.TypeEnum, meta.TypeNamedEnum, meta.TypeTypedUnion, meta.TypeNamedUnion, meta.TypeExt, meta.TypeNamedExt:
		u := c.readUserAnyMeta(id)
		return anyMeta{id: id, user: u, ok: u != nil && r.Err() == nil}
	case meta.TypeFloat16, meta.TypeBFloat16, meta.TypeDate, meta.TypeDecimal, meta.TypeSet:
		if carrierRegistry.readers[id].Load() != nil {
			return anyMeta{id: id, ok: true}
		}
		r.Fail(&detail{sentinel: ErrUnsupported, msg: "an any value of type id " + itoa(int(id)) + ", which forygen does not decode into an any"})
	case meta.TypeUnknown:
		r.Fail(malformed("type meta of an any value names type id 0 (unknown)"))
	case meta.TypeFloat8, meta.TypeFloat16Array, meta.TypeBFloat16Array:
		r.Fail(&detail{sentinel: ErrUnsupported, msg: "an any value of type id " + itoa(int(id)) + ", which forygen does not decode into an any"})
	default:
		r.Fail(malformed("an any value of unknown type id %d", id))
	}
	return anyMeta{}
}

// peekStruct finds the registered struct a struct type meta at the
// current offset names, and leaves the offset where it was.
func (c *ReadContext) peekStruct(id byte) *anyEntry {
	r := &c.r
	off := r.Offset()
	defer func() {
		if r.Err() == nil {
			r.SetOffset(off)
		}
	}()
	if c.compatible != (id == meta.TypeCompatibleStruct || id == meta.TypeNamedCompatibleStruct) {
		r.Fail(mismatch("struct type id %d in an any value, which this mode does not write", id))
		return nil
	}
	reg := anyTypes()
	r.Skip(1)
	switch id {
	case meta.TypeStruct:
		uid := r.ReadVarUint32()
		if r.Err() != nil {
			return nil
		}
		return c.unique(reg.byID[uid], "struct id "+itoa(int(uid)))
	case meta.TypeNamedStruct:
		n := len(c.names)
		ns := c.readMetaString(meta.Namespace)
		name := c.readMetaString(meta.TypeName)
		c.names = c.names[:n]
		if r.Err() != nil {
			return nil
		}
		return c.unique(reg.byName[[2]string{ns, name}], fmt.Sprintf("struct %q.%q", ns, name))
	}
	marker := r.ReadVarUint32()
	if r.Err() != nil {
		return nil
	}
	var td *meta.TypeDef
	if marker&1 == 1 {
		idx := int(marker >> 1)
		if idx >= len(c.defs) {
			r.Fail(malformed("reference to TypeDef #%d, only %d received", idx, len(c.defs)))
			return nil
		}
		td = c.defs[idx].def
	} else {
		rest := c.r.Bytes()[c.r.Offset():]
		if len(rest) >= 8 {
			for _, e := range reg.byHeader[binary.LittleEndian.Uint64(rest)] {
				if hasPrefix(rest, e.Info.TypeDef) || hasPrefix(rest, e.Info.tracked.TypeDef) {
					td = e.Info.self.def
					break
				}
			}
		}
		if td == nil {
			var err error
			if td, _, err = meta.ParseTypeDef(rest, c.opts.typeDefLimits()); err != nil {
				c.parseTypeDef(rest, false) // records the error, classified
				return nil
			}
		}
	}
	if !meta.IsStructKind(td.Kind) {
		r.Fail(mismatch("struct type meta of an any value refers to a TypeDef of kind %d", td.Kind))
		return nil
	}
	if td.ByName {
		return c.unique(reg.byName[[2]string{td.Namespace, td.TypeName}], fmt.Sprintf("struct %q.%q", td.Namespace, td.TypeName))
	}
	return c.unique(reg.byID[td.UserID], "struct id "+itoa(int(td.UserID)))
}

func hasPrefix(b, p []byte) bool { return len(b) >= len(p) && string(b[:len(p)]) == string(p) }

// enterAny bounds the nesting of lists and maps inside any values.
func (c *ReadContext) enterAny() bool {
	c.depth++
	if c.depth > c.maxDepth {
		c.r.Fail(limit("values nested deeper than the maximum depth %d", c.maxDepth))
		return false
	}
	return c.r.Err() == nil
}

func codecRead[T any](c *ReadContext, k *rootCodec[T], id byte) any {
	v := k.read(c, id)
	if c.r.Err() != nil {
		return nil
	}
	return v
}

// arrayRead reads a dense array and records it under refID as
// SetRefSlice does, so generated code and any values share it.
func arrayRead[E any](c *ReadContext, k *rootCodec[[]E], id byte, refID int) any {
	s := k.read(c, id)
	if c.r.Err() != nil {
		return nil
	}
	SetRefSlice(c, refID, s)
	return s
}

// readPayload reads the payload of a value of type m; refID is its
// reference id (-1 for none), recorded before anything inside it is read.
func (c *ReadContext) readPayload(m *anyMeta, refID int, byValue bool) any {
	switch m.id {
	case meta.TypeStruct:
		e := m.e
		if !c.charge(1, e.size) {
			return nil
		}
		x := e.New()
		if refID >= 0 {
			c.setRef(refID, refEntry{v: x})
		}
		// Bounded here too: a struct can hold itself through an any
		// without being recursive by its declared fields.
		if c.enterAny() {
			if m.ev != nil {
				x.ForyReadEvolved(c, m.ev)
			} else {
				x.ForyRead(c)
			}
		}
		c.depth--
		if c.r.Err() != nil {
			return nil
		}
		if byValue {
			if !c.charge(1, e.size) {
				return nil
			}
			return e.Deref(x)
		}
		return x
	case meta.TypeBool:
		return codecRead(c, &boolRoot, meta.TypeBool)
	case meta.TypeInt8:
		return codecRead(c, &int8Root, meta.TypeInt8)
	case meta.TypeInt16:
		return codecRead(c, &int16Root, meta.TypeInt16)
	case meta.TypeInt32, meta.TypeVarInt32:
		return codecRead(c, &int32Root, m.id)
	case meta.TypeInt64, meta.TypeVarInt64, meta.TypeTaggedInt64:
		return codecRead(c, &int64Root, m.id)
	case meta.TypeUint8:
		return codecRead(c, &uint8Root, meta.TypeUint8)
	case meta.TypeUint16:
		return codecRead(c, &uint16Root, meta.TypeUint16)
	case meta.TypeUint32, meta.TypeVarUint32:
		return codecRead(c, &uint32Root, m.id)
	case meta.TypeUint64, meta.TypeVarUint64, meta.TypeTaggedUint64:
		return codecRead(c, &uint64Root, m.id)
	case meta.TypeFloat32:
		return codecRead(c, &float32Root, meta.TypeFloat32)
	case meta.TypeFloat64:
		return codecRead(c, &float64Root, meta.TypeFloat64)
	case meta.TypeString:
		return codecRead(c, &stringRoot, meta.TypeString)
	case meta.TypeDuration:
		return codecRead(c, &durationRoot, meta.TypeDuration)
	case meta.TypeTimestamp:
		return codecRead(c, &timeRoot, meta.TypeTimestamp)
	case meta.TypeBinary, meta.TypeUint8Array:
		return arrayRead(c, &bytesRoot, m.id, refID)
	case meta.TypeBoolArray:
		return arrayRead(c, &boolsRoot, meta.TypeBoolArray, refID)
	case meta.TypeInt8Array:
		return arrayRead(c, &int8sRoot, meta.TypeInt8Array, refID)
	case meta.TypeInt16Array:
		return arrayRead(c, &int16sRoot, meta.TypeInt16Array, refID)
	case meta.TypeInt32Array:
		return arrayRead(c, &int32sRoot, meta.TypeInt32Array, refID)
	case meta.TypeInt64Array:
		return arrayRead(c, &int64sRoot, meta.TypeInt64Array, refID)
	case meta.TypeUint16Array:
		return arrayRead(c, &uint16sRoot, meta.TypeUint16Array, refID)
	case meta.TypeUint32Array:
		return arrayRead(c, &uint32sRoot, meta.TypeUint32Array, refID)
	case meta.TypeUint64Array:
		return arrayRead(c, &uint64sRoot, meta.TypeUint64Array, refID)
	case meta.TypeFloat32Array:
		return arrayRead(c, &float32sRoot, meta.TypeFloat32Array, refID)
	case meta.TypeFloat64Array:
		return arrayRead(c, &float64sRoot, meta.TypeFloat64Array, refID)
	case meta.TypeList:
		if !c.enterAny() {
			return nil
		}
		l := c.readAnyList(refID)
		c.depth--
		if c.r.Err() != nil {
			return nil
		}
		return l
	case meta.TypeMap:
		if !c.enterAny() {
			return nil
		}
		// An entry takes one byte at least: a chunk 12 (null key and
		// value). The map is made for its declared size, charged, so
		// it never grows (issue 25 item 5).
		n := c.ReadLength(1)
		if c.r.Err() != nil {
			c.depth--
			return nil
		}
		mm := MakeMap[map[any]any](c, n)
		if refID >= 0 {
			c.setRef(refID, refEntry{v: mm})
		}
		c.readAnyMap(n, false, func(k, v any) { mm[k] = v })
		c.depth--
		if c.r.Err() != nil {
			return nil
		}
		return mm
	case meta.TypeEnum, meta.TypeNamedEnum, meta.TypeTypedUnion, meta.TypeNamedUnion, meta.TypeExt, meta.TypeNamedExt:
		v := m.user.read(c)
		if v != nil && refID >= 0 {
			c.setRef(refID, refEntry{v: v})
		}
		return v
	case meta.TypeFloat16, meta.TypeBFloat16, meta.TypeDate, meta.TypeDecimal, meta.TypeSet:
		v := carrierRegistry.readers[m.id].Load().read(c)
		if v != nil && refID >= 0 {
			c.setRef(refID, refEntry{v: v})
		}
		return v
	}
	return nil // meta.TypeNone
}

// backRef resolves a back-reference in an any value.
func (c *ReadContext) backRef(id int, byValue bool) any {
	e := c.refs.get(id)
	if e.v == nil {
		c.badRef(id, "a value an any can hold")
		return nil
	}
	if dataWord(e.v) == nil {
		// A slice, recorded as its data pointer and length behind a nil
		// *E naming the element type (SetRefSlice).
		switch e.v.(type) {
		case *any:
			return sliceAt[any](e)
		case *byte:
			return sliceAt[byte](e)
		case *bool:
			return sliceAt[bool](e)
		case *int8:
			return sliceAt[int8](e)
		case *int16:
			return sliceAt[int16](e)
		case *int32:
			return sliceAt[int32](e)
		case *int64:
			return sliceAt[int64](e)
		case *uint16:
			return sliceAt[uint16](e)
		case *uint32:
			return sliceAt[uint32](e)
		case *uint64:
			return sliceAt[uint64](e)
		case *float32:
			return sliceAt[float32](e)
		case *float64:
			return sliceAt[float64](e)
		case *string:
			// A []string field tagged ref, read by generated code.
			return sliceAt[string](e)
		case *int:
			return sliceAt[int](e)
		case *uint:
			return sliceAt[uint](e)
		}
		c.badRef(id, "a value an any can hold")
		return nil
	}
	if byValue {
		if ent := anyTypes().byPtr[typeWord(e.v)]; ent != nil {
			return ent.Deref(e.v.(Message))
		}
	}
	return e.v
}

func sliceAt[E any](e refEntry) []E {
	if e.p == nil || e.p == unsafe.Pointer(&emptySlice) {
		return []E{}
	}
	return unsafe.Slice((*E)(e.p), e.n)
}

// readElem reads one value behind a list element's or map value's framing:
// a reference flag when tracked, a null flag when the header allows nulls,
// then the type meta unless m gives it, and the payload.
func (c *ReadContext) readElem(m *anyMeta, tracked, hasNull, byValue bool) any {
	refID := -1
	if tracked {
		st, id := c.ReadRefFlag()
		switch st {
		case RefNull:
			return nil
		case RefBack:
			return c.backRef(id, byValue)
		}
		refID = id
	} else if hasNull && !c.ReadFlag() {
		return nil
	}
	if m == nil {
		mm := c.readAnyMeta()
		if !mm.ok {
			return nil
		}
		m = &mm
	}
	return c.readPayload(m, refID, byValue)
}

// ReadAny reads what WriteAny writes (and everything official Go writes for
// an any field): nil for fd; a registered struct as *T, or as a T value
// when structByValue; a LIST as []any and a MAP as map[any]any. A struct
// inside them decodes as *T too, wherever it is: official Go gives a value
// in some places and a pointer in others (docs/format.md §14), and only a
// pointer keeps the sharing a tracked message carries. Back-references
// resolve through the reference table. Errors are recorded in c.
func ReadAny(c *ReadContext, structByValue bool) any {
	st, id := c.ReadRefFlag()
	switch st {
	case RefNull:
		return nil
	case RefBack:
		return c.backRef(id, structByValue)
	}
	m := c.readAnyMeta()
	if !m.ok {
		return nil
	}
	return c.readPayload(&m, id, structByValue)
}

// ReadAnyList reads a []any field's payload (WriteAnyList's, and every
// elements header official Go writes); a present list is never nil.
func ReadAnyList(c *ReadContext) []any {
	if !c.enterAny() {
		return nil
	}
	defer func() { c.depth-- }()
	return c.readAnyList(-1)
}

func (c *ReadContext) readAnyList(refID int) []any {
	r := &c.r
	n := c.ReadLength(1)
	if r.Err() != nil {
		return nil
	}
	s := MakeSlice[[]any](c, n)
	if r.Err() != nil {
		return nil
	}
	SetRefSlice(c, refID, s)
	if n == 0 {
		return s
	}
	h := r.ReadUint8()
	if r.Err() != nil {
		return nil
	}
	switch {
	case h&^meta.ListBits != 0:
		r.Fail(malformed("unsupported list elements header 0x%02x", h))
		return nil
	case h&meta.ListDeclared != 0:
		r.Fail(mismatch("a list of any values whose header 0x%02x declares the element type", h))
		return nil
	case h&meta.ListTrackRef != 0 && !c.trackRef:
		r.Fail(&detail{sentinel: ErrUnsupported, msg: "reference-tracked list elements " + untrackedMessage})
		return nil
	}
	tracked, hasNull := h&meta.ListTrackRef != 0, h&meta.ListHasNull != 0
	var m *anyMeta
	if h&meta.ListSameType != 0 {
		mm := c.readAnyMeta()
		if !mm.ok {
			return nil
		}
		m = &mm
	}
	for i := 0; i < n && r.Err() == nil; i++ {
		s[i] = c.readElem(m, tracked, hasNull, false)
		if r.Err() != nil {
			c.TraceIndex(i)
		}
	}
	if r.Err() != nil {
		return nil
	}
	return s
}

// ReadStringAnyMap reads a map[string]any field's payload (WriteStringAnyMap's,
// and every chunk header official Go and other writers use for such a
// map); struct values decode as *T, as in any value (ReadAny).
func ReadStringAnyMap(c *ReadContext) map[string]any {
	if !c.enterAny() {
		return nil
	}
	defer func() { c.depth-- }()
	n := c.ReadLength(1)
	if c.r.Err() != nil {
		return nil
	}
	m := MakeMap[map[string]any](c, n)
	c.readAnyMap(n, true, func(k, v any) { m[k.(string)] = v })
	if c.r.Err() != nil {
		return nil
	}
	return m
}

// readAnyMap reads the chunks of n map entries whose values are any values
// (the caller read n with ReadLength(1) and made the map for n entries,
// charged: put never grows it); stringKeys says the keys are strings (a
// map[string]any field), else any hashable value.
func (c *ReadContext) readAnyMap(n int, stringKeys bool, put func(k, v any)) {
	r := &c.r
	for n > 0 && r.Err() == nil {
		h := r.ReadUint8()
		if r.Err() != nil {
			return
		}
		switch {
		case h&^meta.MapChunkBits != 0:
			r.Fail(malformed("map chunk header 0x%02x has reserved bits set", h))
			return
		case h&meta.MapValueDeclared != 0:
			r.Fail(mismatch("a map of any values whose chunk header 0x%02x declares the value type", h))
			return
		case h&(meta.MapKeyTrackRef|meta.MapValueTrackRef) != 0 && !c.trackRef:
			r.Fail(&detail{sentinel: ErrUnsupported, msg: "reference-tracked map entries " + untrackedMessage})
			return
		case h&meta.MapKeyDeclared != 0 && !stringKeys:
			r.Fail(mismatch("a map of any keys whose chunk header 0x%02x declares the key type", h))
			return
		case h&meta.MapKeyHasNull != 0 && stringKeys:
			r.Fail(mismatch("a null map key (a peer with nullable keys wrote it) in a map[string]any, whose keys cannot be nil"))
			return
		}
		keyTracked, valTracked := h&meta.MapKeyTrackRef != 0, h&meta.MapValueTrackRef != 0
		if h&(meta.MapKeyHasNull|meta.MapValueHasNull) != 0 {
			// One entry, no size: the side that is not null, its
			// reference flag first when tracked, then its type meta.
			var k, v any
			if h&meta.MapKeyHasNull == 0 {
				k = c.readKey(nil, stringKeys, h&meta.MapKeyDeclared != 0, keyTracked)
			}
			if h&meta.MapValueHasNull == 0 {
				v = c.readElem(nil, valTracked, false, false)
			}
			if r.Err() == nil {
				put(k, v)
			}
			n--
			continue
		}
		size := int(r.ReadUint8())
		if (size == 0 || size > n) && r.Err() == nil {
			r.Fail(malformed("map chunk of %d entries with %d entries left", size, n))
			return
		}
		var km *anyMeta
		if h&meta.MapKeyDeclared == 0 {
			mm := c.readAnyMeta()
			if !mm.ok {
				return
			}
			km = &mm
		}
		vm := c.readAnyMeta()
		if !vm.ok {
			return
		}
		for j := 0; j < size && r.Err() == nil; j++ {
			k := c.readKey(km, stringKeys, km == nil, keyTracked)
			v := c.readElem(&vm, valTracked, false, false)
			if r.Err() == nil {
				put(k, v)
			}
		}
		n -= size
	}
}

// readKey reads a map key: a bare string when declared, else a value of
// type m (read here when nil), which must be a string for a map[string]any
// and hashable for a map[any]any.
func (c *ReadContext) readKey(m *anyMeta, stringKeys, declared, tracked bool) any {
	r := &c.r
	if tracked {
		if st, _ := c.ReadRefFlag(); st != RefFollows {
			if r.Err() == nil {
				r.Fail(malformed("a null or shared map key"))
			}
			return nil
		}
	}
	if declared {
		s := c.ReadString()
		if r.Err() != nil {
			return nil
		}
		return s
	}
	if m == nil {
		mm := c.readAnyMeta()
		if !mm.ok {
			return nil
		}
		m = &mm
	}
	switch {
	case stringKeys && m.id != meta.TypeString:
		r.Fail(mismatch("map key of type id %d where a string was expected", m.id))
		return nil
	case m.id == meta.TypeStruct:
		r.Fail(&detail{sentinel: ErrUnsupported, msg: "a struct as the key of a map in an any value"})
		return nil
	}
	k := c.readPayload(m, -1, false)
	if r.Err() != nil {
		return nil
	}
	if !hashable(k) {
		r.Fail(&detail{sentinel: ErrUnsupported, msg: fmt.Sprintf("a map key of type id %d, which a Go map cannot hold", m.id)})
		return nil
	}
	return k
}

// hashable reports whether a value readPayload returns can be a Go map key.
func hashable(v any) bool {
	switch v.(type) {
	case bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, string, time.Time, time.Duration:
		// The common keys, without the registry's lookup (TestAllocAnyMapSized).
		return true
	case []any, map[any]any, []byte, []bool, []int8, []int16, []int32, []int64, []uint16, []uint32, []uint64, []float32, []float64:
		return false
	}
	return carrierHashable(v)
}

// ReadAnyAs reads a field of a non-empty interface type I, written as an
// any: nil for null, else the decoded value (a struct as a pointer), which
// must implement I; another value is ErrSchemaMismatch naming iface and
// the implementations the generator knew (impls).
func ReadAnyAs[I any](c *ReadContext, iface, impls string) I {
	var zero I
	v := ReadAny(c, false)
	if v == nil || c.Failed() {
		return zero
	}
	i, ok := v.(I)
	if !ok {
		c.Fail(mismatch("a %T where a value implementing %s was expected (generated implementations: %s)", v, iface, impls))
		return zero
	}
	return i
}

// WriteAnyListOf writes a list field whose elements are of a non-empty
// interface type I, which official Go writes as a []any.
func WriteAnyListOf[I any](c *WriteContext, l []I) { writeAnyList(c, l, false) }

// WriteStringAnyMapOf writes a map field whose values are of a non-empty
// interface type I, which official Go writes as a map[string]any.
func WriteStringAnyMapOf[I any](c *WriteContext, m map[string]I) { writeStringAnyMap(c, m, true) }

// ReadAnyListAs reads a list field of a non-empty interface type I: each
// element is read as an any and must be nil or implement I, else
// ErrSchemaMismatch naming the element, iface and the implementations the
// generator knew (impls). A present list is never nil.
func ReadAnyListAs[I any](c *ReadContext, iface, impls string) []I {
	l := ReadAnyList(c)
	if l == nil || c.Failed() {
		return nil
	}
	out := MakeSlice[[]I](c, len(l))
	for i, v := range l {
		if v == nil || c.Failed() {
			continue
		}
		x, ok := v.(I)
		if !ok {
			c.Fail(mismatch("element %d: a %T where a value implementing %s was expected (generated implementations: %s)", i, v, iface, impls))
			return nil
		}
		out[i] = x
	}
	return out
}

// ReadStringAnyMapAs is ReadAnyListAs for a map[string]I field.
func ReadStringAnyMapAs[I any](c *ReadContext, iface, impls string) map[string]I {
	m := ReadStringAnyMap(c)
	if m == nil || c.Failed() {
		return nil
	}
	out := make(map[string]I, len(m))
	for k, v := range m {
		if v == nil {
			var zero I
			out[k] = zero
			continue
		}
		x, ok := v.(I)
		if !ok {
			c.Fail(mismatch("value of key %q: a %T where a value implementing %s was expected (generated implementations: %s)", k, v, iface, impls))
			return nil
		}
		out[k] = x
	}
	return out
}
