package emit

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"

	"github.com/forygen/forygen/internal/meta"
)

// emitRead writes ForyRead: the schema hash check (same-schema mode), one
// bounds check for the run of fixed-width fields, the varints, then each
// other field; after each step that can fail it records the field name and
// returns. A struct whose body reference tracking changes reads in both
// modes with one body (modes.go).
func (g *gen) emitRead(f *jen.File) {
	body := g.readBody()
	f.Commentf("ForyRead reads %s's struct body (docs/format.md §9); errors are recorded in c.", g.name())
	if g.s.RefSensitive {
		f.Comment("With reference tracking, tracked fields carry a reference flag (docs/format.md §2.1).")
	}
	f.Func().Params(jen.Id("x").Op("*").Id(g.name())).Id("ForyRead").
		Params(jen.Id("c").Op("*").Qual(implPkg, "ReadContext")).Block(body...)
	f.Line()
}

// readBody is the body of ForyRead, both modes in one (bodies).
func (g *gen) readBody() []jen.Code {
	s := g.s
	var m bodies
	m.shared(g.enter()...)
	// The reset keeps the previous value's slices, for their backing arrays
	// (serializer.ReuseSlice), and its nested struct values, whose own
	// reads reset them and keep their slices in turn.
	reuse := func(fl *plan.Field) bool {
		return (!(g.track && fl.RefOn) || g.refArray(fl) != "") && fl.Wire.Go.Kind == model.Slice && !fl.Wire.Nullable &&
			(fl.Wire.TypeID == meta.TypeList || arrayWidth(fl.Wire) > 0)
	}
	g.both(&m, func() []jen.Code {
		keep := jen.Dict{}
		for _, fl := range s.Fields {
			if fl.Group != plan.GroupOther {
				continue
			}
			switch {
			case g.track && fl.RefOn && g.refArray(fl) == "":
				// A tracked slice may have been shared with another field by
				// the previous message: reusing its memory would let one
				// field's elements land in the other's (issue 25). A dense
				// array's reader reuses it only once a message
				// (foryimpl.ReuseRefSlice).
				continue
			case reuse(fl), fl.Wire.Go.Kind == model.Struct:
			default:
				continue
			}
			keep[jen.Id(fl.GoName)] = jen.Id("x").Dot(fl.GoName)
		}
		return []jen.Code{jen.Op("*").Id("x").Op("=").Id(g.name()).Values(keep)}
	})
	m.shared(
		jen.Id("r").Op(":=").Id("c").Dot("Reader").Call(),
		// The hash is matched inline; ReadInt32 reads one that differs, or
		// reports truncated input (BenchmarkFixedCost/
		// DeserializeWithContext/consistent).
		jen.If(jen.Op("!").Id("c").Dot("Compatible").Call().Op("&&").Op("!").Id("r").Dot("MatchInt32").Call(jen.Lit(int(s.SchemaHash)))).Block(
			jen.If(jen.Id("h").Op(":=").Id("r").Dot("ReadInt32").Call(), g.otherHash("h").Op("&&").Op("!").Id("c").Dot("Failed").Call()).Block(
				jen.Id("c").Dot("HashMismatch").Call(jen.Id(g.infoVar()), jen.Id("h")),
				jen.Return(),
			),
		),
	)
	m.shared(g.readPrimitives()...)
	if first, last := g.primitiveSpan(); first != "" {
		m.shared(g.failCheck(first + ".." + last))
	}
	for _, fl := range s.Fields {
		if fl.Group != plan.GroupOther {
			continue
		}
		g.both(&m, func() []jen.Code {
			if reuse(fl) {
				g.reuse = jen.Id("x").Dot(fl.GoName)
			}
			g.valueField = fl
			code := g.readField(fl)
			g.reuse, g.valueField = nil, nil
			return append(code, g.failCheck(fl.GoName))
		})
	}
	m.shared(g.leave()...)
	return m.code()
}

// readPrimitives reads the fixed group under one bounds check and the
// varint group with offset-passing reads, from the reader r.
func (g *gen) readPrimitives() []jen.Code {
	s := g.s
	var body []jen.Code
	var fixed, varint []*plan.Field
	for _, fl := range s.Fields {
		switch fl.Group {
		case plan.GroupFixed:
			fixed = append(fixed, fl)
		case plan.GroupVarint:
			varint = append(varint, fl)
		}
	}
	if len(fixed) > 0 {
		var run []jen.Code
		run = append(run, jen.List(jen.Id("in"), jen.Id("off")).Op(":=").List(jen.Id("r").Dot("Bytes").Call(), jen.Id("r").Dot("Offset").Call()))
		at := 0
		for _, fl := range fixed {
			sc := scalarOf(fl.Wire)
			var load *jen.Statement
			if fl.Wire.TypeID == meta.TypeBool {
				load = jen.Qual(bufferPkg, "ReadUint8At").Call(jen.Id("in"), plus("off", at)).Op("!=").Lit(0)
			} else {
				load = jen.Qual(bufferPkg, "Read"+sc.suffix+"At").Call(jen.Id("in"), plus("off", at))
			}
			run = append(run, jen.Id("x").Dot(fl.GoName).Op("=").Add(g.fromWire(load, fl.Type)))
			at += fl.Wire.Width
		}
		run = append(run, jen.Id("r").Dot("SetOffset").Call(jen.Id("off").Op("+").Lit(at)))
		body = append(body, jen.Commentf("One bounds check for the %d bytes of fixed-width fields.", s.FixedBytes))
		body = append(body, jen.If(jen.Id("r").Dot("Need").Call(jen.Lit(s.FixedBytes))).Block(run...))
	}
	if len(varint) > 0 {
		body = append(body, jen.Comment("The varints, with a local offset and one commit; each read checks its own bounds."))
		body = append(body, jen.Block(g.readVarintRun(varint)...))
	}
	return body
}

// primitiveSpan names the first and last field of the fixed and varint
// groups, for error paths; "" when there are none.
func (g *gen) primitiveSpan() (first, last string) {
	for _, fl := range g.s.Fields {
		if fl.Group == plan.GroupOther {
			continue
		}
		if first == "" {
			first = fl.GoName
		}
		last = fl.GoName
	}
	return first, last
}

// otherHash is the condition that the hash h read is neither the other
// languages' nor, where it differs, official Go's (plan.Struct.OfficialGoHash).
func (g *gen) otherHash(h string) *jen.Statement {
	c := jen.Id(h).Op("!=").Lit(int(g.s.SchemaHash))
	if g.s.OfficialGoHash != g.s.SchemaHash {
		c = c.Op("&&").Id(h).Op("!=").Lit(int(g.s.OfficialGoHash))
	}
	return c
}

// primitiveOnly reports whether every field is in the fixed or varint
// group: reading such a struct needs only the input reader.
func (g *gen) primitiveOnly() bool {
	for _, fl := range g.s.Fields {
		if fl.Group == plan.GroupOther {
			return false
		}
	}
	return true
}

// emitReadFrom writes foryReadFrom, ForyRead without the read context, for
// a struct of primitive fields only: it reports success, and on any failure
// ForyDeserialize decodes again with the context, which reports the error
// (BenchmarkFixedCost, BenchmarkDeserialize/NumericStruct).
func (g *gen) emitReadFrom(f *jen.File) {
	body := []jen.Code{jen.Op("*").Id("x").Op("=").Id(g.name()).Values()}
	body = append(body, g.readPrimitives()...)
	body = append(body, jen.Return(jen.Id("r").Dot("Err").Call().Op("==").Nil()))
	f.Commentf("foryReadFrom reads a root %s's fields after ForyDeserialize matched its prefix, without a context (primitive fields only); false on error.", g.name())
	f.Func().Params(jen.Id("x").Op("*").Id(g.name())).Id("foryReadFrom").
		Params(jen.Id("r").Op("*").Qual(bufferPkg, "Reader")).Bool().Block(body...)
	f.Line()
}

// readVarintRun decodes the varint group with offset-passing reads: the
// offset stays in a register and the Reader is updated once
// (BenchmarkReadVarintRun in buffer).
func (g *gen) readVarintRun(fields []*plan.Field) []jen.Code {
	out := []jen.Code{jen.List(jen.Id("in"), jen.Id("off")).Op(":=").List(jen.Id("r").Dot("Bytes").Call(), jen.Id("r").Dot("Offset").Call())}
	temps := map[string]bool{}
	var reads []jen.Code
	for _, fl := range fields {
		dst := jen.Id("x").Dot(fl.GoName)
		var tmp, fn string
		var val *jen.Statement
		switch fl.Wire.TypeID {
		case meta.TypeVarInt32:
			tmp, fn = "u32", "ReadVarUint32At"
			val = jen.Qual(bufferPkg, "UnZigZag32").Call(jen.Id(tmp))
		case meta.TypeVarUint32:
			tmp, fn = "u32", "ReadVarUint32At"
			val = jen.Id(tmp)
		case meta.TypeVarInt64:
			tmp, fn = "u64", "ReadVarUint64At"
			val = jen.Qual(bufferPkg, "UnZigZag64").Call(jen.Id(tmp))
		case meta.TypeVarUint64:
			tmp, fn = "u64", "ReadVarUint64At"
			val = jen.Id(tmp)
		case meta.TypeTaggedInt64:
			tmp, fn = "i64", "ReadTaggedInt64At"
			val = jen.Id(tmp)
		default:
			tmp, fn = "u64", "ReadTaggedUint64At"
			val = jen.Id(tmp)
		}
		temps[tmp] = true
		reads = append(reads,
			jen.List(jen.Id(tmp), jen.Id("off")).Op("=").Qual(bufferPkg, fn).Call(jen.Id("in"), jen.Id("off")),
			dst.Op("=").Add(g.fromWire(val, fl.Type)))
	}
	for _, t := range []struct{ name, typ string }{{"u32", "uint32"}, {"u64", "uint64"}, {"i64", "int64"}} {
		if temps[t.name] {
			out = append(out, jen.Var().Id(t.name).Id(t.typ))
		}
	}
	out = append(out, reads...)
	return append(out, jen.Id("r").Dot("CommitRun").Call(jen.Id("off")))
}

func (g *gen) failCheck(field string) jen.Code {
	return jen.If(jen.Id("c").Dot("FailedIn").Call(jen.Lit(field))).Block(jen.Return())
}

// alloc is new(T) charged to the decode's allocation budget: a pointer
// element can take no input bytes of its own (a struct whose received
// schema has no fields), so lists of them are bounded by the budget, not
// by the length check (issue 6).
func (g *gen) alloc(t *model.Type) *jen.Statement {
	return jen.Qual(implPkg, "Alloc").Types(g.goType(t)).Call(jen.Id("c"))
}

// minBytes is the fewest bytes one encoded value of w can take; lengths are
// checked against it before allocating.
func minBytes(w *plan.Wire) int {
	if w.Nullable {
		return 1
	}
	if w.IsFixedScalar() {
		return w.Width
	}
	return 1
}

// readLength declares n, a collection length read with ReadLength's
// inlined fast path and the call for the rest (BenchmarkFixedCost/
// DeserializeWithContext). minElemBytes is at least 1.
func readLength(n string, minElemBytes int) []jen.Code {
	return []jen.Code{
		jen.Id(n).Op(":=").Id("c").Dot("ReadLengthFast").Call(jen.Lit(minElemBytes)),
		jen.If(jen.Id(n).Op("<").Lit(0)).Block(jen.Id(n).Op("=").Id("c").Dot("ReadLength").Call(jen.Lit(minElemBytes))),
	}
}

// readValue reads a value of wire type w into dst, an assignable expression.
func (g *gen) readValue(dst *jen.Statement, w *plan.Wire, addressable bool) []jen.Code {
	t := w.Go
	if fl := g.valueField; fl != nil && !(w.Nullable && t.Kind != model.Pointer && t.Kind != model.Optional) {
		// The field's own value (a nullable one's after its flag): a
		// shared value reader where it has one, and nothing nested.
		g.valueField = nil
		if valueReader(w) && dst.GoString() == "x."+fl.GoName {
			args := []jen.Code{jen.Id("c")}
			if reusesValue(fl) {
				args = append(args, dst.Clone())
			}
			return []jen.Code{dst.Clone().Op("=").Id("x").Dot(g.valueReaderFor(fl)).Call(args...)}
		}
	}
	if w.Nullable {
		inner := *w
		inner.Nullable = false
		if t.Kind == model.Optional {
			return []jen.Code{jen.If(jen.Id("c").Dot("ReadFlag").Call()).Block(g.readOptional(dst, w)...)}
		}
		if t.Kind == model.Pointer {
			inner.Go = t.Elem
			p := g.fresh("p")
			var present []jen.Code
			present = append(present, jen.Id(p).Op(":=").Add(g.alloc(t.Elem)))
			if t.Elem.Kind == model.Struct {
				present = append(present, g.readStruct(jen.Id(p), t.Elem, true)...)
			} else {
				present = append(present, g.readValue(jen.Op("*").Id(p), &inner, false)...)
			}
			present = append(present, dst.Clone().Op("=").Id(p))
			return []jen.Code{jen.If(jen.Id("c").Dot("ReadFlag").Call()).Block(present...)}
		}
		return []jen.Code{jen.If(jen.Id("c").Dot("ReadFlag").Call()).Block(g.readValue(dst, &inner, addressable)...)}
	}
	if t.Kind == model.Pointer {
		// A struct pointer tagged nullable=false: always present.
		return g.readPresent(dst, w)
	}
	if t.Kind.IsMarshaler() {
		return g.readMarshaled(dst, t)
	}
	if t.Kind == model.Ext {
		return []jen.Code{
			jen.If(jen.Id("c").Dot("Compatible").Call()).Block(jen.Id("c").Dot("ReadExtMeta").Call(jen.Id(extInfo(t.Codec)))),
			jen.If(jen.Op("!").Id("c").Dot("Failed").Call()).Block(readExtBytes(dst, t)),
		}
	}
	r := jen.Id("r")
	if w.IsFixedScalar() || w.IsVarint() {
		sc := scalarOf(w)
		var load *jen.Statement
		if w.TypeID == meta.TypeBool {
			load = r.Clone().Dot("ReadBool").Call()
		} else {
			load = r.Clone().Dot("Read" + sc.suffix).Call()
		}
		return []jen.Code{dst.Op("=").Add(g.fromWire(load, t))}
	}
	switch w.TypeID {
	case meta.TypeUnknown:
		// An any field decodes a struct as a pointer, as official Go does.
		if t.Named != nil {
			// A non-empty interface: the value must implement it.
			impls := implList(t)
			return []jen.Code{
				jen.Commentf("%s: an any whose value implements it; the generated types of this package that do: %s.", t.Named.Name, impls),
				dst.Op("=").Qual(implPkg, "ReadAnyAs").Types(g.goType(t)).Call(jen.Id("c"), jen.Lit(t.Named.PkgName+"."+t.Named.Name), jen.Lit(impls))}
		}
		return []jen.Code{dst.Op("=").Qual(implPkg, "ReadAny").Call(jen.Id("c"), jen.False())}
	case meta.TypeUnion:
		return []jen.Code{dst.Dot("ForyReadUnion").Call(jen.Id("c"))}
	case meta.TypeList:
		if w.Elem.TypeID == meta.TypeUnknown {
			if t.Kind == model.Array {
				// A [N]any takes a list of exactly N elements.
				l := g.fresh("l")
				return []jen.Code{jen.If(jen.Id(l).Op(":=").Qual(implPkg, "ReadAnyList").Call(jen.Id("c")), jen.Len(jen.Id(l)).Op("==").Lit(t.Len)).Block(
					dst.Clone().Op("=").Add(g.goType(t)).Call(jen.Id(l)),
				).Else().If(jen.Op("!").Id("c").Dot("Failed").Call()).Block(
					jen.Id("c").Dot("Fail").Call(jen.Qual(implPkg, "ErrArrayLength").Call(jen.Len(jen.Id(l)), jen.Lit(t.Len))),
				)}
			}
			if e := w.Elem.Go; e.Named != nil {
				return []jen.Code{dst.Op("=").Add(g.fromNamed(jen.Qual(implPkg, "ReadAnyListAs").Types(g.goType(e)).Call(jen.Id("c"), jen.Lit(e.Named.PkgName+"."+e.Named.Name), jen.Lit(implList(e))), t))}
			}
			return []jen.Code{dst.Op("=").Qual(implPkg, "ReadAnyList").Call(jen.Id("c"))}
		}
	case meta.TypeMap:
		if w.Elem.TypeID == meta.TypeUnknown {
			if e := w.Elem.Go; e.Named != nil {
				return []jen.Code{dst.Op("=").Add(g.fromNamed(jen.Qual(implPkg, "ReadStringAnyMapAs").Types(g.goType(e)).Call(jen.Id("c"), jen.Lit(e.Named.PkgName+"."+e.Named.Name), jen.Lit(implList(e))), t))}
			}
			return []jen.Code{dst.Op("=").Qual(implPkg, "ReadStringAnyMap").Call(jen.Id("c"))}
		}
	}
	switch w.TypeID {
	case meta.TypeString:
		return []jen.Code{dst.Op("=").Add(g.fromNamed(jen.Id("c").Dot("ReadString").Call(), t))}
	case meta.TypeEnum:
		if max, ok := enumMax(t.Base); ok {
			// The inlined fast path, ReadEnum behind it
			// (BenchmarkDeserialize/MediaContentList).
			e := g.fresh("e")
			return []jen.Code{jen.If(jen.Id(e).Op(":=").Id("c").Dot("ReadEnumFast").Call(jen.Lit(max)), jen.Id(e).Op(">=").Lit(0)).Block(
				jen.Add(dst).Op("=").Add(g.goType(t).Call(jen.Id(e)))).Else().Block(
				jen.Add(dst).Op("=").Add(g.goType(t).Call(jen.Id("c").Dot("ReadEnum").Call(jen.Lit(max)))))}
		}
		return []jen.Code{dst.Op("=").Add(g.goType(t).Call(r.Clone().Dot("ReadVarUint32").Call()))}
	case meta.TypeTimestamp:
		return []jen.Code{dst.Op("=").Id("c").Dot("ReadTime").Call()}
	case meta.TypeDuration:
		return []jen.Code{dst.Op("=").Id("c").Dot("ReadDuration").Call()}
	case meta.TypeDate:
		return []jen.Code{dst.Op("=").Add(g.goType(t).Call(jen.Id("c").Dot("ReadDate").Call()))}
	case meta.TypeDecimal:
		return []jen.Code{jen.Parens(dst.Clone()).Dot("Scale").Op("=").Id("c").Dot("ReadDecimal").Call(jen.Op("&").Parens(dst.Clone()).Dot("Unscaled"))}
	case meta.TypeBinary:
		return []jen.Code{dst.Op("=").Add(g.fromNamed(jen.Id("c").Dot("ReadBinary").Call(), t))}
	case meta.TypeList:
		return g.readList(dst, w)
	case meta.TypeSet:
		return g.readSet(dst, w)
	case meta.TypeMap:
		return g.readMap(dst, w)
	}
	if meta.IsStructKind(w.TypeID) {
		if !addressable {
			tmp := g.fresh("s")
			return append(append([]jen.Code{jen.Var().Id(tmp).Add(g.goType(t))},
				g.readStruct(jen.Id(tmp), t, true)...), dst.Op("=").Id(tmp))
		}
		return g.readStruct(dst, t, true)
	}
	if arrayWidth(w) > 0 {
		return g.readDenseArray(dst, w)
	}
	panic("emit: unhandled wire type")
}

// fromNamed converts v to t when t is a named type.
func (g *gen) fromNamed(v *jen.Statement, t *model.Type) *jen.Statement {
	if t.Named != nil {
		return g.goType(t).Call(v)
	}
	return v
}

// readStruct reads a nested struct through p, a pointer or an addressable
// value: in compatible mode its type meta, which may call for the evolved
// reader; then the body.
func (g *gen) readStruct(p *jen.Statement, t *model.Type, field bool) []jen.Code {
	if !field {
		return []jen.Code{p.Dot("ForyRead").Call(jen.Id("c"))}
	}
	// The body is read only when the meta was: after a failed meta it would
	// add its first field to the error path (issue 6: the path ends where
	// decoding failed).
	ev := g.fresh("ev")
	return []jen.Code{jen.If(jen.Id(ev).Op(":=").Id("c").Dot("ReadStructFieldMeta").Call(g.structInfo(t)), jen.Id(ev).Op("!=").Nil()).Block(
		p.Clone().Dot("ForyReadEvolved").Call(jen.Id("c"), jen.Id(ev)),
	).Else().If(jen.Op("!").Id("c").Dot("Failed").Call()).Block(p.Clone().Dot("ForyRead").Call(jen.Id("c")))}
}

// addrOf is &v, or p when v is *p (staticcheck SA4001).
func addrOf(v *jen.Statement) *jen.Statement {
	if s := fmt.Sprintf("%#v", v); strings.HasPrefix(s, "*") && !strings.ContainsAny(s[1:], " ()*") {
		return jen.Op(s[1:])
	}
	return jen.Op("&").Add(v.Clone())
}

// implList spells the implementations the generator found of t, a
// non-empty interface, for generated comments and errors.
func implList(t *model.Type) string {
	if len(t.Impls) == 0 {
		return "none in this package"
	}
	return strings.Join(t.Impls, ", ")
}

// readMarshaled reads a STRING or BINARY into dst through its type's
// UnmarshalText or UnmarshalBinary, called directly on a view of the input
// (the unmarshaler contracts say an implementation copies what it keeps).
func (g *gen) readMarshaled(dst *jen.Statement, t *model.Type) []jen.Code {
	method, read := "UnmarshalText", "ReadText"
	if t.Kind == model.Binary {
		method, read = "UnmarshalBinary", "ReadBinaryView"
	}
	p := g.fresh("p")
	return []jen.Code{jen.If(jen.List(jen.Id(p), jen.Id("ok")).Op(":=").Id("c").Dot(read).Call(), jen.Id("ok")).Block(
		jen.Id("c").Dot("Unmarshaled").Call(jen.Parens(dst.Clone()).Dot(method).Call(jen.Id(p))))}
}

// readPresent reads a value known to be present (its null flag, if any,
// already read): a pointer is allocated and filled.
func (g *gen) readPresent(dst *jen.Statement, w *plan.Wire) []jen.Code {
	inner := *w
	inner.Nullable = false
	if w.Go.Kind == model.Optional {
		return g.readOptional(dst, w)
	}
	if w.Go.Kind != model.Pointer {
		return g.readValue(dst, &inner, true)
	}
	inner.Go = w.Go.Elem
	p := g.fresh("p")
	out := []jen.Code{jen.Id(p).Op(":=").Add(g.alloc(w.Go.Elem))}
	if w.Go.Elem.Kind == model.Struct {
		out = append(out, g.readStruct(jen.Id(p), w.Go.Elem, true)...)
	} else {
		out = append(out, g.readValue(jen.Op("*").Id(p), &inner, false)...)
	}
	return append(out, dst.Op("=").Id(p))
}

// emitReadEvolved writes ForyReadEvolved: the remote fields in wire order,
// each read into its matched local field (with the remote's null framing),
// converted, or skipped (docs/format.md §11.4).
func (g *gen) emitReadEvolved(f *jen.File) {
	s := g.s
	var cases []jen.Code
	for i, fl := range s.Fields {
		w := fl.Wire
		if evolvedScalar(fl) {
			// ReadScalars reads it (StructSpec.Scalars).
			continue
		}
		scalarT := w.Go
		if scalarT.Kind == model.Pointer || scalarT.Kind == model.Optional {
			scalarT = scalarT.Elem
		}
		g.valueField = fl
		present := g.readPresent(jen.Id("x").Dot(fl.GoName), w)
		g.valueField = nil
		var body []jen.Code
		if fl.RefOn && w.TypeID != meta.TypeUnknown && w.Go.Kind == model.Slice {
			// A tracked slice: one read behind the flag the remote field
			// has, a reference flag with tracking (so back-references
			// resolve), a null flag without, or none (ReadEvolvedRefFlag);
			// a dense array's is one call (foryimpl.ReadArrayEvolved).
			// read is the statement after a conversion's else: an if
			// statement, or a block.
			var read jen.Code
			if name, _ := arrayReaders(w); name != "" {
				// The reader converts too (f.Convert: ReadSliceAs).
				cases = append(cases, jen.Case(jen.Lit(i)).Block(
					jen.Id("x").Dot(fl.GoName).Op("=").Qual(implPkg, name).Types(g.goType(w.Go)).Call(jen.Id("c"), jen.Id("f"))))
				continue
			} else {
				g.valueField = fl
				body = g.readTrackedSlice(jen.Id("x").Dot(fl.GoName), w, jen.Id("c").Dot("ReadEvolvedRefFlag").Call(jen.Id("f")))
				g.valueField = nil
				read = body[0]
			}
			if conv := g.convertSeq(fl); conv != nil {
				body = []jen.Code{jen.If(jen.Id("f").Dot("Convert")).Block(conv...).Else().Add(read)}
			}
			cases = append(cases, jen.Case(jen.Lit(i)).Block(body...))
			continue
		}
		plain := false    // body is present behind the remote field's flag
		flagOnly := false // body is present behind the flag when there is one, never converted
		if w.TypeID == meta.TypeUnknown {
			// An any value carries its own flag.
			body = present
		} else if scalarT.Kind.IsPrimitive() && scalarT.Kind != model.Bool {
			// An Optional number (a value or pointer one is ReadScalars',
			// evolvedScalar): converted, or the value behind the flag
			// the remote field has.
			if w.Go.Kind != model.Optional {
				panic("emit: " + g.name() + "." + fl.GoName + " is a scalar ReadScalars reads")
			}
			num, bits := convNumber(scalarT.Kind)
			v, ok := g.fresh("v"), g.fresh("ok")
			body = append(body, jen.If(jen.Id("f").Dot("Convert")).Block(
				jen.If(jen.List(jen.Id(v), jen.Id(ok)).Op(":=").Id("c").Dot("Read"+num+"As").Call(jen.Id("f"), jen.Lit(bits)), jen.Id(ok)).Block(
					jen.Id("x").Dot(fl.GoName).Op("=").Qual(serializerPkg, "Some").Call(g.goType(scalarT).Call(jen.Id(v)))),
			).Else().If(jen.Op("!").Id("f").Dot("Flag").Op("||").Id("c").Dot("ReadFlag").Call()).Block(present...))
		} else if conv := g.convertSeq(fl); conv != nil {
			body = append(body, jen.If(jen.Id("f").Dot("Convert")).Block(conv...).
				Else().If(jen.Op("!").Id("f").Dot("Flag").Op("||").Id("c").Dot("ReadFlag").Call()).Block(present...))
		} else {
			plain = !w.Nullable
			flagOnly = true
			body = append(body, jen.If(jen.Op("!").Id("f").Dot("Flag").Op("||").Id("c").Dot("ReadFlag").Call()).Block(present...))
		}
		if fl.RefOn && w.TypeID != meta.TypeUnknown && valueFlagged(w) && plain {
			// A value no reference can share (an enum, a struct value):
			// one read behind the flag, whichever the mode
			// (ReadEvolvedValueFlag).
			body = []jen.Code{jen.If(jen.Id("c").Dot("ReadEvolvedValueFlag").Call(jen.Id("f"))).Block(present...)}
		} else if fl.RefOn && w.TypeID != meta.TypeUnknown && flagOnly && refFlagged(w) {
			// With tracking, a flagged value is read as the generated
			// tracking reader reads it, so back-references resolve; the
			// evolved flag reader gives the untracked message's null flag
			// the same form.
			g.valueField = fl
			body = g.readTrackedFlag(jen.Id("x").Dot(fl.GoName), w, jen.Id("c").Dot("ReadEvolvedRefFlag").Call(jen.Id("f")))
			g.valueField = nil
		} else if fl.RefOn && w.TypeID != meta.TypeUnknown {
			g.valueField = fl
			tracked := g.readTracked(jen.Id("x").Dot(fl.GoName), w)
			g.valueField = nil
			body = []jen.Code{jen.If(jen.Id("c").Dot("TrackRef").Call().Op("&&").Id("f").Dot("Flag").Op("&&").Op("!").Id("f").Dot("Convert")).Block(
				tracked...).Else().Block(body...)}
		}
		cases = append(cases, jen.Case(jen.Lit(i)).Block(body...))
	}
	// The scalars and the skipped fields are read by ReadScalars, which
	// returns at each remote field that lands in one of the cases.
	scalars := func(from jen.Code) *jen.Statement {
		return jen.Qual(implPkg, "ReadScalars").Call(jen.Id("c"), jen.Id("ev"), from, jen.Id("x"))
	}
	body := append(g.enter(), jen.Op("*").Id("x").Op("=").Id(g.name()).Values())
	if len(cases) == 0 {
		body = append(body, scalars(jen.Lit(0)))
	} else {
		loop := []jen.Code{
			jen.Switch(jen.Id("f").Op(":=").Id("ev").Dot("Field").Call(jen.Id("i")), jen.Id("f").Dot("Local")).Block(cases...),
			jen.If(jen.Id("c").Dot("FailedInField").Call(jen.Id("ev"), jen.Id("i"))).Block(jen.Return()),
		}
		if readsWithR(loop) {
			body = append(body, jen.Id("r").Op(":=").Id("c").Dot("Reader").Call())
		}
		body = append(body,
			jen.For(jen.Id("i").Op(":=").Add(scalars(jen.Lit(0))), jen.Id("i").Op("<").Id("ev").Dot("NumFields").Call(), jen.Id("i").Op("=").Add(scalars(jen.Id("i").Op("+").Lit(1)))).Block(loop...),
		)
	}
	body = append(body, g.leave()...)
	f.Commentf("ForyReadEvolved reads a %s body written with another schema, following ev (docs/format.md §11.4).", g.name())
	f.Func().Params(jen.Id("x").Op("*").Id(g.name())).Id("ForyReadEvolved").
		Params(jen.Id("c").Op("*").Qual(implPkg, "ReadContext"), jen.Id("ev").Op("*").Qual(implPkg, "Evolution")).Block(body...)
	f.Line()
}

// valueFlagged reports whether tracking reads a value of w behind
// ReadValueFlag alone (readTracked's last case): no kind a reference can
// share.
func valueFlagged(w *plan.Wire) bool {
	switch w.Go.Kind {
	case model.Any, model.Optional, model.Slice, model.Pointer, model.Map, model.Set:
		return false
	case model.Union:
		return !w.Nullable
	}
	return true
}

// evolvedScalar reports whether the evolved reader leaves a field to
// foryimpl.ReadScalars (StructSpec.Scalars): a bool, number or string
// value field, or a pointer to one (a named one too), that is not
// tracked. Marshalers, extension types, enums and times have kinds of
// their own.
func evolvedScalar(fl *plan.Field) bool {
	t := fl.Wire.Go
	if fl.RefOn || fl.Wire.TypeID == meta.TypeUnknown {
		return false
	}
	if t.Kind == model.Pointer {
		t = t.Elem
	}
	return t.Kind.IsPrimitive() || t.Kind == model.String
}

// scalarFields is StructSpec.Scalars, the indices of the fields
// ReadScalars reads; nil when there is none.
func (g *gen) scalarFields() jen.Code {
	var idx []jen.Code
	for i, fl := range g.s.Fields {
		if evolvedScalar(fl) {
			idx = append(idx, jen.Lit(i))
		}
	}
	if idx == nil {
		return nil
	}
	return jen.Qual(implPkg, "ScalarFieldsOf").Types(jen.Id(g.name())).Call(idx...)
}

// convertSeq returns the read of a list or array field of scalars whose
// remote type is another sequence of the same element domain (list ↔
// dense array, BINARY ↔ UINT8_ARRAY, docs/format.md §11.4 point 3; the runtime
// sets f.Convert), or nil for other fields.
func (g *gen) convertSeq(fl *plan.Field) []jen.Code {
	t := fl.Wire.Go
	ptr := t.Kind == model.Pointer
	if ptr {
		t = t.Elem
	}
	if t.Kind == model.Binary {
		// A list or dense array of uint8 for a marshal=binary field: its
		// bytes, then UnmarshalBinary (a null one leaves the field).
		s := g.fresh("s")
		dst := jen.Id("x").Dot(fl.GoName)
		var into []jen.Code
		if ptr {
			p := g.fresh("p")
			into = []jen.Code{jen.Id(p).Op(":=").Add(g.alloc(t)),
				jen.Id("c").Dot("Unmarshaled").Call(jen.Id(p).Dot("UnmarshalBinary").Call(jen.Id(s))),
				dst.Clone().Op("=").Id(p)}
		} else {
			into = []jen.Code{jen.Id("c").Dot("Unmarshaled").Call(dst.Clone().Dot("UnmarshalBinary").Call(jen.Id(s)))}
		}
		return []jen.Code{jen.If(jen.Id(s).Op(":=").Qual(implPkg, "ReadSliceAs").Types(jen.Byte()).Call(jen.Id("c"), jen.Id("f")),
			jen.Op("!").Id("c").Dot("Failed").Call().Op("&&").Id(s).Op("!=").Nil()).Block(into...)}
	}
	if t.Kind != model.Slice && t.Kind != model.Array {
		return nil
	}
	e := t.Elem
	ptrElem := e.Kind == model.Pointer
	if ptrElem {
		e = e.Elem
	}
	if !e.Kind.IsPrimitive() {
		return nil
	}
	fn := "ReadSliceAs"
	switch {
	case e.Kind == model.Bool && ptrElem:
		fn = "ReadBoolPointersAs"
	case e.Kind == model.Bool:
		fn = "ReadBoolsAs"
	case ptrElem:
		fn = "ReadPointersAs"
	}
	read := jen.Qual(implPkg, fn).Types(g.goType(e)).Call(jen.Id("c"), jen.Id("f"))
	dst := jen.Id("x").Dot(fl.GoName)
	if t.Kind == model.Array {
		if !ptr {
			return []jen.Code{jen.Qual(implPkg, "CopyArray").Call(jen.Id("c"), dst.Clone().Index(jen.Empty(), jen.Empty()), read)}
		}
		s, a := g.fresh("s"), g.fresh("a")
		return []jen.Code{jen.If(jen.Id(s).Op(":=").Add(read), jen.Id(s).Op("!=").Nil()).Block(
			jen.Var().Id(a).Add(g.goType(t)),
			jen.Qual(implPkg, "CopyArray").Call(jen.Id("c"), jen.Id(a).Index(jen.Empty(), jen.Empty()), jen.Id(s)),
			dst.Clone().Op("=").Op("&").Id(a),
		)}
	}
	if !ptr {
		return []jen.Code{dst.Clone().Op("=").Add(g.fromNamed(read, t))}
	}
	s, v := g.fresh("s"), g.fresh("v")
	return []jen.Code{jen.If(jen.Id(s).Op(":=").Add(read), jen.Id(s).Op("!=").Nil()).Block(
		jen.Id(v).Op(":=").Add(g.goType(t)).Call(jen.Id(s)),
		dst.Clone().Op("=").Op("&").Id(v),
	)}
}

// convNumber is the number kind of a converted scalar field's local type,
// naming its ReadContext method (Read<kind>As), and its bit size.
func convNumber(k model.Kind) (string, int) {
	switch k {
	case model.Int8:
		return "Int", 8
	case model.Int16:
		return "Int", 16
	case model.Int32:
		return "Int", 32
	case model.Int64, model.Int:
		return "Int", 64
	case model.Uint8:
		return "Uint", 8
	case model.Uint16:
		return "Uint", 16
	case model.Uint32:
		return "Uint", 32
	case model.Uint64, model.Uint:
		return "Uint", 64
	case model.Float32:
		return "Float", 32
	}
	return "Float", 64
}

// makeSlice allocates a decoded slice of n elements, reusing the previous
// value's slice when the field being read has one (g.reuse).
// A slice of scalars takes the Scalar forms, whose memory may come from a
// block (WithBlockAlloc, serializer/foryimpl/blocks.go).
func (g *gen) makeSlice(t *model.Type, n *jen.Statement) *jen.Statement {
	reuse, make := "ReuseSlice", "MakeSlice"
	if t.Elem.Kind.IsScalar() {
		reuse, make = "ReuseScalarSlice", "MakeScalarSlice"
	}
	if g.reuse != nil {
		old := g.reuse
		g.reuse = nil // only the field's own slice, not nested ones
		return jen.Qual(implPkg, reuse).Types(g.goType(t)).Call(jen.Id("c"), old, n)
	}
	return jen.Qual(implPkg, make).Types(g.goType(t)).Call(jen.Id("c"), n)
}

// readDenseArray reads a byte length and raw little-endian elements (§8.2).
func (g *gen) readDenseArray(dst *jen.Statement, w *plan.Wire) []jen.Code {
	n, s := g.fresh("n"), g.fresh("a")
	var out []jen.Code
	if wd := w.Elem.Width; wd&(wd-1) == 0 {
		// The inlined fast path takes a power-of-two width
		// (BenchmarkDeserialize/Sample).
		out = append(out, jen.Id(n).Op(":=").Id("c").Dot("ReadArrayLengthFast").Call(jen.Lit(wd)),
			jen.If(jen.Id(n).Op("<").Lit(0)).Block(jen.Id(n).Op("=").Id("c").Dot("ReadArrayLength").Call(jen.Lit(wd))))
	} else {
		out = append(out, jen.Id(n).Op(":=").Id("c").Dot("ReadArrayLength").Call(jen.Lit(wd)))
	}
	slice := jen.Id(s)
	if w.Go.Kind == model.Array {
		// A Go array: the length must be its own.
		out = append(out, jen.If(jen.Id(n).Op("!=").Lit(w.Go.Len).Op("&&").Op("!").Id("c").Dot("Failed").Call()).Block(
			jen.Id("c").Dot("Fail").Call(jen.Qual(implPkg, "ErrArrayLength").Call(jen.Id(n), jen.Lit(w.Go.Len))),
			jen.Return(),
		), jen.Var().Id(s).Add(g.goType(w.Go)))
		slice = jen.Id(s).Index(jen.Op(":"))
	} else {
		out = append(out, jen.Id(s).Op(":=").Add(g.makeSlice(w.Go, jen.Id(n))))
	}
	switch w.Go.Elem.Kind {
	case model.Int8:
		i := g.fresh("i")
		out = append(out, jen.For(jen.Id(i).Op(":=").Range().Id(s)).Block(
			jen.Id(s).Index(jen.Id(i)).Op("=").Add(g.fromWire(jen.Id("r").Dot("ReadInt8").Call(), w.Go.Elem))))
	case model.Uint8:
		out = append(out, jen.Copy(slice, jen.Id("r").Dot("ReadBytes").Call(jen.Id(n))))
	default:
		out = append(out, jen.Id("r").Dot("ReadRaw"+rawSuffix[w.Go.Elem.Kind]).Call(rawArg(slice, w.Go.Elem.Kind)))
	}
	return append(out, dst.Op("=").Id(s))
}

// readList reads a LIST (§8.1). A zero length decodes as an empty, non-nil
// slice, as official Go does.
func (g *gen) readList(dst *jen.Statement, w *plan.Wire) []jen.Code {
	if name := listReader(w); name != "" {
		old := jen.Code(jen.Nil())
		if g.reuse != nil {
			old, g.reuse = g.reuse, nil
		}
		args := []jen.Code{jen.Id("c"), old}
		if name != "ReadStringList" {
			args = append(args, g.structInfo(structOf(w.Elem.Go)))
		}
		return []jen.Code{dst.Op("=").Qual(implPkg, name).Types(g.goType(w.Go)).Call(args...)}
	}
	e := w.Elem
	n, s, i, hasNull, evv, trk := g.fresh("n"), g.fresh("l"), g.fresh("i"), g.fresh("hn"), g.fresh("ev"), g.fresh("tr")
	var out []jen.Code
	out = append(out, readLength(n, minBytes(e))...)
	isArray := w.Go.Kind == model.Array
	if isArray {
		out = append(out, jen.If(jen.Id(n).Op("!=").Lit(w.Go.Len).Op("&&").Op("!").Id("c").Dot("Failed").Call()).Block(
			jen.Id("c").Dot("Fail").Call(jen.Qual(implPkg, "ErrArrayLength").Call(jen.Id(n), jen.Lit(w.Go.Len))),
			jen.Return(),
		))
		out = append(out, jen.Var().Id(s).Add(g.goType(w.Go)))
	} else {
		out = append(out, jen.Id(s).Op(":=").Add(g.makeSlice(w.Go, jen.Id(n))))
	}
	var header jen.Code
	elemGo := e.Go
	// Every elements header the specification allows is read, in every
	// path (the evolved one too): a peer that tracks references may set
	// the tracking bit on any list of structs or collections (Python,
	// Java and JavaScript write 09 for a list of struct values), and then
	// every element has a reference flag (trackedElems).
	trackedElems := elemGo.Kind == model.Struct || elemGo.Kind == model.Pointer && elemGo.Elem.Kind == model.Struct ||
		elemGo.Kind == model.Slice || elemGo.Kind == model.Map || elemGo.Kind == model.Set
	switch {
	case elemGo.Kind == model.Struct:
		header = jen.List(jen.Id(hasNull), jen.Id(trk), jen.Id(evv)).Op(":=").Id("c").Dot("ReadStructListHeaderRef").Call(g.structInfo(elemGo))
	case elemGo.Kind == model.Pointer && elemGo.Elem.Kind == model.Struct:
		header = jen.List(jen.Id(hasNull), jen.Id(trk), jen.Id(evv)).Op(":=").Id("c").Dot("ReadStructListHeaderRef").Call(g.structInfo(elemGo.Elem))
	case elemGo.Kind == model.Ext:
		header = jen.List(jen.Id(hasNull), jen.Id(trk)).Op(":=").Id("c").Dot("ReadExtListHeader").Call(jen.Id(extInfo(elemGo.Codec)))
	case elemGo.Kind == model.Pointer && elemGo.Elem.Kind == model.Ext:
		header = jen.List(jen.Id(hasNull), jen.Id(trk)).Op(":=").Id("c").Dot("ReadExtListHeader").Call(jen.Id(extInfo(elemGo.Elem.Codec)))
	case trackedElems:
		header = jen.List(jen.Id(hasNull), jen.Id(trk)).Op(":=").Id("c").Dot("ReadListHeaderRef").Call(jen.Lit(int(e.TypeID)))
	default:
		header = jen.Id(hasNull).Op(":=").Id("c").Dot("ReadListHeader").Call(jen.Lit(int(e.TypeID)))
	}
	// A tracked element, read behind its reference flag; the loop goes on
	// with the next one.
	tracked := func(read []jen.Code) jen.Code {
		return jen.If(jen.Id(trk)).Block(append(read, jen.If(jen.Id("c").Dot("FailedAt").Call(jen.Id(i))).Block(
			jen.Break()), jen.Continue())...)
	}
	// Element reads: a null flag when the header says so, then the value. A
	// null element is zeroed: a reused slice (ReuseSlice) still holds the
	// previous value's element there.
	nullElem := jen.Clear(jen.Id(s).Index(jen.Id(i).Op(":").Id(i).Op("+").Lit(1)))
	var elem []jen.Code
	target := jen.Id(s).Index(jen.Id(i))
	deref := *e
	deref.Nullable = false
	switch {
	case elemGo.Kind == model.Ext:
		// A tracked header puts a reference flag before each value,
		// which nothing can refer back to (ReadValueFlag).
		elem = append(elem, jen.If(jen.Id(trk).Op("&&").Op("!").Id("c").Dot("ReadValueFlag").Call()).Block(jen.Break()),
			jen.If(jen.Id(hasNull).Op("&&").Op("!").Id("c").Dot("ReadFlag").Call()).Block(nullElem, jen.Continue()),
			readExtBytes(target.Clone(), elemGo))
	case elemGo.Kind == model.Pointer && elemGo.Elem.Kind == model.Ext:
		p, st, id := g.fresh("p"), g.fresh("st"), g.fresh("id")
		elem = append(elem, tracked([]jen.Code{jen.If(jen.List(jen.Id(st), jen.Id(id)).Op(":=").Id("c").Dot("ReadRefFlag").Call(), jen.Id(st).Op("==").Qual(implPkg, "RefBack")).Block(
			target.Clone().Op("=").Qual(implPkg, "BackRef").Types(g.goType(elemGo.Elem)).Call(jen.Id("c"), jen.Id(id)),
		).Else().If(jen.Id(st).Op("==").Qual(implPkg, "RefFollows")).Block(
			jen.Id(p).Op(":=").New(g.goType(elemGo.Elem)),
			jen.Qual(implPkg, "SetRef").Call(jen.Id("c"), jen.Id(id), jen.Id(p)),
			readExtBytes(jen.Op("*").Id(p), elemGo.Elem),
			target.Clone().Op("=").Id(p),
		).Else().Block(target.Clone().Op("=").Nil())}),
			jen.If(jen.Id(hasNull).Op("&&").Op("!").Id("c").Dot("ReadFlag").Call()).Block(nullElem, jen.Continue()),
			jen.Id(p).Op(":=").New(g.goType(elemGo.Elem)),
			readExtBytes(jen.Op("*").Id(p), elemGo.Elem),
			target.Clone().Op("=").Id(p))
	case elemGo.Kind == model.Struct:
		elem = append(elem, tracked(g.readTrackedValue(target.Clone(), elemGo, jen.Id(evv))),
			jen.If(jen.Id(hasNull).Op("&&").Op("!").Id("c").Dot("ReadFlag").Call()).Block(nullElem, jen.Continue()),
			jen.If(jen.Id(evv).Op("!=").Nil()).Block(target.Clone().Dot("ForyReadEvolved").Call(jen.Id("c"), jen.Id(evv))).
				Else().Block(target.Clone().Dot("ForyRead").Call(jen.Id("c"))))
	case elemGo.Kind == model.Pointer:
		p := g.fresh("p")
		deref.Go = elemGo.Elem
		var read []jen.Code
		if elemGo.Elem.Kind == model.Struct {
			read = []jen.Code{jen.If(jen.Id(evv).Op("!=").Nil()).Block(jen.Id(p).Dot("ForyReadEvolved").Call(jen.Id("c"), jen.Id(evv))).
				Else().Block(jen.Id(p).Dot("ForyRead").Call(jen.Id("c")))}
		} else {
			read = g.readValue(jen.Op("*").Id(p), &deref, false)
		}
		if elemGo.Elem.Kind == model.Struct {
			// A header with the tracking bit puts a reference flag before
			// every element; without it the elements are as untracked.
			elem = append(elem, tracked(g.readTrackedElem(target.Clone(), e, jen.Id(evv))))
		}
		elem = append(elem,
			jen.If(jen.Id(hasNull).Op("&&").Op("!").Id("c").Dot("ReadFlag").Call()).Block(nullElem, jen.Continue()),
			jen.Id(p).Op(":=").Add(g.alloc(elemGo.Elem)))
		elem = append(elem, read...)
		elem = append(elem, target.Clone().Op("=").Id(p))
	default:
		if trackedElems {
			// Tracked collection elements (header 0x0d): a reference flag
			// before each.
			elem = append(elem, tracked(g.readTracked(target.Clone(), e)))
		}
		elem = append(elem,
			jen.If(jen.Id(hasNull).Op("&&").Op("!").Id("c").Dot("ReadFlag").Call()).Block(nullElem, jen.Continue()))
		elem = append(elem, g.readValue(target.Clone(), &deref, true)...)
	}
	// On failure leave the loop; the enclosing field's check returns.
	elem = append(elem, jen.If(jen.Id("c").Dot("FailedAt").Call(jen.Id(i))).Block(jen.Break()))
	// No element is read after a failed elements header (the path ends at
	// the list).
	out = append(out, jen.If(jen.Id(n).Op(">").Lit(0)).Block(
		header,
		jen.If(jen.Op("!").Id("c").Dot("Failed").Call()).Block(
			jen.For(jen.Id(i).Op(":=").Range().Id(s)).Block(elem...)),
	))
	return append(out, dst.Op("=").Id(s))
}

// listReader names the foryimpl reader of list w when the runtime reads
// it whole (lists.go): a slice of strings, of struct values or of
// pointers to structs; "" for the lists emit writes out.
func listReader(w *plan.Wire) string {
	if w.Go.Kind != model.Slice || w.TypeID != meta.TypeList || w.Elem == nil {
		return ""
	}
	switch e := w.Elem.Go; {
	case e.Kind == model.String && w.Elem.TypeID == meta.TypeString:
		return "ReadStringList"
	case e.Kind == model.Struct:
		return "ReadStructList"
	case e.Kind == model.Pointer && e.Elem.Kind == model.Struct:
		return "ReadStructPtrList"
	}
	return ""
}

// structOf is t, or the struct t points to.
func structOf(t *model.Type) *model.Type {
	if t.Kind == model.Pointer {
		return t.Elem
	}
	return t
}

// readMap reads a MAP chunk by chunk (§8.4).
func (g *gen) readMap(dst *jen.Statement, w *plan.Wire) []jen.Code {
	n, m, size, valNull, j, k, v := g.fresh("n"), g.fresh("m"), g.fresh("sz"), g.fresh("vn"), g.fresh("j"), g.fresh("k"), g.fresh("v")
	keyRead := g.readValue(jen.Id(k), w.Key, true)
	if w.Key.Go.Kind == model.Struct {
		// A declared struct key: its body alone, with this side's schema
		// (no TypeDef travels with it, docs/format.md §8.4).
		keyRead = []jen.Code{jen.Id(k).Dot("ForyRead").Call(jen.Id("c"))}
	}
	nullKeys := w.Key.Go.Kind == model.Pointer
	var kn string
	if nullKeys {
		kn = g.fresh("kn")
		// A pointer key: its target, unless the chunk said null (§8.4).
		deref := *w.Key
		deref.Go, deref.Nullable = w.Key.Go.Elem, false
		kp := g.fresh("kp")
		keyRead = []jen.Code{jen.If(jen.Op("!").Id(kn)).Block(append(append([]jen.Code{jen.Id(kp).Op(":=").New(g.goType(deref.Go))},
			g.readValue(jen.Op("*").Id(kp), &deref, false)...), jen.Id(k).Op("=").Id(kp))...)}
	}
	valW := *w.Elem
	valW.Nullable = false
	var valRead []jen.Code
	valGo := w.Elem.Go
	// Struct values written with their type meta (a chunk whose value type
	// is not declared) may carry another schema: ev maps it.
	ev, valInfo := jen.Id("_"), jen.Code(jen.Nil())
	readStruct := func(dst jen.Code) jen.Code {
		return jen.If(ev.Clone().Op("!=").Nil()).Block(jen.Add(dst).Dot("ForyReadEvolved").Call(jen.Id("c"), ev.Clone())).
			Else().Block(jen.Add(dst).Dot("ForyRead").Call(jen.Id("c")))
	}
	switch {
	case valGo.Kind == model.Ext:
		// Declared in both modes: the codec's bytes (docs/format.md §12.6).
		valRead = []jen.Code{readExtBytes(jen.Id(v), valGo)}
	case valGo.Kind == model.Struct:
		ev, valInfo = jen.Id(g.fresh("ev")), g.structInfo(valGo)
		valRead = []jen.Code{readStruct(jen.Id(v))}
	case valGo.Kind == model.Pointer:
		p := g.fresh("p")
		valW.Go = valGo.Elem
		valRead = []jen.Code{jen.Id(p).Op(":=").Add(g.alloc(valGo.Elem))}
		if valGo.Elem.Kind == model.Struct {
			ev, valInfo = jen.Id(g.fresh("ev")), g.structInfo(valGo.Elem)
			valRead = append(valRead, readStruct(jen.Id(p)))
		} else {
			valRead = append(valRead, g.readValue(jen.Op("*").Id(p), &valW, false)...)
		}
		valRead = append(valRead, jen.Id(v).Op("=").Id(p))
	default:
		valRead = g.readValue(jen.Id(v), &valW, true)
	}
	keyID, valID := int(w.Key.TypeID), int(w.Elem.TypeID)
	loop := []jen.Code{jen.Var().Id(k).Add(g.goType(w.Key.Go))}
	loop = append(loop, keyRead...)
	loop = append(loop, jen.Var().Id(v).Add(g.goType(valGo)))
	trk := g.fresh("tr")
	tracked := g.track && w.Elem.RefOn
	if tracked {
		var read []jen.Code
		if valGo.Kind == model.Pointer {
			read = g.readTrackedElem(jen.Id(v), w.Elem, ev)
		} else {
			read = g.readTracked(jen.Id(v), w.Elem)
		}
		loop = append(loop, jen.If(jen.Id(trk)).Block(read...).
			Else().If(jen.Op("!").Id(valNull)).Block(valRead...))
	} else {
		loop = append(loop, jen.If(jen.Op("!").Id(valNull)).Block(valRead...))
	}
	loop = append(loop, jen.Id(m).Index(jen.Id(k)).Op("=").Id(v))
	notFailed := jen.Op("!").Id("c").Dot("Failed").Call()
	chunk := jen.List(jen.Id(size), jen.Id(valNull), ev.Clone()).Op(":=").Id("c").Dot("ReadMapChunk").Call(jen.Id(n), jen.Lit(keyID), jen.Lit(valID), valInfo,
		jen.Lit(valGo.Kind == model.Pointer || valGo.Kind == model.Slice || valGo.Kind == model.Map || valGo.Kind == model.Set))
	if tracked {
		chunk = jen.List(jen.Id(size), jen.Id(valNull), jen.Id(trk), ev.Clone()).Op(":=").Id("c").Dot("ReadMapChunkRef").Call(jen.Id(n), jen.Lit(keyID), jen.Lit(valID), valInfo)
	} else if nullKeys {
		chunk = jen.List(jen.Id(size), jen.Id(kn), jen.Id(valNull), ev.Clone()).Op(":=").Id("c").Dot("ReadMapChunkNullKey").Call(jen.Id(n), jen.Lit(keyID), jen.Lit(valID), valInfo,
			jen.Lit(valGo.Kind == model.Pointer))
	}
	// Two bytes an entry at least (a chunk's entry, or a null value's
	// header and key); a null key and value take one (0x12).
	minBytes := 2
	if nullKeys {
		minBytes = 1
	}
	return append(readLength(n, minBytes),
		jen.Id(m).Op(":=").Qual(implPkg, "MakeMap").Types(g.goType(w.Go)).Call(jen.Id("c"), jen.Id(n)),
		jen.For(jen.Id(n).Op(">").Lit(0).Op("&&").Add(notFailed.Clone())).Block(
			chunk,
			jen.For(jen.Id(j).Op(":=").Lit(0), jen.Id(j).Op("<").Id(size).Op("&&").Add(notFailed.Clone()), jen.Id(j).Op("++")).Block(loop...),
			jen.Id(n).Op("-=").Id(size),
		),
		dst.Op("=").Id(m),
	)
}

// enumMax is the largest ordinal an enum of base kind k holds, when that is
// below the wire's 2^32-1: a larger one must not be narrowed silently.
func enumMax(k model.Kind) (uint32, bool) {
	switch k {
	case model.Int8:
		return math.MaxInt8, true
	case model.Uint8:
		return math.MaxUint8, true
	case model.Int16:
		return math.MaxInt16, true
	case model.Uint16:
		return math.MaxUint16, true
	case model.Int32:
		return math.MaxInt32, true
	}
	return 0, false
}

// readSet reads a SET written as a LIST (§8.1) into a new set: the length,
// the elements header and each element; a null element has no place in a
// Go set and is a schema mismatch.
func (g *gen) readSet(dst *jen.Statement, w *plan.Wire) []jen.Code {
	n, s, hn, i, e := g.fresh("n"), g.fresh("s"), g.fresh("hn"), g.fresh("i"), g.fresh("e")
	if eg := w.Elem.Go; eg.Kind == model.Pointer && eg.Elem.Kind == model.Struct {
		trk, ev := g.fresh("tr"), g.fresh("ev")
		return append(readLength(n, 1),
			jen.Id(s).Op(":=").Qual(implPkg, "MakeMap").Types(g.goType(w.Go)).Call(jen.Id("c"), jen.Id(n)),
			jen.If(jen.Id(n).Op(">").Lit(0)).Block(
				jen.List(jen.Id(hn), jen.Id(trk), jen.Id(ev)).Op(":=").Id("c").Dot("ReadStructListHeaderRef").Call(g.structInfo(w.Elem.Go.Elem)),
				jen.For(jen.Id(i).Op(":=").Lit(0), jen.Id(i).Op("<").Id(n).Op("&&").Op("!").Id("c").Dot("Failed").Call(), jen.Id(i).Op("++")).Block(
					jen.Var().Id(e).Add(g.goType(w.Elem.Go)),
					jen.If(jen.Id(trk)).Block(g.readTrackedElem(jen.Id(e), w.Elem, jen.Id(ev))...).
						Else().If(jen.Op("!").Id(hn).Op("||").Id("c").Dot("ReadFlag").Call()).Block(
						jen.Id(e).Op("=").Add(g.alloc(w.Elem.Go.Elem)),
						jen.If(jen.Id(ev).Op("!=").Nil()).Block(jen.Id(e).Dot("ForyReadEvolved").Call(jen.Id("c"), jen.Id(ev))).
							Else().Block(jen.Id(e).Dot("ForyRead").Call(jen.Id("c")))),
					jen.If(jen.Id(e).Op("==").Nil().Op("&&").Op("!").Id("c").Dot("Failed").Call()).Block(
						jen.Id("c").Dot("Fail").Call(jen.Qual(implPkg, "ErrNullSetElement").Call()),
						jen.Break()),
					jen.Qual(implPkg, "AddSetElement").Call(jen.Id("c"), jen.Id(s), jen.Id(e), jen.Id(i)),
				),
			),
			dst.Op("=").Id(s),
		)
	}
	return append(readLength(n, 1),
		jen.Id(s).Op(":=").Qual(implPkg, "MakeMap").Types(g.goType(w.Go)).Call(jen.Id("c"), jen.Id(n)),
		jen.If(jen.Id(n).Op(">").Lit(0)).Block(
			jen.Id(hn).Op(":=").Id("c").Dot("ReadListHeader").Call(jen.Lit(int(w.Elem.TypeID))),
			jen.For(jen.Id(i).Op(":=").Lit(0), jen.Id(i).Op("<").Id(n).Op("&&").Op("!").Id("c").Dot("Failed").Call(), jen.Id(i).Op("++")).Block(
				jen.If(jen.Id(hn).Op("&&").Op("!").Id("c").Dot("ReadFlag").Call()).Block(
					jen.Id("c").Dot("Fail").Call(jen.Qual(implPkg, "ErrNullSetElement").Call()),
					jen.Break()),
				jen.Var().Id(e).Add(g.goType(w.Elem.Go)),
				jen.Block(g.readValue(jen.Id(e), w.Elem, true)...),
				jen.Qual(implPkg, "AddSetElement").Call(jen.Id("c"), jen.Id(s), jen.Id(e), jen.Id(i)),
			),
		),
		dst.Op("=").Id(s),
	)
}

// readOptional reads a present Optional's value into dst (the flag is read).
func (g *gen) readOptional(dst *jen.Statement, w *plan.Wire) []jen.Code {
	inner := *w
	inner.Go, inner.Nullable = w.Go.Elem, false
	e := g.fresh("o")
	out := []jen.Code{jen.Var().Id(e).Add(g.goType(w.Go.Elem))}
	out = append(out, g.readValue(jen.Id(e), &inner, true)...)
	return append(out, dst.Op("=").Qual(serializerPkg, "Some").Call(jen.Id(e)))
}

// readExtBytes reads an extension value's bytes with its codec into dst.
func readExtBytes(dst *jen.Statement, t *model.Type) jen.Code {
	return jen.Id("c").Dot("ExtRead").Call(jen.Parens(jen.Op("&").Id(t.Codec).Values()).Dot("ReadExt").Call(jen.Id("c").Dot("Reader").Call(), addrOf(dst)))
}

// arrayReaders name the foryimpl readers of dense array field w: read
// with another writer's schema (ReadArrayEvolved) and read with reference
// tracking (ReadRefArray); "" for a Go array, which keeps its inlined
// read (its length is checked against the array's).
func arrayReaders(w *plan.Wire) (evolved, tracked string) {
	switch {
	case w.Go.Kind != model.Slice || arrayWidth(w) == 0:
		return "", ""
	case w.Go.Elem.Kind == model.Bool:
		return "ReadBoolArrayEvolved", "ReadRefBoolArray"
	}
	return "ReadArrayEvolved", "ReadRefArray"
}

// refArray names the foryimpl reader of fl in the tracking ForyRead when
// it is a dense array read with one call (readField): "" otherwise.
func (g *gen) refArray(fl *plan.Field) string {
	if !g.track || !fl.Unflagged || fl.Wire.Go.Kind == model.Any {
		return ""
	}
	_, name := arrayReaders(fl.Wire)
	return name
}

// Shared value readers. A collection field's value (a list, set or map
// that is not a dense array and holds no any) is read by a method of its
// own, foryRead<Field>, which ForyRead in both modes and ForyReadEvolved
// call, where each once held a copy of the same loops (issue 28). Its
// call is a few instructions against a loop over elements
// (instructions.sh MediaContent forygen: within its noise). A reader
// reuses the field's previous slice where ForyRead's reset kept it; the
// evolved reader and tracked fields start from a zeroed field, which it
// then allocates.

// valueReader reports whether a value of w gets a shared reader: a
// list the runtime reads whole (listReader) is one call already.
func valueReader(w *plan.Wire) bool {
	return sharedValue(w) && listReader(w) == ""
}

// sharedValue reports whether a value of w is read and written by a
// method of its own where a struct's two modes would repeat it.
func sharedValue(w *plan.Wire) bool {
	if w.Nullable || w.Go.Kind == model.Pointer || w.Go.Kind == model.Optional {
		return false
	}
	switch w.TypeID {
	case meta.TypeList, meta.TypeSet, meta.TypeMap:
		return w.Elem != nil && w.Elem.TypeID != meta.TypeUnknown && arrayWidth(w) == 0
	}
	return false
}

// valueReaderFor names the shared value reader of fl in the current
// mode, recording it for emitValueReaders: foryRead<Field>, or
// foryRead<Field>Ref for tracking where the two modes read it differently
// (a map whose values may carry reference flags). A reader takes the
// field's value and returns the one read, so that fields of one type
// and encoding share one (internal/evolution/v1's Containers: every
// field has an Rm twin); it is named after the first.
func (g *gen) valueReaderFor(fl *plan.Field) string {
	if g.valueReaders == nil {
		g.valueReaders = map[valueKey]*valueMethod{}
		g.valueBodies = map[string]*valueMethod{}
	}
	k := valueKey{fl, g.track}
	if m, ok := g.valueReaders[k]; ok {
		return m.name
	}
	body := render(g.valueRead(fl, g.track))
	ref := g.track && render(g.valueRead(fl, false)) != body
	key := fmt.Sprintf("%t %t %#v\n%s", ref, reusesValue(fl), g.goType(fl.Wire.Go), body)
	m, ok := g.valueBodies[key]
	if !ok {
		base := "foryRead" + fl.GoName
		if ref {
			base += "Ref"
		}
		m = &valueMethod{name: g.method(base), ref: ref, field: fl}
		g.valueBodies[key] = m
		g.valueOrder = append(g.valueOrder, m)
	}
	if !slices.Contains(m.users, fl.GoName) {
		m.users = append(m.users, fl.GoName)
	}
	g.valueReaders[k] = m
	return m.name
}

// reusesValue reports whether fl's value reader takes the field's
// previous value, a list's slice to reuse.
func reusesValue(fl *plan.Field) bool {
	return fl.Wire.Go.Kind == model.Slice && fl.Wire.TypeID == meta.TypeList
}

// valueRead is the body of fl's shared value reader in a mode, which
// reads into its result v (reusing old, a list's previous slice). The
// temporaries it takes are given back, so that a trial render does not
// renumber the code around it.
func (g *gen) valueRead(fl *plan.Field, track bool) []jen.Code {
	savedTrack, savedTmp, savedReuse := g.track, g.tmp, g.reuse
	g.track, g.tmp, g.reuse = track, 0, nil
	if reusesValue(fl) {
		g.reuse = jen.Id("old")
	}
	inner := *fl.Wire
	inner.Nullable = false
	code := g.readValue(jen.Id("v"), &inner, true)
	g.track, g.tmp, g.reuse = savedTrack, savedTmp, savedReuse
	if readsWithR(code) {
		code = append([]jen.Code{jen.Id("r").Op(":=").Id("c").Dot("Reader").Call()}, code...)
	}
	if fieldUse.MatchString(render(code)) {
		// A body that named a field could not serve another.
		panic("emit: the value reader of " + g.name() + "." + fl.GoName + " uses the struct")
	}
	return append(code, jen.Return(jen.Id("v")))
}

// fieldUse matches a use of the receiver x in rendered code.
var fieldUse = regexp.MustCompile(`(^|[^\w.])x\.`)

// emitValueReaders writes the shared value readers the struct's readers
// call, in the order they were first called.
func (g *gen) emitValueReaders(f *jen.File) {
	for _, m := range g.valueOrder {
		mode := ""
		if m.ref {
			mode = " with reference tracking"
		}
		whose := "field " + m.users[0] + "'s value"
		if len(m.users) > 1 {
			whose = "the value of fields " + strings.Join(m.users, ", ")
		}
		f.Commentf("%s reads %s%s, for ForyRead and ForyReadEvolved.", m.name, whose, mode)
		t := g.goType(m.field.Wire.Go)
		params := []jen.Code{jen.Id("c").Op("*").Qual(implPkg, "ReadContext")}
		if reusesValue(m.field) {
			params = append(params, jen.Id("old").Add(t.Clone()))
		}
		f.Func().Params(jen.Id("x").Op("*").Id(g.name())).Id(m.name).
			Params(params...).Params(jen.Id("v").Add(t)).Block(g.valueRead(m.field, m.ref)...)
		f.Line()
	}
}

// readerUse matches a use of the reader local r in rendered code.
var readerUse = regexp.MustCompile(`(^|[^\w.])r\.`)

// readsWithR reports whether code uses the reader local r.
func readsWithR(code []jen.Code) bool { return readerUse.MatchString(render(code)) }
