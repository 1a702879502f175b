package dump

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/forygen/forygen/internal/meta"
)

// vtype is what the decoder knows of a value's type: declared by a TypeDef
// (id and children), or read from the value's own type meta (info).
type vtype struct {
	id       uint8
	children []meta.FieldType
	info     *typeInfo
}

func declared(ft *meta.FieldType) vtype { return vtype{id: ft.TypeID, children: ft.Children} }

func (t vtype) String() string {
	if t.info != nil {
		return t.info.String()
	}
	return fieldTypeString(&meta.FieldType{TypeID: t.id, Children: t.children})
}

// value reads one value: its flag when flagged, its type meta when the
// type needs one here (an `any`, a struct field in compatible mode), and
// its payload. A scalar takes one line.
func (d *decoder) value(label string, t vtype, flagged, field bool) {
	off := d.off()
	if d.values++; d.values > valueBudget(len(d.b)) {
		d.failf(off, "more than %d values in %d bytes: zero-width values (NONE fields, empty structs) repeated by their counts", valueBudget(len(d.b)), len(d.b))
	}
	head := label
	if t.info == nil {
		head += " " + t.String()
	}
	if flagged {
		text, present := d.flag()
		head += ": flag " + text
		if !present {
			d.printf(off, "%s", head)
			return
		}
	}
	needsMeta := t.info == nil && (t.id == meta.TypeUnknown || (meta.IsStructKind(t.id) && field && d.mode != SameSchema))
	if !needsMeta && !composite(t.id) {
		if s := d.scalar(t.id); s != "" {
			d.printf(off, "%s = %s", head, s)
			return
		}
	}
	d.printf(off, "%s", head)
	d.enter(off)
	if needsMeta {
		t = d.typeMeta("type").typ()
	}
	d.payload(t)
	d.leave()
}

func composite(id uint8) bool {
	switch id {
	case meta.TypeList, meta.TypeSet, meta.TypeMap, meta.TypeUnion, meta.TypeTypedUnion, meta.TypeNamedUnion, meta.TypeExt, meta.TypeNamedExt, meta.TypeUnknown:
		return true
	}
	return meta.IsStructKind(id)
}

// payload prints the value of type t that starts here (after its flag and
// type meta).
func (d *decoder) payload(t vtype) {
	off := d.off()
	switch {
	case t.id == meta.TypeList || t.id == meta.TypeSet:
		d.list(t)
	case t.id == meta.TypeMap:
		d.mapValue(t)
	case meta.IsStructKind(t.id):
		d.structBody(t)
	case t.id == meta.TypeUnion || t.id == meta.TypeTypedUnion || t.id == meta.TypeNamedUnion:
		c := d.varu32("union case id")
		d.value(fmt.Sprintf("case %d", c), vtype{id: meta.TypeUnknown}, true, false)
	case t.id == meta.TypeExt || t.id == meta.TypeNamedExt:
		d.stopf(off, "an extension value (%s) has no length: its bytes are its serializer's", TypeName(t.id))
	case t.id == meta.TypeUnknown:
		d.failf(off, "a value of type UNKNOWN without type meta")
	default:
		d.printf(off, "%s = %s", TypeName(t.id), d.scalar(t.id))
	}
}

// structBody walks a struct's fields by its TypeDef (compatible mode), or
// reads the schema hash of a same-schema body.
func (d *decoder) structBody(t vtype) {
	off := d.off()
	ti := t.info
	if d.mode == SameSchema || (ti != nil && ti.sameSchem) {
		hb := d.bytes(4, "schema hash")
		h := int32(binary.LittleEndian.Uint32(hb))
		d.printf(off, "schema hash 0x%08x (%d)", uint32(h), h)
		if def := d.opt.Schemas.byHash(h); def != nil {
			d.walkLocal(off, ti, h, def)
			return
		}
		if d.opt.Schemas != nil {
			d.stopf(d.off(), "no type of %s has schema hash %d%s: the writer's fields differ from every local struct's (or it is another type)",
				d.opt.Schemas.Pattern, h, d.opt.Schemas.nearby(ti))
		}
		d.stopf(d.off(), "a same-schema struct body carries no schema: its fields cannot be parsed without the Go types (run with -types ./pkg)")
	}
	if ti == nil {
		d.stopf(off, "a struct value without type meta (a declared list element or map key or value) carries no schema in compatible mode (docs/format.md §14.11)")
	}
	if ti.def == nil {
		d.stopf(off, "%s in compatible mode is a non-evolving type (docs/format.md §11.5): its body carries no schema", ti)
	}
	if d.opt.Schemas != nil {
		d.compareDef(off, ti)
	}
	d.fields(ti.def)
}

func (d *decoder) fields(def *meta.TypeDef) {
	for i := range def.Fields {
		f := &def.Fields[i]
		// An `any` field always carries its flag, whatever the TypeDef
		// says (official Go declares it non-nullable, §14.18).
		flagged := f.Nullable || f.TrackRef || f.Type.TypeID == meta.TypeUnknown
		d.value(fieldLabel(f), declared(&f.Type), flagged, true)
	}
}

// list prints a LIST or SET (§8.1).
func (d *decoder) list(t vtype) {
	off := d.off()
	n := d.count("element count", 1)
	d.printf(off, "length %d", n)
	if n == 0 {
		return
	}
	hoff := d.off()
	h := d.u8("elements header")
	tracked, hasNull, decl, same := h&meta.ListTrackRef != 0, h&meta.ListHasNull != 0, h&meta.ListDeclared != 0, h&meta.ListSameType != 0
	d.printf(hoff, "elements header 0x%02x: track_ref=%d has_null=%d declared=%d same_type=%d",
		h, bit(tracked), bit(hasNull), bit(decl), bit(same))
	if h&^meta.ListBits != 0 {
		d.failf(hoff, "elements header 0x%02x has reserved bits 4-7 set", h)
	}
	flagged := tracked || hasNull
	if !same {
		// Each element carries its own type meta, after its flag.
		for i := 0; i < n; i++ {
			d.value(fmt.Sprintf("[%d]", i), vtype{id: meta.TypeUnknown}, flagged, false)
		}
		return
	}
	var elem vtype
	if decl {
		if len(t.children) != 1 {
			d.failf(hoff, "elements header 0x%02x declares the element type, but this %s has none declared (it came with type meta)", h, TypeName(t.id))
		}
		elem = declared(&t.children[0])
	} else {
		elem = d.typeMeta("element type").typ()
	}
	for i := 0; i < n; i++ {
		d.value(fmt.Sprintf("[%d]", i), elem, flagged, false)
	}
}

// mapValue prints a MAP chunk by chunk (§8.4).
func (d *decoder) mapValue(t vtype) {
	off := d.off()
	n := d.count("entry count", 1)
	d.printf(off, "entries %d", n)
	var kd, vd *meta.FieldType
	if len(t.children) == 2 {
		kd, vd = &t.children[0], &t.children[1]
	}
	for e := 0; n > 0; {
		coff := d.off()
		h := d.u8("map chunk header")
		kTrack, kNull, kDecl := h&meta.MapKeyTrackRef != 0, h&meta.MapKeyHasNull != 0, h&meta.MapKeyDeclared != 0
		vTrack, vNull, vDecl := h&meta.MapValueTrackRef != 0, h&meta.MapValueHasNull != 0, h&meta.MapValueDeclared != 0
		desc := fmt.Sprintf("chunk header 0x%02x: key track_ref=%d null=%d declared=%d; value track_ref=%d null=%d declared=%d",
			h, bit(kTrack), bit(kNull), bit(kDecl), bit(vTrack), bit(vNull), bit(vDecl))
		if h&^meta.MapChunkBits != 0 {
			d.printf(coff, "%s", desc)
			d.failf(coff, "map chunk header 0x%02x has reserved bits 6-7 set", h)
		}
		if kNull || vNull {
			d.printf(coff, "%s: one entry, no size", desc)
			d.indent++
			switch {
			case kNull && vNull:
				d.printf(coff, "[%d] key null, value null", e)
			case kNull:
				d.printf(coff, "[%d] key null", e)
				d.side(fmt.Sprintf("[%d] value", e), vd, vDecl, vTrack)
			default:
				d.side(fmt.Sprintf("[%d] key", e), kd, kDecl, kTrack)
				d.printf(d.off(), "[%d] value null", e)
			}
			d.indent--
			n--
			e++
			continue
		}
		d.printf(coff, "%s", desc)
		soff := d.off()
		size := int(d.u8("chunk size"))
		if size == 0 || size > n {
			d.failf(soff, "map chunk of %d entries with %d entries left", size, n)
		}
		d.indent++
		d.printf(soff, "chunk size %d", size)
		kt := d.sideType("key", kd, kDecl)
		vt := d.sideType("value", vd, vDecl)
		for j := 0; j < size; j++ {
			d.value(fmt.Sprintf("[%d] key", e), kt, kTrack, false)
			d.value(fmt.Sprintf("[%d] value", e), vt, vTrack, false)
			e++
		}
		d.indent--
		n -= size
	}
}

// sideType is a map side's type: declared by the map's type, or read from
// the type meta the chunk carries for it.
func (d *decoder) sideType(what string, decl *meta.FieldType, isDecl bool) vtype {
	if isDecl {
		if decl == nil {
			d.failf(d.off(), "the chunk header declares the %s type, but this map has none declared (it came with type meta)", what)
		}
		return declared(decl)
	}
	return d.typeMeta(what + " type").typ()
}

// side reads the one value of a null-side chunk: its reference flag when
// tracked, its type meta when undeclared, then the value.
func (d *decoder) side(label string, decl *meta.FieldType, isDecl, tracked bool) {
	off := d.off()
	if tracked {
		text, present := d.flag()
		d.printf(off, "%s: flag %s", label, text)
		if !present {
			return
		}
	}
	d.value(label, d.sideType(label, decl, isDecl), false, false)
}

// scalar reads and spells a value of a non-composite type id.
func (d *decoder) scalar(id uint8) string {
	off := d.off()
	r := d.r
	what := TypeName(id)
	var s string
	switch id {
	case meta.TypeBool:
		switch v := d.u8(what); v {
		case 0:
			s = "false"
		case 1:
			s = "true"
		default:
			s = fmt.Sprintf("0x%02x (a BOOL is 00 or 01)", v)
		}
	case meta.TypeInt8:
		s = strconv.Itoa(int(int8(d.u8(what))))
	case meta.TypeInt16:
		s = strconv.Itoa(int(r.ReadInt16()))
	case meta.TypeInt32:
		s = strconv.Itoa(int(r.ReadInt32()))
	case meta.TypeVarInt32:
		s = strconv.Itoa(int(r.ReadVarInt32()))
	case meta.TypeInt64:
		s = strconv.FormatInt(r.ReadInt64(), 10)
	case meta.TypeVarInt64:
		s = strconv.FormatInt(r.ReadVarInt64(), 10)
	case meta.TypeTaggedInt64:
		s = strconv.FormatInt(r.ReadTaggedInt64(), 10)
	case meta.TypeUint8:
		s = strconv.Itoa(int(d.u8(what)))
	case meta.TypeUint16:
		s = strconv.Itoa(int(r.ReadUint16()))
	case meta.TypeUint32:
		s = strconv.FormatUint(uint64(r.ReadUint32()), 10)
	case meta.TypeVarUint32:
		s = strconv.FormatUint(uint64(r.ReadVarUint32()), 10)
	case meta.TypeUint64:
		s = strconv.FormatUint(r.ReadUint64(), 10)
	case meta.TypeVarUint64:
		s = strconv.FormatUint(r.ReadVarUint64(), 10)
	case meta.TypeTaggedUint64:
		s = strconv.FormatUint(r.ReadTaggedUint64(), 10)
	case meta.TypeFloat8:
		s = fmt.Sprintf("0x%02x (float8 bits)", d.u8(what))
	case meta.TypeFloat16:
		b := r.ReadUint16()
		s = fmt.Sprintf("%g (0x%04x)", half(b), b)
	case meta.TypeBFloat16:
		b := r.ReadUint16()
		s = fmt.Sprintf("%g (0x%04x)", math.Float32frombits(uint32(b)<<16), b)
	case meta.TypeFloat32:
		s = strconv.FormatFloat(float64(r.ReadFloat32()), 'g', -1, 32)
	case meta.TypeFloat64:
		s = strconv.FormatFloat(r.ReadFloat64(), 'g', -1, 64)
	case meta.TypeString:
		s = d.str()
	case meta.TypeEnum, meta.TypeNamedEnum:
		s = "value " + strconv.FormatUint(uint64(d.varu32(what)), 10)
	case meta.TypeNone:
		s = "none"
	case meta.TypeDuration:
		secs := r.ReadVarInt64()
		d.check(off, what+" seconds")
		nanos := r.ReadInt32()
		s = fmt.Sprintf("%ds %dns", secs, nanos)
		if secs > -(1<<33) && secs < 1<<33 {
			s += " (" + (time.Duration(secs)*time.Second + time.Duration(nanos)).String() + ")"
		}
	case meta.TypeTimestamp:
		secs := r.ReadInt64()
		nanos := r.ReadUint32()
		s = fmt.Sprintf("%ds %dns", secs, nanos)
		if secs > -(1<<40) && secs < 1<<40 && nanos < 1e9 {
			s += " (" + time.Unix(secs, int64(nanos)).UTC().Format(time.RFC3339Nano) + ")"
		}
	case meta.TypeDate:
		days := r.ReadVarInt64()
		s = fmt.Sprintf("day %d", days)
		if days > -(1<<30) && days < 1<<30 {
			s += " (" + time.Unix(days*86400, 0).UTC().Format("2006-01-02") + ")"
		}
	case meta.TypeDecimal:
		s = d.decimal()
	case meta.TypeBinary:
		n := d.count("byte length", 1)
		s = fmt.Sprintf("%d bytes: %s", n, hexPrefix(d.bytes(n, what), 32))
	case meta.TypeFloat8Array:
		k := d.u8("float8 kind")
		n := d.count("byte length", 1)
		s = fmt.Sprintf("float8 kind %d, %d bytes: %s", k, n, hexPrefix(d.bytes(n, what), 32))
	default:
		el := meta.DenseArrayElem(id)
		if el == 0 {
			d.failf(off, "type id %d (%s) is not a value type", id, what)
		}
		s = d.denseArray(id, el)
	}
	d.check(off, what)
	return s
}

// denseArray reads a dense array of elements of type el (§8.2).
func (d *decoder) denseArray(id, el uint8) string {
	off := d.off()
	n := d.count("byte length", 1)
	w := meta.FixedWidth(el)
	if n%w != 0 {
		d.failf(off, "%s of %d bytes: not a multiple of the %d-byte element", TypeName(id), n, w)
	}
	raw := d.bytes(n, TypeName(id))
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d elements:", n/w)
	const show = 16
	for i := 0; i < n/w; i++ {
		if i == show {
			fmt.Fprintf(&sb, " … (%d more)", n/w-show)
			break
		}
		sb.WriteByte(' ')
		e := raw[i*w : i*w+w]
		switch el {
		case 1:
			sb.WriteString(strconv.FormatBool(e[0] != 0))
		case 2:
			sb.WriteString(strconv.Itoa(int(int8(e[0]))))
		case 9:
			sb.WriteString(strconv.Itoa(int(e[0])))
		case 3:
			sb.WriteString(strconv.Itoa(int(int16(binary.LittleEndian.Uint16(e)))))
		case 10:
			sb.WriteString(strconv.Itoa(int(binary.LittleEndian.Uint16(e))))
		case 4:
			sb.WriteString(strconv.Itoa(int(int32(binary.LittleEndian.Uint32(e)))))
		case 11:
			sb.WriteString(strconv.FormatUint(uint64(binary.LittleEndian.Uint32(e)), 10))
		case 6:
			sb.WriteString(strconv.FormatInt(int64(binary.LittleEndian.Uint64(e)), 10))
		case 13:
			sb.WriteString(strconv.FormatUint(binary.LittleEndian.Uint64(e), 10))
		case 17:
			fmt.Fprintf(&sb, "%g", half(binary.LittleEndian.Uint16(e)))
		case 18:
			fmt.Fprintf(&sb, "%g", math.Float32frombits(uint32(binary.LittleEndian.Uint16(e))<<16))
		case 19:
			sb.WriteString(strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(e))), 'g', -1, 32))
		case 20:
			sb.WriteString(strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(e)), 'g', -1, 64))
		}
	}
	return sb.String()
}

// str reads a string (§7) and spells it with its encoding.
func (d *decoder) str() string {
	off := d.off()
	h := d.varu64("string header")
	if h>>36 != 0 {
		d.failf(off, "string header %d: length above 2^34 bytes", h)
	}
	enc, n := h&3, h>>2
	if n > uint64(d.left()) {
		d.failf(off, "string of %d bytes exceeds the %d bytes left", n, d.left())
	}
	raw := d.bytes(int(n), "string")
	var s, name string
	switch enc {
	case 0:
		name = "latin1"
		rs := make([]rune, len(raw))
		for i, c := range raw {
			rs[i] = rune(c)
		}
		s = string(rs)
	case 1:
		name = "utf16"
		if n%2 != 0 {
			d.failf(off, "UTF-16 string of odd byte length %d", n)
		}
		u := make([]uint16, n/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(raw[2*i:])
		}
		s = string(utf16.Decode(u))
	case 2:
		name = "utf8"
		s = string(raw)
		if !utf8.Valid(raw) {
			name = "utf8, INVALID UTF-8"
		}
	default:
		d.failf(off, "string header 0x%x: encoding 3 is none of LATIN1 (0), UTF-16 (1), UTF-8 (2)", h)
	}
	return fmt.Sprintf("%s (%s, %d bytes)", quote(s, 80), name, n)
}

func quote(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return strconv.Quote(s)
	}
	rs := []rune(s)
	return strconv.Quote(string(rs[:max])) + "…"
}

// decimal reads a DECIMAL (§12.1).
func (d *decoder) decimal() string {
	off := d.off()
	scale := d.r.ReadVarInt32()
	d.check(off, "decimal scale")
	hoff := d.off()
	h := d.varu64("decimal header")
	u := new(big.Int)
	if h&1 == 0 {
		z := h >> 1
		u.SetInt64(int64(z>>1) ^ -int64(z&1))
	} else {
		n := h >> 2
		if n == 0 || n > uint64(d.left()) {
			d.failf(hoff, "decimal magnitude of %d bytes with %d bytes left", n, d.left())
		}
		raw := d.bytes(int(n), "decimal magnitude")
		be := make([]byte, n)
		for i, x := range raw {
			be[len(be)-1-i] = x
		}
		u.SetBytes(be)
		if h>>1&1 == 1 {
			u.Neg(u)
		}
	}
	return fmt.Sprintf("%s × 10^%d", u, -scale)
}

// half converts IEEE 754 binary16 bits to a float32.
func half(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch exp {
	case 0:
		v := float32(frac) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
