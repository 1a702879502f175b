package meta

import (
	"encoding/binary"
	"fmt"
	"math"
)

// TypeDef header layout (§11.1).
const (
	headerSizeMask     = 0xff     // bits 0-7: min(body_len, 255)
	headerCompressFlag = 1 << 8   // bit 8: always 0
	headerReserved     = 0x7 << 9 // bits 9-11: 0
	headerLowMask      = 0xfff    // everything below the hash
	headerHashMask     = math.MaxUint64 &^ headerLowMask
	headerLen          = 8
)

// Body layout (§11.2).
const (
	metaStructFlag     = 0x80
	metaCompatibleFlag = 0x40
	metaByNameFlag     = 0x20
	metaSmallFields    = 31 // field count escape in the low 5 bits
	metaKindCodeMask   = 0x0f
	metaNonStructZero  = 0x70 // bits 4-6 of a non-struct header must be 0

	fieldEncTagID     = 3
	fieldSizeEscape   = 15 // 4-bit size value that announces a varu32
	fieldNullableFlag = 0x02
	fieldTrackRefFlag = 0x01
)

// MaxTypeNesting bounds how deeply field types nest: a field's own type is
// level 0, a list element or map key/value level 1, and so on. Go's writer
// has no such limit, but no real schema comes close (list<map<string,
// list<int32>>> is level 2) and the parser must bound its recursion on
// hostile input.
const MaxTypeNesting = 16

// FieldType is a field's schema type inside a TypeDef (§11.2). Type ids are
// the 8-bit internal ids of §4.1.
type FieldType struct {
	TypeID   uint8
	Nullable bool        // child types only (list element, map key/value); a field's own nullability is FieldDef.Nullable
	TrackRef bool        // child types only, like Nullable
	Children []FieldType // LIST/SET: 1 (element), MAP: 2 (key, value), others: none
}

// FieldDef is one field entry of a struct TypeDef.
type FieldDef struct {
	Name     string // snake_case identifier (§6.2) when TagID < 0; empty when tagged
	TagID    int    // >= 0 when the field has an id= tag (TAG_ID entry), else -1
	Nullable bool   // the field is written with a null flag (§2)
	TrackRef bool
	Type     FieldType
}

// TypeDef is the compatible-mode description of a user type (§11).
//
// Kind, ByName and Compatible are redundant on purpose: Kind is what the
// rest of the code switches on, the two flags are the header bits. They must
// agree (Validate checks it): 27 STRUCT, 28 COMPATIBLE_STRUCT (Compatible),
// 29 NAMED_STRUCT (ByName), 30 NAMED_COMPATIBLE_STRUCT (both); for the
// non-struct kinds of §11.2, ByName is set exactly for 26/32/35 and
// Compatible is false.
type TypeDef struct {
	Kind       uint8
	ByName     bool
	UserID     uint32     // when !ByName
	Namespace  string     // when ByName
	TypeName   string     // when ByName
	Fields     []FieldDef // in Fory field order (§9.3); structs only
	Compatible bool       // the 0x40 bit of a struct TypeDef

	// Filled by ParseTypeDef (EncodeTypeDef ignores them):
	Header  uint64 // the 8-byte header: hash bits | size/flags
	Encoded []byte // header + size varint + body exactly as on the wire; aliases ParseTypeDef's input
}

// nonStructKindCode maps a non-struct kind to the 4-bit code of §11.2.
func nonStructKindCode(kind uint8) (code byte, named, ok bool) {
	switch kind {
	case TypeEnum:
		return 0, false, true
	case TypeNamedEnum:
		return 1, true, true
	case TypeExt:
		return 2, false, true
	case TypeNamedExt:
		return 3, true, true
	case TypeTypedUnion:
		return 4, false, true
	case TypeNamedUnion:
		return 5, true, true
	}
	return 0, false, false
}

var kindOfNonStructCode = [...]uint8{TypeEnum, TypeNamedEnum, TypeExt, TypeNamedExt, TypeTypedUnion, TypeNamedUnion}

func structKind(byName, compatible bool) uint8 {
	switch {
	case byName && compatible:
		return TypeNamedCompatibleStruct
	case byName:
		return TypeNamedStruct
	case compatible:
		return TypeCompatibleStruct
	}
	return TypeStruct
}

// Validate reports whether td can be encoded: a known kind that agrees with
// ByName and Compatible, no fields on a non-struct kind, every untagged field
// named, tag ids that fit the varint escape, and field types with exactly the
// children their kind needs (LIST/SET 1, MAP 2, others 0), nested at most
// MaxTypeNesting levels deep. EncodeTypeDef panics on a TypeDef that fails
// Validate; the planner can call Validate first to report a proper error.
func (td *TypeDef) Validate() error {
	if IsStructKind(td.Kind) {
		if want := structKind(td.ByName, td.Compatible); want != td.Kind {
			return fmt.Errorf("meta: TypeDef kind %d disagrees with ByName=%v Compatible=%v (that is kind %d)",
				td.Kind, td.ByName, td.Compatible, want)
		}
	} else {
		_, named, ok := nonStructKindCode(td.Kind)
		switch {
		case !ok:
			return fmt.Errorf("meta: TypeDef kind %d is not a struct, enum, ext or typed union kind", td.Kind)
		case named != td.ByName:
			return fmt.Errorf("meta: TypeDef kind %d disagrees with ByName=%v", td.Kind, td.ByName)
		case td.Compatible:
			return fmt.Errorf("meta: non-struct TypeDef kind %d cannot be Compatible", td.Kind)
		case len(td.Fields) != 0:
			return fmt.Errorf("meta: non-struct TypeDef kind %d cannot have fields", td.Kind)
		}
	}
	for i := range td.Fields {
		f := &td.Fields[i]
		if f.TagID < 0 && f.Name == "" {
			return fmt.Errorf("meta: TypeDef field %d has neither a name nor a tag id", i)
		}
		if uint64(max(f.TagID, 0)) > fieldSizeEscape+math.MaxUint32 {
			return fmt.Errorf("meta: TypeDef field %d: tag id %d too large", i, f.TagID)
		}
		if err := validateFieldType(&f.Type, 0); err != nil {
			return fmt.Errorf("meta: TypeDef field %d (%s): %w", i, fieldLabel(f), err)
		}
	}
	return nil
}

func fieldLabel(f *FieldDef) string {
	if f.TagID >= 0 {
		return fmt.Sprintf("id=%d", f.TagID)
	}
	return f.Name
}

func validateFieldType(ft *FieldType, depth int) error {
	if depth > MaxTypeNesting {
		return fmt.Errorf("field type nests deeper than %d levels", MaxTypeNesting)
	}
	if want := ChildCount(ft.TypeID); len(ft.Children) != want {
		return fmt.Errorf("type id %d needs %d child types, has %d", ft.TypeID, want, len(ft.Children))
	}
	for i := range ft.Children {
		if err := validateFieldType(&ft.Children[i], depth+1); err != nil {
			return err
		}
	}
	return nil
}

// EncodeTypeDef returns the TypeDef bytes official Fory Go writes for td
// (§11.1, §11.2): the 8-byte header (52-bit hash, compression 0, body size),
// varu32(body_len − 255) when the body is 255 bytes or longer, then the body.
// Field entries are written in td.Fields order with the specification's
// name-length rule, which Java, Python and JavaScript follow: size L − 1
// for a name of L <= 15 encoded bytes, size 15 and varu32(L − 16) above.
// Official Go writes varu32(L − 15) from L = 15 on; ParseTypeDef reads both
// (§14 item 1). Header and Encoded of td are ignored.
//
// It panics when td.Validate fails: TypeDefs are built by the planner from a
// checked model, so an invalid one is a bug to surface at generation time.
func EncodeTypeDef(td *TypeDef) []byte { return encodeTypeDef(td, false) }

// encodeTypeDef is EncodeTypeDef with official Go's long-name form when
// goNames is set: what official Go's golden files hold, for the tests.
func encodeTypeDef(td *TypeDef, goNames bool) []byte {
	if err := td.Validate(); err != nil {
		panic("meta: EncodeTypeDef: " + err.Error())
	}
	body := appendTypeDefBody(make([]byte, 0, 64), td, goNames)
	out := make([]byte, headerLen, headerLen+5+len(body))
	binary.LittleEndian.PutUint64(out, typeDefHeader(body))
	if len(body) >= headerSizeMask {
		out = appendVarU32(out, uint32(len(body)-headerSizeMask))
	}
	return append(out, body...)
}

// WithRefBits returns a copy of the encoded TypeDef td with bit 0 set in
// the bytes at the offsets at (from the TypeDef's start, each in its body)
// and its header recomputed. Bit 0 of a field's header byte and of a
// nested element type's first byte is its reference-tracking flag (§11.2),
// so this gives the TypeDef a tracking writer sends for the same struct
// from the one an untracking writer sends: generated code declares the
// TypeDef once and the offsets where tracking sets the flag, and the
// planner checks that the two agree (plan.Struct.RefBits; issue 28, "emit
// each TypeDef once"). It panics when td is not a TypeDef this package
// encodes or an offset is outside its body, which only a hand-edited
// generated file can produce.
func WithRefBits(td []byte, at []uint16) []byte {
	start := TypeDefBodyStart(td)
	out := append([]byte(nil), td...)
	for _, i := range at {
		if int(i) < start || int(i) >= len(out) {
			panic(fmt.Sprintf("meta: WithRefBits: offset %d outside the body [%d, %d)", i, start, len(out)))
		}
		out[i] |= 1
	}
	binary.LittleEndian.PutUint64(out, typeDefHeader(out[start:]))
	return out
}

// TypeDefBodyStart is the offset of the body of an encoded uncompressed TypeDef:
// after the header and, for a body of 255 bytes or more, the varint of its
// size beyond 255. It panics when td is too short to hold them or its
// size disagrees with its length.
func TypeDefBodyStart(td []byte) int {
	if len(td) < headerLen {
		panic(fmt.Sprintf("meta: a TypeDef of %d bytes has no header", len(td)))
	}
	start, size := headerLen, int(binary.LittleEndian.Uint64(td)&headerSizeMask)
	if size == headerSizeMask {
		extra, n := readVarU32(td[headerLen:])
		if n <= 0 {
			panic("meta: a TypeDef's body size is truncated")
		}
		start += n
		size += int(extra)
	}
	if len(td)-start != size {
		panic(fmt.Sprintf("meta: a TypeDef's body is %d bytes, its header says %d", len(td)-start, size))
	}
	return start
}

// typeDefHeader computes the §11.1 header of an uncompressed body:
//
//	low12  = min(len, 255)
//	h1     = murmur3(body ‖ low12 as 2 LE bytes, 47).h1
//	h      = |int64(h1 << 12)|   (wrapping: MinInt64 stays negative)
//	header = uint64(h) &^ 0xfff | low12
func typeDefHeader(body []byte) uint64 {
	low := uint64(min(len(body), headerSizeMask))
	return typeDefHash(body, low) | low
}

func typeDefHash(body []byte, low12 uint64) uint64 {
	h1, _ := murmur3WithSuffix2(body, byte(low12), byte(low12>>8))
	h := int64(h1 << 12)
	if h < 0 {
		h = -h
	}
	return uint64(h) & headerHashMask
}

func appendTypeDefBody(dst []byte, td *TypeDef, goNames bool) []byte {
	if IsStructKind(td.Kind) {
		n := len(td.Fields)
		hdr := byte(metaStructFlag | min(n, metaSmallFields))
		if td.Compatible {
			hdr |= metaCompatibleFlag
		}
		if td.ByName {
			hdr |= metaByNameFlag
		}
		dst = append(dst, hdr)
		if n >= metaSmallFields {
			dst = appendVarU32(dst, uint32(n-metaSmallFields))
		}
	} else {
		code, _, _ := nonStructKindCode(td.Kind)
		dst = append(dst, code)
	}
	if td.ByName {
		dst = AppendTypeDefName(dst, EncodeMetaString(td.Namespace, Namespace), Namespace)
		dst = AppendTypeDefName(dst, EncodeMetaString(td.TypeName, TypeName), TypeName)
	} else {
		dst = appendVarU32(dst, td.UserID)
	}
	for i := range td.Fields {
		dst = appendFieldDef(dst, &td.Fields[i], goNames)
	}
	return dst
}

// appendFieldDef writes one field entry (§11.2):
//
//	u8 (enc << 6) | (size << 2) | (nullable << 1) | track_ref
//	[varu32 extra]   when size == 15
//	field type
//	[name bytes]     when enc != TAG_ID
func appendFieldDef(dst []byte, f *FieldDef, goNames bool) []byte {
	hdr := byte(0)
	if f.Nullable {
		hdr |= fieldNullableFlag
	}
	if f.TrackRef {
		hdr |= fieldTrackRefFlag
	}
	if f.TagID >= 0 {
		hdr |= fieldEncTagID << 6
		if f.TagID < fieldSizeEscape {
			dst = append(dst, hdr|byte(f.TagID)<<2)
		} else {
			dst = append(dst, hdr|fieldSizeEscape<<2)
			dst = appendVarU32(dst, uint32(f.TagID-fieldSizeEscape))
		}
		return appendFieldType(dst, &f.Type, true)
	}

	ms := EncodeMetaString(f.Name, FieldName)
	flag, _ := typeDefNameFlag(ms.Encoding, FieldName) // FieldName never yields FTLS/LS
	hdr |= flag << 6
	// The specification's rule (§14 item 1): size = L − 1 up to 14, then
	// size 15 and extra = L − 16. Official Go writes L − 15 from L = 15 on,
	// which Java, Python and JavaScript misread, so we follow the spec.
	size := len(ms.Bytes) - 1
	if goNames && size+1 >= fieldSizeEscape {
		size++ // Go: L − 15 from L = 15 on
	}
	if size < fieldSizeEscape {
		dst = append(dst, hdr|byte(size)<<2)
	} else {
		dst = append(dst, hdr|fieldSizeEscape<<2)
		dst = appendVarU32(dst, uint32(size-fieldSizeEscape))
	}
	dst = appendFieldType(dst, &f.Type, true)
	return append(dst, ms.Bytes...)
}

// appendFieldType writes a field type: the top level as one byte (§4.1 ids
// are all < 128, and Go writes a byte), children as
// varu32((id << 2) | (nullable << 1) | track_ref).
func appendFieldType(dst []byte, ft *FieldType, top bool) []byte {
	if top {
		dst = append(dst, ft.TypeID)
	} else {
		v := uint32(ft.TypeID) << 2
		if ft.Nullable {
			v |= fieldNullableFlag
		}
		if ft.TrackRef {
			v |= fieldTrackRefFlag
		}
		dst = appendVarU32(dst, v)
	}
	for i := range ft.Children {
		dst = appendFieldType(dst, &ft.Children[i], false)
	}
	return dst
}
