package dump

import (
	"strconv"
	"strings"

	"github.com/forygen/forygen/internal/meta"
)

// TypeName is the specification's name of a type id, or "TYPE_<id>" for an
// id no Fory version defines.
func TypeName(id uint8) string {
	if n := meta.TypeIDName(id); n != "" {
		return n
	}
	return "TYPE_" + strconv.Itoa(int(id))
}

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
