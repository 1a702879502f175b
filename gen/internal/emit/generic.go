package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// Instantiations of generic structs (model.Instance): Go declares no
// methods on Page[User], so its code is generated on a hidden defined type
// with the same underlying struct (type foryUserPage Page[User]), and
// Page's methods, which every instantiation has, pick the generated type
// by the receiver's dynamic type: one type switch per call from outside
// the instantiation's code (docs/format.md §12.8). An instantiation that
// was not registered fails with ErrNotGenerated.

// publicType is the Go type users hold for s: the struct, or for an
// instantiation the instantiated generic type.
func (g *gen) publicType(s *plan.Struct) *jen.Statement {
	if in := s.Model.Inst; in != nil {
		return jen.Id(in.Base).Types(g.typeArgs(in.Args)...)
	}
	return jen.Id(s.Model.Name)
}

func (g *gen) typeArgs(args []*model.Type) []jen.Code {
	out := make([]jen.Code, len(args))
	for i, a := range args {
		out[i] = g.goType(a)
	}
	return out
}

// emitInstances declares the hidden types of the file's instantiations and
// the forwarding methods of their generic types.
func emitInstances(f *jen.File, pkgPath string, structs []*plan.Struct) {
	g := &gen{pkgPath: pkgPath}
	var bases []string
	byBase := map[string][]*plan.Struct{}
	for _, s := range structs {
		in := s.Model.Inst
		if in == nil {
			continue
		}
		if byBase[in.Base] == nil {
			bases = append(bases, in.Base)
		}
		byBase[in.Base] = append(byBase[in.Base], s)
		f.Commentf("%s carries the generated code of %s (%s, registered with %s): Go declares no methods on an instantiation.", s.Model.Name, in.GoName, in.Alias, s.Model.Reg)
		f.Type().Id(s.Model.Name).Add(g.publicType(s))
		f.Line()
	}
	for _, base := range bases {
		insts := byBase[base]
		names := make([]string, len(insts))
		for i, s := range insts {
			names[i] = s.Model.Inst.GoName
		}
		params := make([]jen.Code, insts[0].Model.Inst.Params)
		for i := range params {
			params[i] = jen.Id("_")
		}
		recv := func() *jen.Statement { return jen.Id("x").Op("*").Id(base).Types(params...) }
		// dispatch is a type switch on the receiver with a case per
		// instantiation, each calling method on the hidden type.
		dispatch := func(call func(p *jen.Statement) *jen.Statement, ret bool, fallback ...jen.Code) []jen.Code {
			var cases []jen.Code
			for _, s := range insts {
				c := call(jen.Parens(jen.Op("*").Id(s.Model.Name)).Call(jen.Id("p")))
				if ret {
					cases = append(cases, jen.Case(jen.Op("*").Add(g.publicType(s))).Block(jen.Return(c)))
				} else {
					cases = append(cases, jen.Case(jen.Op("*").Add(g.publicType(s))).Block(c, jen.Return()))
				}
			}
			return append([]jen.Code{jen.Switch(jen.Id("p").Op(":=").Any().Call(jen.Id("x")).Assert(jen.Type())).Block(cases...)}, fallback...)
		}
		noInst := jen.Qual(implPkg, "NoInstance").Call(jen.Id("x"))
		f.Commentf("The methods of %s forward to the generated code of its registered instantiations (%s); another instantiation has none.", base, strings.Join(names, ", "))
		f.Func().Params(recv()).Id("ForyType").Params().Op("*").Qual(implPkg, "TypeInfo").Block(
			dispatch(func(p *jen.Statement) *jen.Statement { return p.Dot("ForyType").Call() }, true, jen.Return(jen.Nil()))...)
		f.Line()
		f.Func().Params(recv()).Id("ForyWrite").Params(jen.Id("c").Op("*").Qual(implPkg, "WriteContext")).Block(
			dispatch(func(p *jen.Statement) *jen.Statement { return p.Dot("ForyWrite").Call(jen.Id("c")) }, false,
				jen.Id("c").Dot("Fail").Call(noInst))...)
		f.Line()
		f.Func().Params(recv()).Id("ForyRead").Params(jen.Id("c").Op("*").Qual(implPkg, "ReadContext")).Block(
			dispatch(func(p *jen.Statement) *jen.Statement { return p.Dot("ForyRead").Call(jen.Id("c")) }, false,
				jen.Id("c").Dot("Fail").Call(noInst))...)
		f.Line()
		f.Func().Params(recv()).Id("ForyReadEvolved").Params(jen.Id("c").Op("*").Qual(implPkg, "ReadContext"), jen.Id("ev").Op("*").Qual(implPkg, "Evolution")).Block(
			dispatch(func(p *jen.Statement) *jen.Statement { return p.Dot("ForyReadEvolved").Call(jen.Id("c"), jen.Id("ev")) }, false,
				jen.Id("c").Dot("Fail").Call(noInst))...)
		f.Line()
		f.Func().Params(recv()).Id("ForySerializeTo").Params(jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("b").Op("*").Qual(bufferPkg, "Buffer")).Error().Block(
			dispatch(func(p *jen.Statement) *jen.Statement { return p.Dot("ForySerializeTo").Call(jen.Id("f"), jen.Id("b")) }, true,
				jen.Return(noInst))...)
		f.Line()
		f.Func().Params(recv()).Id("ForyDeserialize").Params(jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("data").Index().Byte()).Error().Block(
			dispatch(func(p *jen.Statement) *jen.Statement { return p.Dot("ForyDeserialize").Call(jen.Id("f"), jen.Id("data")) }, true,
				jen.Return(noInst))...)
		f.Line()
	}
}
