// Package dump prints a Fory xlang message as an indented tree without the Go
// types that wrote it: `forygen decode` (docs/format.md says what every byte
// means; the tree names the sections it follows).
//
// Every line starts with the hex offset of the item it describes. The
// decoder walks what the message itself describes: the header, flags, type
// meta, TypeDefs, strings, lists, maps, scalars, and the fields of every
// struct whose schema the message carries (compatible mode). A same-schema
// struct body holds no schema, so without Schemas the walk stops there and
// says so.
//
// The input is hostile: counts and lengths are checked against the bytes left
// before anything is sized by them, nesting is bounded, and no input makes
// Decode panic. A malformed message yields a *Error naming the offset and
// the reason after everything before it has been printed.
package dump

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Mode says how struct type meta is read (docs/format.md §5.1).
type Mode int

const (
	// Auto takes compatible mode from the first COMPATIBLE_STRUCT or
	// NAMED_COMPATIBLE_STRUCT, and same-schema mode from a STRUCT or
	// NAMED_STRUCT met first (a peer's non-evolving type in a compatible
	// message looks the same: use Compatible then).
	Auto Mode = iota
	Compatible
	SameSchema
)

func (m Mode) String() string {
	switch m {
	case Compatible:
		return "compatible"
	case SameSchema:
		return "same-schema"
	}
	return "auto"
}

// DefaultMaxDepth bounds how deeply values nest in a dump.
const DefaultMaxDepth = 64

// Options configure Decode.
type Options struct {
	Mode     Mode
	MaxDepth int // 0: DefaultMaxDepth
	// Schemas, when set, supplies the schema of same-schema structs and
	// the local view that received TypeDefs are compared with (-types).
	Schemas *Schemas
}

// Error is a malformed message: what is wrong and the offset of the byte
// where the decoder found it.
type Error struct {
	Offset int
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("malformed at offset %#04x (%d): %s", e.Offset, e.Offset, e.Reason)
}

// abort unwinds the decoder after an *Error or a stop has been recorded.
type abort struct{}

type decoder struct {
	w       *bufio.Writer
	b       []byte
	r       *buffer.Reader
	opt     Options
	mode    Mode // resolved; Auto until the first struct type meta
	defs    []*meta.TypeDef
	strs    []string
	nextRef int
	depth   int
	indent  int
	err     *Error
	stopped string // why the walk ended early without an error
	stopOff int
	values  int // values printed so far, against valueBudget
	// compared holds the TypeDef entries already compared with -types.
	compared map[int]bool
}

// valueBudget bounds the values printed for an input of n bytes. Almost
// every value takes a byte; NONE fields and empty structs take none, so a
// list of them could otherwise repeat a large TypeDef count × fields times.
func valueBudget(n int) int { return 16*n + 4096 }

// Result says how far Decode got: Complete when every byte was accounted
// for; otherwise Stopped says why the walk could not go on (a same-schema
// struct body without Schemas, an extension value, …).
type Result struct {
	Complete bool
	Stopped  string
	Offset   int // where the walk stopped
	Mode     Mode
	Root     string // the root's type: "COMPATIBLE_STRUCT id=1", "STRING", …
}

// Decode writes the tree of msg to w. The returned error is an *Error for a
// malformed message, or the writer's error; the tree up to the failure has
// been written either way.
func Decode(w io.Writer, msg []byte, opt Options) (res Result, err error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	d := &decoder{w: bufio.NewWriter(w), b: msg, r: buffer.NewReader(msg), opt: opt, mode: opt.Mode}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(abort); !ok {
				panic(p)
			}
		}
		res.Mode = d.mode
		res.Offset = d.r.Offset()
		switch {
		case d.err != nil:
			d.printf(d.err.Offset, "error: %s", d.err.Reason)
			d.context(d.err.Offset)
			err = d.err
		case d.stopped != "":
			res.Stopped = d.stopped
			res.Offset = d.stopOff
		default:
			res.Complete = true
		}
		if ferr := d.w.Flush(); err == nil && ferr != nil {
			err = ferr
		}
	}()
	d.message(&res)
	return res, nil
}

// printf writes one line: the offset, the indentation, the text.
func (d *decoder) printf(off int, format string, args ...any) {
	fmt.Fprintf(d.w, "%04x  %s", off, strings.Repeat("  ", d.indent))
	fmt.Fprintf(d.w, format, args...)
	d.w.WriteByte('\n')
}

// context prints the bytes around off.
func (d *decoder) context(off int) {
	lo, hi := off-8, off+8
	if lo < 0 {
		lo = 0
	}
	if hi > len(d.b) {
		hi = len(d.b)
	}
	if lo >= hi {
		fmt.Fprintf(d.w, "      bytes: (end of input, %d bytes in all)\n", len(d.b))
		return
	}
	var sb strings.Builder
	for i := lo; i < hi; i++ {
		if i == off {
			sb.WriteString(" [")
		} else {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", d.b[i])
		if i == off {
			sb.WriteByte(']')
		}
	}
	fmt.Fprintf(d.w, "      bytes %#04x..%#04x:%s\n", lo, hi, sb.String())
}

// failf records a malformed-message error at off and unwinds.
func (d *decoder) failf(off int, format string, args ...any) {
	d.err = &Error{Offset: off, Reason: fmt.Sprintf(format, args...)}
	panic(abort{})
}

// stopf ends the walk at off without an error: what follows cannot be
// parsed from the message alone.
func (d *decoder) stopf(off int, format string, args ...any) {
	d.stopped = fmt.Sprintf(format, args...)
	d.stopOff = off
	d.printf(off, "not decoded: %s", d.stopped)
	if n := len(d.b) - off; n > 0 {
		d.printf(off, "%d bytes not decoded: %s", n, hexPrefix(d.b[off:], 32))
	}
	panic(abort{})
}

func hexPrefix(b []byte, max int) string {
	var sb strings.Builder
	for i, x := range b {
		if i == max {
			fmt.Fprintf(&sb, " … (%d more)", len(b)-max)
			break
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", x)
	}
	return sb.String()
}

func (d *decoder) off() int { return d.r.Offset() }

func (d *decoder) left() int { return d.r.Remaining() }

// check turns a Reader error of the read that started at off into an
// *Error naming what was read.
func (d *decoder) check(off int, what string) {
	if err := d.r.Err(); err != nil {
		var cause error = err
		if be, ok := err.(*buffer.Error); ok {
			cause = be.Err
		}
		d.failf(off, "%s: %v (%d bytes left)", what, cause, len(d.b)-off)
	}
}

func (d *decoder) u8(what string) byte {
	off := d.off()
	v := d.r.ReadUint8()
	d.check(off, what)
	return v
}

func (d *decoder) varu32(what string) uint32 {
	off := d.off()
	v := d.r.ReadVarUint32()
	d.check(off, what)
	return v
}

func (d *decoder) varu64(what string) uint64 {
	off := d.off()
	v := d.r.ReadVarUint64()
	d.check(off, what)
	return v
}

func (d *decoder) bytes(n int, what string) []byte {
	off := d.off()
	if n > d.left() {
		d.failf(off, "%s: %d bytes claimed, %d left", what, n, d.left())
	}
	v := d.r.ReadBytes(n)
	d.check(off, what)
	return v
}

// count reads a varu32 count of items that take at least minBytes each
// and checks it against the bytes left.
func (d *decoder) count(what string, minBytes int) int {
	off := d.off()
	n := d.varu32(what)
	if uint64(n)*uint64(minBytes) > uint64(d.left()) {
		d.failf(off, "%s %d exceeds the %d bytes left", what, n, d.left())
	}
	return int(n)
}

func (d *decoder) enter(off int) {
	d.depth++
	if d.depth > d.opt.MaxDepth {
		d.failf(off, "values nested deeper than %d levels", d.opt.MaxDepth)
	}
	d.indent++
}

func (d *decoder) leave() {
	d.depth--
	d.indent--
}

// message decodes the header, the root flag and the root value (§1).
func (d *decoder) message(res *Result) {
	if len(d.b) == 0 {
		d.failf(0, "empty input: a message starts with the header byte 01")
	}
	h := d.u8("header")
	d.printf(0, "header 0x%02x: xlang=%d out-of-band=%d reserved=0x%02x", h, h&1, h>>1&1, h>>2)
	if h&1 == 0 {
		d.failf(0, "header 0x%02x: the xlang bit (0x01) is clear; not a Fory xlang message", h)
	}
	if h>>2 != 0 {
		d.failf(0, "header 0x%02x: reserved bits 2-7 are set", h)
	}
	off := d.off()
	text, present := d.flag()
	d.printf(off, "root flag %s", text)
	if !present {
		res.Root = "null"
		d.printf(off, "root: null")
	} else {
		off = d.off()
		ti := d.typeMeta("root type")
		res.Root = ti.String()
		d.printf(off, "root: %s", res.Root)
		d.indent++
		d.payload(ti.typ())
		d.indent--
	}
	if n := d.left(); n > 0 {
		d.failf(d.off(), "%d trailing bytes after the root value: %s", n, hexPrefix(d.b[d.off():], 16))
	}
	d.printf(d.off(), "end of message (%d bytes, %s)", len(d.b), d.modeText())
}

func (d *decoder) modeText() string {
	if d.mode == Auto {
		return "no struct type meta"
	}
	return d.mode.String() + " mode"
}

// flag reads a null or reference flag (§2) and reports whether a value
// follows.
func (d *decoder) flag() (string, bool) {
	off := d.off()
	f := d.u8("flag")
	switch f {
	case meta.FlagNull:
		return "fd (null)", false
	case meta.FlagRef:
		id := d.varu32("reference id")
		if int(id) >= d.nextRef {
			d.failf(off, "reference to object #%d, but only %d tracked objects precede it", id, d.nextRef)
		}
		return fmt.Sprintf("fe (reference to object #%d)", id), false
	case meta.FlagNotNull:
		return "ff (present, not tracked)", true
	case meta.FlagRefValue:
		d.nextRef++
		return fmt.Sprintf("00 (present, tracked: object #%d)", d.nextRef-1), true
	}
	d.failf(off, "flag byte 0x%02x is none of fd (null), fe (reference), ff (present), 00 (tracked)", f)
	return "", false
}
