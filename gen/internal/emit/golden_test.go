package emit

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// update rewrites the golden files: go test ./gen/internal/emit -update.
var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// The golden tests of emit: one struct per construct, T with one field of
// that kind (and, for a nested struct, the struct it names), whose
// generated body writers and readers are compared with
// testdata/<construct>.golden. ForyRead holds both modes; foryWriteRef is
// the writer with reference tracking. A change to how one construct is
// written shows as a diff of its file alone; the entry points and the type
// information, the same for every struct, are in entry.golden.

func prim(k model.Kind) *model.Type { return &model.Type{Kind: k} }

func ptrTo(t *model.Type) *model.Type { return &model.Type{Kind: model.Pointer, Elem: t} }

func sliceOf(t *model.Type) *model.Type { return &model.Type{Kind: model.Slice, Elem: t} }

// leafType is the nested struct the struct constructs refer to, declared
// in the same file.
var leafType = &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: "example.com/p", Name: "Leaf"}, Reg: model.Registration{ID: 2}}

var colorType = &model.Type{Kind: model.Enum, Named: &model.Named{PkgPath: "example.com/p", Name: "Color"}}

func noTag() model.Tag { return model.Tag{ID: 1} }

var constructs = []struct {
	name string
	t    *model.Type
	tag  func() model.Tag
}{
	{"bool", prim(model.Bool), noTag},
	{"int8", prim(model.Int8), noTag},
	{"int32_varint", prim(model.Int32), noTag},
	{"int32_fixed", prim(model.Int32), func() model.Tag { t := noTag(); t.Encoding = "fixed"; return t }},
	{"int64_tagged", prim(model.Int64), func() model.Tag { t := noTag(); t.Encoding = "tagged"; return t }},
	{"uint64", prim(model.Uint64), noTag},
	{"float64", prim(model.Float64), noTag},
	{"string", prim(model.String), noTag},
	{"pointer_int32", ptrTo(prim(model.Int32)), noTag},
	{"enum", colorType, noTag},
	{"time", prim(model.Time), noTag},
	{"array_int32", sliceOf(prim(model.Int32)), func() model.Tag {
		t := noTag()
		t.Hint = &model.Hint{Name: "array", Element: &model.Hint{Name: "int32", Original: "int32"}, Original: "array(element=int32)"}
		return t
	}},
	{"list_string", sliceOf(prim(model.String)), noTag},
	{"map_string_int32", &model.Type{Kind: model.Map, Key: prim(model.String), Elem: prim(model.Int32)}, noTag},
	{"struct_value", leafType, noTag},
	{"struct_pointer", ptrTo(leafType), noTag},
	{"list_struct", sliceOf(leafType), noTag},
	{"list_struct_pointer", sliceOf(ptrTo(leafType)), noTag},
	{"any", prim(model.Any), noTag},
}

// bodyFuncs are the generated methods that hold field code, with the
// shared value writer and readers of the field F.
var bodyFuncs = map[string]bool{
	"ForyWrite": true, "foryWriteFlat": true, "foryWriteRef": true,
	"ForyRead": true, "foryReadFrom": true, "ForyReadEvolved": true,
	"foryWriteF": true, "foryReadF": true, "foryReadFRef": true,
}

func renderFile(t *testing.T, structs ...*model.StructDecl) []byte {
	t.Helper()
	var ps []*plan.Struct
	for _, s := range structs {
		p, errs := plan.PlanStruct(s)
		if len(errs) > 0 {
			t.Fatalf("plan %s: %v", s.Name, errs)
		}
		ps = append(ps, p)
	}
	src, err := Render(Input{PkgPath: "example.com/p", PkgName: "p", Structs: ps,
		Enums: []*model.EnumDecl{{Name: "Color", Reg: model.Registration{ID: 3}, Base: model.Int32}}})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// funcsOf is the source of the methods of recv in src named in names.
func funcsOf(t *testing.T, src []byte, recv string, names map[string]bool) []byte {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || !names[fd.Name.Name] {
			continue
		}
		if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); !ok || star.X.(*ast.Ident).Name != recv {
			continue
		}
		if err := printer.Fprint(&out, fset, &printer.CommentedNode{Node: fd, Comments: f.Comments}); err != nil {
			t.Fatal(err)
		}
		out.WriteString("\n\n")
	}
	return out.Bytes()
}

func leaf() *model.StructDecl {
	return &model.StructDecl{Name: "Leaf", Reg: model.Registration{ID: 2},
		Fields: []*model.Field{{GoName: "N", Type: prim(model.Int32), Tag: model.Tag{ID: 1}}}}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./gen/internal/emit -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the generated code; if the change is meant, run go test ./gen/internal/emit -update and review the diff", path)
	}
}

func TestConstructGolden(t *testing.T) {
	for _, c := range constructs {
		t.Run(c.name, func(t *testing.T) {
			s := &model.StructDecl{Name: "T", Reg: model.Registration{ID: 1},
				Fields: []*model.Field{{GoName: "F", Type: c.t, Tag: c.tag()}}}
			checkGolden(t, c.name, funcsOf(t, renderFile(t, s, leaf()), "T", bodyFuncs))
		})
	}
}

// TestEntryGolden is the whole file of a struct with one field: type
// information, root prefixes, shape guard and entry points.
func TestEntryGolden(t *testing.T) {
	s := &model.StructDecl{Name: "T", Reg: model.Registration{ID: 1},
		Fields: []*model.Field{{GoName: "F", Type: sliceOf(prim(model.String)), Tag: noTag()}}}
	checkGolden(t, "entry", renderFile(t, s))
}

// TestValueMethodNames: a field's value methods are named after it, and a
// field whose name would give one the name of another method gets another
// (method): From, Flat and Ref against foryReadFrom, foryWriteFlat and
// foryWriteRef, MRef against M's tracking reader. Fields of one type
// share a reader, named after the first (A and B: foryReadA).
func TestValueMethodNames(t *testing.T) {
	var fields []*model.Field
	for i, k := range []model.Kind{model.Int32, model.Int64, model.Uint16, model.Uint32} {
		name := []string{"From", "Flat", "Ref", "MRef"}[i]
		fields = append(fields, &model.Field{GoName: name, Type: sliceOf(prim(k)), Tag: model.Tag{ID: i + 1}})
	}
	fields = append(fields,
		&model.Field{GoName: "M", Type: &model.Type{Kind: model.Map, Key: prim(model.String), Elem: ptrTo(leafType)}, Tag: model.Tag{ID: 5}},
		&model.Field{GoName: "P", Type: ptrTo(leafType), Tag: model.Tag{ID: 6}},
		&model.Field{GoName: "A", Type: sliceOf(prim(model.Int8)), Tag: model.Tag{ID: 7}},
		&model.Field{GoName: "B", Type: sliceOf(prim(model.Int8)), Tag: model.Tag{ID: 8}})
	s := &model.StructDecl{Name: "T", Reg: model.Registration{ID: 1}, Fields: fields}
	src := renderFile(t, s, leaf())
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil {
			continue
		}
		if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); !ok || star.X.(*ast.Ident).Name != "T" {
			continue
		}
		if seen[fd.Name.Name] {
			t.Errorf("method %s declared twice", fd.Name.Name)
		}
		seen[fd.Name.Name] = true
	}
	for _, want := range []string{"foryWriteRef", "foryWriteFlat_", "foryWriteRef_", "foryWriteFrom", "foryWriteMRef",
		"foryReadFlat", "foryReadRef", "foryReadMRef", "foryReadM", "foryReadMRef_", "foryReadA"} {
		if !seen[want] {
			t.Errorf("no method %s; T has %v", want, seen)
		}
	}
	if seen["foryReadB"] {
		t.Errorf("B has a reader of its own; A's reads the same type")
	}
	if !strings.Contains(string(src), "x.B = x.foryReadA(c, x.B)") {
		t.Errorf("B is not read with A's reader")
	}
}
