package emit

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/forygen/forygen/internal/meta"
)

// The entry points: ForySerializeTo and ForyDeserialize start and end a
// message whose root is the struct. Header, root flag and root type meta
// are constants (plan.RootPrefix). The writer stores a compatible-mode
// prefix, which holds the TypeDef, with one fixed-size copy from the
// package-level array that holds it once (emitRootVar): vector moves, 16
// bytes each, no call (instructions.sh NumericStruct forygen Serialize:
// 487 → 475 against immediate words). The reader compares up to
// maxWordPrefix bytes with immediate words and a longer prefix with the
// array (a memequal call, which costs more than the words: a comparison of
// arrays longer than 16 bytes is not inlined). Same-schema prefixes, a few
// bytes, are words both ways.

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

// maxWordPrefix is the longest root prefix a reader compares as
// immediate words. A longer one (a TypeDef of many fields) is one
// comparison with its package-level array: the memequal's fixed cost is
// small against the words it replaces, and the generated code does not
// spell its bytes out again. Every benchmark fixture's prefix is at most
// 80 bytes (Sample's 66 the longest), so their readers keep the words.
const maxWordPrefix = 80

// prefix is a root prefix (header, root flag, type meta: docs/format.md
// §1) as an entry point writes or compares it.
type prefix struct {
	b []byte
	// v names the package-level variable holding b, or b with another
	// root flag (tracked); "" when b is in none (the same-schema
	// prefixes, a few bytes).
	v string
	// tracked is set when b is v's bytes with root flag 0x00 (reference
	// tracking), which is not the byte in v.
	tracked bool
	// hash is set when b ends with the schema hash (4 bytes).
	hash bool
}

// what names bytes [from, to) of p for the comment of a word: only a
// prefix without a variable (same-schema mode) is written as words.
func (p prefix) what(from, to int) string {
	n := len(p.b)
	if p.hash {
		n -= 4
	}
	var parts []string
	if from < n {
		hex := make([]string, 0, 8)
		for _, c := range p.b[from:min(to, n)] {
			hex = append(hex, fmt.Sprintf("%02x", c))
		}
		parts = append(parts, "prefix bytes "+strings.Join(hex, " "))
	}
	if to > n {
		parts = append(parts, "schema hash")
	}
	return strings.Join(parts, ", ")
}

// put stores p at w[at:] and advances at past it.
func (p prefix) put(at string) []jen.Code {
	var out []jen.Code
	if p.v != "" {
		// A fixed-size copy from the array variable: vector moves, 16
		// bytes each, where immediate words take two instructions per 8
		// bytes and a copy of a slice calls memmove (instructions.sh
		// NumericStruct forygen Serialize).
		n := len(p.b)
		out = append(out, jen.Op("*").Parens(jen.Op("*").Index(jen.Lit(n)).Byte()).Parens(jen.Qual(bufferPkg, "At").Call(jen.Id("w"), jen.Id(at))).Op("=").Id(p.v))
		if p.tracked {
			out = append(out, jen.Id("w").Index(plus(at, 1)).Op("=").Add(spec("FlagRefValue")).Comment("tracking: the root is object 0"))
		}
		return append(out, jen.Id(at).Op("+=").Lit(len(p.b)))
	}
	for _, w := range words(p.b) {
		out = append(out, jen.Qual(bufferPkg, "Put"+w.suffix()+"At").Call(jen.Id("w"), plus(at, w.off), w.lit()).Comment(p.what(w.off, w.off+w.width)))
	}
	return append(out, jen.Id(at).Op("+=").Lit(len(p.b)))
}

// match is `len(in) >= len(p) && in starts with p`.
func (p prefix) match(in string) *jen.Statement {
	n := len(p.b)
	cond := jen.Len(jen.Id(in)).Op(">=").Lit(n)
	if n > maxWordPrefix && p.v != "" {
		if p.tracked {
			return cond.Op("&&").Id(in).Index(jen.Lit(1)).Op("==").Add(spec("FlagRefValue")).
				Op("&&").Id(in).Index(jen.Lit(0)).Op("==").Id(p.v).Index(jen.Lit(0)).
				Op("&&").String().Parens(jen.Id(in).Index(jen.Lit(2).Op(":").Lit(n))).Op("==").String().Parens(jen.Id(p.v).Index(jen.Lit(2).Op(":")))
		}
		return cond.Op("&&").String().Parens(jen.Id(in).Index(jen.Op(":").Lit(n))).Op("==").String().Parens(jen.Id(p.v).Index(jen.Op(":")))
	}
	for _, w := range words(p.b) {
		cond = cond.Op("&&").Line().Qual(bufferPkg, "Read"+w.suffix()+"At").Call(jen.Id(in), jen.Lit(w.off)).Op("==").Add(w.lit())
	}
	return cond
}

// rootVar names the package-level variable holding a struct's
// compatible-mode root prefix, whose bytes from 4 on are its TypeDef.
func (g *gen) rootVar() string { return "foryRoot" + g.name() }

// rootRefVar names the variable of the compatible-mode root prefix with
// reference tracking, declared where its TypeDef differs.
func (g *gen) rootRefVar() string { return "foryRootRef" + g.name() }

// prefixes are a struct's root prefixes without reference tracking.
func (g *gen) prefixes() (com, con prefix) {
	return prefix{b: g.s.RootCompatible, v: g.rootVar()}, prefix{b: g.s.RootConsistent}
}

// matchRoot declares n, the length of the root prefix the input in starts
// with: com in compatible mode, con otherwise, or 0 for neither.
func matchRoot(in string, compatible jen.Code, com, con prefix) []jen.Code {
	return []jen.Code{jen.Id("n").Op(":=").Lit(0), matchPrefix(in, compatible, com, con)}
}

// matchRootTracked is matchRoot choosing the tracking prefixes when track
// holds.
func matchRootTracked(in string, compatible, track jen.Code, com, con, comRef, conRef prefix) []jen.Code {
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
func matchPrefix(in string, compatible jen.Code, com, con prefix) *jen.Statement {
	return jen.If(compatible).Block(
		jen.If(com.match(in)).Block(jen.Id("n").Op("=").Lit(len(com.b))),
	).Else().If(con.match(in)).Block(jen.Id("n").Op("=").Lit(len(con.b)))
}

func (g *gen) emitEntry(f *jen.File) {
	com, con := g.prefixes()
	recv := jen.Id("x").Op("*").Id(g.name())
	info := jen.Id(g.infoVar())

	f.Commentf("ForySerializeTo appends a message whose root is x to b (serializer.Marshal).")
	// With reference tracking the root flag is 0x00 and the root is object
	// 0 (docs/format.md §2.1).
	// The tracking entry is a method of its own: ForySerializeTo keeps only
	// the untracked path and a branch (BenchmarkFixedCost/Serialize: 55
	// instructions with both paths in one function, 53 apart).
	// A flat struct that tracking does not change writes as without it,
	// its root flag set after (forySerializeRef); any other is written by
	// foryimpl.SerializeRef, one body for all, which copies the tracking
	// prefix from the type information (issue 28: each struct's method
	// held it as constant words).
	ownRef := g.s.Flat && !g.s.RefSensitive
	tracked := jen.Qual(implPkg, "SerializeRef").Call(jen.Id("f").Dot("Runtime").Call(), jen.Id("b"), jen.Id("x"), info)
	if ownRef {
		tracked = jen.Id("x").Dot("forySerializeRef").Call(jen.Id("f"), jen.Id("b"))
	}
	body := []jen.Code{jen.If(runtime("TrackRef").Call()).Block(jen.Return(tracked))}
	if g.s.Flat {
		// No nested struct: no type meta table, no depth, no error, so no
		// write context; the body writer stores the prefix (plan.Flat).
		body = append(body,
			jen.Return(jen.Id("x").Dot("foryWriteFlat").Call(g.rootFlatArgs()...)))
	} else {
		body = append(body,
			jen.Id("c").Op(":=").Add(runtime("BeginWrite")).Call(jen.Id("b"), info),
			jen.Id("start").Op(":=").Id("b").Dot("WriterIndex").Call(),
			jen.Id("b").Dot("Reserve").Call(jen.Lit(max(len(con.b), len(com.b)))),
			jen.List(jen.Id("w"), jen.Id("off")).Op(":=").List(jen.Id("b").Dot("Window").Call(), jen.Id("start")),
			jen.If(jen.Id("c").Dot("Compatible").Call()).Block(com.put("off")...).Else().Block(con.put("off")...),
			jen.Id("b").Dot("SetWriterIndex").Call(jen.Id("off")),
			jen.Id("x").Dot("ForyWrite").Call(jen.Id("c")),
			jen.Return(jen.Id("c").Dot("EndWrite").Call(jen.Id("start"))))
	}
	f.Func().Params(recv).Id("ForySerializeTo").Params(
		jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("b").Op("*").Qual(bufferPkg, "Buffer"),
	).Error().Block(body...)
	f.Line()
	if ownRef {
		f.Comment("forySerializeRef is ForySerializeTo with reference tracking (docs/format.md §2.1).")
		f.Func().Params(recv.Clone()).Id("forySerializeRef").Params(
			jen.Id("f").Op("*").Qual(serializerPkg, "Fory"), jen.Id("b").Op("*").Qual(bufferPkg, "Buffer"),
		).Error().Block(g.trackedRootWrite()...)
		f.Line()
	}

	name := "ForyDeserialize"
	if g.primitiveOnly() {
		// Primitive fields only: the reader alone decodes the message our
		// own writer produced; anything else, and any failure, goes the
		// context's way, which also reports the error.
		f.Commentf("ForyDeserialize reads one message into x (serializer.Unmarshal); one without ForySerializeTo's root prefix goes through foryDeserializeContext.")
		// In same-schema mode the root's schema hash follows its type meta
		// and is compared with the prefix.
		conHash := prefix{b: binary.LittleEndian.AppendUint32(append([]byte(nil), con.b...), uint32(g.s.SchemaHash)), hash: true}
		// With tracking only the root flag differs: primitives are never
		// tracked.
		comRef, conRef := g.refPrefixes()
		conHashRef := prefix{b: binary.LittleEndian.AppendUint32(conRef.b, uint32(g.s.SchemaHash)), tracked: true, hash: true}
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
			jen.Return(jen.Id("x").Dot("foryDeserializeContext").Call(jen.Id("f"), jen.Id("data"))),
		)...)
		f.Line()
		name = "foryDeserializeContext"
		f.Commentf("foryDeserializeContext is ForyDeserialize with a read context: schema evolution, errors.")
	} else {
		f.Commentf("ForyDeserialize reads one message into x (serializer.Unmarshal); one without ForySerializeTo's root prefix goes through ReadRoot.")
	}
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
		// tracking TypeDef), matched by foryimpl.DeserializeRef against
		// the type information's.
		jen.If(jen.Id("c").Dot("TrackRef").Call()).Block(jen.Return(jen.Qual(implPkg, "DeserializeRef").Call(jen.Id("f").Dot("Runtime").Call(), jen.Id("c"), jen.Id("x"), info))),
		jen.Block(append(matchRoot("in", jen.Id("c").Dot("Compatible").Call(), com, con),
			jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(runtime("ReadRoot").Call(jen.Id("c"), jen.Id("x")))),
			jen.Id("c").Dot("AcceptRoot").Call(jen.Id("n"), info),
			jen.Id("x").Dot("ForyRead").Call(jen.Id("c")),
			jen.If(runtime("EndReadFast").Call(jen.Id("c"))).Block(jen.Return(jen.Nil())),
			jen.Return(runtime("EndRead").Call(jen.Id("c"), info)))...),
	)
	f.Line()
}

// refPrefixes are the root prefixes with reference tracking, in compatible
// and same-schema mode: flag 0x00, and the tracking TypeDef where it
// differs (plan.Struct.RootCompatibleRef).
func (g *gen) refPrefixes() (com, con prefix) {
	com = prefix{b: append([]byte(nil), g.s.RootCompatible...), v: g.rootVar(), tracked: true}
	if g.s.RootCompatibleRef != nil {
		com = prefix{b: append([]byte(nil), g.s.RootCompatibleRef...), v: g.rootRefVar()}
	}
	con = prefix{b: append([]byte(nil), g.s.RootConsistent...), tracked: true}
	com.b[1], con.b[1] = meta.FlagRefValue, meta.FlagRefValue
	return com, con
}

// rootFlatArgs are the arguments of foryWriteFlat writing the root of an
// untracked message.
func (g *gen) rootFlatArgs() []jen.Code {
	return []jen.Code{jen.Id("b"), jen.Id("f").Dot("Compatible").Call(), runtime("CheckUTF8").Call(), jen.Qual(implPkg, "FlatRoot")}
}

// trackedRootWrite is ForySerializeTo with reference tracking for a flat
// struct without tracked fields: it writes as without tracking, its root
// flag then set to 0x00 (nothing in it can refer to the root).
func (g *gen) trackedRootWrite() []jen.Code {
	return []jen.Code{
		jen.Id("start").Op(":=").Id("b").Dot("WriterIndex").Call(),
		jen.If(jen.Err().Op(":=").Id("x").Dot("foryWriteFlat").Call(g.rootFlatArgs()...),
			jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id("b").Dot("Bytes").Call().Index(jen.Id("start").Op("+").Lit(1)).Op("=").Add(spec("FlagRefValue")),
		jen.Return(jen.Nil()),
	}
}

// runtime is f.Runtime().m: the generated-code state behind the user's
// *serializer.Fory (an inlined field address).
func runtime(m string) *jen.Statement { return jen.Id("f").Dot("Runtime").Call().Dot(m) }
