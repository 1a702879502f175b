package schema

import (
	"bytes"
	"strings"
	"testing"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

const pkgPath = "example.com/shop"

func prim(k model.Kind) *model.Type { return &model.Type{Kind: k} }
func ptr(t *model.Type) *model.Type { return &model.Type{Kind: model.Pointer, Elem: t} }

func structRef(name string, reg model.Registration) *model.Type {
	return &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: pkgPath, PkgName: "shop", Name: name}, Reg: reg}
}

func field(name string, t *model.Type, tag model.Tag, line int) *model.Field {
	return &model.Field{GoName: name, Type: t, Tag: tag, Pos: model.Pos{File: "shop.go", Line: line, Col: 2}}
}

func planned(t *testing.T, ss ...*model.StructDecl) []*plan.Struct {
	t.Helper()
	var out []*plan.Struct
	for _, s := range ss {
		ps, errs := plan.PlanStruct(s)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		out = append(out, ps)
	}
	return out
}

var leafReg = model.Registration{ID: 11}

func leaf() *model.StructDecl {
	return &model.StructDecl{Name: "Leaf", Reg: leafReg, Pos: model.Pos{File: "shop.go", Line: 1, Col: 6},
		Fields: []*model.Field{field("V", prim(model.Int32), model.Tag{ID: 1}, 2)}}
}

func order(fields ...*model.Field) *model.StructDecl {
	return &model.StructDecl{Name: "Order", Reg: model.Registration{ID: 10}, Pos: model.Pos{File: "shop.go", Line: 5, Col: 6}, Fields: fields}
}

func TestWriteAndParseBack(t *testing.T) {
	in := Input{PkgPath: pkgPath, PkgName: "shop",
		Structs: planned(t, leaf(), order(
			field("ID", prim(model.Int64), model.Tag{ID: 1}, 6),
			field("Qty", prim(model.Int32), model.Tag{ID: 2, Encoding: "fixed"}, 7),
			field("Item", ptr(structRef("Leaf", leafReg)), model.Tag{ID: 3, Nullable: true}, 8),
			field("Note", ptr(prim(model.String)), model.Tag{ID: 4, Nullable: true}, 9),
			field("Tags", &model.Type{Kind: model.Slice, Elem: prim(model.String)}, model.Tag{ID: 5}, 10),
			field("Prices", &model.Type{Kind: model.Map, Key: prim(model.String), Elem: ptr(prim(model.Float64))}, model.Tag{ID: 6}, 11),
		)),
		Enums:  []*model.EnumDecl{{Name: "State", Reg: model.Registration{ID: 12}, Base: model.Int32}},
		Values: map[string][]EnumValue{"State": {{"StateNew", 0}, {"StatePaid", 1}}},
	}
	text, errs := Write(in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, want := range []string{"package shop;", "enum State [id=12] {\n    STATE_NEW = 0;\n    STATE_PAID = 1;\n}",
		"message Order [id=10] {", "int64 id = 1;", "fixed int32 qty = 2;", "Leaf item = 3;", "optional string note = 4;",
		"list<string> tags = 5;", "map<string, optional float64> prices = 6;"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("IDL lacks %q:\n%s", want, text)
		}
	}
	f, err := Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	// Compare the parsed messages with the model: names, numbers, types.
	var msg *Message
	for _, m := range f.Messages {
		if m.Name == "Order" {
			msg = m
		}
	}
	if msg == nil || msg.ID != 10 || len(msg.Fields) != 6 {
		t.Fatalf("parsed %+v", msg)
	}
	wantTypes := map[int]string{1: "int64", 2: "fixed int32", 3: "Leaf", 4: "string", 5: "list<string>", 6: "map<string, optional float64>"}
	for _, fd := range msg.Fields {
		if fd.Type.String() != wantTypes[fd.Number] {
			t.Errorf("field %d: %s, want %s", fd.Number, fd.Type, wantTypes[fd.Number])
		}
	}
	if !msg.Fields[3].Optional || msg.Fields[0].Optional {
		t.Errorf("optional flags: %+v", msg.Fields)
	}
}

func TestRefused(t *testing.T) {
	tagged := func(id int) model.Tag { return model.Tag{ID: id} }
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		wants string
	}{
		{"untagged field", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("Name", prim(model.String), model.Tag{ID: -1}, 6)))}
		}, `shop.go:6:2: forygen schema: Order.Name: identified by its name "name"`},
		{"struct field without a null flag", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, leaf(), order(field("Item", structRef("Leaf", leafReg), tagged(1), 6)))}
		}, "Order.Item: a struct field written without a null flag"},
		{"pointer without nullable", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("Note", ptr(prim(model.String)), tagged(1), 6)))}
		}, `Order.Note: a pointer without fory:"nullable"`},
		{"set", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("S", &model.Type{Kind: model.Set, Elem: prim(model.String)}, tagged(1), 6)))}
		}, "Order.S: a set (serializer.Set) has no IDL spelling"},
		{"nested collection", func(t *testing.T) Input {
			ll := &model.Type{Kind: model.Slice, Elem: &model.Type{Kind: model.Slice, Elem: prim(model.Int32)}}
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("LL", ll, tagged(1), 6)))}
		}, "Order.LL: a list inside a list: foryc accepts one collection layer"},
		{"any without nullable", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("V", &model.Type{Kind: model.Any}, tagged(1), 6)))}
		}, `Order.V: an any field without fory:"nullable"`},
		{"ref on a list", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("L", &model.Type{Kind: model.Slice, Elem: prim(model.String)}, model.Tag{ID: 1, Ref: true, RefSet: true}, 6)))}
		}, "Order.L: ref on a list field"},
		{"field name the IDL cannot spell", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("Größe", prim(model.String), tagged(1), 6)))}
		}, `Order.Größe: the IDL names fields with ASCII letters, digits and _ only ("größe" is not one); rename the Go field`},
		{"registered by a keyword", func(t *testing.T) Input {
			s := order(field("A", prim(model.String), tagged(1), 6))
			s.Reg = model.Registration{ByName: true, Namespace: "shop", Name: "message"}
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, s)}
		}, `Order: registered by name as "message", which is not an IDL identifier`},
		{"two constants of one IDL name", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Enums: []*model.EnumDecl{{Name: "State", Reg: model.Registration{ID: 12}}},
				Values: map[string][]EnumValue{"State": {{"StateNew", 0}, {"New", 1}}}}
		}, "State: constants StateNew and New are both STATE_NEW in the IDL"},
		{"registration id 0", func(t *testing.T) Input {
			s := order(field("A", prim(model.String), tagged(1), 6))
			s.Reg = model.Registration{ID: 0}
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, s)}
		}, "Order: registration id 0"},
		{"two namespaces", func(t *testing.T) Input {
			a := order(field("A", prim(model.String), tagged(1), 6))
			a.Reg = model.Registration{ByName: true, Namespace: "one", Name: "Order"}
			b := leaf()
			b.Reg = model.Registration{ByName: true, Namespace: "two", Name: "Leaf"}
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, a, b)}
		}, `Leaf: registered in namespace "two"`},
		{"type of a package the run does not export", func(t *testing.T) Input {
			other := &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: "example.com/other", PkgName: "other", Name: "X"}, Reg: model.Registration{ID: 40}}
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(field("X", ptr(other), model.Tag{ID: 1, Nullable: true}, 6)))}
		}, "Order.X: other.X is declared in example.com/other, which this run does not export; export both packages in one run"},
		{"enum without constants", func(t *testing.T) Input {
			return Input{PkgPath: pkgPath, PkgName: "shop", Enums: []*model.EnumDecl{{Name: "State", Reg: model.Registration{ID: 12}, Pos: model.Pos{File: "shop.go", Line: 30, Col: 6}}}}
		}, "shop.go:30:6: forygen schema: State: no constants"},
		{"unknown wire kind", func(t *testing.T) Input {
			ps := planned(t, order(field("A", prim(model.String), tagged(1), 6)))
			ps[0].Fields[0].Wire = &plan.Wire{TypeID: 63, Go: prim(model.String)} // a kind the writer does not know (a union, say)
			return Input{PkgPath: pkgPath, PkgName: "shop", Structs: ps}
		}, "Order.A: type id 63 (type63) has no IDL spelling"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, errs := Write(c.in(t))
			if text != nil {
				t.Fatalf("wrote:\n%s", text)
			}
			var all []string
			for _, e := range errs {
				all = append(all, e.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), c.wants) {
				t.Fatalf("errors %q lack %q", all, c.wants)
			}
		})
	}
}

// TestVerifyCatches shows the self-check refusing text that describes other
// bytes than the plan: each edit of a correct IDL is an error naming the
// field.
func TestVerifyCatches(t *testing.T) {
	in := Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, leaf(), order(
		field("ID", prim(model.Int64), model.Tag{ID: 1}, 6),
		field("Item", ptr(structRef("Leaf", leafReg)), model.Tag{ID: 3, Nullable: true}, 8),
		field("Tags", &model.Type{Kind: model.Slice, Elem: prim(model.String)}, model.Tag{ID: 5}, 10),
	))}
	text, errs := Write(in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if errs := verify(in, text); len(errs) != 0 {
		t.Fatalf("the written IDL does not verify: %v", errs)
	}
	for _, edit := range []struct{ from, to, wants string }{
		{"int64 id = 1;", "fixed int64 id = 1;", "Order.ID: forygen writes varint64"},
		{"int64 id = 1;", "optional int64 id = 1;", "Order.ID: forygen writes varint64 (nullable=false"},
		{"int64 id = 1;", "int64 id = 2;", "Order.ID: an IDL peer writes field 2"},
		{"list<string> tags = 5;", "list<optional string> tags = 5;", "Order.Tags: forygen writes list<string>"},
		{"Leaf item = 3;", "ref Leaf item = 3;", "ref=false), an IDL peer"},
		{"message Order [id=10]", "message Order [id=13]", "the IDL has no message registered as id=10"},
		{"list<string> tags = 5;", "list<string tags = 5;", "does not parse back"},
	} {
		bad := strings.Replace(string(text), edit.from, edit.to, 1)
		errs := verify(in, []byte(bad))
		var all []string
		for _, e := range errs {
			all = append(all, e.Error())
		}
		if !strings.Contains(strings.Join(all, "\n"), edit.wants) {
			t.Errorf("%s → %s: errors %q lack %q", edit.from, edit.to, all, edit.wants)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"message A { int32 a = 1; int32 b = 1; }",
		"message A { map<int32> a = 1; }",
		"message A [id=0] { }",
		"enum E { A = 1; B = 1; }",
		"message A { tagged int32 a = 1; }",
		"message A { array<string> a = 1; }",
		"import public \"x.fdl\";",
		"import x;",
		"message A { int32 reserved = 1; }",
		"message A { int32 message = 1; }",
		"/* open",
	} {
		if _, err := Parse(src); err == nil {
			t.Errorf("%q: no error", src)
		}
	}
}

// Element, key and value encodings are IDL `fixed`/`tagged` scalars inside
// list<…> and map<…>: written, read back into the nested hints foryc
// writes (`type=list(element=int32(encoding=fixed))`), and verified against
// forygen's plan by Write itself.
func TestNestedEncodings(t *testing.T) {
	i32, u32, i64 := prim(model.Int32), prim(model.Uint32), prim(model.Int64)
	hint := func(name, enc string) *model.Hint {
		return &model.Hint{Name: name, Encoding: enc, Original: name + "(encoding=" + enc + ")"}
	}
	in := Input{PkgPath: pkgPath, PkgName: "shop",
		Structs: planned(t, order(
			field("Qtys", &model.Type{Kind: model.Slice, Elem: i32}, model.Tag{ID: 1, Hint: &model.Hint{Name: "list", Element: hint("int32", "fixed"), Original: "list(element=int32(encoding=fixed))"}}, 6),
			field("Totals", &model.Type{Kind: model.Map, Key: u32, Elem: i64}, model.Tag{ID: 2, Hint: &model.Hint{Name: "map", Key: hint("uint32", "fixed"), Value: hint("int64", "tagged"),
				Original: "map(key=uint32(encoding=fixed),value=int64(encoding=tagged))"}}, 7),
		)),
	}
	text, errs := Write(in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, want := range []string{"list<fixed int32> qtys = 1;", "map<fixed uint32, tagged int64> totals = 2;"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("IDL lacks %q:\n%s", want, text)
		}
	}
	f, err := Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	structs, _, _, err := Declarations(f)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range structs {
		for _, fd := range s.Fields {
			got[fd.GoName] = fd.Tag.Hint.Original
		}
	}
	for name, want := range map[string]string{"qtys": "list(element=int32(encoding=fixed))", "totals": "map(key=uint32(encoding=fixed),value=int64(encoding=tagged))"} {
		if got[name] != want {
			t.Errorf("%s: hint %q, want %q (all: %v)", name, got[name], want, got)
		}
	}
	// A child hinted nullable=false has no IDL spelling.
	_, errs = Write(Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(
		field("Qtys", &model.Type{Kind: model.Slice, Elem: i32}, model.Tag{ID: 1, Hint: &model.Hint{Name: "list", Element: &model.Hint{Name: "_", Nullable: new(bool), Original: "_(nullable=false)"}, Original: "list(element=_(nullable=false))"}}, 6)))})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "hinted nullable=false") {
		t.Errorf("errors %v, want one about nullable=false", errs)
	}
}

func TestSnake(t *testing.T) {
	for goName, want := range map[string]string{
		"UserID": "user_id", "ID": "id", "HTTPCode": "http_code", "URI": "uri", "IDs": "ids", "UserIDsByHost": "user_ids_by_host",
		"XMLHttpRequest": "xml_http_request", "I64Arr": "i64_arr", "X2Y": "x2_y", "Name": "name", "already_snake": "already_snake",
		"Foo_Bar": "foo_bar", "AString": "a_string", "F": "f",
	} {
		if got := Snake(goName); got != want {
			t.Errorf("Snake(%q) = %q, want %q", goName, got, want)
		}
	}
}

// A tagged field's Go name is on no byte of the wire, which is what lets the
// IDL name it freely: two structs that differ only in their tagged fields'
// names have one TypeDef, one same-schema type meta and one fingerprint.
func TestTaggedNamesNotOnWire(t *testing.T) {
	a := planned(t, order(field("UserID", prim(model.Int64), model.Tag{ID: 1}, 6), field("Reserved", prim(model.String), model.Tag{ID: 2}, 7)))[0]
	b := planned(t, order(field("Who", prim(model.Int64), model.Tag{ID: 1}, 6), field("Other", prim(model.String), model.Tag{ID: 2}, 7)))[0]
	if !bytes.Equal(a.TypeDef, b.TypeDef) || !bytes.Equal(a.TypeDefRef, b.TypeDefRef) || !bytes.Equal(a.ConsistentMeta, b.ConsistentMeta) || a.Fingerprint != b.Fingerprint {
		t.Fatalf("renaming tagged fields changed the wire: %x / %x, %q / %q", a.TypeDef, b.TypeDef, a.Fingerprint, b.Fingerprint)
	}
	// Untagged, the name is the identifier (official Go's rule, §6.2).
	c := planned(t, order(field("UserID", prim(model.Int64), model.Tag{ID: -1}, 6)))[0]
	if !strings.Contains(c.Fingerprint, "user_i_d,") {
		t.Fatalf("untagged UserID fingerprints as %q, want user_i_d", c.Fingerprint)
	}
}

// Tagged fields are exported under readable names: keywords get a trailing
// underscore, and a name taken twice the field number. The text verifies
// (Write checks it against the plan) and parses back to those names.
func TestFieldNames(t *testing.T) {
	in := Input{PkgPath: pkgPath, PkgName: "shop", Structs: planned(t, order(
		field("UserID", prim(model.Int64), model.Tag{ID: 1}, 6),
		field("Reserved", prim(model.String), model.Tag{ID: 2}, 7),
		field("Map", &model.Type{Kind: model.Map, Key: prim(model.String), Elem: prim(model.Int32)}, model.Tag{ID: 3}, 8),
		field("To", prim(model.Bool), model.Tag{ID: 4}, 9),
		field("UserId", prim(model.Int32), model.Tag{ID: 5}, 10),
		field("Any", &model.Type{Kind: model.Any}, model.Tag{ID: 6, Nullable: true}, 11),
	))}
	text, errs := Write(in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, want := range []string{"int64 user_id = 1;", "string reserved_ = 2;", "map<string, int32> map_ = 3;", "bool to_ = 4;",
		"int32 user_id_5 = 5;", "any any = 6;"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("IDL lacks %q:\n%s", want, text)
		}
	}
	f, err := Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fd := range f.Messages[0].Fields {
		names = append(names, fd.Name)
	}
	if got := strings.Join(names, " "); got != "user_id reserved_ map_ to_ user_id_5 any" {
		t.Errorf("parsed field names %q", got)
	}
}

// Two packages: geo registers its types by name in namespace geo, draw by
// id and names geo's types in fields and a union case. draw's file imports
// geo.fdl and names the types unqualified; each file parses, and draw's reads
// back only with geo's file.
func TestImports(t *testing.T) {
	const geoPath, drawPath = "example.com/geo", "example.com/draw"
	pointReg := model.Registration{ByName: true, Namespace: "geo", Name: "Point"}
	colorReg := model.Registration{ID: 302}
	point := &model.StructDecl{Name: "Point", Reg: pointReg, Pos: model.Pos{File: "geo.go", Line: 3, Col: 6},
		Fields: []*model.Field{field("X", prim(model.Int32), model.Tag{ID: 1}, 4)}}
	geo := &Input{PkgPath: geoPath, PkgName: "geo", Structs: planned(t, point),
		Enums:  []*model.EnumDecl{{Name: "Color", Reg: colorReg, Base: model.Int32}},
		Values: map[string][]EnumValue{"Color": {{"ColorRed", 0}, {"ColorBlue", 1}}}}
	pointT := &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: geoPath, PkgName: "geo", Name: "Point"}, Reg: pointReg}
	colorT := &model.Type{Kind: model.Enum, Named: &model.Named{PkgPath: geoPath, PkgName: "geo", Name: "Color"}, Reg: colorReg, Base: model.Int32}
	canvas := &model.StructDecl{Name: "Canvas", Reg: model.Registration{ID: 310}, Pos: model.Pos{File: "draw.go", Line: 3, Col: 6},
		Fields: []*model.Field{
			field("Origin", ptr(pointT), model.Tag{ID: 1, Nullable: true}, 4),
			field("Fill", colorT, model.Tag{ID: 2}, 5),
			field("Palette", &model.Type{Kind: model.Slice, Elem: colorT}, model.Tag{ID: 3}, 6),
			field("ByName", &model.Type{Kind: model.Map, Key: prim(model.String), Elem: colorT}, model.Tag{ID: 4}, 7),
		}}
	draw := &Input{PkgPath: drawPath, PkgName: "draw", Structs: planned(t, canvas),
		Unions: []*model.UnionDecl{{Name: "Mark", Reg: model.Registration{ID: 311}, Cases: []model.UnionCase{{ID: 1, Type: ptr(pointT)}, {ID: 2, Type: prim(model.String)}}}}}
	all := map[string]*Input{geoPath: geo, drawPath: draw}
	geo.Others, draw.Others = all, all
	if got := draw.Imports(); len(got) != 1 || got[0] != geoPath {
		t.Fatalf("draw imports %v", got)
	}
	geoText, errs := Write(*geo)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	drawText, errs := Write(*draw)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if geo.FileName() != "geo.fdl" || draw.FileName() != "draw.fdl" {
		t.Fatalf("file names %s, %s", geo.FileName(), draw.FileName())
	}
	if strings.Contains(string(geoText), "import") {
		t.Errorf("geo imports something:\n%s", geoText)
	}
	for _, want := range []string{"option enable_auto_type_id = false;\n\nimport \"geo.fdl\";\n", "Point origin = 1;", "Color fill = 2;",
		"list<Color> palette = 3;", "map<string, Color> by_name = 4;", "union Mark [id=311] {\n    Point point = 1;"} {
		if !strings.Contains(string(drawText), want) {
			t.Errorf("draw's IDL lacks %q:\n%s", want, drawText)
		}
	}
	gf, err := Parse(string(geoText))
	if err != nil {
		t.Fatal(err)
	}
	df, err := Parse(string(drawText))
	if err != nil {
		t.Fatal(err)
	}
	if len(df.Imports) != 1 || df.Imports[0] != "geo.fdl" {
		t.Fatalf("parsed imports %v", df.Imports)
	}
	if _, _, _, err := Declarations(df); err == nil || !strings.Contains(err.Error(), "unknown type Point") {
		t.Fatalf("draw's file without geo's: %v, want unknown type Point", err)
	}
	structs, _, unions, err := Declarations(df, gf)
	if err != nil {
		t.Fatal(err)
	}
	if len(structs) != 1 || len(unions) != 1 {
		t.Fatalf("draw declares %d structs, %d unions; geo's types must not be among them", len(structs), len(unions))
	}
	origin := structs[0].Fields[0].Type
	if origin.Kind != model.Pointer || origin.Elem.Reg != pointReg {
		t.Errorf("origin reads back as %+v, want *Point registered %s", origin, pointReg)
	}
	if fill := structs[0].Fields[1].Type; fill.Kind != model.Enum || fill.Reg != colorReg {
		t.Errorf("fill reads back as %+v, want the enum registered %s", fill, colorReg)
	}
	// foryc also resolves a name qualified by its file's package.
	qualified, err := Parse(strings.Replace(string(drawText), "Point origin", "geo.Point origin", 1))
	if err != nil {
		t.Fatal(err)
	}
	if structs, _, _, err := Declarations(qualified, gf); err != nil || structs[0].Fields[0].Type.Elem.Reg != pointReg {
		t.Errorf("qualified geo.Point: %v", err)
	}
}

func TestImportRefused(t *testing.T) {
	const aPath, bPath = "example.com/a", "example.com/b"
	leafA := &model.StructDecl{Name: "Leaf", Reg: model.Registration{ID: 1}, Pos: model.Pos{File: "a.go", Line: 3, Col: 6},
		Fields: []*model.Field{field("V", prim(model.Int32), model.Tag{ID: 1}, 4)}}
	leafT := &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: aPath, PkgName: "a", Name: "Leaf"}, Reg: leafA.Reg}
	tree := func() *model.StructDecl {
		return &model.StructDecl{Name: "Tree", Reg: model.Registration{ID: 2}, Pos: model.Pos{File: "b.go", Line: 3, Col: 6},
			Fields: []*model.Field{field("Leaf", ptr(leafT), model.Tag{ID: 1, Nullable: true}, 4)}}
	}
	write := func(a, b *Input) []string {
		all := map[string]*Input{aPath: a, bPath: b}
		a.Others, b.Others = all, all
		text, errs := Write(*b)
		if text != nil {
			t.Fatalf("wrote:\n%s", text)
		}
		var out []string
		for _, e := range errs {
			out = append(out, e.Error())
		}
		return out
	}
	// b declares a Leaf of its own: one scope of names in foryc.
	ownLeaf := &model.StructDecl{Name: "Leaf", Reg: model.Registration{ID: 3}, Pos: model.Pos{File: "b.go", Line: 9, Col: 6},
		Fields: []*model.Field{field("W", prim(model.Int32), model.Tag{ID: 1}, 10)}}
	errs := write(&Input{PkgPath: aPath, PkgName: "a", Structs: planned(t, leafA)}, &Input{PkgPath: bPath, PkgName: "b", Structs: planned(t, tree(), ownLeaf)})
	if want := "b.go:9:6: forygen schema: Leaf: the IDL type Leaf of example.com/b and the IDL type Leaf of example.com/a share a name in one IDL scope"; !strings.Contains(strings.Join(errs, "\n"), want) {
		t.Errorf("errors %q lack %q", errs, want)
	}
	// Two packages of one IDL package cannot import each other's file.
	errs = write(&Input{PkgPath: aPath, PkgName: "m", Structs: planned(t, leafA)}, &Input{PkgPath: bPath, PkgName: "m", Structs: planned(t, tree())})
	if want := "Tree.Leaf: a.Leaf is declared in example.com/a, whose IDL file is m.fdl too"; !strings.Contains(strings.Join(errs, "\n"), want) {
		t.Errorf("errors %q lack %q", errs, want)
	}
}
