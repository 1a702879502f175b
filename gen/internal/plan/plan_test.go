package plan

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen/internal/model"
)

// Builders for hand-made models.
func prim(k model.Kind) *model.Type { return &model.Type{Kind: k} }
func ptr(t *model.Type) *model.Type { return &model.Type{Kind: model.Pointer, Elem: t} }
func slice(t *model.Type) *model.Type {
	return &model.Type{Kind: model.Slice, Elem: t}
}
func mapOf(k, v *model.Type) *model.Type { return &model.Type{Kind: model.Map, Key: k, Elem: v} }
func structRef(name string, id uint32) *model.Type {
	return &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: "p", Name: name}, Reg: model.Registration{ID: id}}
}
func enumRef(name string) *model.Type {
	return &model.Type{Kind: model.Enum, Named: &model.Named{PkgPath: "p", Name: name}}
}

type fieldSpec struct {
	name string
	t    *model.Type
	tag  string // fory tag items, e.g. "id=3" or "nullable"
}

func mkStruct(t *testing.T, name string, reg model.Registration, fields ...fieldSpec) *model.StructDecl {
	t.Helper()
	s := &model.StructDecl{Name: name, Reg: reg}
	for _, f := range fields {
		tag := model.Tag{ID: -1}
		for _, item := range strings.Split(f.tag, ",") {
			k, v, _ := strings.Cut(item, "=")
			switch k {
			case "":
			case "id":
				n := 0
				for _, c := range v {
					n = n*10 + int(c-'0')
				}
				tag.ID = n
			case "nullable":
				tag.Nullable, tag.NullableSet = true, true
			case "encoding":
				tag.Encoding = v
			case "array":
				tag.Hint = &model.Hint{Name: "array", Element: &model.Hint{Name: v, Original: v}, Original: "array(element=" + v + ")"}
			case "bytes":
				tag.Hint = &model.Hint{Name: "bytes", Original: "bytes"}
			default:
				t.Fatalf("bad tag item %q", item)
			}
		}
		s.Fields = append(s.Fields, &model.Field{GoName: f.name, Type: f.t, Tag: tag})
	}
	return s
}

type orderEntry struct {
	id     string
	group  Group
	typeID uint8
}

func order(p *Struct) []orderEntry {
	var out []orderEntry
	for _, f := range p.Fields {
		out = append(out, orderEntry{f.Identifier, f.Group, f.Wire.TypeID})
	}
	return out
}

// The expected values below are the manifest's (xlang-fixtures/manifest.json)
// field_order, fingerprint and schema_hash_int32 for each struct.
func TestPlanStructAgainstManifest(t *testing.T) {
	i32 := prim(model.Int32)
	byID := func(id uint32) model.Registration { return model.Registration{ID: id} }
	var numericFields []fieldSpec
	for i := 1; i <= 12; i++ {
		numericFields = append(numericFields, fieldSpec{"F" + string(rune('0'+i/10)) + string(rune('0'+i%10)), i32, "id=" + itoa(i)})
	}
	tests := []struct {
		name        string
		s           *model.StructDecl
		fingerprint string
		hash        int32
		order       []orderEntry
		maxPrim     int
	}{
		{
			name:        "NumericStruct",
			s:           mkStruct(t, "NumericStruct", byID(1), numericFields...),
			fingerprint: "1,5,0,0;2,5,0,0;3,5,0,0;4,5,0,0;5,5,0,0;6,5,0,0;7,5,0,0;8,5,0,0;9,5,0,0;10,5,0,0;11,5,0,0;12,5,0,0;",
			hash:        -373483677,
			maxPrim:     4 + 12*5,
		},
		{
			name: "AllPrims",
			s: mkStruct(t, "AllPrims", byID(100),
				fieldSpec{"B", prim(model.Bool), ""}, fieldSpec{"I8", prim(model.Int8), ""},
				fieldSpec{"I16", prim(model.Int16), ""}, fieldSpec{"I32", i32, ""},
				fieldSpec{"I64", prim(model.Int64), ""}, fieldSpec{"I", prim(model.Int), ""},
				fieldSpec{"U8", prim(model.Uint8), ""}, fieldSpec{"U16", prim(model.Uint16), ""},
				fieldSpec{"U32", prim(model.Uint32), ""}, fieldSpec{"U64", prim(model.Uint64), ""},
				fieldSpec{"F32", prim(model.Float32), ""}, fieldSpec{"F64", prim(model.Float64), ""}),
			fingerprint: "b,1,0,0;f32,19,0,0;f64,20,0,0;i,7,0,0;i16,3,0,0;i32,5,0,0;i64,7,0,0;i8,2,0,0;u16,10,0,0;u32,12,0,0;u64,14,0,0;u8,9,0,0;",
			hash:        -299331752,
			order: []orderEntry{{"f64", GroupFixed, 20}, {"f32", GroupFixed, 19}, {"i16", GroupFixed, 3}, {"u16", GroupFixed, 10},
				{"b", GroupFixed, 1}, {"i8", GroupFixed, 2}, {"u8", GroupFixed, 9}, {"i", GroupVarint, 7}, {"i64", GroupVarint, 7},
				{"u64", GroupVarint, 14}, {"i32", GroupVarint, 5}, {"u32", GroupVarint, 12}},
			maxPrim: 4 + (8 + 4 + 2 + 2 + 1 + 1 + 1) + (9 + 9 + 9 + 5 + 5),
		},
		{
			name: "Ptrs",
			s: mkStruct(t, "Ptrs", byID(114),
				fieldSpec{"PB", ptr(prim(model.Bool)), ""}, fieldSpec{"PI32", ptr(i32), ""},
				fieldSpec{"PI64", ptr(prim(model.Int64)), ""}, fieldSpec{"PF64", ptr(prim(model.Float64)), ""},
				fieldSpec{"PS", ptr(prim(model.String)), ""}),
			fingerprint: "p_b,1,0,0;p_f64,20,0,0;p_i32,5,0,0;p_i64,7,0,0;p_s,21,0,0;",
			hash:        -128040816,
			order: []orderEntry{{"p_f64", GroupOther, 20}, {"p_b", GroupOther, 1}, {"p_i64", GroupOther, 7},
				{"p_i32", GroupOther, 5}, {"p_s", GroupOther, 21}},
			maxPrim: 4,
		},
		{
			name: "Maps",
			s: mkStruct(t, "Maps", byID(104),
				fieldSpec{"StrToI32", mapOf(prim(model.String), i32), ""},
				fieldSpec{"I32ToStr", mapOf(i32, prim(model.String)), ""}),
			fingerprint: "i32_to_str,24,0,0[5,0,0|21,0,0];str_to_i32,24,0,0[21,0,0|5,0,0];",
			hash:        1881998207,
		},
		{
			name: "NullableContainers",
			s: mkStruct(t, "NullableContainers", byID(103),
				fieldSpec{"Strs", slice(prim(model.String)), "nullable"},
				fieldSpec{"Ints", slice(i32), "nullable"},
				fieldSpec{"Map", mapOf(prim(model.String), i32), "nullable"}),
			fingerprint: "ints,22,0,1[5,0,0];map,24,0,1[21,0,0|5,0,0];strs,22,0,1[21,0,0];",
			hash:        -956444084,
		},
		{
			name: "Mixed",
			s: mkStruct(t, "Mixed", byID(119),
				fieldSpec{"Name", prim(model.String), ""}, fieldSpec{"Count", prim(model.Int64), ""},
				fieldSpec{"Ratio", prim(model.Float32), ""}, fieldSpec{"Flag", prim(model.Bool), ""},
				fieldSpec{"Small", prim(model.Int16), ""}, fieldSpec{"Opt", ptr(i32), ""},
				fieldSpec{"OptFlag", ptr(prim(model.Bool)), ""}, fieldSpec{"Kind", enumRef("Color"), ""},
				fieldSpec{"Child", ptr(structRef("Inner", 106)), ""}, fieldSpec{"Items", slice(prim(model.String)), ""},
				fieldSpec{"Lookup", mapOf(prim(model.String), i32), ""}, fieldSpec{"Stamp", prim(model.Time), ""},
				fieldSpec{"Code", i32, ""}, fieldSpec{"Big", prim(model.Uint64), ""}),
			fingerprint: "big,14,0,0;child,0,0,0;code,5,0,0;count,7,0,0;flag,1,0,0;items,22,0,0[21,0,0];kind,0,0,0;lookup,24,0,0[21,0,0|5,0,0];name,21,0,0;opt,5,0,0;opt_flag,1,0,0;ratio,19,0,0;small,3,0,0;stamp,38,0,0;",
			hash:        859706216,
			// The manifest's same-schema field_order lists child as 27; the
			// write order is what matters here (type ids checked in the
			// compatible TypeDef test).
			order: []orderEntry{{"ratio", GroupFixed, 19}, {"small", GroupFixed, 3}, {"flag", GroupFixed, 1},
				{"count", GroupVarint, 7}, {"big", GroupVarint, 14}, {"code", GroupVarint, 5},
				{"opt_flag", GroupOther, 1}, {"opt", GroupOther, 5}, {"child", GroupOther, 28}, {"items", GroupOther, 22},
				{"kind", GroupOther, 25}, {"lookup", GroupOther, 24}, {"name", GroupOther, 21}, {"stamp", GroupOther, 38}},
			maxPrim: 4 + (4 + 2 + 1) + (9 + 9 + 5),
		},
		{
			name: "IntEncodings",
			s: mkStruct(t, "IntEncodings", byID(113),
				fieldSpec{"TaggedI64", prim(model.Int64), "encoding=tagged"}, fieldSpec{"FixedI64", prim(model.Int64), "encoding=fixed"},
				fieldSpec{"FixedI32", i32, "encoding=fixed"}, fieldSpec{"TaggedU64", prim(model.Uint64), "encoding=tagged"},
				fieldSpec{"FixedU32", prim(model.Uint32), "encoding=fixed"}, fieldSpec{"FixedU64", prim(model.Uint64), "encoding=fixed"},
				fieldSpec{"VarI64", prim(model.Int64), ""}, fieldSpec{"VarU32", prim(model.Uint32), ""},
				fieldSpec{"Uint", prim(model.Uint), ""}),
			fingerprint: "fixed_i32,4,0,0;fixed_i64,6,0,0;fixed_u32,11,0,0;fixed_u64,13,0,0;tagged_i64,8,0,0;tagged_u64,15,0,0;uint,14,0,0;var_i64,7,0,0;var_u32,12,0,0;",
			hash:        -2042259195,
			order: []orderEntry{{"fixed_i64", GroupFixed, 6}, {"fixed_u64", GroupFixed, 13}, {"fixed_i32", GroupFixed, 4},
				{"fixed_u32", GroupFixed, 11}, {"var_i64", GroupVarint, 7}, {"tagged_i64", GroupVarint, 8}, {"uint", GroupVarint, 14},
				{"tagged_u64", GroupVarint, 15}, {"var_u32", GroupVarint, 12}},
			maxPrim: 4 + (8 + 8 + 4 + 4) + (9 + 9 + 9 + 9 + 5),
		},
		{
			name: "Bytes",
			s: mkStruct(t, "Bytes", byID(115),
				fieldSpec{"Plain", slice(prim(model.Uint8)), ""}, fieldSpec{"Bin", slice(prim(model.Uint8)), "bytes"},
				fieldSpec{"U8Arr", slice(prim(model.Uint8)), "array=uint8"}, fieldSpec{"Bools", slice(prim(model.Bool)), ""},
				fieldSpec{"BoolA", slice(prim(model.Bool)), "array=bool"}),
			fingerprint: "bin,41,0,0;bool_a,43,0,0;bools,22,0,0[1,0,0];plain,22,0,0[9,0,0];u8_arr,48,0,0;",
			hash:        1625798738,
		},
		{
			name: "Times",
			s: mkStruct(t, "Times", byID(112),
				fieldSpec{"T", prim(model.Time), ""}, fieldSpec{"D", prim(model.Duration), ""}, fieldSpec{"Dt", prim(model.Date), ""}),
			fingerprint: "d,37,0,0;dt,39,0,0;t,38,0,0;",
			hash:        -1508952944,
		},
		{
			name: "NameRules",
			s: mkStruct(t, "NameRules", byID(117),
				fieldSpec{"URI", prim(model.String), ""}, fieldSpec{"HTTPCode", i32, ""},
				fieldSpec{"UserID", prim(model.Int64), ""}, fieldSpec{"X2Y", i32, ""}),
			fingerprint: "h_t_t_p_code,5,0,0;u_r_i,21,0,0;user_i_d,7,0,0;x2_y,5,0,0;",
			hash:        -501123143,
			order: []orderEntry{{"user_i_d", GroupVarint, 7}, {"h_t_t_p_code", GroupVarint, 5}, {"x2_y", GroupVarint, 5},
				{"u_r_i", GroupOther, 21}},
		},
		{
			name: "MediaContent",
			s: mkStruct(t, "MediaContent", byID(5),
				fieldSpec{"Media", structRef("Media", 3), "id=1"}, fieldSpec{"Images", slice(structRef("Image", 4)), "id=2"}),
			fingerprint: "1,0,0,0;2,22,0,0[0,0,0];",
			hash:        192112701,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, errs := PlanStruct(tt.s)
			require.Empty(t, errs)
			// The manifest's are official Go's (docs/format.md §14.29).
			assert.Equal(t, tt.fingerprint, p.OfficialGoFingerprint)
			assert.Equal(t, tt.hash, p.OfficialGoHash)
			if tt.order != nil {
				assert.Equal(t, tt.order, order(p))
			}
			if tt.maxPrim != 0 {
				assert.Equal(t, tt.maxPrim, p.MaxPrimitiveBytes)
			}
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// Tagged identifiers sort numerically and before untagged ones (§10.2).
// TestFingerprintPeers checks the other languages' same-schema fingerprint
// and hash against what fory-js computed for the same schemas
// (internal/conformance/peerform): a pointer field is nullable there.
func TestFingerprintPeers(t *testing.T) {
	byID := func(id uint32) model.Registration { return model.Registration{ID: id} }
	i32 := prim(model.Int32)
	holder := mkStruct(t, "Holder", byID(401),
		fieldSpec{"Label", prim(model.String), ""}, fieldSpec{"Next", ptr(structRef("Leaf", 402)), ""})
	nullables := mkStruct(t, "Nullables", byID(412),
		fieldSpec{"Next", ptr(structRef("Leaf", 402)), ""}, fieldSpec{"K", ptr(i32), ""})
	for _, tt := range []struct {
		s                     *model.StructDecl
		fingerprint, official string
		hash                  uint32
	}{
		{holder, "label,21,0,0;next,0,0,1;", "label,21,0,0;next,0,0,0;", 0xe6be1657},
		// fory-js: arr,46,0,1;k,5,0,1;next,0,0,1; with a nullable array
		// besides (hash 0x6bb483ee, checked in peerform).
		{nullables, "k,5,0,1;next,0,0,1;", "k,5,0,0;next,0,0,0;", 0},
	} {
		p, errs := PlanStruct(tt.s)
		require.Empty(t, errs)
		assert.Equal(t, tt.fingerprint, p.Fingerprint, tt.s.Name)
		if tt.hash != 0 {
			assert.Equal(t, tt.hash, uint32(p.SchemaHash), tt.s.Name)
		}
		assert.Equal(t, tt.official, p.OfficialGoFingerprint, tt.s.Name)
		assert.NotEqual(t, p.SchemaHash, p.OfficialGoHash, tt.s.Name)
		assert.False(t, p.Flat, "%s: a flat writer cannot choose the hash", tt.s.Name)
	}
}

func TestFingerprintIdentifierOrder(t *testing.T) {
	s := mkStruct(t, "T", model.Registration{ID: 1},
		fieldSpec{"Zed", prim(model.Int32), "id=5"}, fieldSpec{"Big", prim(model.Int32), "id=100"},
		fieldSpec{"S1", prim(model.Int32), "id=7"}, fieldSpec{"Abc", prim(model.Int32), ""},
		fieldSpec{"S0", prim(model.Int32), ""})
	p, errs := PlanStruct(s)
	require.Empty(t, errs)
	assert.Equal(t, "5,5,0,0;7,5,0,0;100,5,0,0;abc,5,0,0;s0,5,0,0;", p.Fingerprint)
}

// The TypeDef and same-schema type meta are the bytes of docs/format.md §13.1-2.
func TestConstantBytes(t *testing.T) {
	var fields []fieldSpec
	for i := 1; i <= 12; i++ {
		fields = append(fields, fieldSpec{"F" + itoa(i), prim(model.Int32), "id=" + itoa(i)})
	}
	byID, errs := PlanStruct(mkStruct(t, "NumericStruct", model.Registration{ID: 1}, fields...))
	require.Empty(t, errs)
	assert.Equal(t, "1b01", hex.EncodeToString(byID.ConsistentMeta))
	assert.Equal(t, "1a50ae72ee1e8c4bcc01c405c805cc05d005d405d805dc05e005e405e805ec05f005", hex.EncodeToString(byID.TypeDef))
	// Root prefixes: header 01, root flag ff, then the type meta; in
	// compatible mode 1c and index 0 marked new before the TypeDef (§13.1-4).
	assert.Equal(t, "01ff1b01", hex.EncodeToString(byID.RootConsistent))
	assert.Equal(t, "01ff1c00"+"1a50ae72ee1e8c4bcc01c405c805cc05d005d405d805dc05e005e405e805ec05f005", hex.EncodeToString(byID.RootCompatible))

	byName, errs := PlanStruct(mkStruct(t, "NumericStruct",
		model.Registration{ByName: true, Namespace: "bench", Name: "NumericStruct"}, fields...))
	require.Empty(t, errs)
	assert.Equal(t, "1d"+"0804848d11c0"+"140475b46122817653"+"8d0530", hex.EncodeToString(byName.ConsistentMeta))
	assert.Equal(t, "29e048b375022a26", hex.EncodeToString(byName.TypeDef[:8]))
	assert.Equal(t, "01ff1e0029e048b375022a26", hex.EncodeToString(byName.RootCompatible[:12]))
	assert.Equal(t, "01ff1d0804848d11c0", hex.EncodeToString(byName.RootConsistent[:9]))
}

func TestPlanErrors(t *testing.T) {
	tests := []struct {
		name  string
		field fieldSpec
		want  string
	}{
		{"tagged int", fieldSpec{"N", prim(model.Int), "encoding=tagged"}, "encoding=tagged is not valid for int; declare the field int64/uint64 to use tagged"},
		{"tagged int32", fieldSpec{"N", prim(model.Int32), "encoding=tagged"}, "encoding=tagged is not valid for int32; use encoding=varint, encoding=fixed or no encoding tag (tagged applies to int64 and uint64 only)"},
		// The hint never suggests the encoding it refuses (issue 27 item 10).
		{"varint uint8", fieldSpec{"N", prim(model.Uint8), "encoding=varint"}, "encoding=varint is not valid for uint8; a uint8 is always written fixed-width; remove the encoding tag"},
		{"tagged float64", fieldSpec{"N", prim(model.Float64), "encoding=tagged"}, "encoding=tagged is not valid for float64; a float64 is always written fixed-width; remove the encoding tag"},
		{"array mismatch", fieldSpec{"A", slice(prim(model.Int64)), "array=int32"}, "does not match"},
		{"bytes on strings", fieldSpec{"A", slice(prim(model.String)), "bytes"}, "type=bytes needs a []byte field"},
		{"encoding on string", fieldSpec{"S", prim(model.String), "encoding=fixed"}, "applies only to integer fields"},
		{"float map key", fieldSpec{"M", mapOf(prim(model.Float64), prim(model.Int32)), ""}, "map key type float64 is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := PlanStruct(mkStruct(t, "T", model.Registration{ID: 1}, tt.field))
			require.Len(t, errs, 1)
			assert.Contains(t, errs[0].Error(), "T."+tt.field.name+": ")
			assert.Contains(t, errs[0].Error(), tt.want)
		})
	}
	// Two fields with one identifier.
	_, errs := PlanStruct(mkStruct(t, "T", model.Registration{ID: 1},
		fieldSpec{"A", prim(model.Int32), "id=1"}, fieldSpec{"B", prim(model.Int32), "id=1"}))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), `identifier "1" is also used by field A`)
}

func TestRecursive(t *testing.T) {
	ref := func(name string) *model.Type {
		return &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: "p", Name: name}}
	}
	other := &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: "q", Name: "Node"}}
	structs := []*model.StructDecl{
		mkStruct(t, "Node", model.Registration{ID: 1}, fieldSpec{"Next", ptr(ref("Node")), ""}),
		mkStruct(t, "A", model.Registration{ID: 2}, fieldSpec{"B", slice(ref("B")), ""}),
		mkStruct(t, "B", model.Registration{ID: 3}, fieldSpec{"A", mapOf(prim(model.String), ptr(ref("A"))), ""}),
		mkStruct(t, "Leaf", model.Registration{ID: 4}, fieldSpec{"N", prim(model.Int32), ""}),
		mkStruct(t, "UsesNode", model.Registration{ID: 5}, fieldSpec{"N", ptr(ref("Node")), ""}, fieldSpec{"O", ptr(other), ""}),
	}
	assert.Equal(t, map[string]bool{"Node": true, "A": true, "B": true}, Recursive("p", structs))
}

func TestFlat(t *testing.T) {
	ref := &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: "p", Name: "S"}}
	for _, tc := range []struct {
		name string
		typ  *model.Type
		flat bool
	}{
		{"int32", prim(model.Int32), true},
		{"string", prim(model.String), true},
		{"strings", slice(prim(model.String)), true},
		{"map of ints", mapOf(prim(model.String), prim(model.Int64)), true},
		{"time", &model.Type{Kind: model.Time}, true},
		{"struct", ref, false},
		{"pointer", ptr(ref), false},
		{"list", slice(ref), false},
		{"map value", mapOf(prim(model.String), ptr(ref)), false},
	} {
		s := mkStruct(t, "T", model.Registration{ID: 1}, fieldSpec{"A", prim(model.Bool), ""}, fieldSpec{"F", tc.typ, ""})
		assert.Equal(t, tc.flat, Flat(s), tc.name)
	}
}
