package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// Reference tracking (docs/format.md §2.1). A struct whose body tracking
// changes (plan.RefSensitive) gets a second writer and reader,
// foryWriteRef and foryReadRef, emitted from the same code with g.track
// set; ForyWrite and ForyRead call them when the Fory tracks references,
// so a Fory without tracking runs exactly the code it ran before.

// writeTracked writes a field with RefOn in tracking mode: a pointer, slice
// or map behind its reference flag (WriteRef…: nil, a back-reference, or
// 0x00 and the value), any other kind (an enum, a struct value) behind 0xFF.
func (g *gen) writeTracked(v *jen.Statement, w *plan.Wire) []jen.Code {
	t := w.Go
	if t.Kind == model.Any {
		// WriteAny writes the reference flag itself.
		return g.writeValue(v, w, true)
	}
	if t.Kind == model.Optional {
		// A value (an enum) behind its null flag, ff or fd, as without
		// tracking: nothing in it can be shared.
		return g.writeValue(v, w, true)
	}
	inner := *w
	inner.Nullable = false
	var fn string
	var body []jen.Code
	switch t.Kind {
	case model.Pointer:
		fn = "WriteRefPtr"
		inner.Go = t.Elem
		if t.Elem.Kind == model.Enum {
			// An enum is held by value: a present one is 0xFF, never a
			// shared object, as official Go writes it.
			return []jen.Code{jen.If(v.Clone().Op("==").Nil()).Block(writeFlag("FlagNull")).Else().Block(
				append([]jen.Code{writeFlag("FlagNotNull")}, g.writeValue(jen.Op("*").Add(v.Clone()), &inner, false)...)...)}
		}
		if t.Elem.Kind == model.Struct {
			body = g.writeStruct(v.Clone(), t.Elem, true)
		} else {
			body = g.writeValue(jen.Op("*").Add(v.Clone()), &inner, false)
		}
	case model.Slice:
		fn = "WriteRefSlice"
		body = g.writeValue(v.Clone(), &inner, true)
	case model.Map, model.Set:
		fn = "WriteRefMap"
		body = g.writeValue(v.Clone(), &inner, true)
	default:
		if t.Kind == model.Union && w.Nullable {
			return g.writeNullableUnion(v, &inner, true)
		}
		if t.Kind == model.Binary {
			// 0x00, as a []byte field is flagged, with an id of its own:
			// the value is marshaled anew, never shared.
			return append([]jen.Code{jen.Qual(implPkg, "WriteRefFresh").Call(jen.Id("c"))}, g.writeValue(v, &inner, true)...)
		}
		return append([]jen.Code{writeFlag("FlagNotNull")}, g.writeValue(v, &inner, true)...)
	}
	return []jen.Code{jen.If(jen.Op("!").Qual(implPkg, fn).Call(jen.Id("c"), v)).Block(body...)}
}

// writeRefFlagged writes a field tagged ref in a Fory without tracking,
// whose wire type has no null flag of its own: official Go writes the flag
// all the same, 0xFF, or 0xFD for a nil slice or map.
func (g *gen) writeRefFlagged(v *jen.Statement, w *plan.Wire) []jen.Code {
	if w.Go.Kind == model.Any {
		return g.writeValue(v, w, true)
	}
	present := append([]jen.Code{writeFlag("FlagNotNull")}, g.writeValue(v.Clone(), w, true)...)
	switch w.Go.Kind {
	case model.Slice, model.Map, model.Set, model.Pointer:
		return []jen.Code{jen.If(v.Clone().Op("==").Nil()).Block(writeFlag("FlagNull")).Else().Block(present...)}
	}
	return present
}

// readField reads one field of the other group.
func (g *gen) readField(fl *plan.Field) []jen.Code {
	dst := jen.Id("x").Dot(fl.GoName)
	// A field that tracking only puts behind a flag is read by the same
	// code in both modes, the flag's test first: `!c.TrackRef() || …`
	// (issue 28: ForyRead once held the read twice, in each branch on the
	// mode).
	guarded := fl.Unflagged && g.s.RefSensitive && fl.Wire.Go.Kind != model.Any && fl.Wire.Go.Kind != model.Slice
	untracked := jen.Op("!").Id("c").Dot("TrackRef").Call().Op("||")
	switch {
	case fl.Wire.Go.Kind == model.Any:
		// ReadAny reads the flag, reference flags included.
		return g.readValue(dst, fl.Wire, true)
	case guarded && fl.Wire.Go.Kind == model.Struct:
		// Official Go's 0xFF or nothing (docs/format.md §14.30): the
		// schema hash that starts the value tells them apart.
		return []jen.Code{jen.If(untracked.Add(jen.Id("c").Dot("ReadStructValueFlag").Call(g.structInfo(fl.Wire.Go)))).
			Block(g.readValue(dst, fl.Wire, true)...)}
	case guarded:
		// An enum or a binary: bare in the other languages' same-schema
		// form, which the bytes cannot tell from official Go's
		// (WithOfficialGoForm).
		return []jen.Code{jen.If(untracked.Add(jen.Op("!").Id("c").Dot("TrackedFieldFlags").Call().Op("||").Id("c").Dot("ReadValueFlag").Call())).
			Block(g.readValue(dst, fl.Wire, true)...)}
	case g.track && fl.Unflagged:
		// An enum, a dense array or a binary: bare in the other languages'
		// same-schema form, which the bytes cannot tell from official Go's
		// (WithOfficialGoForm). Without the flag a slice is read as one
		// that follows its flag, with no reference id (ReadFieldRefFlag).
		if name := g.refArray(fl); name != "" {
			// A dense array: one call (foryimpl/arrays.go), which reuses
			// the previous value's memory once a message.
			return []jen.Code{dst.Op("=").Qual(implPkg, name).Types(g.goType(fl.Wire.Go)).Call(jen.Id("c"), jen.Id("x").Dot(fl.GoName))}
		}
		return g.readTrackedSlice(dst, fl.Wire, jen.Id("c").Dot("ReadFieldRefFlag").Call())
	case g.track && fl.RefOn:
		return g.readTracked(dst, fl.Wire)
	case fl.RefOff && !fl.Wire.Nullable:
		// A nil slice or map, or null for a value: the field stays zero.
		return []jen.Code{jen.If(jen.Id("c").Dot("ReadFlag").Call()).Block(g.readValue(dst.Clone(), fl.Wire, true)...).
			Else().Block(dst.Clone().Op("=").Add(g.zero(fl.Wire.Go)))}
	}
	return g.readValue(dst, fl.Wire, true)
}

// zero is the zero value of a slice, map or value field that a flag said
// is null.
func (g *gen) zero(t *model.Type) jen.Code {
	switch t.Kind {
	case model.Slice, model.Map, model.Set, model.Pointer:
		return jen.Nil()
	}
	return g.goType(t).Values()
}

// readTracked reads a field with RefOn in tracking mode: the reference
// flag, then the object for 0x00 (recorded before anything inside it is
// read, so cycles close) or 0xFF, or the object a back-reference names.
func (g *gen) readTracked(dst *jen.Statement, w *plan.Wire) []jen.Code {
	return g.readTrackedFlag(dst, w, jen.Id("c").Dot("ReadRefFlag").Call())
}

// refFlagged reports whether readTracked reads w behind a reference state
// alone (a pointer, slice, map or set), which readTrackedFlag may take
// from another flag reader.
func refFlagged(w *plan.Wire) bool {
	switch w.Go.Kind {
	case model.Pointer, model.Slice, model.Map, model.Set:
		return true
	}
	return false
}

// readTrackedFlag is readTracked with the reference state (state, id)
// from flag: the evolved reader passes c.ReadEvolvedRefFlag(f), which
// gives the null flag's state and no id in a message without tracking, so
// one read serves both (issue 28).
func (g *gen) readTrackedFlag(dst *jen.Statement, w *plan.Wire, flag *jen.Statement) []jen.Code {
	t := w.Go
	if t.Kind == model.Any {
		return g.readValue(dst, w, true)
	}
	if t.Kind == model.Optional {
		return []jen.Code{jen.If(jen.Id("c").Dot("ReadOptionalFlag").Call()).Block(g.readOptional(dst, w)...)}
	}
	if t.Kind == model.Slice {
		return g.readTrackedSlice(dst, w, flag)
	}
	inner := *w
	inner.Nullable = false
	st, id := g.fresh("st"), g.fresh("id")
	flag = jen.List(jen.Id(st), jen.Id(id)).Op(":=").Add(flag)
	back := jen.Id(st).Op("==").Qual(implPkg, "RefBack")
	follows := jen.Id(st).Op("==").Qual(implPkg, "RefFollows")
	switch t.Kind {
	case model.Pointer:
		inner.Go = t.Elem
		p := g.fresh("p")
		present := []jen.Code{
			jen.Id(p).Op(":=").Add(g.alloc(t.Elem)),
			jen.Qual(implPkg, "SetRef").Call(jen.Id("c"), jen.Id(id), jen.Id(p)),
		}
		if t.Elem.Kind == model.Struct {
			present = append(present, g.readStruct(jen.Id(p), t.Elem, true)...)
		} else {
			present = append(present, g.readValue(jen.Op("*").Id(p), &inner, false)...)
		}
		present = append(present, dst.Clone().Op("=").Id(p))
		return []jen.Code{jen.If(flag, back).Block(
			dst.Clone().Op("=").Qual(implPkg, "BackRef").Types(g.goType(t.Elem)).Call(jen.Id("c"), jen.Id(id)),
		).Else().If(follows).Block(present...).Else().Block(dst.Clone().Op("=").Nil())}
	case model.Map, model.Set:
		k, v := t.Key, t.Elem
		var val jen.Code = jen.Struct()
		if t.Kind == model.Map {
			val = g.goType(v)
		} else {
			k = t.Elem
		}
		backRef := jen.Qual(implPkg, "BackRefMap").Types(g.goType(k), val).Call(jen.Id("c"), jen.Id(id))
		var back2 jen.Code = backRef
		if t.Named != nil || t.Kind == model.Set {
			back2 = g.goType(t).Call(backRef)
		}
		present := append(g.readValue(dst.Clone(), &inner, true),
			jen.Qual(implPkg, "SetRefMap").Call(jen.Id("c"), jen.Id(id), dst.Clone()))
		return []jen.Code{jen.If(flag, back).Block(dst.Clone().Op("=").Add(back2)).
			Else().If(follows).Block(present...).Else().Block(dst.Clone().Op("=").Nil())}
	}
	if t.Kind == model.Union && w.Nullable {
		// An unset union is null (writeNullableUnion): the field stays zero.
		return []jen.Code{jen.If(jen.Id("c").Dot("ReadOptionalFlag").Call()).Block(g.readValue(dst.Clone(), &inner, true)...).
			Else().Block(dst.Clone().Op("=").Add(g.zero(t)))}
	}
	return []jen.Code{jen.If(jen.Id("c").Dot("ReadValueFlag").Call()).Block(g.readValue(dst, &inner, true)...)}
}

// writePtrElems writes the elements of a list or set of struct pointers:
// header 0x08 (one type; 0x09 tracked), plus 0x02 when one is nil, the
// element type meta once, and the elements, each behind its null flag when
// one is nil or its reference flag when tracked.
func (g *gen) writePtrElems(v *jen.Statement, e *plan.Wire, set, tracked bool) []jen.Code {
	b := jen.Id("b")
	hdr, el := g.fresh("h"), g.fresh("p")
	each := func() *jen.Statement {
		if set {
			return jen.For(jen.Id(el).Op(":=").Range().Add(v.Clone()))
		}
		return jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone()))
	}
	base := []string{"ListSameType"}
	if tracked {
		base = append(base, "ListTrackRef")
	}
	withNull := append(base[:len(base):len(base)], "ListHasNull")
	var write []jen.Code
	if tracked {
		write = []jen.Code{jen.If(jen.Op("!").Qual(implPkg, "WriteRefPtr").Call(jen.Id("c"), jen.Id(el))).Block(
			jen.Id(el).Dot("ForyWrite").Call(jen.Id("c")))}
	} else {
		write = []jen.Code{jen.If(jen.Id(hdr).Op("==").Add(spec(withNull...))).Block(
			jen.If(jen.Id(el).Op("==").Nil()).Block(writeFlag("FlagNull"), jen.Continue()),
			writeFlag("FlagNotNull"),
		), jen.Id(el).Dot("ForyWrite").Call(jen.Id("c"))}
	}
	return []jen.Code{
		jen.Id(hdr).Op(":=").Add(spec(base...)),
		each().Block(jen.If(jen.Id(el).Op("==").Nil()).Block(jen.Id(hdr).Op("=").Add(spec(withNull...)), jen.Break())),
		b.Clone().Dot("WriteUint8").Call(jen.Id(hdr)),
		jen.Id("c").Dot("WriteStructMetaPtr").Call(g.structInfo(e.Go.Elem)),
		each().Block(write...),
	}
}

// readTrackedElem reads one element of a list or set of struct pointers
// whose header has the tracking bit into dst; ev is the element schema
// mapping (or nil).
func (g *gen) readTrackedElem(dst *jen.Statement, e *plan.Wire, ev *jen.Statement) []jen.Code {
	st, id, p := g.fresh("st"), g.fresh("id"), g.fresh("p")
	return []jen.Code{jen.If(jen.List(jen.Id(st), jen.Id(id)).Op(":=").Id("c").Dot("ReadRefFlag").Call(), jen.Id(st).Op("==").Qual(implPkg, "RefBack")).Block(
		dst.Clone().Op("=").Qual(implPkg, "BackRef").Types(g.goType(e.Go.Elem)).Call(jen.Id("c"), jen.Id(id)),
	).Else().If(jen.Id(st).Op("==").Qual(implPkg, "RefFollows")).Block(
		jen.Id(p).Op(":=").Add(g.alloc(e.Go.Elem)),
		jen.Qual(implPkg, "SetRef").Call(jen.Id("c"), jen.Id(id), jen.Id(p)),
		jen.If(ev.Clone().Op("!=").Nil()).Block(jen.Id(p).Dot("ForyReadEvolved").Call(jen.Id("c"), ev.Clone())).
			Else().Block(jen.Id(p).Dot("ForyRead").Call(jen.Id("c"))),
		dst.Clone().Op("=").Id(p),
	).Else().Block(dst.Clone().Op("=").Nil())}
}

// readTrackedValue reads a struct value held by value (a list element)
// behind a reference flag, which peers that track every struct write (a
// tracking elements header 09 from Python, Java or JavaScript): 0xFF, or
// 0x00 and the value, recorded so that a later reference copies it; a
// back-reference copies the object it names, as a value cannot share it;
// null leaves the zero value.
func (g *gen) readTrackedValue(dst *jen.Statement, t *model.Type, ev *jen.Statement) []jen.Code {
	st, id, p := g.fresh("st"), g.fresh("id"), g.fresh("p")
	return []jen.Code{jen.If(jen.List(jen.Id(st), jen.Id(id)).Op(":=").Id("c").Dot("ReadRefFlag").Call(), jen.Id(st).Op("==").Qual(implPkg, "RefBack")).Block(
		jen.If(jen.Id(p).Op(":=").Qual(implPkg, "BackRef").Types(g.goType(t)).Call(jen.Id("c"), jen.Id(id)), jen.Id(p).Op("!=").Nil()).Block(
			dst.Clone().Op("=").Op("*").Id(p)),
	).Else().If(jen.Id(st).Op("==").Qual(implPkg, "RefFollows")).Block(
		jen.Qual(implPkg, "SetRef").Call(jen.Id("c"), jen.Id(id), jen.Op("&").Add(dst.Clone())),
		jen.If(ev.Clone().Op("!=").Nil()).Block(dst.Clone().Dot("ForyReadEvolved").Call(jen.Id("c"), ev.Clone())).
			Else().Block(dst.Clone().Dot("ForyRead").Call(jen.Id("c"))),
	).Else().Block(dst.Clone().Op("=").Add(g.goType(t)).Values())}
}

// readTrackedSlice reads a tracked slice behind the reference flag flag
// reads (c.ReadRefFlag(); c.ReadFieldRefFlag() for a dense array whose flag
// only some forms write; c.ReadEvolvedRefFlag(f) for a remote field): a
// back-reference, the slice (recorded under its id), or nil.
func (g *gen) readTrackedSlice(dst *jen.Statement, w *plan.Wire, flag *jen.Statement) []jen.Code {
	t := w.Go
	inner := *w
	inner.Nullable = false
	st, id := g.fresh("st"), g.fresh("id")
	backRef := g.fromNamed(jen.Qual(implPkg, "BackRefSlice").Types(g.goType(t.Elem)).Call(jen.Id("c"), jen.Id(id)), t)
	present := append(g.readValue(dst.Clone(), &inner, true),
		jen.Qual(implPkg, "SetRefSlice").Call(jen.Id("c"), jen.Id(id), dst.Clone()))
	return []jen.Code{jen.If(jen.List(jen.Id(st), jen.Id(id)).Op(":=").Add(flag), jen.Id(st).Op("==").Qual(implPkg, "RefBack")).
		Block(dst.Clone().Op("=").Add(backRef)).
		Else().If(jen.Id(st).Op("==").Qual(implPkg, "RefFollows")).Block(present...).Else().Block(dst.Clone().Op("=").Nil())}
}
