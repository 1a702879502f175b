// Package changekind is the table of schema changes that `forygen -check`
// classifies: a package of three structs, an enum and a union, and each kind
// of change to it with the verdict plan gives it. Two tests share it: lock's
// TestChangeKinds checks the verdicts, and gen's TestReaderAgreement drives
// every change through generated code and the runtime reader and checks
// that the reader does what the verdict says.
package changekind

import (
	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// PkgPath is the import path of the package the cases change.
const PkgPath = "example.com/users"

// Const is an enum constant: its name and ordinal.
type Const struct {
	Name  string
	Value int64
	Pos   model.Pos
}

// Schema is one version of the package: its structs (User, Leaf, Other),
// enums (Level), unions (Pick) and the enums' constants by enum name.
type Schema struct {
	Structs []*model.StructDecl
	Enums   []*model.EnumDecl
	Unions  []*model.UnionDecl
	Consts  map[string][]Const
}

// Prim is a primitive type.
func Prim(k model.Kind) *model.Type { return &model.Type{Kind: k} }

// Ptr is *t.
func Ptr(t *model.Type) *model.Type { return &model.Type{Kind: model.Pointer, Elem: t} }

// Slice is []t.
func Slice(t *model.Type) *model.Type { return &model.Type{Kind: model.Slice, Elem: t} }

// MapOf is map[k]v.
func MapOf(k, v *model.Type) *model.Type { return &model.Type{Kind: model.Map, Key: k, Elem: v} }

// StructRef is the generated struct name of the package.
func StructRef(name string, reg model.Registration) *model.Type {
	return &model.Type{Kind: model.Struct, Named: &model.Named{PkgPath: PkgPath, PkgName: "users", Name: name}, Reg: reg}
}

// EnumRef is the int32 enum name of the package.
func EnumRef(name string, reg model.Registration) *model.Type {
	return &model.Type{Kind: model.Enum, Named: &model.Named{PkgPath: PkgPath, PkgName: "users", Name: name}, Reg: reg, Base: model.Int32}
}

// Tag is `fory:"id=N"`.
func Tag(id int) model.Tag { return model.Tag{ID: id} }

// Field is a field declared on line line of users.go.
func Field(name string, t *model.Type, tg model.Tag, line int) *model.Field {
	return &model.Field{GoName: name, Type: t, Tag: tg, Pos: model.Pos{File: "users.go", Line: line, Col: 2}}
}

// The registrations of the base schema.
var (
	UserReg  = model.Registration{ID: 10}
	LeafReg  = model.Registration{ID: 11}
	OtherReg = model.Registration{ID: 12}
	LevelReg = model.Registration{ID: 13}
	PickReg  = model.Registration{ID: 15}
)

// ConstAt is a constant declared on line line.
func ConstAt(name string, v int64, line int) Const {
	return Const{Name: name, Value: v, Pos: model.Pos{File: "users.go", Line: line, Col: 2}}
}

// Base is version 1 of the package every case changes.
func Base() *Schema {
	return &Schema{
		Structs: []*model.StructDecl{
			{Name: "User", Pos: model.Pos{File: "users.go", Line: 1, Col: 6}, Reg: UserReg, Fields: []*model.Field{
				Field("ID", Prim(model.Int64), Tag(1), 2),
				Field("Name", Prim(model.String), Tag(2), 3),
				Field("Age", Prim(model.Int32), Tag(3), 4),
				Field("Score", Prim(model.Float64), Tag(4), 5),
				Field("Ratio", Prim(model.Float32), Tag(5), 6),
				Field("Nums", Slice(Prim(model.Int32)), Tag(6), 7),
				Field("Attrs", MapOf(Prim(model.String), Prim(model.Int32)), Tag(7), 8),
				Field("Nick", Ptr(Prim(model.String)), Tag(8), 9),
				Field("Leaf", Ptr(StructRef("Leaf", LeafReg)), Tag(9), 10),
				Field("Email", Prim(model.String), model.Tag{ID: -1}, 11),
				Field("Count", Prim(model.Uint32), Tag(10), 12),
				Field("Raw", Slice(Prim(model.Uint8)), Tag(11), 13),
				Field("PNums", Slice(Ptr(Prim(model.Int32))), Tag(12), 14),
				Field("Level", EnumRef("Level", LevelReg), Tag(13), 15),
				Field("Big", Prim(model.Int), Tag(14), 16),
				Field("Alt", Ptr(StructRef("Leaf", LeafReg)), Tag(15), 17),
				Field("Halves", Slice(Prim(model.Float16)), Tag(16), 18),
			}},
			{Name: "Leaf", Pos: model.Pos{File: "users.go", Line: 20, Col: 6}, Reg: LeafReg, Fields: []*model.Field{
				Field("V", Prim(model.Int32), Tag(1), 21),
			}},
			{Name: "Other", Pos: model.Pos{File: "users.go", Line: 30, Col: 6}, Reg: OtherReg, Fields: []*model.Field{
				Field("V", Prim(model.Int32), Tag(1), 31),
			}},
		},
		// Max is an alias of High.
		Enums:  []*model.EnumDecl{{Name: "Level", Reg: LevelReg, Base: model.Int32, Pos: model.Pos{File: "users.go", Line: 40, Col: 6}}},
		Consts: map[string][]Const{"Level": {ConstAt("Low", 0, 41), ConstAt("Mid", 1, 42), ConstAt("High", 2, 43), ConstAt("Max", 2, 44)}},
		Unions: []*model.UnionDecl{{Name: "Pick", Reg: PickReg, Pos: model.Pos{File: "users.go", Line: 45, Col: 6},
			Cases: []model.UnionCase{{ID: 1, Type: Ptr(StructRef("Leaf", LeafReg))}, {ID: 2, Type: Prim(model.String)}}}},
	}
}

// User is the User struct of s.
func (s *Schema) User() *model.StructDecl { return s.Structs[0] }

// FieldOf is the field of struct d named name.
func FieldOf(d *model.StructDecl, name string) *model.Field {
	for _, f := range d.Fields {
		if f.GoName == name {
			return f
		}
	}
	panic(name)
}

// SetConst changes, adds (old == "") or removes (name == "") a constant of
// enum Level.
func (s *Schema) SetConst(old, name string, v int64) {
	var vs []Const
	for _, c := range s.Consts["Level"] {
		if c.Name == old {
			if name != "" {
				vs = append(vs, ConstAt(name, v, c.Pos.Line))
			}
			continue
		}
		vs = append(vs, c)
	}
	if old == "" {
		vs = append(vs, ConstAt(name, v, 45))
	}
	s.Consts["Level"] = vs
}

// Case is one kind of change.
type Case struct {
	Name string
	// Same names the types locked in same-schema mode; "tracking" puts
	// every type's peers on reference tracking.
	Same     map[string]bool
	Change   func(s *Schema)
	Verdict  plan.Verdict
	What     string // a substring of the change's What
	NChanges int    // 0 means 1; -1 means no change at all
}

func arrayHint(elem string) *model.Hint {
	return &model.Hint{Name: "array", Element: &model.Hint{Name: elem, Original: elem}, Original: "array(element=" + elem + ")"}
}

// Cases are the change kinds, each applied to Base.
func Cases() []Case {
	return []Case{
		{"field added", nil, func(s *Schema) {
			s.User().Fields = append(s.User().Fields, Field("Phone", Prim(model.String), Tag(20), 17))
		}, plan.Safe, "field added", 0},
		{"any field added", nil, func(s *Schema) {
			s.User().Fields = append(s.User().Fields, Field("Extra", Prim(model.Any), Tag(21), 19))
		}, plan.Safe, "field added", 0},
		{"field of map with struct values added", nil, func(s *Schema) {
			s.User().Fields = append(s.User().Fields, Field("Leaves", MapOf(Prim(model.String), StructRef("Leaf", LeafReg)), Tag(20), 19))
		}, plan.Breaking, "field added", 0},
		{"field removed", nil, func(s *Schema) {
			s.User().Fields = s.User().Fields[1:]
		}, plan.Safe, "field removed", 0},
		{"widening float32 to float64", nil, func(s *Schema) {
			FieldOf(s.User(), "Ratio").Type = Prim(model.Float64)
		}, plan.Lossy, "widened from float32 to float64", 0},
		{"narrowing int64 to int32", nil, func(s *Schema) {
			FieldOf(s.User(), "ID").Type = Prim(model.Int32)
		}, plan.Lossy, "narrowed from varint64 to varint32", 0},
		{"widening int32 to int64", nil, func(s *Schema) {
			FieldOf(s.User(), "Age").Type = Prim(model.Int64)
		}, plan.Lossy, "widened from varint32 to varint64", 0},
		{"narrowing float64 to float32", nil, func(s *Schema) {
			FieldOf(s.User(), "Score").Type = Prim(model.Float32)
		}, plan.Lossy, "narrowed from float64 to float32", 0},
		{"int to int32 by encoding=varint", nil, func(s *Schema) {
			FieldOf(s.User(), "Big").Tag.Encoding = "varint"
		}, plan.Lossy, "narrowed from varint64 to varint32", 0},
		{"encoding varint to fixed", nil, func(s *Schema) {
			FieldOf(s.User(), "Age").Tag.Encoding = "fixed"
		}, plan.Safe, "encoding changed from varint32 to int32", 0},
		{"encoding varint to tagged", nil, func(s *Schema) {
			FieldOf(s.User(), "ID").Tag.Encoding = "tagged"
		}, plan.Safe, "encoding changed from varint64 to tagged_int64", 0},
		{"unsigned to signed of the same width", nil, func(s *Schema) {
			FieldOf(s.User(), "Count").Type = Prim(model.Int32)
		}, plan.Lossy, "converted from var_uint32 to varint32", 0},
		{"number to string", nil, func(s *Schema) {
			FieldOf(s.User(), "Age").Type = Prim(model.String)
		}, plan.Breaking, "type changed from varint32 to string", 0},
		{"enum to integer", nil, func(s *Schema) {
			FieldOf(s.User(), "Level").Type = Prim(model.Int32)
		}, plan.Breaking, "type changed from enum(id=13) to varint32", 0},
		{"list to dense array", nil, func(s *Schema) {
			FieldOf(s.User(), "Nums").Tag.Hint = arrayHint("int32")
		}, plan.Safe, "list ↔ array conversion from list<varint32> to int32_array", 0},
		{"list with nullable elements to dense array", nil, func(s *Schema) {
			f := FieldOf(s.User(), "PNums")
			f.Type = Slice(Prim(model.Int32))
			f.Tag.Hint = arrayHint("int32")
		}, plan.Lossy, "to int32_array", 0},
		{"list to dense array of another width", nil, func(s *Schema) {
			f := FieldOf(s.User(), "Nums")
			f.Type = Slice(Prim(model.Int64))
			f.Tag.Hint = arrayHint("int64")
		}, plan.Breaking, "type changed from list<varint32> to int64_array", 0},
		{"list of int32 to list of int64", nil, func(s *Schema) {
			FieldOf(s.User(), "Nums").Type = Slice(Prim(model.Int64))
		}, plan.Breaking, "type changed from list<varint32> to list<varint64>", 0},
		{"list of float16 to dense array", nil, func(s *Schema) {
			FieldOf(s.User(), "Halves").Tag.Hint = arrayHint("float16")
		}, plan.Safe, "list ↔ array conversion from list<float16> to float16_array", 0},
		{"list of uint8 to BINARY", nil, func(s *Schema) {
			FieldOf(s.User(), "Raw").Tag.Hint = &model.Hint{Name: "bytes", Original: "bytes"}
		}, plan.Safe, "list ↔ array conversion from list<uint8> to binary", 0},
		{"list to set", nil, func(s *Schema) {
			FieldOf(s.User(), "Nums").Type = &model.Type{Kind: model.Set, Elem: Prim(model.Int32)}
		}, plan.Breaking, "type changed from list<varint32> to set<varint32>", 0},
		{"element became nullable", nil, func(s *Schema) {
			FieldOf(s.User(), "Nums").Type = Slice(Ptr(Prim(model.Int32)))
		}, plan.Lossy, "element nullability changed from list<varint32> to list<?varint32>", 0},
		{"map key type changed", nil, func(s *Schema) {
			FieldOf(s.User(), "Attrs").Type = MapOf(Prim(model.Int32), Prim(model.Int32))
		}, plan.Breaking, "map key type changed from string to varint32", 0},
		{"map value type changed", nil, func(s *Schema) {
			FieldOf(s.User(), "Attrs").Type = MapOf(Prim(model.String), Prim(model.Int64))
		}, plan.Breaking, "map value type changed from varint32 to varint64", 0},
		{"field became nullable", nil, func(s *Schema) {
			FieldOf(s.User(), "Name").Type = Ptr(Prim(model.String))
		}, plan.Lossy, "became nullable", 0},
		{"field no longer nullable", nil, func(s *Schema) {
			FieldOf(s.User(), "Nick").Type = Prim(model.String)
		}, plan.Lossy, "no longer nullable", 0},
		{"ref added", nil, func(s *Schema) {
			FieldOf(s.User(), "Leaf").Tag.Ref, FieldOf(s.User(), "Leaf").Tag.RefSet = true, true
		}, plan.Safe, "ref added", 0},
		{"ref=false on a struct field, peers without tracking: no change", nil, func(s *Schema) {
			FieldOf(s.User(), "Leaf").Tag.Ref, FieldOf(s.User(), "Leaf").Tag.RefSet = false, true
		}, plan.Safe, "", -1},
		{"ref=false on a struct field, peers tracking references", map[string]bool{"tracking": true}, func(s *Schema) {
			FieldOf(s.User(), "Leaf").Tag.Ref, FieldOf(s.User(), "Leaf").Tag.RefSet = false, true
		}, plan.Breaking, "no longer tracked by reference (with WithTrackRef)", 0},
		{"list of tracked structs added, peers tracking references", map[string]bool{"tracking": true}, func(s *Schema) {
			s.User().Fields = append(s.User().Fields, Field("Leaves", Slice(Ptr(StructRef("Leaf", LeafReg))), Tag(20), 17))
		}, plan.Safe, "field added", 0},
		{"nested struct is another type", nil, func(s *Schema) {
			FieldOf(s.User(), "Leaf").Type = Ptr(StructRef("Other", OtherReg))
		}, plan.Breaking, "compatible_struct(id=11) to compatible_struct(id=12)", 0},
		{"tag id reused with another type", nil, func(s *Schema) {
			u := s.User()
			u.Fields = u.Fields[1:]                                                     // ID (id=1) removed …
			u.Fields = append(u.Fields, Field("Token", Prim(model.String), Tag(1), 17)) // … and id=1 reused
		}, plan.Breaking, "tag id 1 reused with another type", 0},
		{"identifier changed (id= tag added)", nil, func(s *Schema) {
			FieldOf(s.User(), "Email").Tag.ID = 30
		}, plan.Lossy, "identifier changed from email to 30", 0},
		{"Go field renamed, same id tag: no change", nil, func(s *Schema) {
			FieldOf(s.User(), "Name").GoName = "FullName"
		}, plan.Safe, "", -1},
		{"registration id changed", nil, func(s *Schema) {
			s.User().Reg = model.Registration{ID: 99}
		}, plan.Breaking, "registration changed", 0},
		{"registration by id to by name", nil, func(s *Schema) {
			s.User().Reg = model.Registration{ByName: true, Namespace: "users", Name: "User"}
		}, plan.Breaking, "registration changed", 0},
		{"enum registration changed", nil, func(s *Schema) {
			s.Enums[0].Reg = model.Registration{ID: 14}
		}, plan.Breaking, "registration changed", 0},
		{"enum constant added", nil, func(s *Schema) {
			s.SetConst("", "Top", 3)
		}, plan.Safe, "constant Top added", 0},
		{"enum constant removed", nil, func(s *Schema) {
			s.SetConst("Low", "", 0)
		}, plan.Lossy, "constant Low removed", 0},
		{"enum alias removed", nil, func(s *Schema) {
			s.SetConst("Max", "", 0)
		}, plan.Safe, "constant Max removed (ordinal 2 is still High)", 0},
		{"enum constant renumbered", nil, func(s *Schema) {
			s.SetConst("Mid", "Mid", 5)
		}, plan.Breaking, "constant Mid renumbered from 1 to 5", 0},
		{"enum constants swapped", nil, func(s *Schema) {
			s.SetConst("Low", "Low", 1)
			s.SetConst("Mid", "Mid", 0)
		}, plan.Breaking, "constant Low renumbered from 0 to 1", 2},
		{"enum constant renamed, same ordinal", nil, func(s *Schema) {
			s.SetConst("Low", "None", 0)
		}, plan.Safe, "constant Low renamed to None", 0},
		{"enum constants reordered in the source: no change", nil, func(s *Schema) {
			vs := s.Consts["Level"]
			vs[0], vs[3] = vs[3], vs[0]
		}, plan.Safe, "", -1},
		{"type removed", nil, func(s *Schema) {
			s.Structs = s.Structs[:2]
		}, plan.Breaking, "type removed", 0},
		{"type added", nil, func(s *Schema) {
			s.Structs = append(s.Structs, &model.StructDecl{Name: "New", Pos: model.Pos{File: "users.go", Line: 50, Col: 6},
				Reg: model.Registration{ID: 50}, Fields: []*model.Field{Field("V", Prim(model.Int32), Tag(1), 51)}})
		}, plan.Safe, "type added", 0},
		{"same-schema mode: field added", map[string]bool{"User": true}, func(s *Schema) {
			s.User().Fields = append(s.User().Fields, Field("Phone", Prim(model.String), Tag(20), 17))
		}, plan.Breaking, "field added (same-schema mode)", 0},
		{"same-schema mode: encoding changed", map[string]bool{"User": true}, func(s *Schema) {
			FieldOf(s.User(), "Age").Tag.Encoding = "fixed"
		}, plan.Breaking, "encoding changed from varint32 to int32 (same-schema mode)", 0},
		{"same-schema mode: nullable tag on a pointer (hash only)", map[string]bool{"User": true}, func(s *Schema) {
			FieldOf(s.User(), "Nick").Tag.Nullable = true
		}, plan.Breaking, "schema hash changed (same-schema mode)", 0},
		{"same-schema mode: a nested struct gains a field", map[string]bool{"User": true}, func(s *Schema) {
			s.Structs[1].Fields = append(s.Structs[1].Fields, Field("W", Prim(model.Int32), Tag(2), 22))
		}, plan.Breaking, "field added (same-schema mode)", 0},
		{"struct used as a map value gains a field", nil, func(s *Schema) {
			u := s.User()
			u.Fields = append(u.Fields, Field("Leaves", MapOf(Prim(model.String), StructRef("Leaf", LeafReg)), Tag(20), 17))
			s.Structs[1].Fields = append(s.Structs[1].Fields, Field("W", Prim(model.Int32), Tag(2), 22))
		}, plan.Breaking, "(the struct is a map key or value)", 2},
	}
}
