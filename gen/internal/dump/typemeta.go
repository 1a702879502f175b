package dump

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/forygen/forygen/internal/meta"
)

// typeInfo is a value's type as its type meta on the wire gives it (§5.1).
type typeInfo struct {
	id        uint8
	userID    int64 // -1 when the meta carries none
	named     bool
	ns, name  string
	def       *meta.TypeDef // the shared TypeDef, or nil
	defIdx    int
	sameSchem bool // a struct read in same-schema mode: its body starts with the hash
}

func (t *typeInfo) String() string {
	var sb strings.Builder
	sb.WriteString(TypeName(t.id))
	switch {
	case t.def != nil && t.def.ByName:
		fmt.Fprintf(&sb, " %s", qualified(t.def.Namespace, t.def.TypeName))
	case t.def != nil:
		fmt.Fprintf(&sb, " id=%d", t.def.UserID)
	case t.named:
		fmt.Fprintf(&sb, " %s", qualified(t.ns, t.name))
	case t.userID >= 0:
		fmt.Fprintf(&sb, " id=%d", t.userID)
	}
	if t.def != nil {
		fmt.Fprintf(&sb, " (TypeDef #%d)", t.defIdx)
	}
	return sb.String()
}

func qualified(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "." + name
}

func (t *typeInfo) typ() vtype { return vtype{id: t.id, info: t} }

// typeMeta reads a type id and what follows it (§5.1, §11.3).
func (d *decoder) typeMeta(what string) *typeInfo {
	off := d.off()
	id := d.u8(what + " id")
	ti := &typeInfo{id: id, userID: -1, defIdx: -1}
	if id > meta.MaxTypeID {
		d.failf(off, "%s: unknown type id %d (0x%02x)", what, id, id)
	}
	d.printf(off, "%s 0x%02x %s", what, id, TypeName(id))
	d.indent++
	defer func() { d.indent-- }()
	switch id {
	case meta.TypeUnknown:
		d.failf(off, "%s: type meta names type id 0 (UNKNOWN), which no value has", what)
	case meta.TypeArray:
		d.failf(off, "%s: type id 42 (ARRAY) is reserved", what)
	case meta.TypeCompatibleStruct, meta.TypeNamedCompatibleStruct:
		switch d.mode {
		case SameSchema:
			d.failf(off, "%s: %s in a message read in same-schema mode: the writer used compatible mode (run with -compatible or -auto)", what, TypeName(id))
		case Auto:
			d.mode = Compatible
		}
		d.sharedEntry(ti)
	case meta.TypeStruct, meta.TypeEnum, meta.TypeExt, meta.TypeTypedUnion:
		if id == meta.TypeStruct && d.mode == Auto {
			d.mode = SameSchema
			d.printf(off, "(mode: same-schema, as the first struct is a STRUCT; a peer's non-evolving type in a compatible message looks the same: run with -compatible then)")
		}
		uoff := d.off()
		ti.userID = int64(d.varu32(what + " user id"))
		d.printf(uoff, "user id %d", ti.userID)
		ti.sameSchem = id == meta.TypeStruct && d.mode == SameSchema
	case meta.TypeNamedStruct, meta.TypeNamedEnum, meta.TypeNamedExt, meta.TypeNamedUnion:
		// A shared TypeDef carries a 52-bit hash of its body: if one parses
		// here, the writer used compatible mode.
		if d.mode == Auto && d.looksLikeTypeDef() {
			d.mode = Compatible
		}
		if d.mode == Auto && id == meta.TypeNamedStruct {
			d.mode = SameSchema
		}
		if d.mode == Compatible {
			d.sharedEntry(ti)
		} else {
			ti.named = true
			ti.ns = d.inlineString(meta.Namespace, "namespace")
			ti.name = d.inlineString(meta.TypeName, "type name")
			ti.sameSchem = id == meta.TypeNamedStruct
		}
	}
	if ti.def != nil && meta.IsStructKind(id) != meta.IsStructKind(ti.def.Kind) {
		d.failf(off, "%s: %s refers to TypeDef #%d of kind %s", what, TypeName(id), ti.defIdx, TypeName(ti.def.Kind))
	}
	return ti
}

// looksLikeTypeDef reports whether a new shared TypeDef entry parses at the
// current offset.
func (d *decoder) looksLikeTypeDef() bool {
	rest := d.b[d.off():]
	m, n := binary.Uvarint(rest)
	if n <= 0 || n > 5 || m&1 != 0 || m>>1 != uint64(len(d.defs)) {
		return false
	}
	_, _, err := meta.ParseTypeDef(rest[n:], typeDefLimits)
	return err == nil
}

// typeDefLimits are larger than a runtime's: a dump shows what arrived.
var typeDefLimits = meta.Limits{MaxBodyBytes: 1 << 20, MaxFields: 1 << 16}

// sharedEntry reads a shared meta marker and, for a new entry, the TypeDef
// (§11.3).
func (d *decoder) sharedEntry(ti *typeInfo) {
	off := d.off()
	m := d.varu32("shared meta marker")
	idx := int(m >> 1)
	if m&1 == 1 {
		if idx >= len(d.defs) {
			d.failf(off, "shared meta 0x%02x: reference to TypeDef #%d, but only %d TypeDefs precede it", m, idx, len(d.defs))
		}
		d.printf(off, "shared meta 0x%02x: reference to TypeDef #%d", m, idx)
		ti.def, ti.defIdx = d.defs[idx], idx
		return
	}
	if idx != len(d.defs) {
		d.failf(off, "shared meta 0x%02x: new TypeDef numbered #%d, but %d TypeDefs precede it (the next is #%d)", m, idx, len(d.defs), len(d.defs))
	}
	d.printf(off, "shared meta 0x%02x: new TypeDef #%d", m, idx)
	toff := d.off()
	td, n, err := meta.ParseTypeDef(d.b[toff:], typeDefLimits)
	if err != nil {
		var te *meta.TypeDefError
		if errors.As(err, &te) {
			reason := te.Reason
			if te.Field >= 0 {
				reason = fmt.Sprintf("field entry %d: %s", te.Field, reason)
			}
			if te.Err != nil {
				reason += ": " + te.Err.Error()
			}
			d.failf(toff+te.Offset, "TypeDef #%d (starting at %#04x): %s", idx, toff, reason)
		}
		d.failf(toff, "TypeDef #%d: %v", idx, err)
	}
	d.printTypeDef(toff, idx, td)
	d.r.Skip(n)
	d.check(toff, "TypeDef")
	d.defs = append(d.defs, td)
	ti.def, ti.defIdx = td, idx
}

func (d *decoder) printTypeDef(off, idx int, td *meta.TypeDef) {
	h := td.Header
	total, bodyLen := meta.TypeDefSize(td.Encoded) // td was parsed: it fits
	bodyStart := off + total - bodyLen
	escape := ""
	if bodyLen >= 255 {
		escape = fmt.Sprintf(" (255 + varu32 %d)", bodyLen-255)
	}
	d.printf(off, "TypeDef #%d: header 0x%016x: body %d bytes%s, compressed=%d, reserved=%d, hash 0x%013x",
		idx, h, bodyLen, escape, h>>8&1, h>>9&7, h>>12)
	mh := td.Encoded[bodyStart-off]
	if mh&0x80 != 0 {
		n := len(td.Fields)
		extra := ""
		if mh&0x1f == 0x1f {
			extra = fmt.Sprintf(" (31 + varu32 %d)", n-31)
		}
		d.printf(bodyStart, "meta header 0x%02x: struct=1 compatible=%d by-name=%d fields=%d%s: %s",
			mh, mh>>6&1, mh>>5&1, n, extra, TypeName(td.Kind))
	} else {
		d.printf(bodyStart, "meta header 0x%02x: struct=0 kind code %d: %s", mh, mh&0x0f, TypeName(td.Kind))
	}
	regOff := bodyStart + 1
	if mh&0x80 != 0 && mh&0x1f == 0x1f {
		_, k := binary.Uvarint(td.Encoded[regOff-off:])
		regOff += k
	}
	if td.ByName {
		d.printf(regOff, "namespace %q, type name %q", td.Namespace, td.TypeName)
	} else {
		d.printf(regOff, "user id %d", td.UserID)
	}
	offs := fieldOffsets(td.Encoded, bodyStart-off, td.Fields, false)
	if offs == nil {
		offs = fieldOffsets(td.Encoded, bodyStart-off, td.Fields, true)
	}
	for i := range td.Fields {
		if offs == nil {
			d.printf(bodyStart, "field %d: %s", i, fieldDefString(&td.Fields[i]))
			continue
		}
		fh := td.Encoded[offs[i]]
		enc := [...]string{"UTF8", "ATLS", "LUDS", "TAG_ID"}[fh>>6]
		d.printf(off+offs[i], "field %d: 0x%02x enc=%s size=%d nullable=%d track_ref=%d: %s",
			i, fh, enc, fh>>2&15, fh>>1&1, fh&1, fieldDefString(&td.Fields[i]))
	}
}

// fieldOffsets finds where each field entry of a parsed TypeDef starts in
// enc, walking the entries again (§11.2). goForm reads escaped name lengths
// as official Go writes them (§14.1). It returns nil when the walk does not
// end exactly at the end of enc.
func fieldOffsets(enc []byte, p int, fields []meta.FieldDef, goForm bool) []int {
	uv := func() (uint64, bool) {
		v, n := binary.Uvarint(enc[p:])
		if n <= 0 {
			return 0, false
		}
		p += n
		return v, true
	}
	// Meta header, field count escape, registration.
	mh := enc[p]
	p++
	if mh&0x80 != 0 && mh&0x1f == 0x1f {
		if _, ok := uv(); !ok {
			return nil
		}
	}
	if mh&0x80 != 0 && mh&0x20 != 0 || mh&0x80 == 0 && mh&1 == 1 {
		for k := 0; k < 2; k++ { // namespace, type name (§6.4)
			if p >= len(enc) {
				return nil
			}
			l := int(enc[p] >> 2)
			p++
			if l == 63 {
				v, ok := uv()
				if !ok {
					return nil
				}
				l += int(v)
			}
			p += l
		}
	} else if _, ok := uv(); !ok {
		return nil
	}
	var typ func(ft *meta.FieldType, top bool) bool
	typ = func(ft *meta.FieldType, top bool) bool {
		if top {
			p++
		} else if _, ok := uv(); !ok {
			return false
		}
		for i := range ft.Children {
			if p >= len(enc) || !typ(&ft.Children[i], false) {
				return false
			}
		}
		return true
	}
	offs := make([]int, len(fields))
	for i := range fields {
		if p >= len(enc) {
			return nil
		}
		offs[i] = p
		fh := enc[p]
		p++
		size := int(fh >> 2 & 15)
		extra := 0
		if size == 15 {
			v, ok := uv()
			if !ok {
				return nil
			}
			extra = int(v)
		}
		if p >= len(enc) || !typ(&fields[i].Type, true) {
			return nil
		}
		if fh>>6 != 3 {
			l := size + 1
			if size == 15 {
				l = 16 + extra
				if goForm {
					l = 15 + extra
				}
			}
			p += l
		}
		if p > len(enc) {
			return nil
		}
	}
	if p != len(enc) {
		return nil
	}
	return offs
}

// fieldLabel names a field: its tag id (#3) or its name.
func fieldLabel(f *meta.FieldDef) string {
	if f.TagID >= 0 {
		return fmt.Sprintf("#%d", f.TagID)
	}
	return f.Name
}

func fieldDefString(f *meta.FieldDef) string {
	s := fieldLabel(f) + " " + fieldTypeString(&f.Type)
	if f.Nullable {
		s += " nullable"
	}
	if f.TrackRef {
		s += " track_ref"
	}
	return s
}

// inlineString reads a meta string in the inline form of same-schema
// NAMED_* type meta (§6.3).
func (d *decoder) inlineString(ctx meta.Context, what string) string {
	off := d.off()
	h := d.varu32(what + " header")
	if h&1 == 1 {
		idx := int(h>>1) - 1
		if idx < 0 || idx >= len(d.strs) {
			d.failf(off, "%s: reference to meta string #%d, but %d meta strings precede it", what, idx, len(d.strs))
		}
		d.printf(off, "%s: reference to meta string #%d %q", what, idx, d.strs[idx])
		return d.strs[idx]
	}
	l := int(h >> 1)
	var enc byte
	var raw []byte
	hash := ""
	switch {
	case l == 0:
	case l <= 16:
		enc = d.u8(what + " encoding")
		raw = d.bytes(l, what)
	default:
		hb := d.bytes(8, what+" hash")
		enc = hb[0]
		hash = fmt.Sprintf(", hash 0x%016x", binary.LittleEndian.Uint64(hb))
		raw = d.bytes(l, what)
	}
	if enc > byte(meta.AllToLowerSpecial) {
		d.failf(off, "%s: unknown meta string encoding %d", what, enc)
	}
	s, err := meta.DecodeMetaString(meta.Encoding(enc), raw, ctx)
	if err != nil {
		d.failf(off, "%s: %v", what, err)
	}
	d.strs = append(d.strs, s)
	d.printf(off, "%s: meta string #%d %q (%s, %d bytes%s)", what, len(d.strs)-1, s, meta.Encoding(enc), l, hash)
	return s
}
