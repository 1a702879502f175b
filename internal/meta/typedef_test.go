package meta

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Type ids used by the vectors (docs/format.md §4.1).
const (
	tBool      = 1
	tVarint32  = 5
	tVarint64  = 7
	tString    = 21
	tDuration  = 37
	tTimestamp = 38
	tDate      = 39
)

func tagged(id int, ft FieldType) FieldDef { return FieldDef{TagID: id, Type: ft} }
func named(name string, ft FieldType) FieldDef {
	return FieldDef{Name: name, TagID: -1, Type: ft}
}
func nullable(f FieldDef) FieldDef { f.Nullable = true; return f }
func scalar(id uint8) FieldType    { return FieldType{TypeID: id} }

// child is a list element / map key or value as Go writes it: nullable = 1
// unless a type= hint says otherwise (§11.2).
func child(id uint8, children ...FieldType) FieldType {
	return FieldType{TypeID: id, Nullable: true, Children: children}
}
func list(elem FieldType) FieldType  { return FieldType{TypeID: TypeList, Children: []FieldType{elem}} }
func mapOf(k, v FieldType) FieldType { return FieldType{TypeID: TypeMap, Children: []FieldType{k, v}} }
func byID(kind uint8, id uint32, fields ...FieldDef) *TypeDef {
	return &TypeDef{Kind: kind, UserID: id, Compatible: kind == TypeCompatibleStruct, Fields: fields}
}
func byName(kind uint8, ns, name string, fields ...FieldDef) *TypeDef {
	return &TypeDef{Kind: kind, ByName: true, Namespace: ns, TypeName: name,
		Compatible: kind == TypeNamedCompatibleStruct, Fields: fields}
}

func numericFields() []FieldDef {
	fs := make([]FieldDef, 12)
	for i := range fs {
		fs[i] = tagged(i+1, scalar(tVarint32))
	}
	return fs
}

func wideTypeDef() *TypeDef {
	var fs []FieldDef
	for i := 1; i <= 32; i++ {
		fs = append(fs, named(SnakeCase(fmt.Sprintf("FieldNumber%02d", i)), scalar(tVarint32)))
	}
	fs = append(fs, tagged(40, scalar(tString)),
		named(SnakeCase("AnotherQuiteLongFieldNameWithoutAnyTag"), scalar(tString)))
	return byID(TypeCompatibleStruct, 118, fs...)
}

// typeDefVectors are TypeDefs built by hand and the bytes official Go wrote
// for them (docs/format.md §11.2, §13, and the compatible fixtures; the comments
// name the source).
type typeDefVector struct {
	name string
	td   *TypeDef
	hex  string
}

var typeDefVectors = []typeDefVector{
	{"NumericStruct by id (§13.2)", byID(TypeCompatibleStruct, 1, numericFields()...),
		"1a 50 ae 72 ee 1e 8c 4b cc 01 c4 05 c8 05 cc 05 d0 05 d4 05 d8 05 dc 05 e0 05 e4 05 e8 05 ec 05 f0 05"},
	{"bench.NumericStruct (§13.2)", byName(TypeNamedCompatibleStruct, "bench", "NumericStruct", numericFields()...),
		"29 e0 48 b3 75 02 2a 26 ec 11 84 8d 11 c0 29 75 b4 61 22 81 76 53 8d 05 30 " +
			"c4 05 c8 05 cc 05 d0 05 d4 05 d8 05 dc 05 e0 05 e4 05 e8 05 ec 05 f0 05"},
	{"NumericStruct, empty namespace", byName(TypeNamedCompatibleStruct, "", "NumericStruct", numericFields()...),
		"25 f0 1c 45 03 07 06 7c ec 00 29 75 b4 61 22 81 76 53 8d 05 30 " +
			"c4 05 c8 05 cc 05 d0 05 d4 05 d8 05 dc 05 e0 05 e4 05 e8 05 ec 05 f0 05"},
	{"NumericStruct, long namespace", byName(TypeNamedCompatibleStruct, "org.apache.fory.benchmarks.xlang", "NumericStruct", numericFields()...),
		"3a 10 75 5b 9e 05 40 3e ec 55 ba 26 d0 1e 01 1c 9a 2b a3 8d 04 8d 11 d8 08 aa 5a ba c0 d3 00 " +
			"29 75 b4 61 22 81 76 53 8d 05 30 c4 05 c8 05 cc 05 d0 05 d4 05 d8 05 dc 05 e0 05 e4 05 e8 05 ec 05 f0 05"},
	{"Media (§11.2, §13.4)", byID(TypeCompatibleStruct, 3,
		tagged(9, scalar(tBool)), tagged(6, scalar(tVarint64)), tagged(7, scalar(tVarint64)),
		tagged(3, scalar(tVarint32)), tagged(4, scalar(tVarint32)), tagged(8, scalar(tVarint32)),
		tagged(1, scalar(tString)), tagged(2, scalar(tString)), tagged(5, scalar(tString)),
		tagged(10, list(child(tString))), tagged(11, scalar(TypeEnum)), tagged(12, scalar(tString))),
		"1b f0 c4 1b de 82 f4 00 cc 03 e4 01 d8 07 dc 07 cc 05 d0 05 e0 05 c4 15 c8 15 d4 15 e8 16 56 ec 19 f0 15"},
	{"Image (§13.4)", byID(TypeCompatibleStruct, 4,
		tagged(3, scalar(tVarint32)), tagged(4, scalar(tVarint32)),
		tagged(1, scalar(tString)), tagged(2, scalar(tString)), tagged(5, scalar(TypeEnum))),
		"0c 50 ea 54 0a 3b 1d 32 c5 04 cc 05 d0 05 c4 15 c8 15 d4 19"},
	{"MediaContent (§13.4)", byID(TypeCompatibleStruct, 5,
		tagged(1, scalar(TypeCompatibleStruct)), tagged(2, list(child(TypeCompatibleStruct)))),
		"07 90 f6 d4 f6 36 ac 03 c2 05 c4 1c c8 16 72"},
	{"Outer (§11.2 nested_ptr_set)", byID(TypeCompatibleStruct, 105,
		named("x", scalar(tVarint32)), nullable(named("inner", scalar(TypeCompatibleStruct)))),
		"0b b0 8d a8 9e 52 47 6a c2 69 40 05 5c 4e 1c a1 ad 24 40"},
	{"Inner (nested_ptr_set)", byID(TypeCompatibleStruct, 106,
		named("v", scalar(tVarint32)), named("s", scalar(tString))),
		"08 c0 a0 1d 42 bf 7f 37 c2 6a 40 05 54 40 15 48"},
	{"edge.Color NAMED_ENUM (§11.2)", &TypeDef{Kind: TypeNamedEnum, ByName: true, Namespace: "edge", TypeName: "Color"},
		"0a c0 50 d0 09 65 07 27 01 0d 10 66 20 13 89 cb 74 40"},
	{"Maps (maps_*)", byID(TypeCompatibleStruct, 104,
		named("i32_to_str", mapOf(child(tVarint32), child(tString))),
		named("str_to_i32", mapOf(child(tString), child(tVarint32)))),
		"1a 50 ea 85 70 b2 26 2d c2 68 9c 18 16 56 11 be df a6 77 e9 26 88 9c 18 56 16 24 9a 3f a6 77 e4 6f b0"},
	{"NullableContainers", byID(TypeCompatibleStruct, 103,
		nullable(named("ints", list(child(tVarint32)))),
		nullable(named("map", mapOf(child(tString), child(tVarint32)))),
		nullable(named("strs", list(child(tString))))),
		"14 e0 2d ab 99 c5 2d 6c c3 67 4a 16 16 21 b3 90 46 18 56 16 30 0f 4a 16 56 4a 71 90"},
	{"StructLists", byID(TypeCompatibleStruct, 116,
		named("pointers", list(child(TypeCompatibleStruct))),
		named("values", list(child(TypeCompatibleStruct)))),
		"12 30 54 76 f4 cd cf 24 c2 74 54 16 72 bd c8 6c c9 19 00 4c 16 72 54 0b a1 24"},
	{"edge.Level2 (deep_nested_name)", byName(TypeNamedCompatibleStruct, "edge", "Level2",
		named("deep", scalar(TypeNamedCompatibleStruct)), nullable(named("deep_p", scalar(TypeNamedCompatibleStruct))),
		named("name", scalar(tString))),
		"1b 00 dd fc b4 bb 2f 0c e3 0d 10 66 20 16 4a 22 a2 17 b0 48 1e 0c 84 78 4e 1e 0c 84 7e de 48 15 34 0c 20"},
	{"Times", byID(TypeCompatibleStruct, 112,
		named("d", scalar(tDuration)), named("dt", scalar(tDate)), named("t", scalar(tTimestamp))),
		"0c 70 e6 8c 4c 55 b4 73 c3 70 40 25 0c 44 27 8e 60 40 26 4c"},
	{"NameRules (snake_case)", byID(TypeCompatibleStruct, 117,
		named(SnakeCase("UserID"), scalar(tVarint64)), named(SnakeCase("HTTPCode"), scalar(tVarint32)),
		named(SnakeCase("X2Y"), scalar(tVarint32)), named(SnakeCase("URI"), scalar(tString))),
		"20 20 7a 32 c6 5b 83 59 c4 75 54 07 d2 44 8e d1 b1 80 5c 05 1f 73 dc f6 fd 89 c3 20 8c 05 af b7 ec 00 4c 15 d3 71 da 00"},
	{"Wide: 454-byte body, 34 fields, 29-byte name (§11.1, §14.1)", wideTypeDef(),
		"ff 20 2a c3 36 c2 a5 17 c7 01 df 03 76 " + wideFieldsHex},
}

// The field entries of fixture wide: 32 × (a8 05 + 11-byte LUDS name), then
// id=40 STRING (fc 19 15) and the 29-byte ATLS name with Go's escape (7c 0e).
var wideFieldsHex = func() string {
	var sb strings.Builder
	names := []string{"e9 a8", "e9 b0", "e9 b8", "e9 c0", "e9 c8", "e9 d0", "e9 d8", "e9 e0", "e9 e8", "eb a0",
		"eb a8", "eb b0", "eb b8", "eb c0", "eb c8", "eb d0", "eb d8", "eb e0", "eb e8", "ed a0",
		"ed a8", "ed b0", "ed b8", "ed c0", "ed c8", "ed d0", "ed d8", "ed e0", "ed e8", "ef a0",
		"ef a8", "ef b0"}
	for _, tail := range names {
		sb.WriteString("a8 05 0a 40 85 87 f9 aa 18 08 88 " + tail + " ")
	}
	sb.WriteString("fc 19 15 7c 0e 15 81 ae 99 c9 1d c2 88 99 36 b7 34 db 2a 08 b1 ed a0 61 37 64 4c ee a4 f6 06 e3 73 01 80")
	return sb.String()
}()

// wire returns td without the fields ParseTypeDef fills from the input.
func wire(td *TypeDef) TypeDef {
	c := *td
	c.Header, c.Encoded = 0, nil
	return c
}

// The vectors are official Go's bytes: encodeTypeDef in Go's form gives
// them all, and EncodeTypeDef too wherever no field name has 15 or more
// encoded bytes.
func TestEncodeTypeDefVectors(t *testing.T) {
	for _, v := range typeDefVectors {
		want := h(v.hex)
		assert.Equal(t, spaced(want), spaced(encodeTypeDef(v.td, true)), v.name)
		if !hasLongName(v.td) {
			assert.Equal(t, spaced(want), spaced(EncodeTypeDef(v.td)), v.name)
		}
	}
}

func hasLongName(td *TypeDef) bool {
	for _, f := range td.Fields {
		if f.TagID < 0 && len(EncodeMetaString(f.Name, FieldName).Bytes) >= fieldSizeEscape {
			return true
		}
	}
	return false
}

// The spec's form of the Wide vector (§14.1): the one field name of 29
// encoded bytes, f7a8... after `fc`, has extra 29 − 16 = 13 (0d) where
// official Go writes 29 − 15 = 14 (0e); the body keeps its size, the header
// hash follows the body. Both forms parse to the same TypeDef.
func TestLongFieldNameSpecForm(t *testing.T) {
	var wide typeDefVector
	for _, v := range typeDefVectors {
		if strings.HasPrefix(v.name, "Wide") {
			wide = v
		}
	}
	goForm := h(wide.hex)
	spec := EncodeTypeDef(wide.td)
	require.Equal(t, len(goForm), len(spec))
	i := bytes.Index(goForm, []byte{0xfc, 0x19, 0x15, 0x7c, 0x0e})
	require.Positive(t, i, "the long name's field header in the Go vector")
	want := append([]byte(nil), goForm...)
	want[i+4] = 0x0d
	body := want[10:] // 8-byte header, then varu32(454 − 255) = c7 01
	binary.LittleEndian.PutUint64(want, typeDefHeader(body))
	assert.Equal(t, spaced(want), spaced(spec))
	for _, b := range [][]byte{goForm, spec} {
		td, n, err := ParseTypeDef(b, DefaultLimits)
		require.NoError(t, err)
		assert.Equal(t, len(b), n)
		assert.Equal(t, wire(wide.td), wire(td))
	}
}

func TestParseTypeDefVectors(t *testing.T) {
	for _, v := range typeDefVectors {
		b := h(v.hex)
		in := append(append([]byte{}, b...), 0x0e, 0xff) // data that follows the TypeDef
		td, n, err := ParseTypeDef(in, DefaultLimits)
		require.NoError(t, err, v.name)
		assert.Equal(t, len(b), n, v.name)
		assert.Equal(t, wire(v.td), wire(td), v.name)
		assert.Equal(t, binary.LittleEndian.Uint64(b), td.Header, v.name)
		assert.Equal(t, b, td.Encoded, v.name)
		assert.Equal(t, len(b), cap(td.Encoded), "%s: Encoded must not expose the following bytes", v.name)
		assert.Equal(t, &in[0], &td.Encoded[0], "%s: Encoded aliases the input", v.name)
	}
}

func TestTypeDefHeaderFields(t *testing.T) {
	// §13.2: header 0x4b8c1eee72ae501a = hash bits 0x4b8c1eee72ae5000 | size 26.
	td, _, err := ParseTypeDef(h(typeDefVectors[0].hex), DefaultLimits)
	require.NoError(t, err)
	assert.Equal(t, uint64(0x4b8c1eee72ae501a), td.Header)
	assert.Equal(t, uint64(26), td.Header&0xff)
	// wide: size byte ff, varu32(454 − 255) = c7 01.
	wide := EncodeTypeDef(wideTypeDef())
	assert.Equal(t, 8+2+454, len(wide))
	assert.Equal(t, byte(0xff), wide[0])
	assert.Equal(t, []byte{0xc7, 0x01}, wide[8:10])
}

func TestTypeDefFieldCountEscape(t *testing.T) {
	// 30 fields fit the 5 bits; 31 escapes with varu32(n − 31), even for 0.
	for _, n := range []int{0, 1, 30, 31, 32, 31 + 127, 31 + 128, 600} {
		var fs []FieldDef // nil for 0, as ParseTypeDef returns it
		for i := 0; i < n; i++ {
			fs = append(fs, tagged(i, scalar(tVarint32)))
		}
		td := byID(TypeCompatibleStruct, 7, fs...)
		b := EncodeTypeDef(td)
		body := b[8:]
		if len(b)-8 >= 255+2 {
			_, k := readVarU32(b[8:])
			body = b[8+k:]
		}
		if n < 31 {
			assert.Equal(t, byte(0xc0|n), body[0], "n=%d", n)
		} else {
			assert.Equal(t, byte(0xdf), body[0], "n=%d", n)
			v, _ := readVarU32(body[1:])
			assert.Equal(t, uint32(n-31), v, "n=%d", n)
		}
		got, _, err := ParseTypeDef(b, Limits{MaxBodyBytes: 1 << 20, MaxFields: 1 << 20})
		require.NoError(t, err, "n=%d", n)
		assert.Equal(t, wire(td), wire(got), "n=%d", n)
		if n > 512 {
			_, _, err := ParseTypeDef(b, Limits{MaxBodyBytes: 1 << 20})
			assert.ErrorIs(t, err, ErrBadTypeDef, "n=%d over the default field limit", n)
		}
	}
}

func TestTypeDefFieldNameLengths(t *testing.T) {
	// The spec's rule (§14.1): L <= 15 → size L−1; L >= 16 → size 15,
	// varu32(L−16). Go's: L < 15 → size L−1; L >= 15 → size 15,
	// varu32(L−15). Both parse.
	// An ATLS name of n lower-case letters takes ceil((5n+1)/8) bytes.
	for n := 1; n <= 60; n++ {
		name := strings.Repeat("k", n)
		l := len(EncodeMetaString(name, FieldName).Bytes)
		td := byID(TypeCompatibleStruct, 1, named(name, scalar(tBool)))
		for _, goNames := range []bool{false, true} {
			b := encodeTypeDef(td, goNames)
			// header(8) c1 01 <field header> [extra] 01 <name>
			fh := b[10]
			require.Equal(t, byte(1), fh>>6, "ATLS flag")
			inline := l <= 15
			if goNames {
				inline = l < 15
			}
			if inline {
				assert.Equal(t, byte(l-1), fh>>2&15, "name %d bytes", l)
				assert.Equal(t, byte(tBool), b[11])
			} else {
				extra := l - 16
				if goNames {
					extra = l - 15
				}
				assert.Equal(t, byte(15), fh>>2&15, "name %d bytes", l)
				assert.Equal(t, byte(extra), b[11], "extra for %d bytes (go form %v)", l, goNames)
				assert.Equal(t, byte(tBool), b[12])
			}
			got, _, err := ParseTypeDef(b, DefaultLimits)
			require.NoError(t, err, name)
			assert.Equal(t, name, got.Fields[0].Name, "go form %v", goNames)
		}
	}
	// Tag ids: id=1 → c4, id=12 → f0, id=14 → f8, id=15 → fc 00, id=40 → fc 19.
	for id, want := range map[int]string{1: "c4", 12: "f0", 14: "f8", 15: "fc 00", 40: "fc 19", 15 + 300: "fc ac 02"} {
		b := EncodeTypeDef(byID(TypeCompatibleStruct, 1, tagged(id, scalar(tBool))))
		assert.Equal(t, "c1 01 "+want+" 01", spaced(b[8:]), "id=%d", id)
	}
	// Nullable and track_ref bits of the field header.
	b := EncodeTypeDef(byID(TypeCompatibleStruct, 1, FieldDef{TagID: 2, Nullable: true, TrackRef: true, Type: scalar(tString)}))
	assert.Equal(t, "c1 01 cb 15", spaced(b[8:]))
}

func TestNonStructTypeDefs(t *testing.T) {
	for _, td := range []*TypeDef{
		{Kind: TypeEnum, UserID: 6},
		{Kind: TypeNamedEnum, ByName: true, Namespace: "edge", TypeName: "Color"},
		{Kind: TypeExt, UserID: 300},
		{Kind: TypeNamedExt, ByName: true, Namespace: "", TypeName: "Money"},
		{Kind: TypeTypedUnion, UserID: 0},
		{Kind: TypeNamedUnion, ByName: true, Namespace: "a.b", TypeName: "Shape1"},
		{Kind: TypeStruct, UserID: 9, Fields: []FieldDef{named("a", scalar(tBool))}},
		{Kind: TypeNamedStruct, ByName: true, Namespace: "n", TypeName: "S"},
	} {
		b := EncodeTypeDef(td)
		if !IsStructKind(td.Kind) {
			code, _, _ := nonStructKindCode(td.Kind)
			assert.Equal(t, code, b[8], "kind %d", td.Kind)
		}
		got, n, err := ParseTypeDef(b, DefaultLimits)
		require.NoError(t, err, "kind %d", td.Kind)
		assert.Equal(t, len(b), n)
		assert.Equal(t, wire(td), wire(got), "kind %d", td.Kind)
	}
	// By id: ENUM 6 → body 00 06.
	assert.Equal(t, "00 06", spaced(EncodeTypeDef(&TypeDef{Kind: TypeEnum, UserID: 6})[8:]))
}

func TestTypeDefValidate(t *testing.T) {
	deep := scalar(tBool)
	for i := 0; i < MaxTypeNesting; i++ {
		deep = list(deep)
	}
	ok := byID(TypeCompatibleStruct, 1, named("a", deep))
	require.NoError(t, ok.Validate(), "%d levels of nesting are allowed", MaxTypeNesting)
	got, _, err := ParseTypeDef(EncodeTypeDef(ok), DefaultLimits)
	require.NoError(t, err)
	assert.Equal(t, wire(ok), wire(got))

	for name, td := range map[string]*TypeDef{
		"28 without Compatible":     {Kind: TypeCompatibleStruct, UserID: 1},
		"27 with Compatible":        {Kind: TypeStruct, Compatible: true},
		"30 without ByName":         {Kind: TypeNamedCompatibleStruct, Compatible: true},
		"UNION 33 has no code":      {Kind: 33},
		"LIST is not a user kind":   {Kind: TypeList},
		"named enum without ByName": {Kind: TypeNamedEnum},
		"enum with ByName":          {Kind: TypeEnum, ByName: true},
		"compatible enum":           {Kind: TypeEnum, Compatible: true},
		"enum with fields":          {Kind: TypeEnum, Fields: []FieldDef{named("a", scalar(tBool))}},
		"nameless field":            byID(TypeCompatibleStruct, 1, FieldDef{TagID: -1, Type: scalar(tBool)}),
		"list without element":      byID(TypeCompatibleStruct, 1, named("a", FieldType{TypeID: TypeList})),
		"map with one child":        byID(TypeCompatibleStruct, 1, named("a", FieldType{TypeID: TypeMap, Children: []FieldType{child(tBool)}})),
		"scalar with a child":       byID(TypeCompatibleStruct, 1, named("a", FieldType{TypeID: tBool, Children: []FieldType{child(tBool)}})),
		"nested list missing child": byID(TypeCompatibleStruct, 1, named("a", list(FieldType{TypeID: TypeSet}))),
		"too deep":                  byID(TypeCompatibleStruct, 1, named("a", list(deep))),
	} {
		assert.Error(t, td.Validate(), name)
		assert.Panics(t, func() { EncodeTypeDef(td) }, name)
	}
	if strconv.IntSize == 64 {
		tooBig := maxTagID + 1 // a variable: the constant would not compile on 32-bit
		td := byID(TypeCompatibleStruct, 1, tagged(int(tooBig), scalar(tBool)))
		assert.Error(t, td.Validate(), "tag id beyond the varint")
		td.Fields[0].TagID--
		assert.NoError(t, td.Validate())
	}
}

// maxTagID is the largest tag id a field entry can carry: 15 + MaxUint32.
var maxTagID uint64 = fieldSizeEscape + math.MaxUint32
