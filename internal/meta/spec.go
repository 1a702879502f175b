package meta

// This file is the one declaration in the tree of the numbers of the Fory
// xlang format that are not bytes of a particular message: the type ids, the
// null and reference flags, the message header, and the header bits of
// strings, lists and map chunks (docs/format.md). The planner, the emitter,
// the dump tool and the runtime all take them from here; serializer/foryimpl
// re-exports, as `const X = meta.X`, the few that generated code names, since
// code in users' modules cannot import an internal package. A test
// (TestNoStrayLiterals in gen/internal/emit) keeps the other packages from
// spelling them as literals again.

// Internal type ids (docs/format.md §4.1), as official Fory Go numbers them.
const (
	TypeUnknown               = 0 // an `any` value: its type meta comes with it
	TypeBool                  = 1
	TypeInt8                  = 2
	TypeInt16                 = 3
	TypeInt32                 = 4 // fixed 4 bytes
	TypeVarInt32              = 5 // zigzag varint
	TypeInt64                 = 6 // fixed 8 bytes
	TypeVarInt64              = 7 // zigzag varint
	TypeTaggedInt64           = 8
	TypeUint8                 = 9
	TypeUint16                = 10
	TypeUint32                = 11 // fixed
	TypeVarUint32             = 12
	TypeUint64                = 13 // fixed
	TypeVarUint64             = 14
	TypeTaggedUint64          = 15
	TypeFloat8                = 16
	TypeFloat16               = 17
	TypeBFloat16              = 18
	TypeFloat32               = 19
	TypeFloat64               = 20
	TypeString                = 21
	TypeList                  = 22
	TypeSet                   = 23
	TypeMap                   = 24
	TypeEnum                  = 25
	TypeNamedEnum             = 26
	TypeStruct                = 27
	TypeCompatibleStruct      = 28
	TypeNamedStruct           = 29
	TypeNamedCompatibleStruct = 30
	TypeExt                   = 31
	TypeNamedExt              = 32
	TypeUnion                 = 33
	TypeTypedUnion            = 34
	TypeNamedUnion            = 35
	TypeNone                  = 36
	TypeDuration              = 37
	TypeTimestamp             = 38
	TypeDate                  = 39
	TypeDecimal               = 40
	TypeBinary                = 41
	TypeArray                 = 42 // reserved
	TypeBoolArray             = 43
	TypeInt8Array             = 44
	TypeInt16Array            = 45
	TypeInt32Array            = 46
	TypeInt64Array            = 47
	TypeUint8Array            = 48
	TypeUint16Array           = 49
	TypeUint32Array           = 50
	TypeUint64Array           = 51
	TypeFloat8Array           = 52 // unused by official Go; the specification's float8 array
	TypeFloat16Array          = 53
	TypeBFloat16Array         = 54
	TypeFloat32Array          = 55
	TypeFloat64Array          = 56

	// MaxTypeID is the largest type id a Fory version defines.
	MaxTypeID = TypeFloat64Array
)

// Null and reference flags (docs/format.md §2): the byte before a value that
// may be absent or, with reference tracking, shared.
const (
	FlagNull     byte = 0xfd // null: nothing follows
	FlagRef      byte = 0xfe // a reference to an object already read: varu32 ref id follows
	FlagNotNull  byte = 0xff // present, not tracked: the value follows
	FlagRefValue byte = 0x00 // present, the first occurrence of a tracked object
)

// HeaderXlang is the message header byte (docs/format.md §1): the xlang bit
// set, no out-of-band buffers, reserved bits zero.
const HeaderXlang byte = 0x01

// String header encodings (docs/format.md §7): a string's header is
// varu64(byte length << StringLenShift | encoding).
const (
	StringLatin1   = 0
	StringUTF16LE  = 1
	StringUTF8     = 2
	StringLenShift = 2
	StringEncMask  = 1<<StringLenShift - 1
)

// Elements header bits of a LIST or SET (docs/format.md §8.1).
const (
	ListTrackRef byte = 0x01 // every element starts with a reference flag
	ListHasNull  byte = 0x02 // every element starts with a null flag
	ListDeclared byte = 0x04 // the element type is the declared one: no type meta
	ListSameType byte = 0x08 // all elements share one type
	ListBits     byte = 0x0f // the bits a header may have

	// ListDeclaredSameType is the header of a list of declared scalars,
	// strings, enums and containers as official Go writes it: 0x0c.
	ListDeclaredSameType = ListDeclared | ListSameType
)

// Map chunk header bits (docs/format.md §8.4).
const (
	MapKeyTrackRef   byte = 0x01
	MapKeyHasNull    byte = 0x02
	MapKeyDeclared   byte = 0x04
	MapValueTrackRef byte = 0x08
	MapValueHasNull  byte = 0x10
	MapValueDeclared byte = 0x20
	MapChunkBits     byte = 0x3f // the bits a header may have

	// MapChunkMax is the largest number of entries in one chunk.
	MapChunkMax = 255
)

// IsStructKind reports whether a type id is one of the four struct kinds.
func IsStructKind(id uint8) bool { return id >= TypeStruct && id <= TypeNamedCompatibleStruct }

// ChildCount is the number of child types of a type id in a TypeDef: 1 for
// LIST and SET (the element), 2 for MAP (key and value), 0 otherwise.
func ChildCount(id uint8) int {
	switch id {
	case TypeList, TypeSet:
		return 1
	case TypeMap:
		return 2
	}
	return 0
}

// FixedWidth is the byte width of a fixed-width scalar type id (bool, the
// fixed integers, the floats), or 0 for any other id.
func FixedWidth(id uint8) int {
	switch id {
	case TypeBool, TypeInt8, TypeUint8, TypeFloat8:
		return 1
	case TypeInt16, TypeUint16, TypeFloat16, TypeBFloat16:
		return 2
	case TypeInt32, TypeUint32, TypeFloat32:
		return 4
	case TypeInt64, TypeUint64, TypeFloat64:
		return 8
	}
	return 0
}

// denseArrayElems maps a dense array id (§8.2) to its element's type id.
var denseArrayElems = [...]uint8{
	TypeBoolArray: TypeBool, TypeInt8Array: TypeInt8, TypeInt16Array: TypeInt16, TypeInt32Array: TypeInt32,
	TypeInt64Array: TypeInt64, TypeUint8Array: TypeUint8, TypeUint16Array: TypeUint16, TypeUint32Array: TypeUint32,
	TypeUint64Array: TypeUint64, TypeFloat8Array: TypeFloat8, TypeFloat16Array: TypeFloat16,
	TypeBFloat16Array: TypeBFloat16, TypeFloat32Array: TypeFloat32, TypeFloat64Array: TypeFloat64,
}

// DenseArrayElem is the element type id of a dense array id (43..56, §8.2),
// or 0 for any other id.
func DenseArrayElem(id uint8) uint8 {
	if int(id) < len(denseArrayElems) {
		return denseArrayElems[id]
	}
	return 0
}

// DenseArrayOf is the dense array id whose elements have type id elem (a
// fixed-width scalar), or 0 when there is none.
func DenseArrayOf(elem uint8) uint8 {
	for a, e := range denseArrayElems {
		if e == elem && e != 0 {
			return uint8(a)
		}
	}
	return 0
}

// typeNames are the specification's names of the type ids (§4.1).
var typeNames = [...]string{
	"UNKNOWN", "BOOL", "INT8", "INT16", "INT32", "VARINT32", "INT64", "VARINT64", "TAGGED_INT64",
	"UINT8", "UINT16", "UINT32", "VAR_UINT32", "UINT64", "VAR_UINT64", "TAGGED_UINT64",
	"FLOAT8", "FLOAT16", "BFLOAT16", "FLOAT32", "FLOAT64", "STRING", "LIST", "SET", "MAP",
	"ENUM", "NAMED_ENUM", "STRUCT", "COMPATIBLE_STRUCT", "NAMED_STRUCT", "NAMED_COMPATIBLE_STRUCT",
	"EXT", "NAMED_EXT", "UNION", "TYPED_UNION", "NAMED_UNION", "NONE", "DURATION", "TIMESTAMP",
	"DATE", "DECIMAL", "BINARY", "ARRAY", "BOOL_ARRAY", "INT8_ARRAY", "INT16_ARRAY", "INT32_ARRAY",
	"INT64_ARRAY", "UINT8_ARRAY", "UINT16_ARRAY", "UINT32_ARRAY", "UINT64_ARRAY", "FLOAT8_ARRAY",
	"FLOAT16_ARRAY", "BFLOAT16_ARRAY", "FLOAT32_ARRAY", "FLOAT64_ARRAY",
}

// TypeIDName is the specification's upper-case name of a type id (§4.1), or
// "" for an id no Fory version defines.
func TypeIDName(id uint8) string {
	if int(id) < len(typeNames) {
		return typeNames[id]
	}
	return ""
}
