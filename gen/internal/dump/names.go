package dump

import (
	"strconv"
	"strings"

	"github.com/forygen/forygen/internal/meta"
)

// Internal type ids (docs/format.md §4.1) the decoder switches on.
const (
	tUnknown        = 0
	tBool           = 1
	tFloat8         = 16
	tString         = 21
	tList           = 22
	tSet            = 23
	tMap            = 24
	tEnum           = 25
	tNamedEnum      = 26
	tStruct         = 27
	tCompatStruct   = 28
	tNamedStruct    = 29
	tNamedCompat    = 30
	tExt            = 31
	tNamedExt       = 32
	tUnion          = 33
	tTypedUnion     = 34
	tNamedUnion     = 35
	tNone           = 36
	tDuration       = 37
	tTimestamp      = 38
	tDate           = 39
	tDecimal        = 40
	tBinary         = 41
	tArray          = 42
	tFloat8Array    = 52
	maxKnownTypeID  = 56
	firstDenseArray = 43
)

// typeNames are the specification's upper-case names of the type ids
// (docs/format.md §4.1). plan.TypeName spells the generator's subset in
// lower case for fory.lock; a dump names every id a peer may send.
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

// TypeName is the specification's name of a type id, or "TYPE_<id>" for an
// id no Fory version defines.
func TypeName(id uint8) string {
	if int(id) < len(typeNames) {
		return typeNames[id]
	}
	return "TYPE_" + strconv.Itoa(int(id))
}

// fixedWidth is the byte width of a fixed-width scalar, or 0.
func fixedWidth(id uint8) int {
	switch id {
	case 1, 2, 9, tFloat8:
		return 1
	case 3, 10, 17, 18:
		return 2
	case 4, 11, 19:
		return 4
	case 6, 13, 20:
		return 8
	}
	return 0
}

// arrayElem is the element type id of a dense array id (43..56), or 0.
func arrayElem(id uint8) uint8 {
	switch id {
	case 43:
		return 1
	case 44:
		return 2
	case 45:
		return 3
	case 46:
		return 4
	case 47:
		return 6
	case 48:
		return 9
	case 49:
		return 10
	case 50:
		return 11
	case 51:
		return 13
	case 53:
		return 17
	case 54:
		return 18
	case 55:
		return 19
	case 56:
		return 20
	}
	return 0
}

func isStruct(id uint8) bool { return id >= tStruct && id <= tNamedCompat }

// fieldTypeString spells a TypeDef field type: the name, children in angle
// brackets, `?` before a nullable child and `&` before a tracked one:
// LIST<?STRING>, MAP<?STRING,?VARINT32>.
func fieldTypeString(ft *meta.FieldType) string {
	var sb strings.Builder
	writeFieldType(&sb, ft, false)
	return sb.String()
}

func writeFieldType(sb *strings.Builder, ft *meta.FieldType, child bool) {
	if child && ft.Nullable {
		sb.WriteByte('?')
	}
	if child && ft.TrackRef {
		sb.WriteByte('&')
	}
	sb.WriteString(TypeName(ft.TypeID))
	if len(ft.Children) > 0 {
		sb.WriteByte('<')
		for i := range ft.Children {
			if i > 0 {
				sb.WriteByte(',')
			}
			writeFieldType(sb, &ft.Children[i], true)
		}
		sb.WriteByte('>')
	}
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

func fmtInt(v int64) string { return strconv.FormatInt(v, 10) }
