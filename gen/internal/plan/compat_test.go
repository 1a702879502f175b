package plan

import (
	"strings"
	"testing"

	"github.com/forygen/forygen/gen/internal/model"

	"github.com/forygen/forygen/internal/meta"
)

func TestTypeRefRoundTrip(t *testing.T) {
	for _, s := range []string{
		"varint32", "list<?&compatible_struct(id=5)>", "map<string,?list<int32>>", "set<enum(name=ns.E)>",
		"int32_array", "type0", "map<string,type0>", "type33",
	} {
		r, err := ParseTypeRef(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if r.String() != s {
			t.Errorf("%s reads back as %s", s, r)
		}
	}
	for _, bad := range []string{"", "int33", "list<int32", "map<string,int32>>", "struct(id=1", "typex",
		// What TypeRef.String never writes (issue 25 item 3).
		"list", "list<a,b,c>", "list<int32,int32>", "set", "map", "map<string>", "map<string,int32,int32>",
		"int32<int32>", "type255", "type63", "type4", "type00", "int32(id=1)", "struct(x)", "map<list,int32>",
		strings.Repeat("list<", 100) + "int32" + strings.Repeat(">", 100)} {
		if _, err := ParseTypeRef(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestReadAs(t *testing.T) {
	ref := func(s string) TypeRef {
		r, err := ParseTypeRef(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		from, to string
		want     Verdict
	}{
		{"varint32", "varint64", Safe},
		{"varint64", "varint32", Lossy},
		{"var_uint32", "varint64", Safe},
		{"var_uint32", "varint32", Lossy},
		{"varint32", "var_uint64", Lossy},
		{"int16", "float32", Safe},
		{"varint32", "float32", Lossy},
		{"varint32", "float64", Safe},
		{"float64", "varint64", Lossy},
		{"float32", "float64", Safe},
		{"bool", "int8", Breaking},
		{"string", "binary", Breaking},
		{"list<int16>", "int16_array", Safe},
		{"list<?int16>", "int16_array", Lossy},
		// A null element has no place in a list of values (issue 28).
		{"list<?varint32>", "list<varint32>", Lossy},
		{"list<varint32>", "list<?varint32>", Safe},
		{"map<string,?string>", "map<string,string>", Lossy},
		// The reader converts 16-bit float lists and arrays too.
		{"list<float16>", "float16_array", Safe},
		{"bfloat16_array", "list<bfloat16>", Safe},
		{"list<float16>", "bfloat16_array", Breaking},
		{"binary", "uint8_array", Safe},
		{"list<uint8>", "int8_array", Breaking},
		{"compatible_struct(id=1)", "named_compatible_struct(id=1)", Safe},
		{"compatible_struct(id=1)", "compatible_struct(id=2)", Breaking},
		{"list<?&compatible_struct(id=1)>", "list<?compatible_struct(id=1)>", Breaking},
		{"map<string,varint32>", "map<string,varint64>", Breaking},
	} {
		if got, why := ReadAs(ref(c.from), ref(c.to)); got != c.want {
			t.Errorf("%s read as %s: %s (%s), want %s", c.from, c.to, got, why, c.want)
		}
	}
}

func TestEnumMaxOrdinal(t *testing.T) {
	for base, want := range map[string]uint64{"int8": 127, "uint8": 255, "int16": 32767, "uint16": 65535,
		"int32": 2147483647, "uint32": 4294967295, "int64": 4294967295, "uint64": 4294967295, "int": 4294967295} {
		if got := EnumMaxOrdinal(base); got != want {
			t.Errorf("%s: %d, want %d", base, got, want)
		}
	}
}

// An any field's nullable bit changes nothing on the wire (the value carries
// its own flag); on any other field it is a lossy change.
func TestFieldChangeNullable(t *testing.T) {
	any0, str := TypeRef{TypeID: meta.TypeUnknown}, TypeRef{TypeID: meta.TypeString}
	if v, _, _ := FieldChange(FieldSchema{Identifier: "a", Type: any0}, FieldSchema{Identifier: "a", Type: any0, Nullable: true}); v != Safe {
		t.Errorf("any field declared nullable: %v", v)
	}
	if v, _, _ := FieldChange(FieldSchema{Identifier: "s", Type: str}, FieldSchema{Identifier: "s", Type: str, Nullable: true}); v != Lossy {
		t.Errorf("string field made nullable: %v", v)
	}
}

// Without tracking, ref changes only the TypeDef's track_ref bit, which
// the reader follows; with tracking, a field tracked on one side only
// cannot resolve the other's back-references (issue 28).
func TestFieldChangeRef(t *testing.T) {
	leaf := TypeRef{TypeID: meta.TypeCompatibleStruct, Reg: "id=1"}
	a := FieldSchema{Identifier: "1", Type: leaf, Nullable: true}
	b := a
	b.Ref = true
	if v, _, _ := FieldChange(a, b); v != Safe {
		t.Errorf("ref added: %v", v)
	}
	b = a
	b.Tracked = true
	if v, oldPeer, _ := FieldChange(a, b); v != Breaking || oldPeer == "" {
		t.Errorf("tracked added: %v %q", v, oldPeer)
	}
}

// What cannot be skipped as Go writes it: struct keys, struct values of
// maps; an any value can (issue 28).
func TestUnskippable(t *testing.T) {
	for s, want := range map[string]bool{"type0": true, "map<string,compatible_struct(id=1)>": false,
		"map<compatible_struct(id=1),string>": false, "list<compatible_struct(id=1)>": true, "map<string,list<type0>>": true} {
		r, err := ParseTypeRef(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := Unskippable(r) == ""; got != want {
			t.Errorf("%s: skippable %v, want %v (%s)", s, got, want, Unskippable(r))
		}
	}
}

// An any field is declared nullable in its TypeDef, tagged or not, and
// written without a flag of its own (its value carries one).
func TestAnyFieldDeclaredNullable(t *testing.T) {
	for _, tag := range []model.Tag{{ID: -1}, {ID: -1, Nullable: true, NullableSet: true}} {
		w, err := WireOf(&model.Type{Kind: model.Any}, tag)
		if err != nil {
			t.Fatal(err)
		}
		if w.Nullable || !DeclaredNullable(w) {
			t.Errorf("tag %+v: Nullable=%v DeclaredNullable=%v", tag, w.Nullable, DeclaredNullable(w))
		}
	}
}
