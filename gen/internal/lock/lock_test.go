package lock

import (
	"strings"
	"testing"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

const pkgPath = "example.com/users"

func prim(k model.Kind) *model.Type { return &model.Type{Kind: k} }
func ptr(t *model.Type) *model.Type { return &model.Type{Kind: model.Pointer, Elem: t} }
func slice(t *model.Type) *model.Type {
	return &model.Type{Kind: model.Slice, Elem: t}
}
func mapOf(k, v *model.Type) *model.Type { return &model.Type{Kind: model.Map, Key: k, Elem: v} }

func structRef(name string, reg model.Registration) *model.Type {
	return &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: pkgPath, PkgName: "users", Name: name}, Reg: reg}
}

func enumRef(name string, reg model.Registration) *model.Type {
	return &model.Type{Kind: model.Enum, Named: &model.Named{PkgPath: pkgPath, PkgName: "users", Name: name}, Reg: reg, Base: model.Int32}
}

func tag(id int) model.Tag { return model.Tag{ID: id} }

func field(name string, t *model.Type, tg model.Tag, line int) *model.Field {
	return &model.Field{GoName: name, Type: t, Tag: tg, Pos: model.Pos{File: "users.go", Line: line, Col: 2}}
}

var (
	idLeaf  = model.Registration{ID: 11}
	idOther = model.Registration{ID: 12}
)

// base is version 1 of the package every case changes.
func base() []*model.StructDecl {
	return []*model.StructDecl{
		{Name: "User", Pos: model.Pos{File: "users.go", Line: 1, Col: 6}, Reg: model.Registration{ID: 10}, Fields: []*model.Field{
			field("ID", prim(model.Int64), tag(1), 2),
			field("Name", prim(model.String), tag(2), 3),
			field("Age", prim(model.Int32), tag(3), 4),
			field("Score", prim(model.Float64), tag(4), 5),
			field("Ratio", prim(model.Float32), tag(5), 6),
			field("Nums", slice(prim(model.Int32)), tag(6), 7),
			field("Attrs", mapOf(prim(model.String), prim(model.Int32)), tag(7), 8),
			field("Nick", ptr(prim(model.String)), tag(8), 9),
			field("Leaf", ptr(structRef("Leaf", idLeaf)), tag(9), 10),
			field("Email", prim(model.String), model.Tag{ID: -1}, 11),
			field("Count", prim(model.Uint32), tag(10), 12),
			field("Raw", slice(prim(model.Uint8)), tag(11), 13),
			field("PNums", slice(ptr(prim(model.Int32))), tag(12), 14),
			field("Level", enumRef("Level", model.Registration{ID: 13}), tag(13), 15),
			field("Big", prim(model.Int), tag(14), 16),
		}},
		{Name: "Leaf", Pos: model.Pos{File: "users.go", Line: 20, Col: 6}, Reg: idLeaf, Fields: []*model.Field{
			field("V", prim(model.Int32), tag(1), 21),
		}},
		{Name: "Other", Pos: model.Pos{File: "users.go", Line: 30, Col: 6}, Reg: idOther, Fields: []*model.Field{
			field("V", prim(model.Int32), tag(1), 31),
		}},
	}
}

var pickReg = model.Registration{ID: 15}

func unions() []*model.UnionDecl {
	return []*model.UnionDecl{{Name: "Pick", Reg: pickReg, Pos: model.Pos{File: "users.go", Line: 45, Col: 6},
		Cases: []model.UnionCase{{ID: 1, Type: ptr(structRef("Leaf", idLeaf))}, {ID: 2, Type: prim(model.String)}}}}
}

// enumVals holds the constants of the enums enums() returns (model.EnumDecl
// has none: load.EnumConstants finds them).
var enumVals = map[*model.EnumDecl][]EnumValue{}

func constant(name string, v int64, line int) EnumValue {
	return EnumValue{Name: name, Value: v, Pos: model.Pos{File: "users.go", Line: line, Col: 2}}
}

func enums() []*model.EnumDecl {
	e := &model.EnumDecl{Name: "Level", Reg: model.Registration{ID: 13}, Base: model.Int32, Pos: model.Pos{File: "users.go", Line: 40, Col: 6}}
	// Max is an alias of High.
	enumVals[e] = []EnumValue{constant("Low", 0, 41), constant("Mid", 1, 42), constant("High", 2, 43), constant("Max", 2, 44)}
	return []*model.EnumDecl{e}
}

// setConstant changes, adds (old == "") or removes (name == "") a constant.
func setConstant(e *model.EnumDecl, old, name string, v int64) {
	var vs []EnumValue
	for _, c := range enumVals[e] {
		if c.Name == old {
			if name != "" {
				vs = append(vs, constant(name, v, c.Pos.Line))
			}
			continue
		}
		vs = append(vs, c)
	}
	if old == "" {
		vs = append(vs, constant(name, v, 45))
	}
	enumVals[e] = vs
}

func build(t testing.TB, structs []*model.StructDecl, es []*model.EnumDecl, same map[string]bool) *File {
	return buildU(t, structs, es, unions(), same)
}

func buildU(t testing.TB, structs []*model.StructDecl, es []*model.EnumDecl, us []*model.UnionDecl, same map[string]bool) *File {
	t.Helper()
	plans := map[*model.StructDecl]*plan.Struct{}
	for _, s := range structs {
		ps, errs := plan.PlanStruct(s)
		if len(errs) > 0 {
			t.Fatalf("plan %s: %v", s.Name, errs)
		}
		plans[s] = ps
	}
	pkg := &model.Package{Path: pkgPath, Name: "users", Files: []*model.File{{Path: "users.go", Structs: structs, Enums: es, Unions: us}}}
	values := map[string][]EnumValue{}
	for _, e := range es {
		values[pkgPath+"."+e.Name] = enumVals[e]
	}
	prev := map[string]Options{}
	if same["tracking"] {
		for _, s := range structs {
			prev[pkgPath+"."+s.Name] = Options{Mode: ModeCompatible, Tracking: true}
		}
	}
	return Build([]*model.Package{pkg}, plans, prev, same, nil, values)
}

func user(ss []*model.StructDecl) *model.StructDecl { return ss[0] }

func fieldOf(s *model.StructDecl, name string) *model.Field {
	for _, f := range s.Fields {
		if f.GoName == name {
			return f
		}
	}
	panic(name)
}

func TestChangeKinds(t *testing.T) {
	cases := []struct {
		name     string
		same     map[string]bool // types locked in same-schema mode
		change   func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl)
		verdict  plan.Verdict
		what     string // a substring of the change's What
		nChanges int    // 0 means 1
	}{
		{"field added", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			user(ss).Fields = append(user(ss).Fields, field("Phone", prim(model.String), tag(20), 17))
			return ss, es
		}, plan.Safe, "field added", 0},
		{"field removed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			user(ss).Fields = user(ss).Fields[1:]
			return ss, es
		}, plan.Safe, "field removed", 0},
		{"widening float32 to float64", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Ratio").Type = prim(model.Float64)
			return ss, es
		}, plan.Lossy, "widened from float32 to float64", 0},
		{"narrowing int64 to int32", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "ID").Type = prim(model.Int32)
			return ss, es
		}, plan.Lossy, "narrowed from varint64 to varint32", 0},
		{"widening int32 to int64", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Age").Type = prim(model.Int64)
			return ss, es
		}, plan.Lossy, "widened from varint32 to varint64", 0},
		{"narrowing float64 to float32", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Score").Type = prim(model.Float32)
			return ss, es
		}, plan.Lossy, "narrowed from float64 to float32", 0},
		{"int to int32 by encoding=varint", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Big").Tag.Encoding = "varint"
			return ss, es
		}, plan.Lossy, "narrowed from varint64 to varint32", 0},
		{"encoding varint to fixed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Age").Tag.Encoding = "fixed"
			return ss, es
		}, plan.Safe, "encoding changed from varint32 to int32", 0},
		{"encoding varint to tagged", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "ID").Tag.Encoding = "tagged"
			return ss, es
		}, plan.Safe, "encoding changed from varint64 to tagged_int64", 0},
		{"unsigned to signed of the same width", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Count").Type = prim(model.Int32)
			return ss, es
		}, plan.Lossy, "converted from var_uint32 to varint32", 0},
		{"number to string", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Age").Type = prim(model.String)
			return ss, es
		}, plan.Breaking, "type changed from varint32 to string", 0},
		{"enum to integer", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Level").Type = prim(model.Int32)
			return ss, es
		}, plan.Breaking, "type changed from enum(id=13) to varint32", 0},
		{"list to dense array", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Nums").Tag.Hint = &model.Hint{Name: "array", Element: &model.Hint{Name: "int32", Original: "int32"}, Original: "array(element=int32)"}
			return ss, es
		}, plan.Safe, "list ↔ array conversion from list<varint32> to int32_array", 0},
		{"list with nullable elements to dense array", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			f := fieldOf(user(ss), "PNums")
			f.Type = slice(prim(model.Int32))
			f.Tag.Hint = &model.Hint{Name: "array", Element: &model.Hint{Name: "int32", Original: "int32"}, Original: "array(element=int32)"}
			return ss, es
		}, plan.Lossy, "to int32_array", 0},
		{"list to dense array of another width", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			f := fieldOf(user(ss), "Nums")
			f.Type = slice(prim(model.Int64))
			f.Tag.Hint = &model.Hint{Name: "array", Element: &model.Hint{Name: "int64", Original: "int64"}, Original: "array(element=int64)"}
			return ss, es
		}, plan.Breaking, "type changed from list<varint32> to int64_array", 0},
		{"list of int32 to list of int64", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Nums").Type = slice(prim(model.Int64))
			return ss, es
		}, plan.Breaking, "type changed from list<varint32> to list<varint64>", 0},
		{"list of uint8 to BINARY", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Raw").Tag.Hint = &model.Hint{Name: "bytes", Original: "bytes"}
			return ss, es
		}, plan.Safe, "list ↔ array conversion from list<uint8> to binary", 0},
		{"list to set", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Nums").Type = &model.Type{Kind: model.Set, Elem: prim(model.Int32)}
			return ss, es
		}, plan.Breaking, "type changed from list<varint32> to set<varint32>", 0},
		{"element became nullable", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Nums").Type = slice(ptr(prim(model.Int32)))
			return ss, es
		}, plan.Safe, "element nullability changed from list<varint32> to list<?varint32>", 0},
		{"map key type changed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Attrs").Type = mapOf(prim(model.Int32), prim(model.Int32))
			return ss, es
		}, plan.Breaking, "map key type changed from string to varint32", 0},
		{"map value type changed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Attrs").Type = mapOf(prim(model.String), prim(model.Int64))
			return ss, es
		}, plan.Breaking, "map value type changed from varint32 to varint64", 0},
		{"field became nullable", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Name").Type = ptr(prim(model.String))
			return ss, es
		}, plan.Lossy, "became nullable", 0},
		{"field no longer nullable", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Nick").Type = prim(model.String)
			return ss, es
		}, plan.Lossy, "no longer nullable", 0},
		{"ref added", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Leaf").Tag.Ref, fieldOf(user(ss), "Leaf").Tag.RefSet = true, true
			return ss, es
		}, plan.Breaking, "ref added", 0},
		{"ref=false on a struct field, peers without tracking: no change", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Leaf").Tag.Ref, fieldOf(user(ss), "Leaf").Tag.RefSet = false, true
			return ss, es
		}, plan.Safe, "", -1},
		{"ref=false on a struct field, peers tracking references", map[string]bool{"tracking": true}, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Leaf").Tag.Ref, fieldOf(user(ss), "Leaf").Tag.RefSet = false, true
			return ss, es
		}, plan.Breaking, "no longer tracked by reference (with WithTrackRef)", 0},
		{"list of tracked structs added, peers tracking references", map[string]bool{"tracking": true}, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			u := user(ss)
			u.Fields = append(u.Fields, field("Leaves", slice(ptr(structRef("Leaf", idLeaf))), tag(20), 17))
			return ss, es
		}, plan.Safe, "field added", 0},
		{"nested struct is another type", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Leaf").Type = ptr(structRef("Other", idOther))
			return ss, es
		}, plan.Breaking, "compatible_struct(id=11) to compatible_struct(id=12)", 0},
		{"tag id reused with another type", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			u := user(ss)
			u.Fields = u.Fields[1:]                                                     // ID (id=1) removed …
			u.Fields = append(u.Fields, field("Token", prim(model.String), tag(1), 17)) // … and id=1 reused
			return ss, es
		}, plan.Breaking, "tag id 1 reused with another type", 0},
		{"identifier changed (id= tag added)", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Email").Tag.ID = 30
			return ss, es
		}, plan.Lossy, "identifier changed from email to 30", 0},
		{"Go field renamed, same id tag: no change", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Name").GoName = "FullName"
			return ss, es
		}, plan.Safe, "", -1},
		{"registration id changed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			user(ss).Reg = model.Registration{ID: 99}
			return ss, es
		}, plan.Breaking, "registration changed", 0},
		{"registration by id to by name", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			user(ss).Reg = model.Registration{ByName: true, Namespace: "users", Name: "User"}
			return ss, es
		}, plan.Breaking, "registration changed", 0},
		{"enum registration changed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			es[0].Reg = model.Registration{ID: 14}
			return ss, es
		}, plan.Breaking, "registration changed", 0},
		{"enum constant added", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			setConstant(es[0], "", "Top", 3)
			return ss, es
		}, plan.Safe, "constant Top added", 0},
		{"enum constant removed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			setConstant(es[0], "Low", "", 0)
			return ss, es
		}, plan.Lossy, "constant Low removed", 0},
		{"enum alias removed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			setConstant(es[0], "Max", "", 0)
			return ss, es
		}, plan.Safe, "constant Max removed (ordinal 2 is still High)", 0},
		{"enum constant renumbered", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			setConstant(es[0], "Mid", "Mid", 5)
			return ss, es
		}, plan.Breaking, "constant Mid renumbered from 1 to 5", 0},
		{"enum constants swapped", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			setConstant(es[0], "Low", "Low", 1)
			setConstant(es[0], "Mid", "Mid", 0)
			return ss, es
		}, plan.Breaking, "constant Low renumbered from 0 to 1", 2},
		{"enum constant renamed, same ordinal", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			setConstant(es[0], "Low", "None", 0)
			return ss, es
		}, plan.Safe, "constant Low renamed to None", 0},
		{"enum constants reordered in the source: no change", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			vs := enumVals[es[0]]
			vs[0], vs[3] = vs[3], vs[0]
			return ss, es
		}, plan.Safe, "", -1},
		{"type removed", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			return ss[:2], es
		}, plan.Breaking, "type removed", 0},
		{"type added", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			return append(ss, &model.StructDecl{Name: "New", Pos: model.Pos{File: "users.go", Line: 50, Col: 6}, Reg: model.Registration{ID: 50}, Fields: []*model.Field{field("V", prim(model.Int32), tag(1), 51)}}), es
		}, plan.Safe, "type added", 0},
		{"same-schema mode: field added", map[string]bool{"User": true}, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			user(ss).Fields = append(user(ss).Fields, field("Phone", prim(model.String), tag(20), 17))
			return ss, es
		}, plan.Breaking, "field added (same-schema mode)", 0},
		{"same-schema mode: encoding changed", map[string]bool{"User": true}, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Age").Tag.Encoding = "fixed"
			return ss, es
		}, plan.Breaking, "encoding changed from varint32 to int32 (same-schema mode)", 0},
		{"same-schema mode: nullable tag on a pointer (hash only)", map[string]bool{"User": true}, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			fieldOf(user(ss), "Nick").Tag.Nullable = true
			return ss, es
		}, plan.Breaking, "schema hash changed (same-schema mode)", 0},
		{"same-schema mode: a nested struct gains a field", map[string]bool{"User": true}, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			ss[1].Fields = append(ss[1].Fields, field("W", prim(model.Int32), tag(2), 22))
			return ss, es
		}, plan.Breaking, "field added (same-schema mode)", 0},
		{"struct used as a map value gains a field", nil, func(ss []*model.StructDecl, es []*model.EnumDecl) ([]*model.StructDecl, []*model.EnumDecl) {
			u := user(ss)
			u.Fields = append(u.Fields, field("Leaves", mapOf(prim(model.String), structRef("Leaf", idLeaf)), tag(20), 17))
			ss[1].Fields = append(ss[1].Fields, field("W", prim(model.Int32), tag(2), 22))
			return ss, es
		}, plan.Breaking, "(the struct is a map key or value)", 2},
	}
	if len(cases) < 20 {
		t.Fatalf("only %d change kinds", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old := build(t, base(), enums(), c.same)
			// The old lock goes through its text form, as it does on disk.
			parsed, err := Parse("fory.lock", old.Marshal())
			if err != nil {
				t.Fatal(err)
			}
			ss, es := c.change(base(), enums())
			cur := build(t, ss, es, nil)
			changes := Diff(parsed, cur)
			want := c.nChanges
			if want == 0 {
				want = 1
			}
			if want < 0 {
				if len(changes) != 0 {
					t.Fatalf("want no change, got %v", changes)
				}
				return
			}
			if len(changes) != want {
				t.Fatalf("want %d changes, got %d: %v", want, len(changes), changes)
			}
			var hit *Change
			for i := range changes {
				if strings.Contains(changes[i].What, c.what) {
					hit = &changes[i]
				}
			}
			if hit == nil {
				t.Fatalf("no change says %q: %v", c.what, changes)
			}
			if hit.Verdict != c.verdict {
				t.Fatalf("%q: verdict %s, want %s\n%s", hit.What, hit.Verdict, c.verdict, hit)
			}
			t.Log("\n" + hit.String())
			if hit.Pos.File == "" || hit.Pos.Line == 0 {
				t.Fatalf("change without a position: %s", hit)
			}
			if hit.Verdict != plan.Safe && hit.OldPeer == "" && hit.NewPeer == "" {
				t.Fatalf("change does not say what peers see: %s", hit)
			}
		})
	}
}

func TestUnionChanges(t *testing.T) {
	old, err := Parse("fory.lock", build(t, base(), enums(), nil).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		cases   []model.UnionCase
		verdict plan.Verdict
		what    string
	}{
		{"case added", append(unions()[0].Cases, model.UnionCase{ID: 3, Type: prim(model.Int64)}), plan.Lossy, "case 3 added"},
		{"case removed", unions()[0].Cases[:1], plan.Lossy, "case 2 removed"},
		{"case type changed", []model.UnionCase{unions()[0].Cases[0], {ID: 2, Type: prim(model.Int32)}}, plan.Breaking, "case 2 type changed from string to int32"},
		{"case struct changed (both struct ids)", []model.UnionCase{{ID: 1, Type: ptr(structRef("Other", idOther))}, unions()[0].Cases[1]}, plan.Breaking, "case 1 type changed from *Leaf to *Other"},
		{"case pointer to value, same struct", []model.UnionCase{{ID: 1, Type: structRef("Leaf", idLeaf)}, unions()[0].Cases[1]}, plan.Safe, "case 1 Go type changed from *Leaf to Leaf, the same wire type"},
		{"case struct renamed, same registration", []model.UnionCase{{ID: 1, Type: ptr(structRef("Leaf2", idLeaf))}, unions()[0].Cases[1]}, plan.Safe, "case 1 Go type changed from *Leaf to *Leaf2"},
	} {
		us := unions()
		us[0].Cases = c.cases
		changes := Diff(old, buildU(t, base(), enums(), us, nil))
		if len(changes) != 1 || changes[0].Verdict != c.verdict || !strings.Contains(changes[0].What, c.what) {
			t.Errorf("%s: %v", c.name, changes)
			continue
		}
		t.Log("\n" + changes[0].String())
		if c.verdict == plan.Breaking && (changes[0].Old == "" || changes[0].New == "" || changes[0].OldPeer == "" || changes[0].NewPeer == "") {
			t.Errorf("%s: want both declarations and both peers: %s", c.name, changes[0])
		}
	}
	// The old and new declarations of a struct case changed to another struct.
	us := unions()
	us[0].Cases[0].Type = ptr(structRef("Other", idOther))
	changes := Diff(old, buildU(t, base(), enums(), us, nil))
	if len(changes) != 1 || changes[0].Old != "1=*Leaf (compatible_struct(id=11))" || changes[0].New != "1=*Other (compatible_struct(id=12))" {
		t.Errorf("struct case changed: %v", changes)
	}
	// A lock written before cases had Go types compares them by wire type.
	text := strings.ReplaceAll(string(build(t, base(), enums(), nil).Marshal()), " go=*Leaf", "")
	text = strings.ReplaceAll(text, " go=string", "")
	older, err := Parse("fory.lock", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if changes := Diff(older, build(t, base(), enums(), nil)); len(changes) != 0 {
		t.Errorf("a lock without case Go types differs from its declarations: %v", changes)
	}
	changes = Diff(older, buildU(t, base(), enums(), us, nil))
	if len(changes) != 1 || changes[0].Verdict != plan.Breaking || !strings.Contains(changes[0].What, "compatible_struct(id=11) to compatible_struct(id=12)") {
		t.Errorf("struct case changed, old lock: %v", changes)
	}
}

func TestLockText(t *testing.T) {
	text := string(build(t, base(), enums(), nil).Marshal())
	for _, want := range []string{
		"\nenum Level id=13 base=int32\n\tvalue Low = 0\n\tvalue Mid = 1\n\tvalue High = 2\n\tvalue Max = 2\n",
		"\nunion Pick id=15\n\tcase 1 compatible_struct(id=11) go=*Leaf\n\tcase 2 string go=string\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("lock lacks %q:\n%s", want, text)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f := build(t, base(), enums(), map[string]bool{"Leaf": true})
	text := f.Marshal()
	g, err := Parse("fory.lock", text)
	if err != nil {
		t.Fatal(err)
	}
	if string(g.Marshal()) != string(text) {
		t.Fatalf("round trip differs:\n%s\n---\n%s", text, g.Marshal())
	}
	if changes := Diff(g, f); len(changes) != 0 {
		t.Fatalf("a lock differs from its own declarations: %v", changes)
	}
	if g.Options()[pkgPath+".Leaf"].Mode != ModeSameSchema || g.Options()[pkgPath+".User"].Mode != ModeCompatible {
		t.Fatalf("modes not kept: %v", g.Options())
	}
	// A relock keeps the modes of the old lock.
	ss := base()
	h := Build([]*model.Package{{Path: pkgPath, Files: []*model.File{{Structs: ss}}}}, plansOf(t, ss), g.Options(), nil, map[string]bool{"Other": true}, nil)
	for _, ty := range h.Packages[0].Types {
		want := g.Options()[pkgPath+"."+ty.Name]
		want.Tracking = want.Tracking || ty.Name == "Other"
		if got := (Options{ty.Mode, ty.Tracking}); got != want {
			t.Errorf("%s: relocked as %+v, want %+v", ty.Name, got, want)
		}
	}
	if !strings.Contains(string(h.Marshal()), "struct Other id=12 mode=compatible tracking=on") {
		t.Errorf("tracking not written:\n%s", h.Marshal())
	}
}

func plansOf(t *testing.T, ss []*model.StructDecl) map[*model.StructDecl]*plan.Struct {
	m := map[*model.StructDecl]*plan.Struct{}
	for _, s := range ss {
		ps, errs := plan.PlanStruct(s)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		m[s] = ps
	}
	return m
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"struct A id=1\n",                                       // before package
		"package p\nstruct A\n",                                 // no registration
		"package p\nstruct A id=1 mode=loose\n",                 // unknown mode
		"package p\nstruct A id=1\n\tfield 1 int33 decl=\"\"\n", // unknown type
		"package p\nstruct A id=1\n\tfield 1 list<int32 decl=\"\"\n",
		"package p\nfield 1 int32 decl=\"\"\n",
		"package p\nwhat\n",
		"package p\nvalue A = 1\n",                           // value outside an enum
		"package p\nenum E id=1 base=int32\n\tvalue A 1\n",   // no =
		"package p\nenum E id=1 base=int32\n\tvalue A = x\n", // not a number
		"package p\nunion U id=1\n\tcase 1 string go=\n",     // empty Go type
		"package p\nunion U id=1\n\tcase 1 string str\n",     // unknown word
		// Types TypeRef.String never writes (issue 25 item 3: map and
		// map<string> panicked in the comparison, the others were
		// reported as breaking changes).
		"package p\nstruct A id=1\n\tfield 1 list decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 list<a,b,c> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 list<int32,int32> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 type255 decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 map decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 map<string> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 set<> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 int32<int32> decl=\"\"\n",
		"package p\nunion U id=1\n\tcase 1 map<string> go=M\n",
	} {
		if _, err := Parse("fory.lock", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		} else if !strings.HasPrefix(err.Error(), "fory.lock:") {
			t.Errorf("%q: error %q does not name the line", bad, err)
		}
	}
}

// Every malformed type names its line: the lock is parsed before any
// comparison, so -check reports the line instead of panicking (issue 25
// item 3).
func TestParseBadTypesNameTheLine(t *testing.T) {
	for _, typ := range []string{"map", "map<string>", "list", "list<a,b,c>", "type255"} {
		text := "# comment\npackage p\nstruct A id=1\n\tfield a int32 go=A decl=\"\"\n\tfield b " + typ + " go=B decl=\"\"\n"
		_, err := Parse("dir/fory.lock", []byte(text))
		if err == nil || !strings.HasPrefix(err.Error(), "dir/fory.lock:5: ") {
			t.Errorf("%s: error %v, want one at dir/fory.lock:5", typ, err)
		}
	}
}

// FuzzParse: a lock file is user-edited input. Parse never panics; what it
// parses writes back to text that parses to the same lock, and compares
// with itself and with a lock of real declarations without a panic.
func FuzzParse(f *testing.F) {
	cur := buildU(f, base(), enums(), unions(), nil)
	text := cur.Marshal()
	f.Add(text)
	f.Add(buildU(f, base(), enums(), unions(), map[string]bool{"tracking": true, "Leaf": true}).Marshal())
	for _, line := range []string{"field 5 map<string> go=X decl=\"\"", "field 5 map go=X decl=\"\"", "field 5 list<a,b,c> decl=\"\"",
		"field id type255 decl=\"\"", "field id list<?&compatible_struct(id=5)> nullable ref tracked go=X decl=\"X []*T\""} {
		f.Add([]byte("package " + pkgPath + "\nstruct User id=10 mode=compatible hash=0x1\n\t" + line + "\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse("fory.lock", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fory.lock:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		out := g.Marshal()
		h, err := Parse("fory.lock", out)
		if err != nil {
			t.Fatalf("written lock does not parse: %v\n%s", err, out)
		}
		if again := h.Marshal(); string(again) != string(out) {
			t.Fatalf("round trip differs:\n%s\n---\n%s", out, again)
		}
		_ = Diff(g, h)
		_ = Diff(g, cur)
		_ = Diff(cur, g)
		_ = g.Options()
	})
}
