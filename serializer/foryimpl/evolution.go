package foryimpl

import (
	"math"
	"strconv"
	"sync/atomic"

	"github.com/forygen/forygen/internal/meta"
)

// Evolution is the field mapping from a received TypeDef to a generated
// type whose schema differs (docs/format.md §11.4): each remote field, in wire
// order, is read into a local field, converted, or skipped. It is computed
// once per (TypeDef, type) pair and cached.
type Evolution struct {
	local  *TypeInfo
	remote *meta.TypeDef
	fields []EvolvedField
	// steps are what ReadScalars does at each field (scalars.go).
	steps []scalarStep
}

// EvolvedField is one remote field of an Evolution.
type EvolvedField struct {
	// Local is the index of the matched local field in the generated type's
	// field order, or -1 when the field is skipped.
	Local int
	// Flag reports whether the remote wrote a null or reference flag
	// before the value (its TypeDef's nullable or track_ref bit).
	Flag bool
	// Convert reports that the remote scalar type differs from the local
	// one: generated code reads it with ReadIntAs, ReadUintAs or ReadFloatAs.
	Convert bool
	name    string
	def     *meta.FieldDef
	// scalar is the local field when ReadScalars reads it.
	scalar scalar
}

// NumFields returns the number of remote fields.
func (e *Evolution) NumFields() int { return len(e.fields) }

// Field returns remote field i.
func (e *Evolution) Field(i int) *EvolvedField { return &e.fields[i] }

// evolvedReads counts reads that went through field matching; tests use it
// to show the fast path is taken when schemas match.
var evolvedReads atomic.Uint64

// EvolvedReadCount returns how many struct values have been read through
// schema-evolution field matching (instead of the generated fast path) since
// the process started. It is a diagnostic for tests and monitoring.
func EvolvedReadCount() uint64 { return evolvedReads.Load() }

// buildEvolution matches remote fields to local ones by tag id first, then
// by snake_case name (docs/format.md §11.4).
func buildEvolution(t *TypeInfo, remote *meta.TypeDef) (*Evolution, error) {
	ev := &Evolution{local: t, remote: remote, fields: make([]EvolvedField, len(remote.Fields))}
	local := t.fields
	for i := range remote.Fields {
		rf := &remote.Fields[i]
		f := &ev.fields[i]
		// A flag precedes a nullable value and a tracked one (§2.1), an
		// any value's flag is its own (the remote's type id 0).
		f.Local, f.Flag, f.def = -1, (rf.Nullable || rf.TrackRef) && rf.Type.TypeID != meta.TypeUnknown, rf
		for j := range local {
			lf := &local[j]
			if (rf.TagID >= 0 && lf.TagID == rf.TagID) || (rf.TagID < 0 && lf.TagID < 0 && lf.Name == rf.Name) {
				f.Local = j
				break
			}
		}
		// The name a DecodeError path gives the field: the local Go name,
		// else as the peer sent it.
		switch {
		case f.Local >= 0 && f.Local < len(t.GoFields):
			f.name = t.GoFields[f.Local]
		case rf.TagID >= 0:
			f.name = "#" + itoa(rf.TagID)
		default:
			f.name = remoteFieldName(rf.Name)
		}
		if f.Local < 0 {
			if why := meta.Unskippable(&rf.Type, false); why != "" {
				return nil, mismatch("field %s of the received %s schema cannot be skipped (%s)", f.name, t.GoName, why)
			}
			continue
		}
		if f.Local < len(t.scalars) {
			f.scalar = t.scalars[f.Local]
		}
		lt := &local[f.Local].Type
		switch meta.ConversionOf(&rf.Type, lt) {
		case meta.Same:
		case meta.Numeric:
			// Generated code reads it with ReadIntAs, ReadUintAs or
			// ReadFloatAs.
			f.Convert = true
		case meta.Sequence:
			// List ↔ dense array of the same element domain, BINARY ↔
			// UINT8_ARRAY (§11.4 point 3): generated code reads it with
			// ReadSliceAs or ReadBoolsAs.
			f.Convert = true
		default:
			return nil, mismatch("field %s has type id %d in the input and %d in %s%s; the types are not compatible",
				f.name, rf.Type.TypeID, lt.TypeID, t.GoName, nestedDiff(&rf.Type, lt, ""))
		}
	}
	ev.steps = scalarSteps(ev.fields)
	return ev, nil
}

// remoteFieldName is how a field of a received schema with no local match
// appears in a DecodeError path: its name when that is an identifier, else
// the name quoted in brackets (["p$f32"]). Field names on the wire are meta
// strings (docs/format.md §6), whose alphabets include '.', '$' and '|', and
// a hostile peer may send any bytes; a bare name holding a '.' would read
// as two path elements.
func remoteFieldName(name string) string {
	ident := name != ""
	for i := 0; ident && i < len(name); i++ {
		c := name[i]
		ident = c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9'
	}
	if ident {
		return name
	}
	return "[" + strconv.Quote(name) + "]"
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// nestedDiff names the first element, key or value where two field types
// of the same outer type id differ (", map value list element: type id 15
// in the input and 14 here"), "" when the outer ids differ or none does.
func nestedDiff(remote, local *meta.FieldType, path string) string {
	if remote.TypeID != local.TypeID && !(meta.IsStructKind(remote.TypeID) && meta.IsStructKind(local.TypeID)) {
		if path == "" {
			return ""
		}
		return ", " + path[1:] + ": type id " + itoa(int(remote.TypeID)) + " in the input and " + itoa(int(local.TypeID)) + " here"
	}
	if len(remote.Children) != len(local.Children) {
		return ""
	}
	names := []string{" element"}
	if len(remote.Children) == 2 {
		names = []string{" key", " value"}
	}
	for i := range remote.Children {
		prefix := path + " list"
		switch remote.TypeID {
		case meta.TypeSet:
			prefix = path + " set"
		case meta.TypeMap:
			prefix = path + " map"
		}
		if d := nestedDiff(&remote.Children[i], &local.Children[i], prefix+names[i]); d != "" {
			return d
		}
	}
	return ""
}

// readNumber reads a remote numeric scalar as int64/uint64/float64.
func (c *ReadContext) readNumber(id uint8) (i int64, u uint64, f float64) {
	r := &c.r
	switch id {
	case meta.TypeInt8:
		i = int64(r.ReadInt8())
	case meta.TypeInt16:
		i = int64(r.ReadInt16())
	case meta.TypeInt32:
		i = int64(r.ReadInt32())
	case meta.TypeVarInt32:
		i = int64(r.ReadVarInt32())
	case meta.TypeInt64:
		i = r.ReadInt64()
	case meta.TypeVarInt64:
		i = r.ReadVarInt64()
	case meta.TypeTaggedInt64:
		i = r.ReadTaggedInt64()
	case meta.TypeUint8:
		u = uint64(r.ReadUint8())
	case meta.TypeUint16:
		u = uint64(r.ReadUint16())
	case meta.TypeUint32:
		u = uint64(r.ReadUint32())
	case meta.TypeVarUint32:
		u = uint64(r.ReadVarUint32())
	case meta.TypeUint64:
		u = r.ReadUint64()
	case meta.TypeVarUint64:
		u = r.ReadVarUint64()
	case meta.TypeTaggedUint64:
		u = r.ReadTaggedUint64()
	case meta.TypeFloat16, meta.TypeBFloat16:
		// A 16-bit float as its bits: it converts only within its own
		// domain (seqDomain), list ↔ dense array, bit for bit.
		u = uint64(r.ReadUint16())
	case meta.TypeFloat32:
		f = float64(r.ReadFloat32())
	case meta.TypeFloat64:
		f = r.ReadFloat64()
	}
	return i, u, f
}

// ReadIntAs reads a remote numeric field into a signed local field of the
// given bit size, failing when the value is not representable. ok is false
// when the value was null or on error.
func (c *ReadContext) ReadIntAs(f *EvolvedField, bits int) (v int64, ok bool) {
	if f.Flag && !c.ReadFlag() {
		return 0, false
	}
	id := f.def.Type.TypeID
	i, u, fl := c.readNumber(id)
	if c.r.Err() != nil {
		return 0, false
	}
	switch {
	case meta.IsFloat(id):
		if fl != math.Trunc(fl) || fl < -(1<<63) || fl >= 1<<63 {
			c.r.Fail(mismatch("field %s: %v is not an integer", f.name, fl))
			return 0, false
		}
		i = int64(fl)
	case meta.IsUnsigned(id):
		if u > math.MaxInt64 {
			c.r.Fail(mismatch("field %s: %d overflows int%d", f.name, u, bits))
			return 0, false
		}
		i = int64(u)
	}
	if bits < 64 && (i < -(1<<(bits-1)) || i >= 1<<(bits-1)) {
		c.r.Fail(mismatch("field %s: %d overflows int%d", f.name, i, bits))
		return 0, false
	}
	return i, true
}

// ReadUintAs is ReadIntAs for unsigned local fields.
func (c *ReadContext) ReadUintAs(f *EvolvedField, bits int) (v uint64, ok bool) {
	if f.Flag && !c.ReadFlag() {
		return 0, false
	}
	id := f.def.Type.TypeID
	i, u, fl := c.readNumber(id)
	if c.r.Err() != nil {
		return 0, false
	}
	switch {
	case meta.IsFloat(id):
		if fl != math.Trunc(fl) || fl < 0 || fl >= 1<<64 {
			c.r.Fail(mismatch("field %s: %v is not an unsigned integer", f.name, fl))
			return 0, false
		}
		u = uint64(fl)
	case !meta.IsUnsigned(id):
		if i < 0 {
			c.r.Fail(mismatch("field %s: %d is negative", f.name, i))
			return 0, false
		}
		u = uint64(i)
	}
	if bits < 64 && u >= 1<<bits {
		c.r.Fail(mismatch("field %s: %d overflows uint%d", f.name, u, bits))
		return 0, false
	}
	return u, true
}

// ReadFloatAs reads a remote numeric field into a float local field; an
// integer must be exactly representable.
func (c *ReadContext) ReadFloatAs(f *EvolvedField, bits int) (v float64, ok bool) {
	if f.Flag && !c.ReadFlag() {
		return 0, false
	}
	id := f.def.Type.TypeID
	i, u, fl := c.readNumber(id)
	if c.r.Err() != nil {
		return 0, false
	}
	switch {
	// Range checks first: converting an out-of-range float to an integer is
	// implementation-defined in Go (arm64 saturates, so 2^63 would compare
	// equal to MaxInt64).
	case meta.IsUnsigned(id):
		fl = float64(u)
		if fl >= 1<<64 || uint64(fl) != u {
			c.r.Fail(mismatch("field %s: %d is not exactly representable as a float", f.name, u))
			return 0, false
		}
	case !meta.IsFloat(id):
		fl = float64(i)
		if fl >= 1<<63 || int64(fl) != i {
			c.r.Fail(mismatch("field %s: %d is not exactly representable as a float", f.name, i))
			return 0, false
		}
	}
	if bits == 32 && float64(float32(fl)) != fl && !math.IsNaN(fl) {
		c.r.Fail(mismatch("field %s: %v is not exactly representable as float32", f.name, fl))
		return 0, false
	}
	return fl, true
}

// beginSeq reads the null flag, the length and, for a list, the elements
// header of a converted sequence field. ok is false for null or on error.
func (c *ReadContext) beginSeq(f *EvolvedField) (n int, id uint8, hasNull, ok bool) {
	if f.Flag && !c.ReadFlag() {
		return 0, 0, false, false
	}
	id, dense := meta.SeqElem(&f.def.Type)
	if dense {
		n = c.ReadArrayLength(meta.FixedWidth(id))
	} else if n = c.ReadLength(1); n > 0 {
		hasNull = c.ReadListHeader(id)
	}
	return n, id, hasNull, c.r.Err() == nil
}

// Number is the element constraint of ReadSliceAs.
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~float32 | ~float64
}

// ReadSliceAs reads a list, dense array or BINARY field (Convert set) into
// a []T of the same element domain; buildEvolution checked the domains, so
// every element converts exactly. A null list element is a schema
// mismatch, as a T cannot be nil (ReadPointersAs keeps it). It returns nil
// for a null field or on error.
func ReadSliceAs[T Number](c *ReadContext, f *EvolvedField) []T {
	s, _ := readSeqAs(c, f, false, numberAs[T](c))
	return s
}

// ReadBoolsAs is ReadSliceAs for bool elements (LIST<BOOL> ↔ BOOL_ARRAY).
func ReadBoolsAs[T ~bool](c *ReadContext, f *EvolvedField) []T {
	s, _ := readSeqAs(c, f, false, func(uint8) T { return c.r.ReadUint8() != 0 })
	return s
}

// ReadPointersAs is ReadSliceAs for a slice of pointers: a null list
// element is a nil pointer.
func ReadPointersAs[T Number](c *ReadContext, f *EvolvedField) []*T {
	s, null := readSeqAs(c, f, true, numberAs[T](c))
	return pointers(c, s, null)
}

// ReadBoolPointersAs is ReadPointersAs for bool elements.
func ReadBoolPointersAs[T ~bool](c *ReadContext, f *EvolvedField) []*T {
	s, null := readSeqAs(c, f, true, func(uint8) T { return c.r.ReadUint8() != 0 })
	return pointers(c, s, null)
}

// numberAs reads a number of type id as a T.
func numberAs[T Number](c *ReadContext) func(id uint8) T {
	return func(id uint8) T {
		iv, uv, fv := c.readNumber(id)
		switch {
		case meta.IsFloat(id):
			return T(fv)
		case meta.IsUnsigned(id), id == meta.TypeFloat16, id == meta.TypeBFloat16:
			return T(uv)
		}
		return T(iv)
	}
}

// readSeqAs reads a converted sequence with elem; null marks its null
// elements when nullOK, else a null element fails the read.
func readSeqAs[T any](c *ReadContext, f *EvolvedField, nullOK bool, elem func(id uint8) T) (s []T, null []bool) {
	n, id, hasNull, ok := c.beginSeq(f)
	if !ok {
		return nil, nil
	}
	s = MakeSlice[[]T](c, n)
	if hasNull && nullOK {
		null = MakeSlice[[]bool](c, n)
	}
	for i := range s {
		if hasNull && !c.ReadFlag() {
			if !nullOK {
				if c.r.Err() == nil {
					c.r.Fail(mismatch("null element %d in a list read into a slice or array whose elements cannot be nil (%s)", i, f.name))
				}
				return nil, nil
			}
			null[i] = true
			continue
		}
		s[i] = elem(id)
	}
	if c.r.Err() != nil {
		return nil, nil
	}
	return s, null
}

// pointers returns pointers to the elements of s, nil where null says (nil
// for nil).
func pointers[T any](c *ReadContext, s []T, null []bool) []*T {
	if s == nil {
		return nil
	}
	out := MakeSlice[[]*T](c, len(s))
	for i := range out {
		if null == nil || !null[i] {
			out[i] = &s[i]
		}
	}
	return out
}

// CopyArray copies a converted sequence into a Go array field, which must
// have exactly its length; nil (null or error) leaves dst alone.
func CopyArray[T any](c *ReadContext, dst, src []T) {
	if src == nil {
		return
	}
	if len(src) != len(dst) {
		c.r.Fail(mismatch("%d elements read into an array of %d", len(src), len(dst)))
		return
	}
	copy(dst, src)
}

// typeDefLen returns the encoded length of the TypeDef at the start of in
// from its header (§11.1), or -1 when in is too short to tell.
func typeDefLen(in []byte) int {
	n, _ := typeDefSize(in)
	return n
}

// typeDefSize returns the encoded length of the TypeDef at the start of in
// and the body size its header declares, or -1 when in is too short to
// tell.
func typeDefSize(in []byte) (total, body int) { return meta.TypeDefSize(in) }

// Name returns the remote field's identifier (its snake_case name or #tag).
func (f *EvolvedField) Name() string { return f.name }

// ReadStructFieldMeta reads the type meta that precedes a struct-typed field
// value in compatible mode (§5.2) and returns the field mapping when the
// value was written with another schema; in same-schema mode there is no
// type meta and it returns nil.
func (c *ReadContext) ReadStructFieldMeta(t *TypeInfo) *Evolution {
	if !c.compatible {
		return nil
	}
	return c.ReadStructMeta(t)
}
