package foryimpl

import (
	"fmt"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/forygen/forygen/internal/meta"
)

// Evolved scalars. A value field of a bool, number or string type, or a
// pointer to one, that is not tracked is read by ReadScalars when the
// message's schema differs from the generated one (docs/format.md §11.4),
// not by a case of the generated ForyReadEvolved: generated code names
// those fields (ScalarFieldsOf), NewStructType finds each one's Go kind
// and offset once, and one loop here reads every remote field that lands
// in one, converted where the remote type differs, and skips the remote
// fields with no local field. Generated code keeps the fields that need
// it (nested structs, collections, enums, time, Optional, tracking),
// where it once held five to nine lines a scalar field (issue 28:
// internal/evolution/v1's Scalars, 14 KB). The same-schema fast path
// does not come here.
//
// The offsets come from reflect, at package initialisation and never on a
// message's path: unsafe.Offsetof in generated code would cost a line a
// field, where the indices cost a few bytes.

// ScalarFields names the fields of a generated struct, by index in write
// order, that ReadScalars reads.
type ScalarFields struct {
	goType reflect.Type
	fields []int
}

// ScalarFieldsOf returns the ScalarFields of struct type T: the given
// field indices in write order.
func ScalarFieldsOf[T any](fields ...int) ScalarFields {
	return ScalarFields{reflect.TypeFor[T](), fields}
}

// scalarKind is the Go representation of a field ReadScalars reads: the
// kind of its underlying type, or'ed with scalarPointer for a pointer to
// one.
type scalarKind uint8

const (
	scalarNone scalarKind = iota
	scalarBool
	scalarInt8
	scalarInt16
	scalarInt32
	scalarInt64
	scalarInt
	scalarUint8
	scalarUint16
	scalarUint32
	scalarUint64
	scalarUint
	scalarFloat32
	scalarFloat64
	scalarString

	// scalarPointer marks a pointer to a value of the kind it is or-ed
	// with: ReadScalars allocates the value a present field points to.
	scalarPointer scalarKind = 0x80
)

// scalar is a local field that ReadScalars reads: its kind, its offset in
// the struct, and the read of a value of its own type (scalarOp).
type scalar struct {
	kind   scalarKind
	op     scalarOp
	offset uintptr
}

// scalarOp is the read of a field's value of its own type, by its type id
// and Go kind: one switch on a message's path (instructions.sh MediaContent
// forygen DeserializeEvolved). opGeneral is any other (an int or uint of a
// 32-bit platform or of a 32-bit type id), read through readNumber.
type scalarOp uint8

const (
	opGeneral scalarOp = iota
	opGenerated
	opSlow
	opBool
	opInt8
	opInt16
	opInt32
	opVarInt32
	opInt64
	opVarInt64
	opTaggedInt64
	opUint16
	opUint32
	opVarUint32
	opUint64
	opVarUint64
	opTaggedUint64
	opFloat32
	opFloat64
	opString
)

// scalarOpOf is the op of a field of kind k (scalarPointer cleared) with
// local type id id.
func scalarOpOf(k scalarKind, id uint8) scalarOp {
	word := k == scalarInt || k == scalarUint
	if word && strconv.IntSize != 64 {
		return opGeneral
	}
	switch id {
	case meta.TypeBool:
		return opBool
	case meta.TypeInt8, meta.TypeUint8:
		return opInt8
	case meta.TypeInt16, meta.TypeUint16, meta.TypeFloat16, meta.TypeBFloat16:
		return opInt16
	case meta.TypeInt32:
		if !word {
			return opInt32
		}
	case meta.TypeVarInt32:
		if !word {
			return opVarInt32
		}
	case meta.TypeUint32:
		if !word {
			return opUint32
		}
	case meta.TypeVarUint32:
		if !word {
			return opVarUint32
		}
	case meta.TypeInt64:
		return opInt64
	case meta.TypeVarInt64:
		return opVarInt64
	case meta.TypeTaggedInt64:
		return opTaggedInt64
	case meta.TypeUint64:
		return opUint64
	case meta.TypeVarUint64:
		return opVarUint64
	case meta.TypeTaggedUint64:
		return opTaggedUint64
	case meta.TypeFloat32:
		return opFloat32
	case meta.TypeFloat64:
		return opFloat64
	case meta.TypeString:
		return opString
	}
	return opGeneral
}

// scalarKinds are the kinds by reflect kind.
var scalarKinds = map[reflect.Kind]scalarKind{
	reflect.Bool: scalarBool, reflect.Int8: scalarInt8, reflect.Int16: scalarInt16, reflect.Int32: scalarInt32,
	reflect.Int64: scalarInt64, reflect.Int: scalarInt, reflect.Uint8: scalarUint8, reflect.Uint16: scalarUint16,
	reflect.Uint32: scalarUint32, reflect.Uint64: scalarUint64, reflect.Uint: scalarUint,
	reflect.Float32: scalarFloat32, reflect.Float64: scalarFloat64, reflect.String: scalarString,
}

// scalarTypeIDs are the type ids a field of each kind can have in the
// generated TypeDef: the encodings its tags can choose (an int or uint
// takes a 32- or 64-bit one), and the 16-bit floats, held as their bits
// (serializer.Float16).
var scalarTypeIDs = [...][]uint8{
	scalarBool:    {meta.TypeBool},
	scalarInt8:    {meta.TypeInt8},
	scalarInt16:   {meta.TypeInt16},
	scalarInt32:   {meta.TypeInt32, meta.TypeVarInt32},
	scalarInt64:   {meta.TypeInt64, meta.TypeVarInt64, meta.TypeTaggedInt64},
	scalarInt:     {meta.TypeInt32, meta.TypeVarInt32, meta.TypeInt64, meta.TypeVarInt64, meta.TypeTaggedInt64},
	scalarUint8:   {meta.TypeUint8},
	scalarUint16:  {meta.TypeUint16, meta.TypeFloat16, meta.TypeBFloat16},
	scalarUint32:  {meta.TypeUint32, meta.TypeVarUint32},
	scalarUint64:  {meta.TypeUint64, meta.TypeVarUint64, meta.TypeTaggedUint64},
	scalarUint:    {meta.TypeUint32, meta.TypeVarUint32, meta.TypeUint64, meta.TypeVarUint64, meta.TypeTaggedUint64},
	scalarFloat32: {meta.TypeFloat32},
	scalarFloat64: {meta.TypeFloat64},
	scalarString:  {meta.TypeString},
}

// resolveScalars returns the scalar table of spec, by field index: each
// named field's kind and offset. It panics when a named field does not
// fit its type id in the generated TypeDef, which only a generator bug or
// an edited generated file can cause: ReadScalars stores through the
// offsets.
func resolveScalars(spec *StructSpec, fields []meta.FieldDef) []scalar {
	sf := spec.Scalars
	if len(sf.fields) == 0 {
		return nil
	}
	fail := func(j int, why string) {
		panic(fmt.Sprintf("serializer: generated scalar field %d of %s: %s; regenerate", j, spec.GoName, why))
	}
	if sf.goType.Kind() != reflect.Struct {
		fail(-1, sf.goType.String()+" is not a struct")
	}
	out := make([]scalar, len(fields))
	for _, j := range sf.fields {
		if j < 0 || j >= len(fields) || j >= len(spec.GoFields) {
			fail(j, "no such field")
		}
		rf, ok := sf.goType.FieldByName(spec.GoFields[j])
		if !ok || len(rf.Index) != 1 {
			fail(j, "no field "+spec.GoFields[j]+" in "+sf.goType.String())
		}
		t, ptr := rf.Type, scalarNone
		if t.Kind() == reflect.Pointer {
			t, ptr = t.Elem(), scalarPointer
		}
		k := scalarKinds[t.Kind()]
		ok = false
		if k != scalarNone && !fields[j].TrackRef {
			for _, id := range scalarTypeIDs[k] {
				ok = ok || fields[j].Type.TypeID == id
			}
		}
		if !ok {
			fail(j, fmt.Sprintf("%s %s has type id %d", spec.GoFields[j], rf.Type, fields[j].Type.TypeID))
		}
		out[j] = scalar{k | ptr, scalarOpOf(k, fields[j].Type.TypeID), rf.Offset}
	}
	return out
}

// ReadScalars reads the remote fields of ev from index i on into x, the
// struct ev was built for, while each is skipped (no local field) or lands
// in a scalar of StructSpec.Scalars. It returns the index of the first
// field generated code reads, or ev.NumFields() when none is left or a
// read failed (the error traced with the field's name).
func ReadScalars[T any](c *ReadContext, ev *Evolution, i int, x *T) int {
	return c.readScalars(ev, i, unsafe.Pointer(x))
}

// scalarStep is what ReadScalars does at a remote field, decided when the
// Evolution is built so that a message pays one switch a field
// (instructions.sh MediaContent forygen DeserializeEvolved): the op of a
// value of the local field's own type with no flag before it, at the
// field's offset; opGenerated for a field generated code reads; opSlow
// for the others (skipped, converted, flagged, pointer, opGeneral).
type scalarStep struct {
	op     scalarOp
	offset uintptr
}

// scalarSteps are the steps of the fields of an Evolution.
func scalarSteps(fields []EvolvedField) []scalarStep {
	steps := make([]scalarStep, len(fields))
	for i := range fields {
		f := &fields[i]
		switch {
		case f.Local >= 0 && f.scalar.kind == scalarNone:
			steps[i].op = opGenerated
		case f.Local < 0 || f.Convert || f.Flag || f.scalar.kind&scalarPointer != 0 || f.scalar.op == opGeneral:
			steps[i].op = opSlow
		default:
			steps[i] = scalarStep{f.scalar.op, f.scalar.offset}
		}
	}
	return steps
}

func (c *ReadContext) readScalars(ev *Evolution, i int, x unsafe.Pointer) int {
	r := &c.r
	steps := ev.steps
	for ; i < len(steps); i++ {
		s := steps[i]
		p := unsafe.Add(x, s.offset)
		switch s.op {
		case opGenerated:
			return i
		case opBool:
			*(*bool)(p) = r.ReadBool()
		case opInt8:
			*(*uint8)(p) = r.ReadUint8()
		case opInt16:
			*(*uint16)(p) = r.ReadUint16()
		case opInt32, opUint32:
			*(*uint32)(p) = r.ReadUint32()
		case opVarInt32:
			*(*int32)(p) = r.ReadVarInt32()
		case opVarUint32:
			*(*uint32)(p) = r.ReadVarUint32()
		case opInt64, opUint64:
			*(*uint64)(p) = r.ReadUint64()
		case opVarInt64:
			*(*int64)(p) = r.ReadVarInt64()
		case opTaggedInt64:
			*(*int64)(p) = r.ReadTaggedInt64()
		case opVarUint64:
			*(*uint64)(p) = r.ReadVarUint64()
		case opTaggedUint64:
			*(*uint64)(p) = r.ReadTaggedUint64()
		case opFloat32:
			*(*float32)(p) = r.ReadFloat32()
		case opFloat64:
			*(*float64)(p) = r.ReadFloat64()
		case opString:
			*(*string)(p) = c.ReadString()
		default:
			c.readSlow(&ev.fields[i], x)
		}
		if r.Err() != nil {
			c.Trace(ev.fields[i].Name())
			return len(steps)
		}
	}
	return i
}

// readSlow is a step of opSlow: a skipped field, a converted one, one with
// a flag before its value, a pointer, an opGeneral.
func (c *ReadContext) readSlow(f *EvolvedField, x unsafe.Pointer) {
	p := unsafe.Add(x, f.scalar.offset)
	switch {
	case f.Local < 0:
		c.SkipField(f)
	case f.Convert:
		c.convertScalar(f, p)
	case !f.Flag || c.ReadFlag():
		k := f.scalar.kind &^ scalarPointer
		if f.scalar.kind&scalarPointer != 0 {
			p = c.allocScalar(k, p)
		}
		c.readGeneral(f, p)
	}
}

// readGeneral reads a value of the field's own type into the value of its
// kind at p: an int or uint of another width (opGeneral) fails where the
// number does not fit.
func (c *ReadContext) readGeneral(f *EvolvedField, p unsafe.Pointer) {
	k := f.scalar.kind &^ scalarPointer
	switch k {
	case scalarBool:
		*(*bool)(p) = c.r.ReadBool()
		return
	case scalarString:
		*(*string)(p) = c.ReadString()
		return
	case scalarFloat32:
		*(*float32)(p) = c.r.ReadFloat32()
		return
	case scalarFloat64:
		*(*float64)(p) = c.r.ReadFloat64()
		return
	}
	i, u, _ := c.readNumber(f.def.Type.TypeID)
	if k == scalarInt && int64(int(i)) != i {
		c.r.Fail(mismatch("field %s: %d overflows int", f.name, i))
		return
	}
	if k == scalarUint && uint64(uint(u)) != u {
		c.r.Fail(mismatch("field %s: %d overflows uint", f.name, u))
		return
	}
	storeScalar(k, p, scalarValue{i: i, u: u})
}

// scalarValue is a number read for a conversion: the field of its kind.
type scalarValue struct {
	i int64
	u uint64
	f float64
}

// convertScalar reads a remote number of another type into the field at
// p (ReadIntAs, ReadUintAs, ReadFloatAs: null leaves it, a value that
// does not fit fails), allocating a pointer field's value.
func (c *ReadContext) convertScalar(f *EvolvedField, p unsafe.Pointer) {
	var v scalarValue
	ok := false
	k := f.scalar.kind &^ scalarPointer
	switch k {
	case scalarFloat32:
		v.f, ok = c.ReadFloatAs(f, 32)
	case scalarFloat64:
		v.f, ok = c.ReadFloatAs(f, 64)
	case scalarInt8, scalarInt16, scalarInt32, scalarInt64, scalarInt:
		v.i, ok = c.ReadIntAs(f, scalarBits[k])
	case scalarUint8, scalarUint16, scalarUint32, scalarUint64, scalarUint:
		v.u, ok = c.ReadUintAs(f, scalarBits[k])
	default:
		// ConversionOf converts numbers only (meta.NumericDomain).
		c.r.Fail(mismatch("field %s: no conversion into a %s", f.name, scalarNames[k]))
	}
	if !ok {
		return
	}
	if f.scalar.kind&scalarPointer != 0 {
		p = c.allocScalar(k, p)
	}
	storeScalar(k, p, v)
}

// scalarBits are the integer kinds' value bits; int and uint have the
// platform's, so a 64-bit value that a 32-bit int cannot hold fails.
var scalarBits = [...]int{
	scalarInt8: 8, scalarInt16: 16, scalarInt32: 32, scalarInt64: 64, scalarInt: strconv.IntSize,
	scalarUint8: 8, scalarUint16: 16, scalarUint32: 32, scalarUint64: 64, scalarUint: strconv.IntSize,
}

var scalarNames = [...]string{
	scalarBool: "bool", scalarString: "string",
}

// allocScalar points the pointer field at p to a new value of kind k, as
// the generated reader allocates one (Alloc), and returns the value's
// address.
func (c *ReadContext) allocScalar(k scalarKind, p unsafe.Pointer) unsafe.Pointer {
	var q unsafe.Pointer
	switch k {
	case scalarBool:
		q = unsafe.Pointer(Alloc[bool](c))
	case scalarInt8, scalarUint8:
		q = unsafe.Pointer(Alloc[uint8](c))
	case scalarInt16, scalarUint16:
		q = unsafe.Pointer(Alloc[uint16](c))
	case scalarInt32, scalarUint32:
		q = unsafe.Pointer(Alloc[uint32](c))
	case scalarFloat32:
		q = unsafe.Pointer(Alloc[float32](c))
	case scalarInt64, scalarUint64:
		q = unsafe.Pointer(Alloc[uint64](c))
	case scalarInt, scalarUint:
		q = unsafe.Pointer(Alloc[uint](c))
	case scalarFloat64:
		q = unsafe.Pointer(Alloc[float64](c))
	case scalarString:
		q = unsafe.Pointer(Alloc[string](c))
	}
	*(*unsafe.Pointer)(p) = q
	return q
}

// storeScalar stores a converted or widened number into the value of
// kind k at p.
func storeScalar(k scalarKind, p unsafe.Pointer, v scalarValue) {
	switch k {
	case scalarBool:
		*(*bool)(p) = v.u != 0
	case scalarInt8:
		*(*int8)(p) = int8(v.i)
	case scalarInt16:
		*(*int16)(p) = int16(v.i)
	case scalarInt32:
		*(*int32)(p) = int32(v.i)
	case scalarInt64:
		*(*int64)(p) = v.i
	case scalarInt:
		*(*int)(p) = int(v.i)
	case scalarUint8:
		*(*uint8)(p) = uint8(v.u)
	case scalarUint16:
		*(*uint16)(p) = uint16(v.u)
	case scalarUint32:
		*(*uint32)(p) = uint32(v.u)
	case scalarUint64:
		*(*uint64)(p) = v.u
	case scalarUint:
		*(*uint)(p) = uint(v.u)
	case scalarFloat32:
		*(*float32)(p) = float32(v.f)
	case scalarFloat64:
		*(*float64)(p) = v.f
	}
}
