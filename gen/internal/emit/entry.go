package emit

import (
	"encoding/binary"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/forygen/forygen/internal/meta"
)

// The entry points: ForySerializeTo and ForyDeserialize start and end a
// message whose root is the struct. Header, root flag and root type meta
// are constants (plan.RootPrefix): the writer stores them as immediate
// words and the reader compares them with immediate words, instead of a
// memmove from and a memequal with the runtime's copy (BenchmarkFixedCost:
// 126 → 122 instructions for the writer against a constant array copy).

// word is one little-endian load or store of a root prefix.
type word struct {
	off, width int
	val        uint64
}

// words covers p with the widest loads: 8-byte words, the last one
// overlapping its predecessor, or for fewer than 8 bytes 4, 2 and 1.
func words(p []byte) []word {
	n := len(p)
	at := func(off, width int) word {
		var v [8]byte
		copy(v[:], p[off:off+width])
		return word{off, width, binary.LittleEndian.Uint64(v[:])}
	}
	var out []word
	if n >= 8 {
		for off := 0; off+8 <= n; off += 8 {
			out = append(out, at(off, 8))
		}
		if n%8 != 0 {
			out = append(out, at(n-8, 8))
		}
		return out
	}
	off := 0
	for _, width := range []int{4, 2, 1} {
		if n-off >= width {
			out = append(out, at(off, width))
			off += width
		}
	}
	return out
}

func (w word) suffix() string { return fmt.Sprintf("Uint%d", 8*w.width) }

func (w word) lit() jen.Code { return jen.Op(fmt.Sprintf("0x%0*x", 2*w.width, w.val)) }

// putWords stores prefix p at w[at:] and advances at past it.
func putWords(p []byte, at string) []jen.Code {
	var out []jen.Code
	for _, w := range words(p) {
		out = append(out, jen.Qual(bufferPkg, "Put"+w.suffix()+"At").Call(jen.Id("w"), plus(at, w.off), w.lit()))
	}
	return append(out, jen.Id(at).Op("+=").Lit(len(p)))
}

// matchWords is `len(in) >= len(p) && in starts with p`.
func matchWords(in string, p []byte) *jen.Statement {
	cond := jen.Len(jen.Id(in)).Op(">=").Lit(len(p))
	for _, w := range words(p) {
		cond = cond.Op("&&").Qual(bufferPkg, "Read"+w.suffix()+"At").Call(jen.Id(in), jen.Lit(w.off)).Op("==").Add(w.lit())
	}
	return cond
}

// matchRoot declares n, the length of the root prefix the input in starts
// with: com in compatible mode, con otherwise, or 0 for neither.
func matchRoot(in string, compatible jen.Code, com, con []byte) []jen.Code {
	return []jen.Code{jen.Id("n").Op(":=").Lit(0), matchPrefix(in, compatible, com, con)}
}

// matchRootTracked is matchRoot choosing the tracking prefixes when track
// holds.
func matchRootTracked(in string, compatible, track jen.Code, com, con, comRef, conRef []byte) []jen.Code {
	return []jen.Code{
		jen.Id("n").Op(":=").Lit(0),
		jen.If(track).Block(matchPrefix(in, compatible, comRef, conRef)).Else().Add(matchPrefix(in, compatible, com, con)),
	}
}

// rootFlagTracked is `the root flag of the message in is 0x00`: its writer
// tracked references, and it is read so whatever the reader's WithTrackRef
// says (the runtime's rootTracked).
func rootFlagTracked(in string) *jen.Statement {
	return jen.Len(jen.Id(in)).Op(">").Lit(1).Op("&&").Id(in).Index(jen.Lit(1)).Op("==").Add(spec("FlagRefValue"))
}

// matchPrefix sets n to the length of com (in compatible mode) or con when
// the input in starts with it.
func matchPrefix(in string, compatible jen.Code, com, con []byte) *jen.Statement {
	return jen.If(compatible).Block(
		jen.If(matchWords(in, com)).Block(jen.Id("n").Op("=").Lit(len(com))),
	).Else().If(matchWords(in, con)).Block(jen.Id("n").Op("=").Lit(len(con)))
}

func (g *gen) emitEntry(f *jen.File) {
	con, com := g.s.RootConsistent, g.s.RootCompatible
	recv := jen.Id("x").Op("*").Id(g.name())
	info := jen.Id(g.infoVar())

	f.Commentf("ForySerializeTo appends a message whose root is x to b; serializer.Marshal, MarshalAppend and Fory.Serialize call it.")
	f.Comment("The root prefix (header, root flag, type meta: docs/format.md §1) is stored as constant words.")
	// With reference tracking the root flag is 0x00 and the root is object
	// 0 (docs/format.md §2.1).
	// The tracking entry is a method of its own: ForySerializeTo keeps only
	// the untracked path and a branch (BenchmarkFixedCost/Serialize: 55
	// instructions with both paths in one function, 53 apart).
	body := []jen.Code{jen.If(runtime("TrackRef").Call()).Block(
		jen.Return(jen.Id("x").Dot("forySerializeRef").Call(jen.Id("f"), jen.Id("b"))))}
	if g.s.Flat {
		// No nested struct: no type meta table, no depth, no error, so no
		// write context; the body writer stores the prefix (plan.Flat).
		body = append(body,
			jen.Return(jen.Id("x").Dot("foryWrite").Call(jen.Id("b"), jen.Id("f").Dot("Compatible").Call(), runtime("CheckUTF8").Call(), jen.True())))
	} else {
		body = append(body,
			jen.Id("c").Op(":=").Add(runtime("BeginWrite")).Call(jen.Id("b"), info),
			jen.Id("start").Op(":=").Id("b").Dot("WriterIndex").Call(),
			jen.Id("b").Dot("Reserve").Call(jen.Lit(max(len(con), len(com)))),
			jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(jen.Id("b").Dot("Window").Call(), jen.Id("start")),
			jen.If(jen.Id("c").Dot("Compatible").Call()).Block(putWords(com, "off")...).Else().Block(putWords(con, "off")...),
			jen.Id("b").Dot("SetWriterIndex").Call(jen.Id("off")),
			jen.Id("x").Dot("ForyWrite").Call(jen.Id("c")),
			jen.Return(jen.Id("c").Dot("EndWrite").Call(jen.Id("start"))))
	}
	f.Func().Params(recv).Id("ForySerializeTo").Params(
		jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("b").Op("*").Qual(bufferPkg, "Buffer"),
	).Error().Block(body...)
	f.Line()
	f.Comment("forySerializeRef is ForySerializeTo with reference tracking (docs/format.md §2.1).")
	f.Func().Params(recv.Clone()).Id("forySerializeRef").Params(
		jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("b").Op("*").Qual(bufferPkg, "Buffer"),
	).Error().Block(g.trackedRootWrite()...)
	f.Line()

	name := "ForyDeserialize"
	if g.primitiveOnly() {
		// Primitive fields only: the reader alone decodes the message our
		// own writer produced; anything else, and any failure, goes the
		// context's way, which also reports the error.
		f.Commentf("ForyDeserialize reads one message into x; serializer.Unmarshal and Fory.Deserialize call it.")
		f.Comment("A message that starts with the root prefix ForySerializeTo writes is read without a read context; any other (another writer's TypeDef, bad input) goes through foryDeserialize.")
		// In same-schema mode the root's schema hash follows its type meta
		// and is compared with the prefix.
		conHash := binary.LittleEndian.AppendUint32(append([]byte(nil), con...), uint32(g.s.SchemaHash))
		// With tracking only the root flag differs: primitives are never
		// tracked.
		comRef, conRef := g.refPrefixes()
		conHashRef := binary.LittleEndian.AppendUint32(conRef, uint32(g.s.SchemaHash))
		f.Func().Params(recv.Clone()).Id("ForyDeserialize").Params(
			jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("data").Index().Byte(),
		).Error().Block(append(append([]jen.Code{
			jen.Var().Id("r").Qual(bufferPkg, "Reader"),
			jen.Id("r").Dot("Reset").Call(jen.Id("data")),
		}, matchRootTracked("data", jen.Id("f").Dot("Compatible").Call(), rootFlagTracked("data"), com, conHash, comRef, conHashRef)...),
			jen.If(jen.Id("n").Op("!=").Lit(0)).Block(
				jen.Id("r").Dot("SetOffset").Call(jen.Id("n")),
				jen.If(jen.Id("x").Dot("foryReadFrom").Call(jen.Op("&").Id("r")).Op("&&").Id("r").Dot("Remaining").Call().Op("==").Lit(0)).Block(
					jen.Return(jen.Nil())),
			),
			jen.Return(jen.Id("x").Dot("foryDeserialize").Call(jen.Id("f"), jen.Id("data"))),
		)...)
		f.Line()
		name = "foryDeserialize"
		f.Commentf("foryDeserialize is ForyDeserialize with the read context: schema evolution, and the error of a message the context-free read rejected.")
	} else {
		f.Commentf("ForyDeserialize reads one message into x; serializer.Unmarshal and Fory.Deserialize call it.")
		f.Comment("A message that starts with the root prefix ForySerializeTo writes takes the generated fast path; any other (another writer's TypeDef, bad input) goes through ReadRoot.")
	}
	comRef, conRef := g.refPrefixes()
	f.Func().Params(recv.Clone()).Id(name).Params(
		jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("data").Index().Byte(),
	).Error().Block(
		// The fast paths of BeginRead and EndRead inline; the calls are
		// for the rest (BenchmarkFixedCost/DeserializeWithContext).
		jen.Id("c").Op(":=").Add(runtime("BeginReadFast")).Call(jen.Id("data")),
		jen.If(jen.Id("c").Op("==").Nil()).Block(jen.Id("c").Op("=").Add(runtime("BeginRead")).Call(jen.Id("data"))),
		jen.Id("in").Op(":=").Id("c").Dot("Reader").Call().Dot("Bytes").Call(),
		// A message whose root flag is 0x00 was written with tracking,
		// and is read so whatever WithTrackRef says (BeginRead set
		// c.TrackRef from the flag): its prefix has flag 0x00 (and the
		// tracking TypeDef), in a method of its own as on the write side.
		jen.If(jen.Id("c").Dot("TrackRef").Call()).Block(jen.Return(jen.Id("x").Dot("foryDeserializeRef").Call(jen.Id("f"), jen.Id("c"), jen.Id("in")))),
		jen.Block(append(matchRoot("in", jen.Id("c").Dot("Compatible").Call(), com, con),
			jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(runtime("ReadRoot").Call(jen.Id("c"), jen.Id("x")))),
			jen.Id("c").Dot("AcceptRoot").Call(jen.Id("n"), info),
			jen.Id("x").Dot("ForyRead").Call(jen.Id("c")),
			jen.If(runtime("EndReadFast").Call(jen.Id("c"))).Block(jen.Return(jen.Nil())),
			jen.Return(runtime("EndRead").Call(jen.Id("c"), info)))...),
	)
	f.Line()
	f.Comment("foryDeserializeRef is the read of a message with reference tracking: the root is object 0.")
	f.Func().Params(recv.Clone()).Id("foryDeserializeRef").Params(
		jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("c").Op("*").Qual(implPkg, "ReadContext"), jen.Id("in").Index().Byte(),
	).Error().Block(append(matchRoot("in", jen.Id("c").Dot("Compatible").Call(), comRef, conRef),
		jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(runtime("ReadRoot").Call(jen.Id("c"), jen.Id("x")))),
		jen.Qual(implPkg, "AcceptRootRef").Call(jen.Id("c"), jen.Id("n"), info, jen.Id("x")),
		jen.Id("x").Dot("ForyRead").Call(jen.Id("c")),
		jen.Return(runtime("EndRead").Call(jen.Id("c"), info)))...)
	f.Line()
}

// refPrefixes are the root prefixes with reference tracking, in compatible
// and same-schema mode: flag 0x00, and the tracking TypeDef where it
// differs (plan.Struct.RootCompatibleRef).
func (g *gen) refPrefixes() (com, con []byte) {
	com = append([]byte(nil), g.s.RootCompatible...)
	if g.s.RootCompatibleRef != nil {
		com = append([]byte(nil), g.s.RootCompatibleRef...)
	}
	con = append([]byte(nil), g.s.RootConsistent...)
	com[1], con[1] = meta.FlagRefValue, meta.FlagRefValue
	return com, con
}

// trackedRootWrite is ForySerializeTo with reference tracking: a flat
// struct without tracked fields writes as without tracking, its root flag
// then set to 0x00 (nothing in it can refer to the root); any other writes
// the tracking prefix as constant words, records the root as object 0 and
// writes the body.
func (g *gen) trackedRootWrite() []jen.Code {
	if g.s.Flat && !g.s.RefSensitive {
		return []jen.Code{
			jen.Id("start").Op(":=").Id("b").Dot("WriterIndex").Call(),
			jen.If(jen.Err().Op(":=").Id("x").Dot("foryWrite").Call(jen.Id("b"), jen.Id("f").Dot("Compatible").Call(), runtime("CheckUTF8").Call(), jen.True()),
				jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Id("b").Dot("Bytes").Call().Index(jen.Id("start").Op("+").Lit(1)).Op("=").Add(spec("FlagRefValue")),
			jen.Return(jen.Nil()),
		}
	}
	com, con := g.refPrefixes()
	return []jen.Code{
		jen.Id("c").Op(":=").Add(runtime("BeginWrite")).Call(jen.Id("b"), jen.Id(g.infoVar())),
		jen.Id("start").Op(":=").Id("b").Dot("WriterIndex").Call(),
		jen.Id("b").Dot("Reserve").Call(jen.Lit(max(len(con), len(com)))),
		jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(jen.Id("b").Dot("Window").Call(), jen.Id("start")),
		jen.If(jen.Id("c").Dot("Compatible").Call()).Block(putWords(com, "off")...).Else().Block(putWords(con, "off")...),
		jen.Id("b").Dot("SetWriterIndex").Call(jen.Id("off")),
		jen.Qual(implPkg, "WriteRootRef").Call(jen.Id("c"), jen.Id("x")),
		jen.Id("x").Dot("ForyWrite").Call(jen.Id("c")),
		jen.Return(jen.Id("c").Dot("EndWrite").Call(jen.Id("start"))),
	}
}

// runtime is f.Runtime().m: the generated-code state behind the user's
// *serializer.Fory (an inlined field address).
func runtime(m string) *jen.Statement { return jen.Id("f").Dot("Runtime").Call().Dot(m) }
