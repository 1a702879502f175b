package emit

import (
	"github.com/dave/jennifer/jen"
)

// One body for both modes. A struct whose body reference tracking changes
// (plan.Struct.RefSensitive) is emitted once with tracking off and once on,
// a piece (a field, the reset) at a time; a piece the option does not
// change is written once, and each run of consecutive pieces it changes is
// one `if c.TrackRef() { … } else { … }` (an inlined field load: a local
// bool read once at the top measured no cheaper). A Fory without tracking
// so pays one predictable branch per run of tracked fields
// (BenchmarkDeserialize/Sample: two, within the run-to-run jitter of
// instructions.sh), and the generated code does not repeat what the modes
// share (issue 28).

// modePiece is one piece of a body in both modes.
type modePiece struct {
	off, on []jen.Code
	same    bool
}

// bodies collects the pieces of a body in both modes.
type bodies struct {
	pieces []modePiece
}

// shared adds code the same in both modes.
func (m *bodies) shared(code ...jen.Code) {
	if len(code) > 0 {
		m.pieces = append(m.pieces, modePiece{off: code, same: true})
	}
}

// both adds the piece piece emits, emitted with tracking off and on; the
// temporaries of the two are numbered alike, so that a piece the mode
// does not change renders the same.
func (g *gen) both(m *bodies, piece func() []jen.Code) {
	if !g.s.RefSensitive {
		m.shared(piece()...)
		return
	}
	saved, tmp := g.track, g.tmp
	g.track = false
	off := piece()
	afterOff := g.tmp
	g.tmp, g.track = tmp, true
	on := piece()
	g.track = saved
	g.tmp = max(g.tmp, afterOff)
	same := render(off) == render(on)
	if same {
		m.shared(off...)
		return
	}
	m.pieces = append(m.pieces, modePiece{off: off, on: on})
}

// render is code as Go source, to compare the two modes' pieces.
func render(code []jen.Code) string { return jen.Block(code...).GoString() }

// code is the body: the pieces, each run of differing ones behind one
// branch on the mode.
func (m *bodies) code() []jen.Code {
	var out []jen.Code
	for i := 0; i < len(m.pieces); {
		p := m.pieces[i]
		if p.same {
			out = append(out, p.off...)
			i++
			continue
		}
		var off, on []jen.Code
		for ; i < len(m.pieces) && !m.pieces[i].same; i++ {
			off = append(off, m.pieces[i].off...)
			on = append(on, m.pieces[i].on...)
		}
		out = append(out, jen.If(jen.Id("c").Dot("TrackRef").Call()).Block(on...).Else().Block(off...))
	}
	return out
}
