package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// emitAnyRegistry makes every generated file register its structs for any
// values (foryimpl.RegisterAnyOf) in an init function.
const emitAnyRegistry = true

// emitRegistry writes the init function that makes the file's structs
// known to any values: a struct in an any is found by its Go type on
// write and by its registration on read (docs/format.md §12.3).
func emitRegistry(f *jen.File, pkgPath string, structs []*plan.Struct) {
	var body []jen.Code
	for _, s := range structs {
		// The type users hold: an instantiation's generic type, whose
		// methods forward to its hidden type's (emitInstances).
		g := &gen{pkgPath: pkgPath}
		body = append(body, jen.Qual(implPkg, "RegisterAnyOf").Types(g.publicType(s)).Call(jen.Id("foryType"+s.Model.Name)))
	}
	f.Comment("init makes this file's structs known to any values (foryimpl.RegisterAnyOf).")
	f.Func().Id("init").Params().Block(body...)
	f.Line()
}

// emitUnion writes a //fory:union type's code: its type information, the
// case checks, the field writer and reader (a UNION field: case id, then
// the case value as an any value), and the entry points for a union as the
// root (TYPED_UNION or NAMED_UNION: docs/format.md §12.4).
func (g *gen) emitUnion(f *jen.File, u *model.UnionDecl) {
	name := u.Name
	info := "foryUnion" + name
	spec := jen.Dict{jen.Id("GoName"): jen.Lit(pkgBase(g.pkgPath) + "." + name)}
	if u.Reg.ByName {
		spec[jen.Id("ByName")] = jen.True()
		spec[jen.Id("Namespace")] = jen.Lit(u.Reg.Namespace)
		spec[jen.Id("TypeName")] = jen.Lit(u.Reg.Name)
	} else {
		spec[jen.Id("UserID")] = jen.Lit(int(u.Reg.ID))
	}
	f.Commentf("%s is %s's static type information (a union, %s).", info, name, u.Reg)
	f.Var().Id(info).Op("=").Qual(implPkg, "NewUnionType").Call(jen.Qual(implPkg, "UnionSpec").Values(spec))
	f.Line()

	// check: the value a case holds has the case's Go type; from: a
	// decoded value as the case's Go type (the any reader decodes a struct
	// as a pointer, which a struct value case dereferences).
	var checks, froms []jen.Code
	for _, c := range u.Cases {
		t := c.Type
		id := jen.Lit(int(c.ID))
		checks = append(checks, jen.Case(id).Block(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("v").Assert(g.goType(t)), jen.Return(jen.Id("ok"))))
		if t.Kind == model.Struct {
			froms = append(froms, jen.Case(id).Block(
				jen.List(jen.Id("p"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Op("*").Add(g.goType(t))),
				jen.If(jen.Op("!").Id("ok").Op("||").Id("p").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.False())),
				jen.Return(jen.Op("*").Id("p"), jen.True())))
			continue
		}
		conv := jen.Id("v").Assert(g.goType(t))
		switch {
		case t.Kind == model.Slice && t.Elem.Kind != model.Any && g.decodesAsList(t):
			// A LIST in an any decodes as []any.
			conv = jen.Qual(implPkg, "AnyListAs").Types(g.goType(t.Elem)).Call(jen.Id("v"))
		case t.Kind == model.Map && (t.Key.Kind != model.Any || t.Elem.Kind != model.Any):
			// A MAP in an any decodes as map[any]any.
			conv = jen.Qual(implPkg, "AnyMapAs").Types(g.goType(t.Key), g.goType(t.Elem)).Call(jen.Id("v"))
		}
		froms = append(froms, jen.Case(id).Block(
			jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(conv),
			jen.Return(jen.Id("x"), jen.Id("ok"))))
	}
	check, from := "foryUnionCheck"+name, "foryUnionFrom"+name
	f.Commentf("%s reports whether v has the Go type of %s's case id.", check, name)
	f.Func().Id(check).Params(jen.Id("id").Uint32(), jen.Id("v").Any()).Bool().Block(
		jen.Switch(jen.Id("id")).Block(checks...), jen.Return(jen.False()))
	f.Line()
	f.Commentf("%s turns a decoded case value into the Go type of %s's case id; false for an id or a value the union does not declare.", from, name)
	f.Func().Id(from).Params(jen.Id("id").Uint32(), jen.Id("v").Any()).Params(jen.Any(), jen.Bool()).Block(
		jen.Switch(jen.Id("id")).Block(froms...), jen.Return(jen.Nil(), jen.False()))
	f.Line()

	f.Commentf("init makes %s known to any values: written with its registration, read back as a %s (docs/format.md §12.7).", name, name)
	f.Func().Id("init").Params().Block(
		jen.Qual(implPkg, "RegisterAnyUnion").Types(jen.Id(name)).Call(jen.Id(info), jen.Id(check), jen.Id(from)))
	f.Line()

	recv := jen.Id("x").Op("*").Id(name)
	goName := jen.Lit(pkgBase(g.pkgPath) + "." + name)
	f.Commentf("ForyWriteUnion writes %s as a UNION field: its case id and the case value.", name)
	f.Func().Params(recv).Id("ForyWriteUnion").Params(jen.Id("c").Op("*").Qual(implPkg, "WriteContext")).Block(
		jen.List(jen.Id("id"), jen.Id("v")).Op(":=").Id("x").Dot("ForyUnionGet").Call(),
		jen.If(jen.Op("!").Id(check).Call(jen.Id("id"), jen.Id("v"))).Block(
			jen.Id("c").Dot("Fail").Call(jen.Qual(implPkg, "UnionCaseError").Call(goName, jen.Id("id"), jen.Id("v"))),
			jen.Return()),
		jen.Qual(implPkg, "WriteUnionValue").Call(jen.Id("c"), jen.Id("id"), jen.Id("v")),
	)
	f.Line()
	f.Commentf("ForyReadUnion reads a UNION field into %s; a case id or value it does not declare is an error.", name)
	f.Func().Params(recv.Clone()).Id("ForyReadUnion").Params(jen.Id("c").Op("*").Qual(implPkg, "ReadContext")).Block(
		jen.List(jen.Id("id"), jen.Id("v")).Op(":=").Qual(implPkg, "ReadUnionValue").Call(jen.Id("c")),
		jen.If(jen.Id("c").Dot("Failed").Call()).Block(jen.Return()),
		jen.List(jen.Id("cv"), jen.Id("ok")).Op(":=").Id(from).Call(jen.Id("id"), jen.Id("v")),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Id("c").Dot("UnionMismatch").Call(goName, jen.Id("id"), jen.Id("v")),
			jen.Return()),
		jen.Id("x").Dot("ForyUnionSet").Call(jen.Id("id"), jen.Id("cv")),
	)
	f.Line()
	f.Commentf("ForySerializeTo appends a message whose root is the union x to b (TYPED_UNION or NAMED_UNION).")
	f.Func().Params(recv.Clone()).Id("ForySerializeTo").Params(
		jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("b").Op("*").Qual(bufferPkg, "Buffer")).Error().Block(
		jen.List(jen.Id("id"), jen.Id("v")).Op(":=").Id("x").Dot("ForyUnionGet").Call(),
		jen.If(jen.Op("!").Id(check).Call(jen.Id("id"), jen.Id("v"))).Block(
			jen.Return(jen.Qual(implPkg, "UnionCaseError").Call(goName, jen.Id("id"), jen.Id("v")))),
		jen.Return(jen.Id("f").Dot("Runtime").Call().Dot("WriteUnionRoot").Call(jen.Id("b"), jen.Id(info), jen.Id("id"), jen.Id("v"))),
	)
	f.Line()
	f.Commentf("ForyDeserialize reads one message whose root is a %s union into x.", name)
	f.Func().Params(recv.Clone()).Id("ForyDeserialize").Params(
		jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("data").Index().Byte()).Error().Block(
		jen.List(jen.Id("id"), jen.Id("v"), jen.Err()).Op(":=").Id("f").Dot("Runtime").Call().Dot("ReadUnionRoot").Call(jen.Id("data"), jen.Id(info)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.List(jen.Id("cv"), jen.Id("ok")).Op(":=").Id(from).Call(jen.Id("id"), jen.Id("v")),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Qual(implPkg, "UnionDecodeError").Call(goName, jen.Id("id"), jen.Id("v")))),
		jen.Id("x").Dot("ForyUnionSet").Call(jen.Id("id"), jen.Id("cv")),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

// decodesAsList reports whether an any holding a slice of t's type reads
// back as a LIST ([]any): a slice of strings; the dense arrays read as
// themselves.
func (g *gen) decodesAsList(t *model.Type) bool { return t.Elem.Kind == model.String }
