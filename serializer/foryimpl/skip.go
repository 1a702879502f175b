package foryimpl

import (
	"github.com/forygen/forygen/internal/meta"
)

// Skipping (docs/format.md §11.4): in compatible mode a received TypeDef may
// declare fields the local struct lacks, and their values are stepped over
// with the TypeDef alone. Every type id of the specification is handled:
// scalars by width or varint form, strings, binaries and dense arrays by
// length, lists, sets and maps element by element, structs by their
// TypeDef, and the values that carry their own type meta, `any` (type id
// 0) and union cases (33, 34, 35), by reading that meta first. Only
// extension values (31, 32) cannot be skipped: their bytes are whatever
// their serializer wrote, with no length. Skipping is bounded like
// decoding: depth by WithMaxDepth, element counts by ReadLength's budget,
// TypeDefs by the allocation budget.

// SkipField skips the value of an unmatched remote field (docs/format.md
// §11.4). An `any` field always starts with a flag, whatever its TypeDef
// entry says (official Go declares it non-nullable and writes the flag),
// and so does a field whose track_ref bit is set (with tracking off its
// writer puts ff or fd there).
func (c *ReadContext) SkipField(f *EvolvedField) {
	if (f.Flag || f.def.TrackRef || f.def.Type.TypeID == meta.TypeUnknown) && !c.skipFlag() {
		return
	}
	c.skipValue(&f.def.Type, 0)
}

// skipFlag reads the null or reference flag of a skipped value and reports
// whether the value follows. In a message read with reference tracking a
// skipped value still counts: 00 takes the next reference id, as
// ReadRefFlag records it, so the ids of later objects stay in step; a
// back-reference (fe and an id already given) is consumed and nothing
// follows it (docs/format.md §2.1).
func (c *ReadContext) skipFlag() bool {
	if !c.trackRef {
		return c.ReadFlag()
	}
	st, _ := c.ReadRefFlag()
	return st == RefFollows
}

// skipValue skips one value of type ft (no null flag).
func (c *ReadContext) skipValue(ft *meta.FieldType, depth int) {
	r := &c.r
	if depth > c.maxDepth {
		r.Fail(limit("values nested deeper than the maximum depth %d", c.maxDepth))
		return
	}
	switch id := ft.TypeID; id {
	case meta.TypeBool, meta.TypeInt8, meta.TypeUint8, meta.TypeFloat8,
		meta.TypeInt16, meta.TypeUint16, meta.TypeFloat16, meta.TypeBFloat16,
		meta.TypeInt32, meta.TypeUint32, meta.TypeFloat32,
		meta.TypeInt64, meta.TypeUint64, meta.TypeFloat64:
		r.Skip(meta.FixedWidth(id))
	case meta.TypeVarInt32, meta.TypeVarUint32, meta.TypeEnum, meta.TypeNamedEnum:
		r.ReadVarUint32()
	case meta.TypeVarInt64, meta.TypeVarUint64:
		r.ReadVarUint64()
	case meta.TypeTaggedInt64, meta.TypeTaggedUint64:
		r.ReadTaggedInt64()
	case meta.TypeString:
		c.skipString()
	case meta.TypeDuration:
		r.ReadVarInt64()
		r.Skip(4)
	case meta.TypeTimestamp:
		r.Skip(12)
	case meta.TypeDate:
		r.ReadVarInt64()
	case meta.TypeDecimal:
		c.skipDecimal()
	case meta.TypeBinary, meta.TypeBoolArray, meta.TypeInt8Array, meta.TypeInt16Array, meta.TypeInt32Array,
		meta.TypeInt64Array, meta.TypeUint8Array, meta.TypeUint16Array, meta.TypeUint32Array, meta.TypeUint64Array,
		meta.TypeFloat16Array, meta.TypeBFloat16Array, meta.TypeFloat32Array, meta.TypeFloat64Array:
		r.Skip(c.ReadLength(1))
	case meta.TypeFloat8Array:
		// The specification's float8 array: the float8 kind, then the
		// byte length and the bytes.
		r.Skip(1)
		r.Skip(c.ReadLength(1))
	case meta.TypeList, meta.TypeSet:
		c.skipList(ft, depth)
	case meta.TypeMap:
		c.skipMap(ft, depth)
	case meta.TypeStruct, meta.TypeCompatibleStruct, meta.TypeNamedStruct, meta.TypeNamedCompatibleStruct:
		c.skipStruct(depth)
	case meta.TypeUnknown:
		// An `any` value after its flag: its type meta, then its payload.
		c.skipMetaValue(c.readTypeMeta(), depth+1)
	case meta.TypeUnion, meta.TypeTypedUnion, meta.TypeNamedUnion:
		// A union field's TypeDef says UNION and no type meta follows
		// (the owner names the union); the payload is the case.
		c.skipUnionCase(depth)
	case meta.TypeNone:
	default:
		r.Fail(&detail{sentinel: ErrUnsupported, msg: "cannot skip a value of type id " + itoa(int(id))})
	}
}

func (c *ReadContext) skipString() {
	r := &c.r
	h := r.ReadVarUint64()
	if h>>36 != 0 && r.Err() == nil {
		r.Fail(malformed("string header %d too large", h))
		return
	}
	// As uint64 first: int(h>>2) truncates on 32-bit platforms.
	if h>>meta.StringLenShift > uint64(r.Remaining()) {
		if r.Err() == nil {
			r.Fail(shortInput("string of %d bytes exceeds the %d remaining bytes", h>>meta.StringLenShift, r.Remaining()))
		}
		return
	}
	r.Skip(int(h >> meta.StringLenShift))
}

// metaType is a value's type as its type meta gives it (docs/format.md §5.1):
// the type id, and for a struct the TypeDef its fields are skipped by.
type metaType struct {
	id  uint8
	def *remoteDef
}

// readTypeMeta reads the type meta of a value that carries its own: an
// `any` value, a union case, the elements of a list whose header does not
// declare them, a map chunk's undeclared side (docs/format.md §5.1, §11.3).
// In compatible mode a struct's meta is a shared TypeDef, which the value's
// fields are skipped by; in same-schema mode a struct cannot be skipped.
func (c *ReadContext) readTypeMeta() metaType {
	r := &c.r
	id := r.ReadUint8()
	if r.Err() != nil {
		return metaType{}
	}
	switch id {
	case meta.TypeStruct, meta.TypeCompatibleStruct, meta.TypeNamedStruct, meta.TypeNamedCompatibleStruct:
		d := c.readStructDefFor(id)
		if d != nil && !meta.IsStructKind(d.def.Kind) && r.Err() == nil {
			r.Fail(malformed("struct type meta refers to a TypeDef of kind %d", d.def.Kind))
			return metaType{}
		}
		return metaType{id: id, def: d}
	case meta.TypeEnum, meta.TypeExt, meta.TypeTypedUnion:
		r.ReadVarUint32() // the user id
	case meta.TypeNamedEnum, meta.TypeNamedExt, meta.TypeNamedUnion:
		// By name: a shared non-struct TypeDef in compatible mode, the
		// namespace and type name in same-schema mode (§5.1).
		if c.compatible {
			c.readSharedTypeDef(nil)
		} else {
			c.readMetaString(meta.Namespace)
			c.readMetaString(meta.TypeName)
		}
	case meta.TypeUnknown:
		r.Fail(malformed("type meta of a value names type id 0 (unknown)"))
	}
	return metaType{id: id}
}

// anyElem and anyKeyValue are the child types of a list, set or map known only from its
// own type meta: every element carries its type meta.
var anyElem = []meta.FieldType{{TypeID: meta.TypeUnknown}}
var anyKeyValue = []meta.FieldType{{TypeID: meta.TypeUnknown}, {TypeID: meta.TypeUnknown}}

// skipMetaValue skips the payload of a value whose type meta readTypeMeta
// read.
func (c *ReadContext) skipMetaValue(mt metaType, depth int) {
	r := &c.r
	if r.Err() != nil {
		return
	}
	if depth > c.maxDepth {
		r.Fail(limit("values nested deeper than the maximum depth %d", c.maxDepth))
		return
	}
	switch mt.id {
	case meta.TypeStruct, meta.TypeCompatibleStruct, meta.TypeNamedStruct, meta.TypeNamedCompatibleStruct:
		c.skipStructBody(mt.def, depth)
	case meta.TypeList, meta.TypeSet:
		c.skipList(&meta.FieldType{TypeID: mt.id, Children: anyElem}, depth)
	case meta.TypeMap:
		c.skipMap(&meta.FieldType{TypeID: mt.id, Children: anyKeyValue}, depth)
	case meta.TypeExt, meta.TypeNamedExt:
		r.Fail(&detail{sentinel: ErrUnsupported, msg: "cannot skip an extension value (type id " + itoa(int(mt.id)) +
			"): it has no length, its bytes are its serializer's"})
	default:
		c.skipValue(&meta.FieldType{TypeID: mt.id}, depth)
	}
}

// skipUnionCase skips a union's payload: the case id, then the case value
// as an `any` value, with its flag and type meta (the specification's
// "Union value payload"). A null case value is just its flag.
func (c *ReadContext) skipUnionCase(depth int) {
	c.r.ReadVarUint32()
	if c.r.Err() != nil || !c.skipFlag() {
		return
	}
	c.skipMetaValue(c.readTypeMeta(), depth+1)
}

func (c *ReadContext) skipList(ft *meta.FieldType, depth int) {
	n := c.ReadLength(1)
	if n == 0 {
		return
	}
	r := &c.r
	h := r.ReadUint8()
	if r.Err() != nil {
		return
	}
	if h&^meta.ListBits != 0 {
		r.Fail(malformed("unsupported list elements header 0x%02x", h))
		return
	}
	// flag reads an element's flag: a reference flag when the header
	// tracks references (0x01), a null flag when it announces nulls.
	tracked, hasNull := h&meta.ListTrackRef != 0, h&meta.ListHasNull != 0
	flag := func() bool {
		switch {
		case tracked:
			return c.skipFlag()
		case hasNull:
			return c.ReadFlag()
		}
		return true
	}
	if h&meta.ListSameType == 0 {
		// Elements of different types: each carries its type meta, after
		// its flag when the header announces nulls or tracking (§8.1).
		for i := 0; i < n && r.Err() == nil; i++ {
			if !flag() {
				continue
			}
			c.skipMetaValue(c.readTypeMeta(), depth+1)
		}
		return
	}
	elem := &ft.Children[0]
	if h&meta.ListDeclared == 0 {
		// One type meta for all elements.
		mt := c.readTypeMeta()
		for i := 0; i < n && r.Err() == nil; i++ {
			if !flag() {
				continue
			}
			c.skipMetaValue(mt, depth+1)
		}
		return
	}
	for i := 0; i < n && r.Err() == nil; i++ {
		if !flag() {
			continue
		}
		if meta.IsStructKind(elem.TypeID) {
			// Declared struct elements are bare bodies: nothing says
			// their schema.
			c.skipStructBody(nil, depth+1)
		} else {
			c.skipValue(elem, depth+1)
		}
	}
}

// skipSide is how one side of a map chunk is skipped: by its type meta when
// the chunk carries it, else by the TypeDef's declared type.
type skipSide struct {
	declared *meta.FieldType
	mt       metaType
	hasMeta  bool
	// tracked: the chunk header's tracking bit for this side puts a
	// reference flag before each of its values.
	tracked bool
}

func (c *ReadContext) skipSideValue(s *skipSide, depth int) {
	if s.tracked && !c.skipFlag() {
		return
	}
	switch {
	case s.hasMeta:
		c.skipMetaValue(s.mt, depth+1)
	case meta.IsStructKind(s.declared.TypeID):
		c.r.Fail(mismatch("a skipped map's struct keys or values carry no TypeDef (declared type) and cannot be skipped"))
	default:
		c.skipValue(s.declared, depth+1)
	}
}

// skipMap skips a map chunk by chunk (docs/format.md §8.4). A side whose
// type the chunk header does not declare carries its type meta once per
// chunk, which may be a struct's TypeDef; a declared struct side cannot be
// skipped (§14.11). Null keys are accepted here, for peers whose maps have
// them.
func (c *ReadContext) skipMap(ft *meta.FieldType, depth int) {
	// An entry takes one byte at least: a chunk 12 (null key and value).
	n := c.ReadLength(1)
	r := &c.r
	key := skipSide{declared: &ft.Children[0]}
	val := skipSide{declared: &ft.Children[1]}
	for n > 0 && r.Err() == nil {
		h := r.ReadUint8()
		if r.Err() != nil {
			return
		}
		switch {
		case h&^meta.MapChunkBits != 0:
			r.Fail(malformed("map chunk header 0x%02x has reserved bits set", h))
			return
		}
		keyNull, valNull := h&meta.MapKeyHasNull != 0, h&meta.MapValueHasNull != 0
		key.hasMeta, val.hasMeta = false, false
		key.tracked, val.tracked = h&meta.MapKeyTrackRef != 0, h&meta.MapValueTrackRef != 0
		if keyNull || valNull {
			// One entry, no size: the side that is not null, its
			// reference flag first when tracked, then its type meta when
			// undeclared, then the value.
			side, declared := &val, h&meta.MapValueDeclared != 0
			switch {
			case keyNull && valNull:
				n--
				continue
			case valNull:
				side, declared = &key, h&meta.MapKeyDeclared != 0
			}
			if side.tracked && !c.skipFlag() {
				n--
				continue
			}
			tracked := side.tracked
			side.tracked = false
			if side.hasMeta = !declared; side.hasMeta {
				side.mt = c.readTypeMeta()
			}
			c.skipSideValue(side, depth)
			side.tracked = tracked
			n--
			continue
		}
		size := int(r.ReadUint8())
		if (size == 0 || size > n) && r.Err() == nil {
			r.Fail(malformed("map chunk of %d entries with %d entries left", size, n))
			return
		}
		if key.hasMeta = h&meta.MapKeyDeclared == 0; key.hasMeta {
			key.mt = c.readTypeMeta()
		}
		if val.hasMeta = h&meta.MapValueDeclared == 0; val.hasMeta {
			val.mt = c.readTypeMeta()
		}
		for j := 0; j < size && r.Err() == nil; j++ {
			c.skipSideValue(&key, depth)
			c.skipSideValue(&val, depth)
		}
		n -= size
	}
}

// skipStruct skips a struct value with its type meta.
func (c *ReadContext) skipStruct(depth int) {
	id := c.r.ReadUint8()
	if c.r.Err() != nil {
		return
	}
	c.skipStructBody(c.readStructDefFor(id), depth+1)
}

// readStructDefFor reads the rest of a struct's type meta after its type id.
func (c *ReadContext) readStructDefFor(id byte) *remoteDef {
	if !c.compatible || (id != meta.TypeCompatibleStruct && id != meta.TypeNamedCompatibleStruct) {
		c.r.Fail(malformed("struct type id %d cannot be skipped in this mode", id))
		return nil
	}
	return c.readSharedTypeDef(nil)
}

// skipStructBody skips a compatible-mode struct body described by d.
func (c *ReadContext) skipStructBody(d *remoteDef, depth int) {
	if d == nil || c.r.Err() != nil {
		if c.r.Err() == nil {
			c.r.Fail(malformed("struct value without a TypeDef"))
		}
		return
	}
	if depth > c.maxDepth {
		c.r.Fail(limit("structs nested deeper than the maximum depth %d", c.maxDepth))
		return
	}
	for i := range d.def.Fields {
		fd := &d.def.Fields[i]
		if (fd.Nullable || fd.TrackRef || fd.Type.TypeID == meta.TypeUnknown) && !c.skipFlag() {
			continue
		}
		c.skipValue(&fd.Type, depth)
		if c.r.Err() != nil {
			return
		}
	}
}
