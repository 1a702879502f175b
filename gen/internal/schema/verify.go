package schema

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// Declarations turns a parsed IDL file into the Go declarations foryc's Go
// generator writes for it (official Fory Go's tags: `id=N` from the field
// number, `nullable` for optional and message fields, `ref`,
// `encoding=fixed|tagged`, `type=bytes`, `type=array(element=…)`), as model
// values that plan can plan. Registrations: [id=N], or the IDL package as
// namespace and the type name. The files f imports (in any order) declare
// the types f names but does not declare; the declarations returned are
// f's own.
func Declarations(f *File, imports ...*File) ([]*model.StructDecl, []*model.EnumDecl, []*model.UnionDecl, error) {
	kinds := typeKinds{regs: map[string]model.Registration{}, enums: map[string]bool{}, unions: map[string]bool{}}
	// foryc merges the imported files' types into f's scope, imported ones
	// first, and refuses a name declared twice (cli.py resolve_imports,
	// validator.py _check_duplicate_type_names). A name may also be
	// qualified by its file's package (ast.py resolve_type_name).
	declare := func(g *File, name string, id, line int, enum, union bool) error {
		r := model.Registration{ID: uint32(id)}
		if id == 0 {
			r = model.Registration{ByName: true, Namespace: g.Package, Name: name}
		}
		if _, dup := kinds.regs[name]; dup {
			return fmt.Errorf("%d: %s declared twice (in this file and the files it imports)", line, name)
		}
		keys := []string{name}
		if g.Package != "" {
			keys = append(keys, g.Package+"."+name)
		}
		for _, k := range keys {
			kinds.regs[k], kinds.enums[k], kinds.unions[k] = r, enum, union
		}
		return nil
	}
	for _, g := range append(append([]*File(nil), imports...), f) {
		for _, e := range g.Enums {
			if err := declare(g, e.Name, e.ID, e.Line, true, false); err != nil {
				return nil, nil, nil, err
			}
		}
		for _, u := range g.Unions {
			if err := declare(g, u.Name, u.ID, u.Line, false, true); err != nil {
				return nil, nil, nil, err
			}
		}
		for _, m := range g.Messages {
			if err := declare(g, m.Name, m.ID, m.Line, false, false); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	regs := kinds.regs
	var outEnums []*model.EnumDecl
	for _, e := range f.Enums {
		outEnums = append(outEnums, &model.EnumDecl{Name: e.Name, Reg: regs[e.Name], Base: model.Int32})
	}
	var outUnions []*model.UnionDecl
	for _, u := range f.Unions {
		d := &model.UnionDecl{Name: u.Name, Reg: regs[u.Name]}
		for _, c := range u.Cases {
			t, err := goType(c.Type, false, kinds)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%d: %s.%s: %v", c.Line, u.Name, c.Name, err)
			}
			d.Cases = append(d.Cases, model.UnionCase{ID: uint32(c.Number), Type: t})
		}
		outUnions = append(outUnions, d)
	}
	var structs []*model.StructDecl
	for _, m := range f.Messages {
		s := &model.StructDecl{Name: m.Name, Reg: regs[m.Name]}
		for _, fd := range m.Fields {
			t, err := goType(fd.Type, true, kinds)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%d: %s.%s: %v", fd.Line, m.Name, fd.Name, err)
			}
			tag := model.Tag{ID: fd.Number, Ref: fd.Ref, RefSet: fd.Ref, Encoding: fd.Type.Encoding}
			if fd.Type.Encoding == "varint" {
				tag.Encoding = "" // the default
			}
			switch fd.Type.Kind {
			case "list", "map":
				tag.Hint = nestedHint(fd.Type, kinds)
			case "array":
				tag.Hint = &model.Hint{Name: "array", Element: &model.Hint{Name: fd.Type.Elem.Name, Original: fd.Type.Elem.Name},
					Original: "array(element=" + fd.Type.Elem.Name + ")"}
			case "scalar":
				if fd.Type.Name == "bytes" {
					tag.Hint = &model.Hint{Name: "bytes", Original: "bytes"}
				}
			}
			isMessage := t.Kind == model.Struct
			switch {
			case t.Kind == model.Any:
				// foryc tags every any field nullable.
				tag.Nullable, tag.NullableSet = true, true
			case t.Kind == model.Union && fd.Optional:
				// foryc writes *U; forygen spells the same wire U tagged
				// nullable (it refuses pointers to unions).
				tag.Nullable, tag.NullableSet = true, true
			case fd.Optional || isMessage:
				tag.Nullable, tag.NullableSet = true, true
				t = &model.Type{Kind: model.Pointer, Elem: t}
			}
			if fd.Ref && !isMessage {
				return nil, nil, nil, fmt.Errorf("%d: %s.%s: ref applies to message fields", fd.Line, m.Name, fd.Name)
			}
			s.Fields = append(s.Fields, &model.Field{GoName: fd.Name, Type: t, Tag: tag})
		}
		structs = append(structs, s)
	}
	return structs, outEnums, outUnions, nil
}

// nestedHint is the type hint foryc writes for a list or map type, nil when
// every child takes its default: a fixed or tagged scalar element, key or
// value gets its encoding (`list(element=int32(encoding=fixed))`), and a
// list element or map value that is a nullable message `_(ref=true)` with
// ref and `_(ref=false)` without.
func nestedHint(t *Type, k typeKinds) *model.Hint {
	child := func(c *Type) *model.Hint {
		switch {
		case c == nil:
			return nil
		case c.Kind == "scalar" && c.Encoding != "" && c.Encoding != "varint":
			return &model.Hint{Name: c.Name, Encoding: c.Encoding, Original: c.Name + "(encoding=" + c.Encoding + ")"}
		case c.Kind == "named" && !k.enums[c.Name] && !k.unions[c.Name] && c.Optional && c != t.Key:
			ref := c.Ref
			return &model.Hint{Name: "_", Ref: &ref, Original: fmt.Sprintf("_(ref=%v)", ref)}
		case c.Kind == "named" && !k.enums[c.Name] && !k.unions[c.Name] && c.Ref && c != t.Key:
			// list<ref S>: foryc's []*S hinted _(nullable=false,ref=true).
			ref, nullable := true, false
			return &model.Hint{Name: "_", Ref: &ref, Nullable: &nullable, Original: "_(nullable=false,ref=true)"}
		case c.Kind == "list" || c.Kind == "map":
			return nestedHint(c, k)
		}
		return nil
	}
	switch t.Kind {
	case "list":
		if e := child(t.Elem); e != nil {
			return &model.Hint{Name: "list", Element: e, Original: "list(element=" + e.Original + ")"}
		}
	case "map":
		key, val := child(t.Key), child(t.Elem)
		if key == nil && val == nil {
			return nil
		}
		h := &model.Hint{Name: "map", Key: key, Value: val}
		var args []string
		if key != nil {
			args = append(args, "key="+key.Original)
		}
		if val != nil {
			args = append(args, "value="+val.Original)
		}
		h.Original = "map(" + strings.Join(args, ",") + ")"
		return h
	}
	return nil
}

// typeKinds is what a named type of the file is.
type typeKinds struct {
	regs          map[string]model.Registration
	enums, unions map[string]bool
}

func goType(t *Type, top bool, k typeKinds) (*model.Type, error) {
	regs, enums := k.regs, k.enums
	if t.Ref && (top || t.Kind != "named" || enums[t.Name] || k.unions[t.Name]) {
		return nil, fmt.Errorf("%s: forygen tracks references of message elements only", t)
	}
	var out *model.Type
	switch t.Kind {
	case "scalar":
		kinds := map[string]model.Kind{"bool": model.Bool, "int8": model.Int8, "int16": model.Int16, "int32": model.Int32,
			"int64": model.Int64, "uint8": model.Uint8, "uint16": model.Uint16, "uint32": model.Uint32, "uint64": model.Uint64,
			"float16": model.Float16, "bfloat16": model.BFloat16, "float32": model.Float32, "float64": model.Float64,
			"string": model.String, "date": model.Date, "timestamp": model.Time, "duration": model.Duration, "decimal": model.Decimal}
		switch k, ok := kinds[t.Name]; {
		case ok:
			out = &model.Type{Kind: k}
		case t.Name == "bytes" && top:
			out = &model.Type{Kind: model.Slice, Elem: &model.Type{Kind: model.Uint8}}
		case t.Name == "any":
			if t.Optional {
				return nil, fmt.Errorf("optional any: the IDL refuses it")
			}
			out = &model.Type{Kind: model.Any}
		default:
			return nil, fmt.Errorf("%s has no forygen equivalent here", t.Name)
		}
	case "named":
		r, ok := regs[t.Name]
		if !ok {
			return nil, fmt.Errorf("unknown type %s", t.Name)
		}
		named := &model.Named{Name: t.Name}
		if k.unions[t.Name] {
			if !top && t.Optional {
				return nil, fmt.Errorf("optional %s: forygen has no nullable union elements", t.Name)
			}
			return &model.Type{Kind: model.Union, Named: named, Reg: r}, nil
		}
		if enums[t.Name] {
			out = &model.Type{Kind: model.Enum, Named: named, Reg: r, Base: model.Int32}
		} else {
			out = &model.Type{Kind: model.Struct, Named: named, Reg: r}
		}
	case "list", "array":
		if !top && t.Kind == "array" {
			return nil, fmt.Errorf("%s: forygen writes nested slices as lists", t)
		}
		e, err := goType(t.Elem, false, k)
		if err != nil {
			return nil, err
		}
		out = &model.Type{Kind: model.Slice, Elem: e}
	case "map":
		key, err := goType(t.Key, false, k)
		if err != nil {
			return nil, err
		}
		v, err := goType(t.Elem, false, k)
		if err != nil {
			return nil, err
		}
		out = &model.Type{Kind: model.Map, Key: key, Elem: v}
	default:
		return nil, fmt.Errorf("unknown type kind %s", t.Kind)
	}
	if !top && (t.Optional || t.Ref) {
		out = &model.Type{Kind: model.Pointer, Elem: out}
	}
	return out, nil
}

// verify parses text back, plans what an IDL peer declares and compares it
// with forygen's plan of the same types.
func verify(in Input, text []byte) []error {
	fail := func(pos model.Pos, format string, args ...any) []error {
		return []error{&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}}
	}
	var first model.Pos
	if len(in.Structs) > 0 {
		first = in.Structs[0].Model.Pos
	} else if len(in.Enums) > 0 {
		first = in.Enums[0].Pos
	}
	f, err := Parse(string(text))
	if err != nil {
		return fail(first, "the IDL written does not parse back: %v", err)
	}
	var imports []*File
	for _, name := range f.Imports {
		g := importedFile(in, name)
		if g == nil {
			return fail(first, "the IDL written imports %s, which is no other package's file", name)
		}
		imports = append(imports, g)
	}
	structs, enums, unions, err := Declarations(f, imports...)
	if err != nil {
		return fail(first, "the IDL written does not read back: %v", err)
	}
	byReg := map[string]*model.StructDecl{}
	for _, s := range structs {
		byReg[s.Reg.String()] = s
	}
	enumRegs := map[string]*Enum{}
	for i, e := range enums {
		enumRegs[e.Reg.String()] = f.Enums[i]
	}
	var errs []error
	unionRegs := map[string]*model.UnionDecl{}
	for _, u := range unions {
		unionRegs[u.Reg.String()] = u
	}
	for _, u := range in.Unions {
		pu := unionRegs[u.Reg.String()]
		if pu == nil {
			errs = append(errs, fail(u.Pos, "%s: the IDL has no union registered as %s", u.Name, u.Reg)...)
			continue
		}
		if len(pu.Cases) != len(u.Cases) {
			errs = append(errs, fail(u.Pos, "%s: the IDL has %d cases, the Go type %d", u.Name, len(pu.Cases), len(u.Cases))...)
			continue
		}
		for i, c := range u.Cases {
			a, aerr := plan.WireOf(c.Type, model.Tag{ID: -1})
			b, berr := plan.WireOf(pu.Cases[i].Type, model.Tag{ID: -1})
			if aerr != nil || berr != nil || c.ID != pu.Cases[i].ID || plan.TypeRefOf(a).String() != plan.TypeRefOf(b).String() {
				errs = append(errs, fail(u.Pos, "%s: case %d differs in the IDL", u.Name, c.ID)...)
			}
		}
	}
	for _, e := range in.Enums {
		pe := enumRegs[e.Reg.String()]
		if pe == nil {
			errs = append(errs, fail(e.Pos, "%s: the IDL has no enum registered as %s", e.Name, e.Reg)...)
			continue
		}
		want := in.Values[e.Name]
		n := 0
		for i, v := range want {
			dup := false
			for _, u := range want[:i] {
				dup = dup || u.Value == v.Value
			}
			if dup {
				continue
			}
			if n >= len(pe.Values) || pe.Values[n].Value != v.Value {
				errs = append(errs, fail(e.Pos, "%s: value %s = %d is not in the IDL", e.Name, v.Name, v.Value)...)
			}
			n++
		}
		if n != len(pe.Values) {
			errs = append(errs, fail(e.Pos, "%s: the IDL has %d values, the Go type %d", e.Name, len(pe.Values), n)...)
		}
	}
	for _, s := range in.Structs {
		pd := byReg[s.Model.Reg.String()]
		if pd == nil {
			errs = append(errs, fail(s.Model.Pos, "%s: the IDL has no message registered as %s", s.Model.Name, s.Model.Reg)...)
			continue
		}
		peer, perrs := plan.PlanStruct(pd)
		if len(perrs) > 0 {
			errs = append(errs, fail(s.Model.Pos, "%s: the IDL's message does not plan: %v", s.Model.Name, perrs[0])...)
			continue
		}
		errs = append(errs, compare(s, peer)...)
	}
	return errs
}

// compare reports where an IDL peer's plan differs from forygen's.
func compare(s, peer *plan.Struct) []error {
	var errs []error
	bad := func(pos model.Pos, format string, args ...any) {
		errs = append(errs, &Error{Pos: pos, Msg: s.Model.Name + fmt.Sprintf(format, args...)})
	}
	if len(s.Fields) != len(peer.Fields) {
		bad(s.Model.Pos, ": the IDL has %d fields, forygen writes %d", len(peer.Fields), len(s.Fields))
		return errs
	}
	for i, f := range s.Fields {
		p := peer.Fields[i]
		if f.Identifier != p.Identifier {
			bad(f.Pos, ".%s: an IDL peer writes field %s in this position, forygen writes %s", f.GoName, p.Identifier, f.Identifier)
			continue
		}
		a, b := plan.FieldSchemaOf(f), plan.FieldSchemaOf(p)
		if a.Type.String() != b.Type.String() || a.Nullable != b.Nullable || a.Ref != b.Ref {
			bad(f.Pos, ".%s: forygen writes %s (nullable=%v, ref=%v), an IDL peer %s (nullable=%v, ref=%v)",
				f.GoName, a.Type, a.Nullable, a.Ref, b.Type, b.Nullable, b.Ref)
			continue
		}
		fa, fb := plan.Fingerprint([]*plan.Field{f}), plan.Fingerprint([]*plan.Field{p})
		if fa != fb {
			bad(f.Pos, ".%s: same-schema fingerprint %q here, %q for an IDL peer", f.GoName, fa, fb)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	// The TypeDefs, in both settings of reference tracking, field by field.
	for _, tracking := range []bool{false, true} {
		a, b := plan.TypeDefOf(s.Model, s.Fields, tracking), plan.TypeDefOf(peer.Model, peer.Fields, tracking)
		for i := range a.Fields {
			if !reflect.DeepEqual(a.Fields[i], b.Fields[i]) {
				bad(s.Fields[i].Pos, ".%s: TypeDef entry %+v here, %+v for an IDL peer (reference tracking %v)", s.Fields[i].GoName, a.Fields[i], b.Fields[i], tracking)
			}
		}
	}
	switch {
	case len(errs) > 0:
	case s.Fingerprint != peer.Fingerprint:
		bad(s.Model.Pos, ": same-schema fingerprint %q for an IDL peer, %q here", peer.Fingerprint, s.Fingerprint)
	case !bytes.Equal(s.TypeDef, peer.TypeDef), !bytes.Equal(s.TypeDefRef, peer.TypeDefRef):
		bad(s.Model.Pos, ": the IDL's message has another TypeDef header (registration)")
	case !bytes.Equal(s.ConsistentMeta, peer.ConsistentMeta):
		bad(s.Model.Pos, ": the IDL's message has another same-schema type meta (registration)")
	}
	return errs
}

// importedFile is what the file of one of in.Others named name declares, as
// far as an importer needs it: its package and its types' names and ids
// (that file's own Write verifies its fields).
func importedFile(in Input, name string) *File {
	for _, path := range in.Imports() {
		other := in.Others[path]
		if other == nil || other.FileName() != name {
			continue
		}
		g := &File{Package: other.Package()}
		id := func(r model.Registration) int {
			if r.ByName {
				return 0
			}
			return int(r.ID)
		}
		for _, d := range other.decls() {
			switch d.kind {
			case "enum":
				g.Enums = append(g.Enums, &Enum{Name: d.name, ID: id(d.reg)})
			case "union":
				g.Unions = append(g.Unions, &Union{Name: d.name, ID: id(d.reg)})
			default:
				g.Messages = append(g.Messages, &Message{Name: d.name, ID: id(d.reg)})
			}
		}
		return g
	}
	return nil
}
