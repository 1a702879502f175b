package emit

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"

	"github.com/forygen/forygen/internal/meta"
)

// emitWrite writes ForyWrite: one Reserve for the schema hash and every
// primitive field (a bound plan computed), put-at stores at a local offset,
// one commit; then each variable-length field reserves for itself.
func (g *gen) emitWrite(f *jen.File) {
	s := g.s
	tmp := g.tmp
	body := g.writeBody()
	recv := jen.Id("x").Op("*").Id(g.name())
	// With reference tracking a struct whose body it changes
	// (plan.RefSensitive) has a second writer, foryWriteRef, unless it is
	// flat and tracking adds only its fields' flags (trackedFlat).
	var tracked []jen.Code
	flagsOnly := false
	if flagsParam(s) {
		tracked, flagsOnly = g.trackedFlat(body, tmp)
	}
	var dispatch []jen.Code
	if s.RefSensitive && !flagsOnly {
		dispatch = []jen.Code{jen.If(jen.Id("c").Dot("TrackRef").Call()).Block(
			jen.Id("x").Dot("foryWriteRef").Call(jen.Id("c")), jen.Return())}
	}
	f.Commentf("ForyWrite writes %s's struct body (docs/format.md §9).", g.name())
	if !s.Flat {
		f.Func().Params(recv).Id("ForyWrite").
			Params(jen.Id("c").Op("*").Qual(implPkg, "WriteContext")).Block(append(dispatch, body...)...)
		f.Line()
	} else {
		// A flat struct (plan.Flat) needs only the buffer and the mode: the
		// context-free body is what ForySerializeTo calls, and ForyWrite,
		// which inlines into its callers, adapts it (BenchmarkFixedCost,
		// BenchmarkSerialize/NumericStruct).
		// The form says root and field flags (foryimpl.FlatForm): a bool
		// for the flags beside root's measured 2 % more instructions,
		// spills of the writer's registers (instructions.sh MediaContent
		// forygen-consistent Serialize: 2,086 → 2,132).
		form := jen.Code(jen.Lit(0))
		if flagsOnly {
			form = jen.Id("c").Dot("FlatForm").Call()
			body = tracked
		}
		f.Func().Params(recv).Id("ForyWrite").
			Params(jen.Id("c").Op("*").Qual(implPkg, "WriteContext")).Block(append(dispatch,
			jen.If(jen.Err().Op(":=").Add(callFlatWrite(jen.Id("x"), form)), jen.Err().Op("!=").Nil()).Block(
				jen.Id("c").Dot("Fail").Call(jen.Err())))...)
		f.Line()
		if flagsOnly {
			f.Commentf("foryWriteFlat is ForyWrite without a context (%s nests no struct); as the root it writes the root prefix first, and in a tracked message the fields' reference flags (foryimpl.FlatForm). It writes nothing on error.", g.name())
		} else {
			f.Commentf("foryWriteFlat is ForyWrite without a context (%s nests no struct); as the root it writes the root prefix first. It writes nothing on error.", g.name())
		}
		f.Func().Params(recv.Clone()).Id("foryWriteFlat").
			Params(jen.Id("b").Op("*").Qual(bufferPkg, "Buffer"), jen.List(jen.Id("compatible"), jen.Id("check")).Bool(), jen.Id("form").Qual(implPkg, "FlatForm")).Error().
			Block(append(body, jen.Return(jen.Nil()))...)
		f.Line()
	}
	if s.RefSensitive && !flagsOnly {
		g.track = true
		body := g.writeBody()
		g.track = false
		f.Commentf("foryWriteRef is ForyWrite with reference tracking (docs/format.md §2.1).")
		f.Func().Params(recv.Clone()).Id("foryWriteRef").
			Params(jen.Id("c").Op("*").Qual(implPkg, "WriteContext")).Block(body...)
		f.Line()
	}
	g.emitUTFCheckers(f)
	g.emitValueWriters(f)
}

// Field flags in a flat struct's writer. Tracking often changes a flat
// struct's body only by the reference flags before some fields (an enum:
// official Go's form and compatible mode flag it, TrackedFieldFlags).
// Such a struct has one writer, foryWriteFlat, whose flags parameter
// writes them (Image and Media in benchmarks/fixtures: issue 28). The
// rule is checked, not assumed: the tracking body with the flags left out
// must render as the untracked body, and with them must not need the
// context; else the struct keeps foryWriteRef.
const (
	flagsByCall  = iota // c.TrackedFieldFlags(), in foryWriteRef
	flagsByParam        // the form parameter of foryWriteFlat
	flagsElided         // as if false: the trial of trackedFlat
)

// contextRef matches a use of the write context in rendered code.
var contextRef = regexp.MustCompile(`(^|[^\w.])c\.`)

// trackedFlat is the tracking body of a flat struct written with the
// flags parameter, and whether it serves (the rule above). untracked is
// the untracked body, emitted from temporary number tmp.
func (g *gen) trackedFlat(untracked []jen.Code, tmp int) ([]jen.Code, bool) {
	after := g.tmp
	g.track = true
	g.tmp, g.flagMode = tmp, flagsElided
	elided := g.writeBody()
	g.tmp, g.flagMode = tmp, flagsByParam
	body := g.writeBody()
	g.track, g.flagMode = false, flagsByCall
	g.tmp = max(g.tmp, after)
	text := render(body)
	if render(elided) != render(untracked) || contextRef.MatchString(text) {
		return nil, false
	}
	return body, true
}

// onFieldFlags is then where a tracked message's fields carry reference
// flags (TrackedFieldFlags), else els, in the writer being emitted.
func (g *gen) onFieldFlags(then, els []jen.Code) []jen.Code {
	var cond *jen.Statement
	switch g.flagMode {
	case flagsElided:
		return els
	case flagsByParam:
		cond = jen.Id("form").Op("&").Qual(implPkg, "FlatFieldFlags").Op("!=").Lit(0)
	default:
		cond = jen.Id("c").Dot("TrackedFieldFlags").Call()
	}
	st := jen.If(cond).Block(then...)
	if len(els) > 0 {
		st = st.Else().Block(els...)
	}
	return []jen.Code{st}
}

// flat reports whether the body being emitted is the context-free one of a
// flat struct; the tracking writer always has the context.
func (g *gen) flat() bool { return g.s.Flat && (!g.track || g.flagMode != flagsByCall) }

// writeBody is the body of ForyWrite, of foryWriteFlat for a flat struct, or of
// foryWriteRef in tracking mode (g.track).
func (g *gen) writeBody() []jen.Code {
	s := g.s
	var body []jen.Code
	if g.flat() {
		g.checkUTF8 = jen.Id("check")
		g.failWrite = func(err jen.Code) []jen.Code { return []jen.Code{jen.Return(err)} }
	} else {
		g.checkUTF8 = jen.Id("c").Dot("CheckUTF8").Call()
		g.failWrite = func(err jen.Code) []jen.Code {
			return []jen.Code{jen.Id("c").Dot("Fail").Call(err), jen.Return()}
		}
	}
	body = append(body, g.checks(g.checkUTF8, g.failWrite, g.checkedOnCopy)...)
	body = append(body, g.enterWrite()...)
	if !g.flat() {
		body = append(body, jen.Id("b").Op(":=").Id("c").Dot("Buffer").Call())
	}
	// Other-group fields are written in runs: strings, enums and dense
	// arrays, whose maximum size is cheap to compute, share one reserve; the
	// first run shares the primitive window. Everything else reserves for
	// itself.
	var others [][]*plan.Field
	for i, fl := range s.Fields {
		if fl.Group != plan.GroupOther {
			continue
		}
		if n := len(others); n > 0 && g.inRun(fl) && g.inRun(others[n-1][0]) && s.Fields[i-1].Group == plan.GroupOther {
			others[n-1] = append(others[n-1], fl)
			continue
		}
		others = append(others, []*plan.Field{fl})
	}
	var lead []*plan.Field
	if len(others) > 0 && g.inRun(others[0][0]) {
		lead, others = others[0], others[1:]
	}
	leadBind, leadVals := g.bindRun(lead)
	body = append(body, leadBind...)
	g.start = ""
	if g.flat() {
		// A later run's UTF-8 check fails after earlier writes were
		// committed: the context-free writer takes them back itself
		// (putRun).
	later:
		for _, run := range others {
			for _, fl := range run {
				if g.checkedOnCopy(fl) {
					g.start = g.fresh("start")
					body = append(body, jen.Id(g.start).Op(":=").Id("b").Dot("WriterIndex").Call())
					break later
				}
			}
		}
	}
	if s.FixedBytes == 0 && s.VarintMaxBytes == 0 && len(lead) == 0 && !g.flat() {
		// Nothing shares the schema hash's reserve: write it alone, and in
		// compatible mode touch the buffer not at all
		// (BenchmarkSerialize/MediaContentList: one per element).
		body = append(body, jen.Comment("Schema hash (same-schema mode); no primitive fields."),
			jen.If(jen.Op("!").Add(g.compatible())).Block(
				jen.Id("b").Dot("WriteInt32").Call(g.schemaHash())))
	} else {
		body = append(body, g.primitiveRun(lead, leadVals)...)
	}
	for _, run := range others {
		if g.inRun(run[0]) {
			bind, vals := g.bindRun(run)
			body = append(body, jen.Block(append(append(bind,
				jen.Id("b").Dot("Reserve").Call(runBound(jen.Qual(bufferPkg, "BatchSlack"), run, vals)),
				jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(jen.Id("b").Dot("Window").Call(), jen.Id("b").Dot("WriterIndex").Call()),
			), append(g.putRun(run, vals, g.start), jen.Id("b").Dot("SetWriterIndex").Call(jen.Id("off")))...)...))
			continue
		}
		body = append(body, g.writeField(run[0])...)
	}
	return append(body, g.leave()...)
}

// schemaHash is the struct's same-schema hash as written: the other
// languages' (plan.Struct.SchemaHash), or official Go's where they differ
// and the Fory writes official Go's form (WithOfficialGoForm).
func (g *gen) schemaHash() jen.Code {
	if g.s.SchemaHash == g.s.OfficialGoHash {
		return jen.Lit(int(g.s.SchemaHash))
	}
	return jen.Id("c").Dot("SchemaHash").Call(jen.Lit(int(g.s.SchemaHash)), jen.Lit(int(g.s.OfficialGoHash)))
}

// compatible is the expression for "this message is in compatible mode" in
// a struct writer's body.
func (g *gen) compatible() *jen.Statement {
	if g.flat() {
		return jen.Id("compatible")
	}
	return jen.Id("c").Dot("Compatible").Call()
}

// primitiveRun writes the schema hash, the fixed and varint groups and the
// leading run of other fields under one Reserve and one commit.
func (g *gen) primitiveRun(lead []*plan.Field, leadVals []*jen.Statement) []jen.Code {
	s := g.s
	var body []jen.Code
	root := ""
	if g.flat() {
		root = "The root prefix (as the root), the s"
	} else {
		root = "S"
	}
	body = append(body, jen.Commentf("%schema hash (same-schema mode), the %d fixed and %d varint bytes at most, and %d leading strings, enums or dense arrays: one reserve, one commit.",
		root, s.FixedBytes, s.VarintMaxBytes, len(lead)))
	bound := s.MaxPrimitiveBytes
	if g.flat() {
		// A flat struct's writer also writes the root prefix when it is
		// the root: one Reserve and one commit for the whole message up to
		// its first string or list (BenchmarkSerialize/NumericStruct).
		bound += max(len(s.RootConsistent), len(s.RootCompatible))
	}
	body = append(body,
		jen.Id("b").Dot("Reserve").Call(runBound(jen.Lit(bound).Op("+").Qual(bufferPkg, "BatchSlack"), lead, leadVals)),
		jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(jen.Id("b").Dot("Window").Call(), jen.Id("b").Dot("WriterIndex").Call()),
	)
	if g.flat() {
		com, con := g.prefixes()
		body = append(body, jen.If(jen.Id("form").Op("&").Qual(implPkg, "FlatRoot").Op("!=").Lit(0)).Block(
			jen.If(jen.Id("compatible")).Block(com.put("off")...).Else().Block(con.put("off")...)))
	}
	body = append(body,
		jen.If(jen.Op("!").Add(g.compatible())).Block(
			jen.Qual(bufferPkg, "PutInt32At").Call(jen.Id("w"), jen.Id("off"), g.schemaHash()),
			jen.Id("off").Op("+=").Lit(4),
		),
	)
	fixedOff := 0
	for _, fl := range s.Fields {
		if fl.Group != plan.GroupFixed {
			continue
		}
		sc := scalarOf(fl.Wire)
		body = append(body, jen.Qual(bufferPkg, "Put"+sc.suffix+"At").Call(jen.Id("w"), plus("off", fixedOff),
			toWire(jen.Id("x").Dot(fl.GoName), fl.Type, sc)))
		fixedOff += fl.Wire.Width
	}
	if fixedOff > 0 {
		body = append(body, jen.Id("off").Op("+=").Lit(fixedOff))
	}
	for _, fl := range s.Fields {
		if fl.Group != plan.GroupVarint {
			continue
		}
		body = append(body, jen.Id("off").Op("=").Add(putVarint(fl.Wire, jen.Id("x").Dot(fl.GoName), fl.Type)))
	}
	body = append(body, g.putRun(lead, leadVals, "")...)
	body = append(body, jen.Id("b").Dot("SetWriterIndex").Call(jen.Id("off")))
	return body
}

// checkedOnCopy reports whether the strings of field fl are checked for
// UTF-8 as they are copied (putString) rather than before anything is
// written (checks): a string in a run, or a list of strings.
func (g *gen) checkedOnCopy(fl *plan.Field) bool {
	w := fl.Wire
	if g.inRun(fl) {
		return w.TypeID == meta.TypeString
	}
	return !w.Nullable && !fl.RefOff && !(g.track && fl.RefOn) && w.TypeID == meta.TypeList &&
		(w.Go.Kind == model.Slice || w.Go.Kind == model.Array) && w.Elem.TypeID == meta.TypeString && !w.Elem.Nullable
}

// runHasString reports whether a run writes a string field.
func runHasString(run []*plan.Field) bool {
	for _, fl := range run {
		if fl.Wire.TypeID == meta.TypeString {
			return true
		}
	}
	return false
}

// putVarint is the batched store of a varint at w[off:], returning the new
// offset. Signed values go through ZigZag and the unsigned store, which both
// inline into the generated code (BenchmarkPutVarint in buffer).
func putVarint(w *plan.Wire, v *jen.Statement, t *model.Type) *jen.Statement {
	sc := scalarOf(w)
	val := toWire(v, t, sc)
	switch w.TypeID {
	case meta.TypeVarInt32:
		return jen.Qual(bufferPkg, "PutVarUint32At").Call(jen.Id("w"), jen.Id("off"), jen.Qual(bufferPkg, "ZigZag32").Call(val))
	case meta.TypeVarInt64:
		return jen.Qual(bufferPkg, "PutVarUint64At").Call(jen.Id("w"), jen.Id("off"), jen.Qual(bufferPkg, "ZigZag64").Call(val))
	}
	return jen.Qual(bufferPkg, "Put"+sc.suffix+"At").Call(jen.Id("w"), jen.Id("off"), val)
}

// inRun reports whether a field can join a run of writes sharing one
// reserve: a non-nullable string, enum, or dense array held in a slice
// (BenchmarkSerialize/Sample: its seven arrays took a Reserve and a commit
// each).
func (g *gen) inRun(fl *plan.Field) bool {
	if fl.Wire.Nullable || fl.Wire.Go.Kind.IsMarshaler() || g.track && fl.RefOn && fl.Wire.TypeID != meta.TypeEnum && !runArray(fl.Wire) {
		return false
	}
	return fl.Wire.TypeID == meta.TypeString || fl.Wire.TypeID == meta.TypeEnum || runArray(fl.Wire)
}

// runArray reports whether w is a dense array that a run writes: a slice
// whose elements are stored as one copy (PutRaw…At) or, for bytes, copied.
func runArray(w *plan.Wire) bool {
	if arrayWidth(w) == 0 || w.Go.Kind != model.Slice {
		return false
	}
	_, ok := rawSuffix[w.Go.Elem.Kind]
	return ok || w.Go.Elem.Kind == model.Uint8
}

// bindRun returns, for each field of a run, the expression that writes it:
// a string field is first bound to a local, so its length in the Reserve,
// its header and its bytes come from one read. A field replaced by another
// goroutine meanwhile (a broken contract) then still yields a well-formed
// message, and the unchecked stores stay inside the reserved window.
func (g *gen) bindRun(run []*plan.Field) (bind []jen.Code, vals []*jen.Statement) {
	for _, fl := range run {
		v := jen.Id("x").Dot(fl.GoName)
		if runArray(fl.Wire) {
			tmp := g.fresh("l")
			bind = append(bind, jen.Id(tmp).Op(":=").Add(v))
			v = jen.Id(tmp)
		} else if fl.Wire.TypeID == meta.TypeString {
			// As a string, for PutStringAt, whatever the field's string
			// type.
			tmp := g.fresh("s")
			bind = append(bind, jen.Id(tmp).Op(":=").String().Call(v))
			v = jen.Id(tmp)
		}
		vals = append(vals, v)
	}
	return bind, vals
}

// runBound adds the maximum size of a run's fields to base: a string's
// header (a varint, at most 9 bytes) and bytes, an enum's varu32, an array's
// byte length (a varu32) and elements. vals are the fields' expressions from
// bindRun.
func runBound(base *jen.Statement, run []*plan.Field, vals []*jen.Statement) *jen.Statement {
	// One byte per field for a reference flag, which only the tracking
	// writer puts in a run: a byte of slack for the other.
	fixed := len(run)
	for i, fl := range run {
		if runArray(fl.Wire) {
			fixed += buffer.MaxVarUint32Len
			base = base.Op("+").Len(vals[i].Clone()).Op("*").Lit(fl.Wire.Elem.Width)
		} else if fl.Wire.TypeID == meta.TypeString {
			fixed += buffer.MaxVarUint64Len
			base = base.Op("+").Len(vals[i].Clone())
		} else {
			fixed += buffer.MaxVarUint32Len
		}
	}
	if fixed == 0 {
		return base
	}
	return base.Op("+").Lit(fixed)
}

// putRun writes a run's fields at w[off:]: a string as its UTF-8 header
// (len<<2 | 2, docs/format.md §7) and bytes, an enum as varu32, a dense array as
// its byte length and elements (§8.2). vals are the fields' expressions from
// bindRun. A string is checked as it is copied (PutStringAt), which checks
// leaves to the run: a failure returns before the run's commit, having
// taken the writer index back to start if that is not "" (a flat struct's
// later run: nothing else takes back what the earlier ones committed).
func (g *gen) putRun(run []*plan.Field, vals []*jen.Statement, start string) []jen.Code {
	var out []jen.Code
	follows := false
	for i, fl := range run {
		v := vals[i].Clone()
		tracked := g.track && fl.RefOn
		if runArray(fl.Wire) {
			put := jen.Id("off").Op("+=").Copy(jen.Id("w").Index(jen.Id("off").Op(":")), v.Clone())
			if k := fl.Wire.Go.Elem.Kind; k != model.Uint8 {
				put = jen.Id("off").Op("=").Qual(bufferPkg, "PutRaw"+rawSuffix[k]+"At").Call(jen.Id("w"), jen.Id("off"), rawArg(v.Clone(), k))
			}
			body := []jen.Code{
				jen.Id("off").Op("=").Qual(bufferPkg, "PutVarUint32At").Call(jen.Id("w"), jen.Id("off"),
					jen.Uint32().Call(jen.Len(v.Clone()).Op("*").Lit(fl.Wire.Elem.Width))),
				put}
			if tracked {
				// The reference flag in the run (PutRefSliceAt): a
				// back-reference (at most 1 + 5 bytes, within the flag and
				// length the bound counts) or nil instead of the array, or
				// 0x00 before it; none in the other languages' same-schema
				// form (§14.30: PutRefSliceAt's field argument).
				body = []jen.Code{jen.If(jen.List(jen.Id("off"), jen.Id("follows")).Op("=").Qual(implPkg, "PutRefSliceAt").Call(jen.Id("c"), jen.Id("w"), jen.Id("off"), v.Clone(), jen.Lit(fl.Unflagged)), jen.Id("follows")).Block(body...)}
				follows = true
			}
			out = append(out, body...)
			continue
		}
		if fl.Wire.TypeID == meta.TypeEnum {
			if tracked {
				flag := []jen.Code{jen.Qual(bufferPkg, "PutUint8At").Call(jen.Id("w"), jen.Id("off"), spec("FlagNotNull")), jen.Id("off").Op("++")}
				if fl.Unflagged {
					flag = g.onFieldFlags(flag, nil)
				}
				out = append(out, flag...)
			}
			out = append(out, jen.Id("off").Op("=").Qual(bufferPkg, "PutVarUint32At").Call(jen.Id("w"), jen.Id("off"), jen.Uint32().Call(v)))
			continue
		}
		out = append(out,
			jen.Id("off").Op("=").Qual(bufferPkg, "PutVarUint64At").Call(jen.Id("w"), jen.Id("off"),
				jen.Uint64().Call(jen.Len(v.Clone())).Op("<<").Add(spec("StringLenShift")).Op("|").Add(spec("StringUTF8"))),
			jen.If(jen.Len(v.Clone()).Op(">").Lit(0)).Block(g.putString(v, fl.GoName, start)...))
	}
	if runHasString(run) {
		out = append([]jen.Code{jen.Var().Id("ascii").Bool()}, out...)
	}
	if follows {
		out = append([]jen.Code{jen.Var().Id("follows").Bool()}, out...)
	}
	return out
}

// putString copies string v of field name to w[off:] and, when the writer
// checks UTF-8 (WithUTF8Validation), fails unless it is: only text that is
// not ASCII is validated.
func (g *gen) putString(v *jen.Statement, name, start string) []jen.Code {
	fail := g.failWrite(jen.Qual(implPkg, "InvalidUTF8").Call(jen.Id(g.infoVar()), jen.Lit(name)))
	if start != "" {
		fail = append([]jen.Code{jen.Id("b").Dot("SetWriterIndex").Call(jen.Id(start))}, fail...)
	}
	return []jen.Code{
		jen.List(jen.Id("off"), jen.Id("ascii")).Op("=").Qual(bufferPkg, "PutStringAt").Call(jen.Id("w"), jen.Id("off"), v.Clone()),
		jen.If(jen.Op("!").Id("ascii").Op("&&").Add(g.checkUTF8.Clone()).Op("&&").Op("!").Qual(implPkg, "ValidString").Call(v.Clone())).Block(fail...),
	}
}

// putBytes copies a string's bytes to w[off:]. An empty string skips the
// copy, which is a memmove call with the writer's registers spilled around
// it (BenchmarkSerialize/MediaContent: three of its nine strings are empty).
func putBytes(v *jen.Statement) jen.Code {
	return jen.If(jen.Len(v.Clone()).Op(">").Lit(0)).Block(
		jen.Id("off").Op("+=").Copy(jen.Id("w").Index(jen.Id("off").Op(":")), v))
}

// plus is `base + off`, or base when off is 0.
func plus(base string, off int) jen.Code {
	if off == 0 {
		return jen.Id(base)
	}
	return jen.Id(base).Op("+").Lit(off)
}

// writeField writes one field of the other group.
func (g *gen) writeField(fl *plan.Field) []jen.Code {
	g.field = fl.GoName
	if g.track && fl.Unflagged {
		// Bare in a tracked same-schema message, as the other languages
		// write it; flagged in compatible mode and official Go's form
		// (docs/format.md §14.30).
		v := jen.Id("x").Dot(fl.GoName)
		if g.flagMode == flagsByCall && !fl.Wire.Nullable {
			// One copy of the value's write: behind the reference flag
			// where the form has one (a slice or map), or after it
			// (issue 28: foryWriteRef held it in each branch).
			flags := jen.Id("c").Dot("TrackedFieldFlags").Call()
			switch fl.Wire.Go.Kind {
			case model.Slice, model.Map, model.Set:
				fn := "WriteRefSlice"
				if fl.Wire.Go.Kind != model.Slice {
					fn = "WriteRefMap"
				}
				return []jen.Code{jen.If(jen.Op("!").Add(flags).Op("||").Op("!").Qual(implPkg, fn).Call(jen.Id("c"), v)).
					Block(g.writeValue(v.Clone(), fl.Wire, true)...)}
			case model.Enum, model.Struct:
				return append([]jen.Code{jen.If(flags).Block(writeFlag("FlagNotNull"))}, g.writeValue(v.Clone(), fl.Wire, true)...)
			}
		}
		return g.onFieldFlags(g.writeTracked(v, fl.Wire), g.writeValue(v.Clone(), fl.Wire, true))
	}
	if g.track && fl.RefOn {
		return g.writeTracked(jen.Id("x").Dot(fl.GoName), fl.Wire)
	}
	if fl.RefOff && !fl.Wire.Nullable {
		return g.writeRefFlagged(jen.Id("x").Dot(fl.GoName), fl.Wire)
	}
	if call := g.valueWriterCall(fl); call != nil {
		return call
	}
	if g.checkedOnCopy(fl) {
		g.copyCheck = fl.GoName
		defer func() { g.copyCheck = "" }()
	}
	return g.writeValue(jen.Id("x").Dot(fl.GoName), fl.Wire, true)
}

// writeMarshaled writes v through its type's MarshalText (as a STRING) or
// MarshalBinary (as a BINARY), called directly: no interface call. A
// marshaler's error fails the write context, which takes back what the
// message wrote (plan.Flat keeps such a struct on the context).
func (g *gen) writeMarshaled(v *jen.Statement, t *model.Type) []jen.Code {
	method, put, text := "MarshalText", "WriteText", true
	if t.Kind == model.Binary {
		method, put, text = "MarshalBinary", "WriteBinary", false
	}
	m := g.fresh("m")
	return []jen.Code{jen.Block(
		jen.List(jen.Id(m), jen.Err()).Op(":=").Parens(v.Clone()).Dot(method).Call(),
		jen.If(jen.Op("!").Id("c").Dot("Marshaled").Call(jen.Id(g.infoVar()), jen.Lit(g.field), jen.Id(m), jen.Err(), jen.Lit(text))).Block(jen.Return()),
		jen.Qual(implPkg, put).Call(jen.Id("b"), jen.Id(m)))}
}

// writeNullableUnion writes a nullable union field: null (0xFD) when it is
// unset (no case holds a value: the zero union), as official Go's
// IDL-generated code means an optional union, else 0xFF and the union.
func (g *gen) writeNullableUnion(v *jen.Statement, inner *plan.Wire, addressable bool) []jen.Code {
	uv := g.fresh("uv")
	// Each use wraps v in a statement of its own: jen appends in place.
	get := jen.Add(v.Clone()).Dot("ForyUnionGet").Call()
	return []jen.Code{jen.If(jen.List(jen.Id("_"), jen.Id(uv)).Op(":=").Add(get), jen.Id(uv).Op("==").Nil()).
		Block(writeFlag("FlagNull")).Else().Block(append([]jen.Code{writeFlag("FlagNotNull")}, g.writeValue(jen.Add(v.Clone()), inner, addressable)...)...)}
}

// writeValue writes v (of wire type w) with its null flag when the wire type
// is nullable; addressable tells whether v can take a pointer-receiver call.
func (g *gen) writeValue(v *jen.Statement, w *plan.Wire, addressable bool) []jen.Code {
	t := w.Go
	if w.Nullable {
		if t.Kind == model.Optional {
			inner := *w
			inner.Go, inner.Nullable = t.Elem, false
			e := g.fresh("o")
			return []jen.Code{jen.If(jen.List(jen.Id(e), jen.Id("ok")).Op(":=").Add(v.Clone()).Dot("Get").Call(), jen.Id("ok")).Block(
				append([]jen.Code{writeFlag("FlagNotNull")}, g.writeValue(jen.Id(e), &inner, false)...)...).Else().Block(writeFlag("FlagNull"))}
		}
		if t.Kind == model.Pointer {
			inner := *w
			inner.Go = t.Elem
			inner.Nullable = false
			var present []jen.Code
			present = append(present, writeFlag("FlagNotNull"))
			if t.Elem.Kind == model.Struct {
				present = append(present, g.writeStruct(v.Clone(), t.Elem, true)...)
			} else {
				present = append(present, g.writeValue(jen.Op("*").Add(v.Clone()), &inner, false)...)
			}
			return []jen.Code{jen.If(v.Clone().Op("==").Nil()).Block(writeFlag("FlagNull")).Else().Block(present...)}
		}
		inner := *w
		inner.Nullable = false
		if t.Kind == model.Slice || t.Kind == model.Map || t.Kind == model.Set {
			return []jen.Code{jen.If(v.Clone().Op("==").Nil()).Block(writeFlag("FlagNull")).Else().Block(
				append([]jen.Code{writeFlag("FlagNotNull")}, g.writeValue(v, &inner, addressable)...)...)}
		}
		if t.Kind == model.Union {
			return g.writeNullableUnion(v, &inner, addressable)
		}
		return append([]jen.Code{writeFlag("FlagNotNull")}, g.writeValue(v, &inner, addressable)...)
	}
	if t.Kind == model.Pointer && t.Elem.Kind.IsMarshaler() {
		// nullable=false: the value without a null flag (checks refused a
		// nil one).
		inner := *w
		inner.Go = t.Elem
		return g.writeValue(jen.Op("*").Add(v.Clone()), &inner, false)
	}
	if t.Kind == model.Pointer {
		// A struct pointer tagged nullable=false: the struct without a null
		// flag (checks refused a nil one).
		return g.writeStruct(v, t.Elem, true)
	}
	if t.Kind.IsMarshaler() {
		return g.writeMarshaled(v, t)
	}
	if t.Kind == model.Ext {
		// In compatible mode the type meta first, as official Go writes an
		// extension field; the codec's bytes (docs/format.md §12.6).
		return []jen.Code{
			jen.If(jen.Id("c").Dot("Compatible").Call()).Block(jen.Id("c").Dot("WriteExtMeta").Call(jen.Id(extInfo(t.Codec)))),
			g.writeExtBytes(v, t),
		}
	}
	b := jen.Id("b")
	switch {
	case w.IsFixedScalar() || w.IsVarint():
		sc := scalarOf(w)
		return []jen.Code{b.Clone().Dot("Write" + sc.suffix).Call(toWire(v, t, sc))}
	}
	switch w.TypeID {
	case meta.TypeUnknown:
		return []jen.Code{jen.Qual(implPkg, "WriteAny").Call(jen.Id("c"), v)}
	case meta.TypeUnion:
		if !addressable {
			tmp := g.fresh("u")
			return []jen.Code{jen.Id(tmp).Op(":=").Add(v), jen.Id(tmp).Dot("ForyWriteUnion").Call(jen.Id("c"))}
		}
		return []jen.Code{v.Dot("ForyWriteUnion").Call(jen.Id("c"))}
	case meta.TypeList:
		if w.Elem.TypeID == meta.TypeUnknown {
			if t.Kind == model.Array {
				// A [N]any is written as the []any of its elements.
				if !addressable {
					tmp := g.fresh("a")
					return []jen.Code{jen.Id(tmp).Op(":=").Add(v), jen.Qual(implPkg, "WriteAnyList").Call(jen.Id("c"), jen.Id(tmp).Index(jen.Op(":")))}
				}
				return []jen.Code{jen.Qual(implPkg, "WriteAnyList").Call(jen.Id("c"), v.Clone().Index(jen.Op(":")))}
			}
			if w.Elem.Go.Named != nil {
				// []Shape: as official Go writes it, a []any.
				return []jen.Code{jen.Qual(implPkg, "WriteAnyListOf").Call(jen.Id("c"), v)}
			}
			return []jen.Code{jen.Qual(implPkg, "WriteAnyList").Call(jen.Id("c"), v)}
		}
	case meta.TypeMap:
		if w.Elem.TypeID == meta.TypeUnknown {
			if w.Elem.Go.Named != nil {
				return []jen.Code{jen.Qual(implPkg, "WriteStringAnyMapOf").Call(jen.Id("c"), v)}
			}
			return []jen.Code{jen.Qual(implPkg, "WriteStringAnyMap").Call(jen.Id("c"), v)}
		}
	}
	switch w.TypeID {
	case meta.TypeString:
		return []jen.Code{jen.Qual(implPkg, "WriteString").Call(b, conv(v, t, jen.String()))}
	case meta.TypeEnum:
		return []jen.Code{b.Clone().Dot("WriteVarUint32").Call(jen.Uint32().Call(v))}
	case meta.TypeTimestamp:
		return []jen.Code{jen.Qual(implPkg, "WriteTime").Call(b, v)}
	case meta.TypeDuration:
		return []jen.Code{jen.Qual(implPkg, "WriteDuration").Call(b, v)}
	case meta.TypeDate:
		return []jen.Code{jen.Qual(implPkg, "WriteDate").Call(b, jen.Qual(implPkg, "Date").Call(v))}
	case meta.TypeDecimal:
		return []jen.Code{jen.Qual(implPkg, "WriteDecimal").Call(b, jen.Op("&").Parens(v.Clone()).Dot("Unscaled"), jen.Parens(v.Clone()).Dot("Scale"))}
	case meta.TypeBinary:
		bind, v := g.readOnce(v, t)
		return append(bind,
			b.Clone().Dot("WriteVarUint32").Call(jen.Uint32().Call(jen.Len(v.Clone()))),
			b.Clone().Dot("WriteBytes").Call(v),
		)
	case meta.TypeList:
		bind, v := g.readOnce(v, t)
		return append(bind, g.writeList(v, w, addressable)...)
	case meta.TypeSet:
		return g.writeSet(v, w)
	case meta.TypeMap:
		return g.writeMap(v, w)
	}
	if meta.IsStructKind(w.TypeID) {
		if !addressable {
			tmp := g.fresh("s")
			return append([]jen.Code{jen.Id(tmp).Op(":=").Add(v)}, g.writeStruct(jen.Id(tmp), t, true)...)
		}
		// Addressable: the pointer-receiver call takes its address.
		return g.writeStruct(v, t, true)
	}
	if arrayWidth(w) > 0 {
		if t.Kind == model.Array {
			// A Go array: its elements as a slice, of a copy when v is not
			// addressable.
			var bind []jen.Code
			if !addressable {
				tmp := g.fresh("a")
				bind, v = []jen.Code{jen.Id(tmp).Op(":=").Add(v)}, jen.Id(tmp)
			}
			return append(bind, g.writeDenseArray(v.Clone().Index(jen.Op(":")), w)...)
		}
		bind, v := g.readOnce(v, t)
		return append(bind, g.writeDenseArray(v, w)...)
	}
	panic("emit: unhandled wire type")
}

// readOnce binds a slice-valued expression to a local so the writer loads
// the slice header once: the length prefix, the Reserve for the elements and
// the elements then describe the same slice even when another goroutine
// replaces the field meanwhile. That breaks the caller's contract, but the
// message must stay well-formed and the unchecked stores must stay inside
// the reserved window (docs/format.md §8.1, §8.2). A local or an array (whose
// length is constant) is used as it is.
func (g *gen) readOnce(v *jen.Statement, t *model.Type) ([]jen.Code, *jen.Statement) {
	if t.Kind != model.Slice || token.IsIdentifier(fmt.Sprintf("%#v", v)) {
		return nil, v
	}
	tmp := g.fresh("l")
	return []jen.Code{jen.Id(tmp).Op(":=").Add(v)}, jen.Id(tmp)
}

// conv converts v to the given Go type when t is a named type.
func conv(v *jen.Statement, t *model.Type, to jen.Code) *jen.Statement {
	if t.Named != nil {
		return jen.Add(to).Call(v)
	}
	return v
}

// spec names a constant of the format in generated code, ORed with the
// others: foryimpl's re-export of internal/meta's declaration, its one home,
// which generated code in users' modules cannot import.
func spec(names ...string) *jen.Statement {
	s := jen.Qual(implPkg, names[0])
	for _, n := range names[1:] {
		s = s.Op("|").Qual(implPkg, n)
	}
	return s
}

// writeFlag writes a flag or header byte named by spec.
func writeFlag(names ...string) jen.Code {
	return jen.Id("b").Dot("WriteUint8").Call(spec(names...))
}

func hexByte(v byte) string {
	const digits = "0123456789abcdef"
	return "0x" + string([]byte{digits[v>>4], digits[v&15]})
}

// writeStruct writes a nested struct: type meta in compatible mode (docs/format.md
// §5.2), then the body. p is a pointer to the struct or an addressable
// struct value.
func (g *gen) writeStruct(p *jen.Statement, t *model.Type, field bool) []jen.Code {
	var out []jen.Code
	if field {
		out = append(out, jen.If(jen.Id("c").Dot("Compatible").Call()).Block(
			jen.Id("c").Dot("WriteStructMeta").Call(g.structInfo(t))))
	}
	if g.directWrite(t) {
		return append(out, jen.If(jen.Err().Op(":=").Add(callFlatWrite(p, jen.Lit(0))), jen.Err().Op("!=").Nil()).Block(
			jen.Id("c").Dot("Fail").Call(jen.Err())))
	}
	return append(out, p.Dot("ForyWrite").Call(jen.Id("c")))
}

// directWrite reports whether a value of struct type t is written by
// calling its context-free foryWriteFlat rather than its ForyWrite, which
// would only pass the context's buffer and mode on: one call less per
// nested value (BenchmarkSerialize/MediaContentList, NumericStructList).
// t must be flat and generated into this file, and its writer the same
// whether references are tracked or not, unless this body never runs with
// tracking on: the untracked body of a struct that has a tracking one.
func (g *gen) directWrite(t *model.Type) bool {
	if g.track || t.Kind != model.Struct || t.Named == nil || t.Named.PkgPath != g.pkgPath {
		return false
	}
	e := g.local[t.Named.Name]
	return e != nil && e.Flat && (g.s.RefSensitive || !e.RefSensitive)
}

// callFlatWrite is the call of p's foryWriteFlat as a nested value, with the
// context's buffer and mode (a flat struct's ForyWrite is this call) and
// form (0 where the callee is nested in an untracked body).
func callFlatWrite(p *jen.Statement, form jen.Code) *jen.Statement {
	return p.Clone().Dot("foryWriteFlat").Call(jen.Id("c").Dot("Buffer").Call(), jen.Id("c").Dot("Compatible").Call(), jen.Id("c").Dot("CheckUTF8").Call(), form)
}

// flagsParam reports whether the foryWriteFlat of s may write its fields'
// reference flags: a flat struct whose body tracking changes
// (plan.RefSensitive). Where tracking changes nothing in it but those
// flags, foryWriteFlat is also the tracking writer (trackedFlat).
func flagsParam(s *plan.Struct) bool { return s.Flat && s.RefSensitive }

// arrayWidth is the element width of a dense array wire type, else 0.
func arrayWidth(w *plan.Wire) int {
	switch w.TypeID {
	case meta.TypeBoolArray, meta.TypeInt8Array, meta.TypeInt16Array, meta.TypeInt32Array, meta.TypeInt64Array,
		meta.TypeUint8Array, meta.TypeUint16Array, meta.TypeUint32Array, meta.TypeUint64Array,
		meta.TypeFloat32Array, meta.TypeFloat64Array, meta.TypeFloat16Array, meta.TypeBFloat16Array:
		return w.Elem.Width
	}
	return 0
}

var rawSuffix = map[model.Kind]string{
	model.Bool: "Bools", model.Int16: "Int16s", model.Uint16: "Uint16s", model.Int32: "Int32s",
	model.Uint32: "Uint32s", model.Int64: "Int64s", model.Uint64: "Uint64s", model.Float32: "Float32s",
	model.Float64: "Float64s", model.Float16: "Uint16s", model.BFloat16: "Uint16s",
}

// rawArg is v as the bulk helpers take it: the 16-bit floats as their bits.
func rawArg(v *jen.Statement, k model.Kind) *jen.Statement {
	if k == model.Float16 || k == model.BFloat16 {
		return jen.Qual(implPkg, "Uint16s").Call(v)
	}
	return v
}

// writeDenseArray writes byte length and raw little-endian elements (§8.2).
func (g *gen) writeDenseArray(v *jen.Statement, w *plan.Wire) []jen.Code {
	b := jen.Id("b")
	out := []jen.Code{b.Clone().Dot("WriteVarUint32").Call(jen.Uint32().Call(jen.Len(v.Clone()).Op("*").Lit(w.Elem.Width)))}
	switch w.Go.Elem.Kind {
	case model.Int8:
		tmp := g.fresh("e")
		return append(out, jen.For(jen.List(jen.Id("_"), jen.Id(tmp)).Op(":=").Range().Add(v)).Block(
			b.Clone().Dot("WriteInt8").Call(jen.Int8().Call(jen.Id(tmp)))))
	case model.Uint8:
		return append(out, b.Clone().Dot("WriteBytes").Call(v))
	}
	return append(out, b.Clone().Dot("WriteRaw"+rawSuffix[w.Go.Elem.Kind]).Call(rawArg(v, w.Go.Elem.Kind)))
}

// writeList writes a LIST (§8.1): length, and for a non-empty list the
// elements header, the element type meta for structs, and the elements.
func (g *gen) writeList(v *jen.Statement, w *plan.Wire, addressable bool) []jen.Code {
	b := jen.Id("b")
	e := w.Elem
	n := jen.Len(v.Clone())
	var inner []jen.Code
	var head jen.Code // the length, and the elements header when it is constant
	switch {
	case e.TypeID == meta.TypeString && !e.Nullable:
		// Strings: one reserve for the length, the header and every string
		// (BenchmarkSerialize/MediaContentList).
		el, sz := g.fresh("e"), g.fresh("sz")
		put := putBytes(jen.Id(el))
		var decl []jen.Code
		if g.copyCheck != "" {
			// A field's list: its strings are checked as they are copied
			// (checkedOnCopy).
			put = jen.If(jen.Len(jen.Id(el)).Op(">").Lit(0)).Block(g.putString(jen.String().Call(jen.Id(el)), g.copyCheck, g.start)...)
			decl = []jen.Code{jen.Var().Id("ascii").Bool()}
		}
		return []jen.Code{jen.Block(append(decl,
			jen.Id(sz).Op(":=").Lit(buffer.MaxVarUint32Len+1).Op("+").Qual(bufferPkg, "BatchSlack").Op("+").Add(n.Clone()).Op("*").Lit(buffer.MaxVarUint64Len),
			jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone())).Block(jen.Id(sz).Op("+=").Len(jen.Id(el))),
			b.Clone().Dot("Reserve").Call(jen.Id(sz)),
			jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(b.Clone().Dot("Window").Call(), b.Clone().Dot("WriterIndex").Call()),
			jen.Id("off").Op("=").Qual(bufferPkg, "PutVarUint32At").Call(jen.Id("w"), jen.Id("off"), jen.Uint32().Call(n.Clone())),
			jen.If(n.Clone().Op(">").Lit(0)).Block(
				jen.Qual(bufferPkg, "PutUint8At").Call(jen.Id("w"), jen.Id("off"), spec("ListDeclaredSameType")),
				jen.Id("off").Op("++"),
				jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone())).Block(
					// An element that grew since the sizing loop (another
					// goroutine writing the slice, a broken contract) gets
					// room of its own instead of unchecked stores past the
					// reserve.
					jen.If(jen.Len(jen.Id("w")).Op("-").Id("off").Op("<").Len(jen.Id(el)).Op("+").Lit(buffer.MaxVarUint64Len).Op("+").Qual(bufferPkg, "BatchSlack")).Block(
						b.Clone().Dot("SetWriterIndex").Call(jen.Id("off")),
						b.Clone().Dot("Reserve").Call(jen.Len(jen.Id(el)).Op("+").Lit(buffer.MaxVarUint64Len).Op("+").Qual(bufferPkg, "BatchSlack")),
						jen.Id("w").Op("=").Add(b.Clone().Dot("Window").Call()),
					),
					jen.Id("off").Op("=").Qual(bufferPkg, "PutVarUint64At").Call(jen.Id("w"), jen.Id("off"),
						jen.Uint64().Call(jen.Len(jen.Id(el))).Op("<<").Add(spec("StringLenShift")).Op("|").Add(spec("StringUTF8"))),
					put,
				),
			),
			b.Clone().Dot("SetWriterIndex").Call(jen.Id("off")),
		)...)}
	case e.Go.Kind == model.Struct:
		// Struct elements: header 08 and the type meta once (§14.9). The
		// length and the header take one reserve and one commit instead of
		// two calls (BenchmarkFixedCost/SerializeWithContext).
		idx := g.fresh("i")
		head = jen.Block(
			b.Clone().Dot("Reserve").Call(jen.Lit(buffer.MaxVarUint32Len+1).Op("+").Qual(bufferPkg, "BatchSlack")),
			jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(b.Clone().Dot("Window").Call(), b.Clone().Dot("WriterIndex").Call()),
			jen.Id("off").Op("=").Qual(bufferPkg, "PutVarUint32At").Call(jen.Id("w"), jen.Id("off"), jen.Uint32().Call(n.Clone())),
			jen.If(n.Clone().Op(">").Lit(0)).Block(
				jen.Qual(bufferPkg, "PutUint8At").Call(jen.Id("w"), jen.Id("off"), spec("ListSameType")),
				jen.Id("off").Op("++")),
			b.Clone().Dot("SetWriterIndex").Call(jen.Id("off")),
		)
		inner = append(inner, jen.Id("c").Dot("WriteStructMeta").Call(g.structInfo(e.Go)))
		elem := v.Clone().Index(jen.Id(idx))
		if !addressable && w.Go.Kind == model.Array {
			tmp := g.fresh("a")
			inner = append([]jen.Code{jen.Id(tmp).Op(":=").Add(v.Clone())}, inner...)
			elem = jen.Id(tmp).Index(jen.Id(idx))
		}
		if g.directWrite(e.Go) {
			inner = append(inner, jen.For(jen.Id(idx).Op(":=").Range().Add(v.Clone())).Block(
				jen.If(jen.Err().Op(":=").Add(callFlatWrite(elem, jen.Lit(0))), jen.Err().Op("!=").Nil()).Block(
					jen.Id("c").Dot("Fail").Call(jen.Err()), jen.Break())))
		} else {
			inner = append(inner, jen.For(jen.Id(idx).Op(":=").Range().Add(v.Clone())).Block(
				elem.Dot("ForyWrite").Call(jen.Id("c"))))
		}
	case e.Go.Kind == model.Pointer && e.Go.Elem.Kind == model.Struct:
		// Pointer elements: header 08 (09 tracked), plus 02 and a flag per
		// element when one is nil (writePtrElems).
		inner = g.writePtrElems(v, e, false, g.track && e.RefOn)
	case e.Go.Kind == model.Ext:
		inner = g.writeExtElems(v, e, false, false)
	case e.Go.Kind == model.Pointer && e.Go.Elem.Kind == model.Ext:
		inner = g.writeExtElems(v, e, true, g.track)
	case g.track && e.RefOn:
		// Tracked collection elements: header 0d (tracking, declared, same
		// type) and a reference flag per element (docs/format.md §2.1).
		el := g.fresh("e")
		inner = append(inner, writeFlag("ListDeclaredSameType", "ListTrackRef"),
			jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone())).Block(g.writeTracked(jen.Id(el), e)...))
	case e.Nullable:
		// Nullable non-struct elements: header 0e and a flag per element when
		// one is nil, else 0c.
		hdr, el := g.fresh("h"), g.fresh("p")
		deref := *e
		deref.Go, deref.Nullable = e.Go.Elem, false
		inner = append(inner,
			jen.Id(hdr).Op(":=").Add(spec("ListDeclaredSameType")),
			jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone())).Block(
				jen.If(jen.Id(el).Op("==").Nil()).Block(jen.Id(hdr).Op("=").Add(spec("ListDeclaredSameType", "ListHasNull")), jen.Break())),
			b.Clone().Dot("WriteUint8").Call(jen.Id(hdr)),
			jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone())).Block(
				append([]jen.Code{
					jen.If(jen.Id(hdr).Op("==").Add(spec("ListDeclaredSameType", "ListHasNull"))).Block(
						jen.If(jen.Id(el).Op("==").Nil()).Block(writeFlag("FlagNull"), jen.Continue()),
						writeFlag("FlagNotNull"),
					)}, g.writeValue(jen.Op("*").Id(el), &deref, false)...)...),
		)
	case e.IsFixedScalar() || e.IsVarint():
		// Primitive elements: one reserve for all of them, put-at stores, one commit.
		sc := scalarOf(e)
		el := g.fresh("e")
		inner = append(inner,
			b.Clone().Dot("Reserve").Call(jen.Lit(1).Op("+").Add(n.Clone()).Op("*").Lit(e.Width).Op("+").Qual(bufferPkg, "BatchSlack")),
			jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(b.Clone().Dot("Window").Call(), b.Clone().Dot("WriterIndex").Call()),
			jen.Qual(bufferPkg, "PutUint8At").Call(jen.Id("w"), jen.Id("off"), spec("ListDeclaredSameType")),
			jen.Id("off").Op("++"),
		)
		var put jen.Code
		if e.IsVarint() {
			put = jen.Id("off").Op("=").Add(putVarint(e, jen.Id(el), e.Go))
		} else {
			put = jen.Block(
				jen.Qual(bufferPkg, "Put"+sc.suffix+"At").Call(jen.Id("w"), jen.Id("off"), toWire(jen.Id(el), e.Go, sc)),
				jen.Id("off").Op("+=").Lit(e.Width),
			)
		}
		inner = append(inner,
			jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone())).Block(put),
			b.Clone().Dot("SetWriterIndex").Call(jen.Id("off")),
		)
	default:
		el := g.fresh("e")
		inner = append(inner, writeFlag("ListDeclaredSameType"),
			jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone())).Block(
				g.writeValue(jen.Id(el), e, false)...))
	}
	if head == nil {
		head = b.Clone().Dot("WriteVarUint32").Call(jen.Uint32().Call(n.Clone()))
	}
	return []jen.Code{head, jen.If(n.Clone().Op(">").Lit(0)).Block(inner...)}
}

// writeMap writes a MAP in chunks (§8.4); a null value gets a chunk of its
// own. A nil slice or map value is null too, as official Go writes it, so
// that it decodes as nil (docs/format.md §8.4).
func (g *gen) writeMap(v *jen.Statement, w *plan.Wire) []jen.Code {
	mw, k, val := g.fresh("mw"), g.fresh("k"), g.fresh("v")
	b := jen.Id("b")
	// A pointer key (docs/format.md §8.4) is written as its target; a nil
	// one is a null-key entry of its own (nullKeyEntry).
	writeKey := func() []jen.Code { return g.writeValue(jen.Id(k), w.Key, false) }
	if w.Key.Go.Kind == model.Struct {
		// A struct key is declared: its body alone, in both modes, as
		// official Go writes map[Point]string (docs/format.md §8.4).
		writeKey = func() []jen.Code { return g.writeStruct(jen.Id(k), w.Key.Go, false) }
	}
	if w.Key.Go.Kind == model.Pointer {
		deref := *w.Key
		deref.Go, deref.Nullable = w.Key.Go.Elem, false
		writeKey = func() []jen.Code { return g.writeValue(jen.Op("*").Id(k), &deref, false) }
	}
	var entry []jen.Code
	begin := "Begin"
	if g.track && w.Elem.RefOn {
		// Tracked values (struct pointers, collections): chunks with the
		// value tracking bit (0x2c) and a reference flag per value; a nil
		// value is a null chunk of its own (0x14), as for untracked maps.
		begin = "BeginTracked"
		var write []jen.Code
		if vg := w.Elem.Go; vg.Kind == model.Pointer {
			// Map struct values are bare bodies, no type meta (§14.11).
			write = []jen.Code{jen.If(jen.Op("!").Qual(implPkg, "WriteRefPtr").Call(jen.Id("c"), jen.Id(val))).Block(
				jen.Id(val).Dot("ForyWrite").Call(jen.Id("c")))}
		} else {
			write = g.writeTracked(jen.Id(val), w.Elem)
		}
		entry = append(entry, jen.If(jen.Id(val).Op("==").Nil()).Block(
			append([]jen.Code{jen.Id(mw).Dot("NullEntry").Call(b.Clone())}, writeKey()...)...,
		).Else().Block(append(append([]jen.Code{jen.Id(mw).Dot("Entry").Call(b.Clone())},
			writeKey()...), write...)...))
	} else if kind := w.Elem.Go.Kind; kind == model.Slice || kind == model.Map || kind == model.Set {
		entry = append(entry, jen.If(jen.Id(val).Op("==").Nil()).Block(
			append([]jen.Code{jen.Id(mw).Dot("NullEntry").Call(b.Clone())}, writeKey()...)...,
		).Else().Block(append(append([]jen.Code{jen.Id(mw).Dot("Entry").Call(b.Clone())},
			writeKey()...), g.writeValue(jen.Id(val), w.Elem, false)...)...))
	} else if w.Elem.Nullable {
		deref := *w.Elem
		deref.Nullable = false
		var present []jen.Code
		present = append(present, jen.Id(mw).Dot("Entry").Call(b.Clone()))
		present = append(present, writeKey()...)
		if w.Elem.Go.Kind == model.Pointer {
			deref.Go = w.Elem.Go.Elem
			if deref.Go.Kind == model.Struct {
				present = append(present, jen.Id(val).Dot("ForyWrite").Call(jen.Id("c")))
			} else {
				present = append(present, g.writeValue(jen.Op("*").Id(val), &deref, false)...)
			}
		} else {
			present = append(present, g.writeValue(jen.Id(val), &deref, false)...)
		}
		entry = append(entry, jen.If(jen.Id(val).Op("==").Nil()).Block(
			append([]jen.Code{jen.Id(mw).Dot("NullEntry").Call(b.Clone())}, writeKey()...)...,
		).Else().Block(present...))
	} else {
		entry = append(entry, jen.Id(mw).Dot("Entry").Call(b.Clone()))
		entry = append(entry, writeKey()...)
		if w.Elem.Go.Kind == model.Struct {
			// Map struct values are bare bodies, no type meta (§14.11).
			entry = append(entry, jen.Id(val).Dot("ForyWrite").Call(jen.Id("c")))
		} else if w.Elem.Go.Kind == model.Ext {
			// Extension values too: the codec's bytes, declared in both
			// modes (docs/format.md §12.6).
			entry = append(entry, g.writeExtBytes(jen.Id(val), w.Elem.Go))
		} else {
			entry = append(entry, g.writeValue(jen.Id(val), w.Elem, false)...)
		}
	}
	if w.Key.Go.Kind == model.Pointer {
		entry = []jen.Code{jen.If(jen.Id(k).Op("==").Nil()).Block(g.nullKeyEntry(mw, val, w)...).Else().Block(entry...)}
	}
	return []jen.Code{
		jen.Var().Id(mw).Qual(implPkg, "MapWriter"),
		jen.Id(mw).Dot(begin).Call(b.Clone(), jen.Len(v.Clone())),
		jen.For(jen.List(jen.Id(k), jen.Id(val)).Op(":=").Range().Add(v)).Block(entry...),
		jen.Id(mw).Dot("End").Call(b.Clone()),
	}
}

// nullKeyEntry writes the entry of a nil pointer key: the null-key header,
// then the value as a present one (plan allows no tracked values with
// pointer keys), or for a nil value the header of both null (§8.4).
func (g *gen) nullKeyEntry(mw, val string, w *plan.Wire) []jen.Code {
	b := jen.Id("b")
	vg := w.Elem.Go
	var write []jen.Code
	switch {
	case vg.Kind == model.Struct:
		write = []jen.Code{jen.Id(val).Dot("ForyWrite").Call(jen.Id("c"))}
	case vg.Kind == model.Pointer:
		deref := *w.Elem
		deref.Go, deref.Nullable = vg.Elem, false
		write = g.writeValue(jen.Op("*").Id(val), &deref, false)
	default:
		deref := *w.Elem
		deref.Nullable = false
		write = g.writeValue(jen.Id(val), &deref, false)
	}
	write = append([]jen.Code{jen.Id(mw).Dot("NullKeyEntry").Call(b.Clone())}, write...)
	if vg.Kind != model.Pointer {
		return write
	}
	return []jen.Code{jen.If(jen.Id(val).Op("==").Nil()).Block(jen.Id(mw).Dot("NullKeyValueEntry").Call(b.Clone())).Else().Block(write...)}
}

// checks validates x's fields before anything is written: strings, also
// inside containers, must be UTF-8 when checkUTF8 holds (the default reader
// refuses anything else), decimals must be within the scale and size the
// readers accept, and int and uint fields declared 32-bit by their encoding
// tag must fit 32 bits (official Go truncates them: docs/format.md §14.14).
// fail turns an error into the statements that report it. Nested structs
// check their own fields. String fields for which inRun holds are left to
// putRun, which checks them as it copies them, before the run's commit.
func (g *gen) checks(checkUTF8 jen.Code, fail func(jen.Code) []jen.Code, inRun func(*plan.Field) bool) []jen.Code {
	// A struct with two writers (plan.RefSensitive) runs its UTF-8 checks
	// in a method of their own, which both call (foryCheckUTF8; issue 28:
	// Containers' checks were 3 KB in each writer). It returns the error.
	shared := g.s.RefSensitive
	str := func(v *jen.Statement, field string) []jen.Code {
		err := jen.Qual(implPkg, "InvalidUTF8").Call(jen.Id(g.infoVar()), jen.Lit(field))
		failed := []jen.Code{jen.Return(err)}
		if !shared {
			failed = fail(err)
		}
		return []jen.Code{jen.If(jen.Op("!").Qual(implPkg, "ValidString").Call(jen.String().Call(v))).Block(failed...)}
	}
	dec := func(v *jen.Statement, field string) []jen.Code {
		return []jen.Code{jen.If(jen.Err().Op(":=").Qual(implPkg, "CheckDecimal").Call(jen.Id(g.infoVar()), jen.Lit(field),
			jen.Op("&").Parens(v.Clone()).Dot("Unscaled"), jen.Parens(v.Clone()).Dot("Scale")), jen.Err().Op("!=").Nil()).Block(fail(jen.Err())...)}
	}
	var utf, rest []jen.Code
	// The checks' temporaries are numbered from 0, so that the writers'
	// checks render alike.
	tmp := g.tmp
	g.tmp = 0
	for _, fl := range g.s.Fields {
		if !inRun(fl) {
			// A string in a run is checked as it is copied (putRun).
			utf = append(utf, g.checkLeaves(jen.Id("x").Dot(fl.GoName), fl.Wire, fl.GoName, meta.TypeString, str)...)
		}
	}
	g.tmp = max(g.tmp, tmp)
	for _, fl := range g.s.Fields {
		v := jen.Id("x").Dot(fl.GoName)
		rest = append(rest, g.checkLeaves(v, fl.Wire, fl.GoName, meta.TypeDecimal, dec)...)
		rest = append(rest, g.checkRange(v, fl, fail)...)
		if fl.Wire.Go.Kind == model.Pointer && !fl.Wire.Nullable && !fl.RefOff && !(g.track && fl.RefOn) {
			// nullable=false: no flag can say nil.
			rest = append(rest, jen.If(v.Clone().Op("==").Nil()).Block(
				fail(jen.Qual(implPkg, "NilNotNullable").Call(jen.Id(g.infoVar()), jen.Lit(fl.GoName)))...))
		}
	}
	var out []jen.Code
	if len(utf) > 0 && !shared {
		out = append(out, jen.If(checkUTF8).Block(utf...))
	} else if len(utf) > 0 {
		name := g.utfChecker(utf)
		out = append(out, jen.If(checkUTF8).Block(
			jen.If(jen.Err().Op(":=").Id("x").Dot(name).Call(), jen.Err().Op("!=").Nil()).Block(fail(jen.Err())...)))
	}
	return append(out, rest...)
}

// utfChecker names the method that runs the UTF-8 checks utf, recording
// it for emitUTFCheckers: one per distinct body (a field tracking writes
// differently may be checked in one writer and copied in the other).
func (g *gen) utfChecker(utf []jen.Code) string {
	text := render(utf)
	for _, c := range g.utfCheckers {
		if c.text == text {
			return c.name
		}
	}
	c := utfChecker{name: g.method("foryCheckUTF8"), text: text, body: utf}
	g.utfCheckers = append(g.utfCheckers, c)
	return c.name
}

// emitUTFCheckers writes the UTF-8 checks the struct's writers call.
func (g *gen) emitUTFCheckers(f *jen.File) {
	for _, c := range g.utfCheckers {
		f.Commentf("%s checks that every string %s's writers do not check as they copy it is UTF-8 (WithUTF8Validation).", c.name, g.name())
		f.Func().Params(jen.Id("x").Op("*").Id(g.name())).Id(c.name).Params().Error().
			Block(append(c.body, jen.Return(jen.Nil()))...)
		f.Line()
	}
}

// checkLeaves applies leaf to every value of type id leafID in v, of wire
// type w: v itself, or the elements, keys and values of its containers.
func (g *gen) checkLeaves(v *jen.Statement, w *plan.Wire, field string, leafID uint8, leaf func(*jen.Statement, string) []jen.Code) []jen.Code {
	if w.Go.Kind == model.Optional {
		inner := *w
		inner.Go = w.Go.Elem
		e := g.fresh("o")
		body := g.checkLeaves(jen.Id(e), &inner, field, leafID, leaf)
		if len(body) == 0 {
			return nil
		}
		return []jen.Code{jen.If(jen.List(jen.Id(e), jen.Id("ok")).Op(":=").Add(v.Clone()).Dot("Get").Call(), jen.Id("ok")).Block(body...)}
	}
	if w.Go.Kind == model.Pointer {
		inner := *w
		inner.Go = w.Go.Elem
		body := g.checkLeaves(jen.Parens(jen.Op("*").Add(v)), &inner, field, leafID, leaf)
		if len(body) == 0 {
			return nil
		}
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(body...)}
	}
	switch {
	case w.Go.Kind.IsMarshaler():
		// Checked as it is marshaled (writeMarshaled).
		return nil
	}
	switch w.TypeID {
	case leafID:
		return leaf(v, field)
	case meta.TypeList, meta.TypeSet:
		e := g.fresh("e")
		body := g.checkLeaves(jen.Id(e), w.Elem, field, leafID, leaf)
		if len(body) == 0 {
			return nil
		}
		if w.TypeID == meta.TypeSet {
			return []jen.Code{jen.For(jen.Id(e).Op(":=").Range().Add(v)).Block(body...)}
		}
		// By index: a Decimal holds a big.Int, which must not be copied.
		i := g.fresh("i")
		body = g.checkLeaves(v.Clone().Index(jen.Id(i)), w.Elem, field, leafID, leaf)
		return []jen.Code{jen.For(jen.Id(i).Op(":=").Range().Add(v)).Block(body...)}
	case meta.TypeMap:
		k, e := g.fresh("k"), g.fresh("e")
		keys := g.checkLeaves(jen.Id(k), w.Key, field, leafID, leaf)
		vals := g.checkLeaves(jen.Id(e), w.Elem, field, leafID, leaf)
		if len(keys)+len(vals) == 0 {
			return nil
		}
		kv, ev := jen.Id(k), jen.Id(e)
		if len(keys) == 0 {
			kv = jen.Id("_")
		}
		if len(vals) == 0 {
			return []jen.Code{jen.For(kv).Op(":=").Range().Add(v).Block(keys...)}
		}
		return []jen.Code{jen.For(jen.List(kv, ev).Op(":=").Range().Add(v)).Block(append(keys, vals...)...)}
	}
	return nil
}

// isSigned reports whether k is a signed integer kind.
func isSigned(k model.Kind) bool {
	switch k {
	case model.Int8, model.Int16, model.Int32, model.Int64, model.Int:
		return true
	}
	return false
}

// checkRange checks that an int or uint field declared 32-bit fits, and
// that an enum value has a varu32 ordinal.
func (g *gen) checkRange(v *jen.Statement, fl *plan.Field, fail func(jen.Code) []jen.Code) []jen.Code {
	w := fl.Wire
	kind, val := w.Go.Kind, jen.Statement(*v)
	if kind == model.Pointer {
		kind, val = w.Go.Elem.Kind, *jen.Parens(jen.Op("*").Add(v))
	}
	var cond, err jen.Code
	base := w.Go.Base
	if w.Go.Kind == model.Pointer {
		base = w.Go.Elem.Base
	}
	switch {
	case kind == model.Enum && isSigned(base):
		// An ordinal is a varu32: a negative value has none.
		cond = val.Clone().Op("<").Lit(0)
		if base == model.Int64 || base == model.Int {
			cond = jen.Add(cond).Op("||").Int64().Call(val.Clone()).Op(">").Qual("math", "MaxUint32")
		}
		err = jen.Qual(implPkg, "EnumOutOfRange").Call(jen.Id(g.infoVar()), jen.Lit(fl.GoName), jen.Int64().Call(val.Clone()))
	case kind == model.Enum && (base == model.Uint64 || base == model.Uint):
		cond = jen.Uint64().Call(val.Clone()).Op(">").Qual("math", "MaxUint32")
		err = jen.Qual(implPkg, "EnumOutOfRange").Call(jen.Id(g.infoVar()), jen.Lit(fl.GoName), jen.Int64().Call(val.Clone()))
	case kind == model.Int && (w.TypeID == meta.TypeVarInt32 || w.TypeID == meta.TypeInt32):
		cond = jen.Int64().Call(val.Clone()).Op("!=").Int64().Call(jen.Int32().Call(val.Clone()))
		err = jen.Qual(implPkg, "IntOutOfRange").Call(jen.Id(g.infoVar()), jen.Lit(fl.GoName), jen.Int64().Call(val.Clone()))
	case kind == model.Uint && (w.TypeID == meta.TypeVarUint32 || w.TypeID == meta.TypeUint32):
		cond = jen.Uint64().Call(val.Clone()).Op("!=").Uint64().Call(jen.Uint32().Call(val.Clone()))
		err = jen.Qual(implPkg, "UintOutOfRange").Call(jen.Id(g.infoVar()), jen.Lit(fl.GoName), jen.Uint64().Call(val.Clone()))
	default:
		return nil
	}
	check := jen.If(cond).Block(fail(err)...)
	if w.Go.Kind == model.Pointer {
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(check)}
	}
	return []jen.Code{check}
}

// writeSet writes a SET as a LIST of its elements (§8.1): the length, and
// for a non-empty set the elements header (declared type, no nulls) and the
// elements in Go's map order.
func (g *gen) writeSet(v *jen.Statement, w *plan.Wire) []jen.Code {
	b, e := jen.Id("b"), g.fresh("e")
	if e := w.Elem.Go; e.Kind == model.Pointer && e.Elem.Kind == model.Struct {
		return []jen.Code{
			b.Clone().Dot("WriteVarUint32").Call(jen.Uint32().Call(jen.Len(v.Clone()))),
			jen.If(jen.Len(v.Clone()).Op(">").Lit(0)).Block(g.writePtrElems(v, w.Elem, true, g.track && w.Elem.RefOn)...),
		}
	}
	return []jen.Code{
		b.Clone().Dot("WriteVarUint32").Call(jen.Uint32().Call(jen.Len(v.Clone()))),
		jen.If(jen.Len(v.Clone()).Op(">").Lit(0)).Block(
			writeFlag("ListDeclaredSameType"),
			jen.For(jen.Id(e).Op(":=").Range().Add(v.Clone())).Block(g.writeValue(jen.Id(e), w.Elem, false)...),
		),
	}
}

// writeExtBytes writes an extension value's bytes with its codec; a
// codec's error ends the writer (ExtWritten records it).
func (g *gen) writeExtBytes(v *jen.Statement, t *model.Type) jen.Code {
	return jen.If(jen.Op("!").Id("c").Dot("ExtWritten").Call(jen.Id(g.infoVar()), jen.Lit(g.field),
		jen.Parens(jen.Op("&").Id(t.Codec).Values()).Dot("WriteExt").Call(jen.Id("c").Dot("Buffer").Call(), addrOf(v)))).Block(jen.Return())
}

// writeExtElems writes the elements of a list of extension values (or,
// with ptr, of pointers to them), as official Go writes them: header 08
// (same type, not declared; 02 when one is nil, 01 tracked), the type meta
// once in both modes, then each value's bytes, behind its null flag when
// one is nil or its reference flag when tracked (docs/format.md §12.6).
func (g *gen) writeExtElems(v *jen.Statement, e *plan.Wire, ptr, tracked bool) []jen.Code {
	b := jen.Id("b")
	hdr, el, i := g.fresh("h"), g.fresh("p"), g.fresh("i")
	t := e.Go
	if ptr {
		t = e.Go.Elem
	}
	meta := jen.Id("c").Dot("WriteExtElemMeta").Call(jen.Id(extInfo(t.Codec)))
	if !ptr {
		return []jen.Code{writeFlag("ListSameType"), meta,
			jen.For(jen.Id(i).Op(":=").Range().Add(v.Clone())).Block(g.writeExtBytes(v.Clone().Index(jen.Id(i)), t))}
	}
	base := []string{"ListSameType"}
	if tracked {
		base = append(base, "ListTrackRef")
	}
	withNull := append(base[:len(base):len(base)], "ListHasNull")
	each := func() *jen.Statement {
		return jen.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(v.Clone()))
	}
	var write []jen.Code
	if tracked {
		write = []jen.Code{jen.If(jen.Op("!").Qual(implPkg, "WriteRefPtr").Call(jen.Id("c"), jen.Id(el))).Block(
			g.writeExtBytes(jen.Op("*").Id(el), t))}
	} else {
		write = []jen.Code{jen.If(jen.Id(hdr).Op("==").Add(spec(withNull...))).Block(
			jen.If(jen.Id(el).Op("==").Nil()).Block(writeFlag("FlagNull"), jen.Continue()),
			writeFlag("FlagNotNull"),
		), g.writeExtBytes(jen.Op("*").Id(el), t)}
	}
	return []jen.Code{
		jen.Id(hdr).Op(":=").Add(spec(base...)),
		each().Block(jen.If(jen.Id(el).Op("==").Nil()).Block(jen.Id(hdr).Op("=").Add(spec(withNull...)), jen.Break())),
		b.Clone().Dot("WriteUint8").Call(jen.Id(hdr)),
		meta,
		each().Block(write...),
	}
}

// Shared value writers. In a struct with two writers (plan.RefSensitive:
// ForyWrite or foryWriteFlat, and foryWriteRef), a collection field's
// value (valueReader's kinds: a list, set or map that is not a dense array
// and holds no any) that both write alike is written by a method of its
// own, foryWrite<Field>, which both call: each once held a copy of the
// same loops (issue 28). The method takes the buffer alone. A value whose
// code needs the context (a nested struct, an element tracked with the
// references) or that tracking writes differently keeps its inline code in
// each writer, and so does a list of strings checked as they are copied
// (checkedOnCopy): its call and error result cost 25 instructions a
// message (instructions.sh MediaContent forygen Serialize: 2,272 → 2,297;
// MediaContentList 40,824 → 41,536). A struct with one writer keeps its
// code inline: a method would have one caller.

// contextUse matches a use of what only a struct's own writer has: its
// context, its mode and root parameters.
var contextUse = regexp.MustCompile(`(^|[^\w.])(c|compatible|root)\b`)

// valueWriterCall is the call of fl's shared value writer, or nil where
// fl has none.
func (g *gen) valueWriterCall(fl *plan.Field) []jen.Code {
	name := g.valueWriterFor(fl)
	if name == "" {
		return nil
	}
	return []jen.Code{jen.Id("x").Dot(name).Call(jen.Id("b"), jen.Id("x").Dot(fl.GoName))}
}

// valueWriterFor names fl's shared value writer, decided the first time
// a writer asks; "" where it has none.
func (g *gen) valueWriterFor(fl *plan.Field) string {
	if !g.s.RefSensitive || !sharedValue(fl.Wire) {
		return ""
	}
	if vw, ok := g.valueWriters[fl]; ok {
		return vw.name
	}
	if g.valueWriters == nil {
		g.valueWriters = map[*plan.Field]*valueWriter{}
	}
	vw := &valueWriter{}
	g.valueWriters[fl] = vw
	off, fails := g.valueWrite(fl, false)
	text := render(off)
	if fails || contextUse.MatchString(text) || fieldUse.MatchString(text) {
		return ""
	}
	if on, _ := g.valueWrite(fl, true); render(on) != text {
		return ""
	}
	// Fields of one type that write alike share the first one's.
	key := fmt.Sprintf("%#v\n%s", g.goType(fl.Wire.Go), text)
	if g.writerBodies == nil {
		g.writerBodies = map[string]*valueWriter{}
	}
	if first, ok := g.writerBodies[key]; ok {
		first.users = append(first.users, fl.GoName)
		vw.name = first.name
		return vw.name
	}
	vw.name, vw.body, vw.field, vw.users = g.method("foryWrite"+fl.GoName), off, fl, []string{fl.GoName}
	g.writerBodies[key] = vw
	return vw.name
}

// valueWriter is a field's shared value writer: its name ("" for none)
// and code, and for the field it was made for, the fields that call it.
type valueWriter struct {
	name  string
	body  []jen.Code
	field *plan.Field
	users []string
}

// valueWrite is the body of fl's shared value writer in a mode, and
// whether it can fail. The emitter's state is given back, so that a trial
// render does not renumber the code around it.
func (g *gen) valueWrite(fl *plan.Field, track bool) ([]jen.Code, bool) {
	saved := *g
	fails := false
	g.track, g.tmp, g.start, g.field, g.copyCheck = track, 0, "", fl.GoName, ""
	g.checkUTF8 = jen.Id("check")
	g.failWrite = func(err jen.Code) []jen.Code {
		fails = true
		return []jen.Code{jen.Return(err)}
	}
	if g.checkedOnCopy(fl) {
		g.copyCheck = fl.GoName
	}
	code := g.writeValue(jen.Id("v"), fl.Wire, true)
	*g = saved
	return code, fails
}

// emitValueWriters writes the shared value writers the struct's writers
// call, in field order.
func (g *gen) emitValueWriters(f *jen.File) {
	for _, fl := range g.s.Fields {
		vw := g.valueWriters[fl]
		if vw == nil || vw.field != fl {
			continue
		}
		whose := "field " + fl.GoName + "'s value"
		if len(vw.users) > 1 {
			whose = "the value of fields " + strings.Join(vw.users, ", ")
		}
		f.Commentf("%s writes %s, for both of %s's writers.", vw.name, whose, g.name())
		f.Func().Params(jen.Id("x").Op("*").Id(g.name())).Id(vw.name).
			Params(jen.Id("b").Op("*").Qual(bufferPkg, "Buffer"), jen.Id("v").Add(g.goType(fl.Wire.Go))).Block(vw.body...)
		f.Line()
	}
}
