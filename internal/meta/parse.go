package meta

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Limits bound what ParseTypeDef accepts from a peer. A zero or negative
// field means the default.
type Limits struct {
	MaxBodyBytes int // body size (after the header and size varint); default 4096 like Go's WithMaxTypeMetaBytes
	MaxFields    int // field entries of a struct TypeDef; default 512 like Go's WithMaxTypeFields
}

// DefaultLimits are official Fory Go's defaults (§11.1).
var DefaultLimits = Limits{MaxBodyBytes: 4096, MaxFields: 512}

// ErrBadTypeDef is wrapped by every ParseTypeDef error (errors.Is).
var ErrBadTypeDef = errors.New("meta: malformed TypeDef")

// TypeDefError is the error ParseTypeDef returns. It unwraps to
// ErrBadTypeDef and, when there is one, to the underlying cause (a
// DecodeMetaString error, which wraps ErrBadMetaString).
type TypeDefError struct {
	Offset int    // byte offset from the first byte of the TypeDef (its header)
	Field  int    // index of the field entry being read, or -1
	Reason string // what is wrong
	Err    error  // underlying cause, or nil
	// Truncated reports that b ended before the TypeDef did: the bytes so
	// far are a valid start, so a stream reader may wait for more.
	Truncated bool
	// OverLimit reports that the TypeDef is valid but larger than the
	// Limits allow.
	OverLimit bool
}

func (e *TypeDefError) Error() string {
	s := fmt.Sprintf("meta: malformed TypeDef at offset %d", e.Offset)
	if e.Field >= 0 {
		s += fmt.Sprintf(" (field %d)", e.Field)
	}
	s += ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *TypeDefError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrBadTypeDef, e.Err}
	}
	return []error{ErrBadTypeDef}
}

// ParseTypeDef parses the TypeDef that starts at b[0] and returns it with the
// number of bytes it occupies. It checks, in order: the header (compression
// bit 0, reserved bits 0), the body size (against lim and against len(b)),
// the 52-bit header hash, then the body: the meta header, the field count
// (against lim and the bytes left), the id or the two names, every field
// entry (header, tag id or name length, type with bounded nesting, name
// decoded with DecodeMetaString) and that the body has no bytes left over.
//
// Nothing sized by the input is allocated before the size and count checks;
// everything allocated afterwards is proportional to the (limited) body.
// It never panics. Errors are *TypeDefError (errors.Is(err, ErrBadTypeDef))
// with the offset within the TypeDef.
//
// Field names longer than 15 encoded bytes are read the specification's way
// (size 15 means L = 16 + varu32, what EncodeTypeDef, Java, Python and
// JavaScript write) and, when that does not parse the body exactly, the way
// official Go writes them (L = 15 + varu32): §14 item 1.
// Encoded aliases b[:n] (with capacity n).
func ParseTypeDef(b []byte, lim Limits) (*TypeDef, int, error) {
	maxBody, maxFields := lim.MaxBodyBytes, lim.MaxFields
	if maxBody <= 0 {
		maxBody = DefaultLimits.MaxBodyBytes
	}
	if maxFields <= 0 {
		maxFields = DefaultLimits.MaxFields
	}

	if len(b) < headerLen {
		return nil, 0, truncated(tdErr(0, -1, nil, "truncated header: %d of %d bytes", len(b), headerLen))
	}
	header := binary.LittleEndian.Uint64(b)
	if header&headerCompressFlag != 0 {
		return nil, 0, tdErr(1, -1, nil, "compressed TypeDef (header bit 8) is not supported")
	}
	if header&headerReserved != 0 {
		return nil, 0, tdErr(1, -1, nil, "reserved header bits 9-11 are %#x, want 0", (header&headerReserved)>>9)
	}

	off := headerLen
	bodyLen := uint64(header & headerSizeMask)
	if bodyLen == headerSizeMask {
		extra, n := readVarU32(b[off:])
		if n == 0 {
			return nil, 0, truncated(varintErr(off, -1, n, "body size"))
		}
		if n < 0 {
			return nil, 0, varintErr(off, -1, n, "body size")
		}
		off += n
		bodyLen += uint64(extra)
	}
	if bodyLen > uint64(maxBody) {
		return nil, 0, overLimit(tdErr(0, -1, nil, "body of %d bytes exceeds the limit of %d", bodyLen, maxBody))
	}
	if bodyLen == 0 {
		return nil, 0, tdErr(0, -1, nil, "empty body")
	}
	if bodyLen > uint64(len(b)-off) {
		return nil, 0, truncated(tdErr(len(b), -1, nil, "truncated body: %d of %d bytes", len(b)-off, bodyLen))
	}
	end := off + int(bodyLen)
	body := b[off:end]
	if got, want := header&headerHashMask, typeDefHash(body, header&headerLowMask); got != want {
		return nil, 0, tdErr(0, -1, nil, "header hash %#x does not match the body (want %#x)", got>>12, want>>12)
	}

	p := tdParser{b: b[:end], off: off, field: -1}
	td, err := p.body(maxFields)
	if err != nil && p.longName {
		// A long field name may be in official Go's form: parse again.
		g := tdParser{b: b[:end], off: off, field: -1, goNames: true}
		if gtd, gerr := g.body(maxFields); gerr == nil {
			td, err = gtd, nil
		}
	}
	if err != nil {
		return nil, 0, err
	}
	td.Header = header
	td.Encoded = b[:end:end]
	return td, end, nil
}

func tdErr(off, field int, cause error, format string, args ...any) error {
	return &TypeDefError{Offset: off, Field: field, Reason: fmt.Sprintf(format, args...), Err: cause}
}

func overLimit(err error) error {
	err.(*TypeDefError).OverLimit = true
	return err
}

func truncated(err error) error {
	err.(*TypeDefError).Truncated = true
	return err
}

func varintErr(off, field, n int, what string) error {
	if n == 0 {
		return tdErr(off, field, nil, "truncated varint (%s)", what)
	}
	return tdErr(off, field, nil, "varint (%s) longer than 5 bytes or above 2^32-1", what)
}

// tdParser reads a TypeDef body. b ends at the end of the body, so every
// bounds check is against the body; off counts from the TypeDef's first
// byte, which is what errors report.
type tdParser struct {
	b     []byte
	off   int
	field int // field entry being read, -1 outside the field list
	// goNames reads a long field name's length as official Go writes it
	// (L = 15 + varu32) instead of the specification's L = 16 + varu32;
	// longName records that a name used the escape, so the other form is
	// worth a try.
	goNames, longName bool
}

func (p *tdParser) errf(cause error, format string, args ...any) error {
	return tdErr(p.off, p.field, cause, format, args...)
}

func (p *tdParser) left() int { return len(p.b) - p.off }

func (p *tdParser) u8(what string) (byte, error) {
	if p.off >= len(p.b) {
		return 0, p.errf(nil, "body ends before the %s", what)
	}
	c := p.b[p.off]
	p.off++
	return c, nil
}

func (p *tdParser) varU32(what string) (uint32, error) {
	v, n := readVarU32(p.b[p.off:])
	if n <= 0 {
		return 0, varintErr(p.off, p.field, n, what)
	}
	p.off += n
	return v, nil
}

// bytes returns the next n body bytes without copying.
func (p *tdParser) bytes(n uint64, what string) ([]byte, error) {
	if n > uint64(p.left()) {
		return nil, p.errf(nil, "%s of %d bytes overruns the body (%d left)", what, n, p.left())
	}
	s := p.b[p.off : p.off+int(n)]
	p.off += int(n)
	return s, nil
}

func (p *tdParser) body(maxFields int) (*TypeDef, error) {
	td := &TypeDef{}
	start := p.off
	hdr, err := p.u8("meta header")
	if err != nil {
		return nil, err
	}
	nFields := uint64(0)
	if hdr&metaStructFlag != 0 {
		td.ByName = hdr&metaByNameFlag != 0
		td.Compatible = hdr&metaCompatibleFlag != 0
		td.Kind = structKind(td.ByName, td.Compatible)
		nFields = uint64(hdr & metaSmallFields)
		if nFields == metaSmallFields {
			extra, err := p.varU32("field count")
			if err != nil {
				return nil, err
			}
			nFields += uint64(extra)
		}
		if nFields > uint64(maxFields) {
			return nil, overLimit(tdErr(start, -1, nil, "%d fields exceed the limit of %d", nFields, maxFields))
		}
	} else {
		if hdr&metaNonStructZero != 0 {
			return nil, tdErr(start, -1, nil, "non-struct meta header %#02x has bits 4-6 set", hdr)
		}
		code := hdr & metaKindCodeMask
		if int(code) >= len(kindOfNonStructCode) {
			return nil, tdErr(start, -1, nil, "unknown non-struct kind code %d", code)
		}
		td.Kind = kindOfNonStructCode[code]
		_, td.ByName, _ = nonStructKindCode(td.Kind)
	}

	if td.ByName {
		if td.Namespace, err = p.name(Namespace); err != nil {
			return nil, err
		}
		if td.TypeName, err = p.name(TypeName); err != nil {
			return nil, err
		}
	} else if td.UserID, err = p.varU32("user type id"); err != nil {
		return nil, err
	}

	// Every field entry takes at least two bytes (header and type id), so a
	// count the rest of the body cannot hold is rejected before allocating.
	if nFields > uint64(p.left())/2 {
		return nil, p.errf(nil, "%d fields cannot fit in the %d bytes left", nFields, p.left())
	}
	if nFields > 0 {
		td.Fields = make([]FieldDef, nFields)
		for i := range td.Fields {
			p.field = i
			if err := p.fieldDef(&td.Fields[i]); err != nil {
				return nil, err
			}
		}
		p.field = -1
	}
	if p.left() != 0 {
		return nil, p.errf(nil, "%d bytes left over after the last field", p.left())
	}
	return td, nil
}

// name reads a namespace or type name in the §6.4 form.
func (p *tdParser) name(ctx Context) (string, error) {
	start := p.off
	hdr, err := p.u8(ctx.String())
	if err != nil {
		return "", err
	}
	enc, ok := typeDefNameEncoding(hdr&3, ctx)
	if !ok {
		return "", tdErr(start, p.field, nil, "%s encoding flag %d is not defined", ctx, hdr&3)
	}
	n := uint64(hdr >> 2)
	if n == bigNameThreshold {
		extra, err := p.varU32(ctx.String() + " length")
		if err != nil {
			return "", err
		}
		n += uint64(extra)
	}
	data, err := p.bytes(n, ctx.String())
	if err != nil {
		return "", err
	}
	s, err := DecodeMetaString(enc, data, ctx)
	if err != nil {
		return "", tdErr(start, p.field, err, "bad %s", ctx)
	}
	return s, nil
}

// fieldNameEncodings maps the 2-bit name flag of a field entry (§11.2).
var fieldNameEncodings = [3]Encoding{UTF8, AllToLowerSpecial, LowerUpperDigitSpecial}

func (p *tdParser) fieldDef(f *FieldDef) error {
	start := p.off
	hdr, err := p.u8("field header")
	if err != nil {
		return err
	}
	enc := hdr >> 6
	size := uint64(hdr>>2) & 0x0f
	f.Nullable = hdr&fieldNullableFlag != 0
	f.TrackRef = hdr&fieldTrackRefFlag != 0
	if size == fieldSizeEscape {
		what := "field name length"
		if enc == fieldEncTagID {
			what = "tag id"
		}
		extra, err := p.varU32(what)
		if err != nil {
			return err
		}
		size += uint64(extra)
		if enc != fieldEncTagID {
			p.longName = true
			if !p.goNames {
				size++
			}
		}
	} else if enc != fieldEncTagID {
		size++ // names are at least one byte: 0..14 encode L = 1..15
	}

	if enc == fieldEncTagID {
		if size > math.MaxInt {
			return tdErr(start, p.field, nil, "tag id %d overflows int", size)
		}
		f.TagID = int(size)
	} else {
		f.TagID = -1
	}
	if err := p.fieldType(&f.Type, 0); err != nil {
		return err
	}
	if enc == fieldEncTagID {
		return nil
	}
	nameStart := p.off
	data, err := p.bytes(size, "field name")
	if err != nil {
		return err
	}
	name, err := DecodeMetaString(fieldNameEncodings[enc], data, FieldName)
	if err != nil {
		return tdErr(nameStart, p.field, err, "bad field name")
	}
	f.Name = name
	return nil
}

// fieldType reads a field type: a byte at the top level, then for LIST/SET
// one and for MAP two children, each varu32((id << 2) | nullable << 1 |
// track_ref), recursively, at most MaxTypeNesting levels deep.
func (p *tdParser) fieldType(ft *FieldType, depth int) error {
	if depth > MaxTypeNesting {
		return p.errf(nil, "field type nests deeper than %d levels", MaxTypeNesting)
	}
	if depth == 0 {
		id, err := p.u8("field type")
		if err != nil {
			return err
		}
		ft.TypeID = id
	} else {
		start := p.off
		v, err := p.varU32("child type")
		if err != nil {
			return err
		}
		if v>>2 > math.MaxUint8 {
			return tdErr(start, p.field, nil, "child type id %d is not an 8-bit type id", v>>2)
		}
		ft.TypeID = uint8(v >> 2)
		ft.Nullable = v&fieldNullableFlag != 0
		ft.TrackRef = v&fieldTrackRefFlag != 0
	}
	n := ChildCount(ft.TypeID)
	if n == 0 {
		return nil
	}
	ft.Children = make([]FieldType, n)
	for i := range ft.Children {
		if err := p.fieldType(&ft.Children[i], depth+1); err != nil {
			return err
		}
	}
	return nil
}

// TypeDefSize returns the encoded length of the TypeDef at the start of in
// (§11.1: the header, the size varint when the body is 255 bytes or longer,
// the body) and the body size its header declares, or -1 when in is too short to
// tell.
func TypeDefSize(in []byte) (total, body int) {
	if len(in) < headerLen {
		return -1, 0
	}
	size, n := int(in[0]), headerLen
	if size == headerSizeMask {
		var v uint32
		var shift uint
		for i := headerLen; ; i++ {
			if i >= len(in) || i >= headerLen+5 {
				return -1, 0
			}
			v |= uint32(in[i]&0x7f) << shift
			shift += 7
			if in[i] < 0x80 {
				n = i + 1
				break
			}
		}
		// As uint64 first: int(v) can be negative on 32-bit platforms.
		if uint64(v) > uint64(len(in)) {
			return -1, 0
		}
		size += int(v)
	}
	if size > len(in)-n {
		return -1, 0
	}
	return n + size, size
}
