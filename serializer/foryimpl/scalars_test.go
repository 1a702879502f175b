package foryimpl

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// myInt and myString are named types: ReadScalars stores through their
// underlying kind.
type (
	myInt    int32
	myString string
)

// scalarsProbe has a field of every kind ReadScalars reads, pointers and
// named types included, and one it does not (L, a list, read by its
// ForyReadEvolved as generated code would).
type scalarsProbe struct {
	B   bool
	I8  int8
	I16 int16
	I32 myInt
	I64 int64
	I   int
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	U   uint
	F32 float32
	F64 float64
	H   uint16 // a FLOAT16's bits, as serializer.Float16
	S   myString
	PI  *int64
	PS  *string
	L   []int32
}

const scalarsProbeID = 9002

var scalarsProbeGo = []string{"B", "I8", "I16", "I32", "I64", "I", "U8", "U16", "U32", "U64", "U", "F32", "F64", "H", "S", "PI", "PS", "L"}

// scalarsProbeIDs are the fields' type ids in the local TypeDef, named
// after their Go names.
var scalarsProbeIDs = []uint8{
	meta.TypeBool, meta.TypeInt8, meta.TypeInt16, meta.TypeVarInt32, meta.TypeInt64, meta.TypeVarInt64,
	meta.TypeUint8, meta.TypeUint16, meta.TypeVarUint32, meta.TypeTaggedUint64, meta.TypeVarUint64,
	meta.TypeFloat32, meta.TypeFloat64, meta.TypeFloat16, meta.TypeString, meta.TypeVarInt64, meta.TypeString,
	meta.TypeList,
}

func scalarsProbeDef(i int) meta.FieldDef {
	d := meta.FieldDef{Name: snake(scalarsProbeGo[i]), TagID: -1, Type: meta.FieldType{TypeID: scalarsProbeIDs[i]}}
	if scalarsProbeIDs[i] == meta.TypeList {
		d.Type.Children = []meta.FieldType{{TypeID: meta.TypeVarInt32}}
	}
	d.Nullable = scalarsProbeGo[i][0] == 'P'
	return d
}

func snake(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}

func scalarsProbeSpec() StructSpec {
	defs := make([]meta.FieldDef, len(scalarsProbeGo))
	for i := range defs {
		defs[i] = scalarsProbeDef(i)
	}
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: scalarsProbeID, Fields: defs})
	return StructSpec{
		GoName:         "foryimpl.scalarsProbe",
		UserID:         scalarsProbeID,
		SchemaHash:     2,
		ConsistentMeta: []byte{meta.TypeStruct, 0xaa, 0x46}, // varu32(9002)
		TypeDef:        td,
		RootConsistent: []byte{meta.HeaderXlang, FlagNotNull, meta.TypeStruct, 0xaa, 0x46},
		RootCompatible: append([]byte{meta.HeaderXlang, FlagNotNull, meta.TypeCompatibleStruct, 0}, td...),
		GoFields:       scalarsProbeGo,
		Scalars:        ScalarFieldsOf[scalarsProbe](0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16),
	}
}

var scalarsProbeType = NewStructType(scalarsProbeSpec())

func (x *scalarsProbe) ForyType() *TypeInfo { return scalarsProbeType }

func (x *scalarsProbe) ForySerializeTo(f *Runtime, b *buffer.Buffer) error {
	return f.serializeRoot(b, x)
}

func (x *scalarsProbe) ForyDeserialize(f *Runtime, data []byte) error {
	return f.deserializeRoot(data, x)
}

// ForyWrite and ForyRead are never called: every message of these tests
// has another schema than the probe's.
func (x *scalarsProbe) ForyWrite(c *WriteContext) { c.Fail(mismatch("not written")) }
func (x *scalarsProbe) ForyRead(c *ReadContext)   { c.Fail(mismatch("not read")) }

// ForyReadEvolved has the shape of generated code: the one field that is
// not a scalar in a case, the rest read by ReadScalars.
func (x *scalarsProbe) ForyReadEvolved(c *ReadContext, ev *Evolution) {
	*x = scalarsProbe{}
	for i := ReadScalars(c, ev, 0, x); i < ev.NumFields(); i = ReadScalars(c, ev, i+1, x) {
		switch f := ev.Field(i); f.Local {
		case 17:
			x.L = ReadSliceAs[int32](c, f)
		default:
			c.Fail(mismatch("field %d reached generated code", f.Local))
		}
		if c.Failed() {
			c.Trace(ev.Field(i).Name())
			return
		}
	}
}

// scalarsMessage is a message of the probe's registration with the remote
// fields given, in that order.
func scalarsMessage(fields []remoteField) []byte { return probeMessageID(fields, scalarsProbeID) }

func readScalarsProbe(t *testing.T, fields []remoteField) (scalarsProbe, error) {
	t.Helper()
	var got scalarsProbe
	err := newRuntime().deserializeRoot(scalarsMessage(fields), &got)
	return got, err
}

// field is a remote field named like local field i with type id id.
func field(i int, id uint8, nullable bool, write func(*buffer.Buffer)) remoteField {
	return remoteField{meta.FieldDef{Name: snake(scalarsProbeGo[i]), TagID: -1, Nullable: nullable, Type: meta.FieldType{TypeID: id}}, write}
}

// TestReadScalarsEveryKind: each kind read from its own type, in a remote
// order unlike the local one, with a field to skip between them and the
// list left to generated code; pointers allocated, null ones left nil.
func TestReadScalarsEveryKind(t *testing.T) {
	s := "héllo"
	fields := []remoteField{
		field(16, meta.TypeString, true, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); WriteString(b, s) }),
		field(0, meta.TypeBool, false, func(b *buffer.Buffer) { b.WriteUint8(1) }),
		field(1, meta.TypeInt8, false, func(b *buffer.Buffer) { b.WriteInt8(-8) }),
		{meta.FieldDef{Name: "gone", TagID: -1, Type: meta.FieldType{TypeID: meta.TypeString}}, func(b *buffer.Buffer) { WriteString(b, "skipped") }},
		field(2, meta.TypeInt16, false, func(b *buffer.Buffer) { b.WriteInt16(-1600) }),
		field(3, meta.TypeVarInt32, true, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); b.WriteVarInt32(-32_000_000) }),
		field(4, meta.TypeInt64, false, func(b *buffer.Buffer) { b.WriteInt64(math.MinInt64) }),
		{scalarsProbeDef(17), func(b *buffer.Buffer) {
			b.WriteVarUint32(1)
			b.WriteUint8(meta.ListDeclared | meta.ListSameType)
			b.WriteVarInt32(7)
		}},
		field(5, meta.TypeVarInt64, false, func(b *buffer.Buffer) { b.WriteVarInt64(-5) }),
		field(6, meta.TypeUint8, false, func(b *buffer.Buffer) { b.WriteUint8(200) }),
		field(7, meta.TypeUint16, false, func(b *buffer.Buffer) { b.WriteUint16(60000) }),
		field(8, meta.TypeVarUint32, false, func(b *buffer.Buffer) { b.WriteVarUint32(math.MaxUint32) }),
		field(9, meta.TypeTaggedUint64, false, func(b *buffer.Buffer) { b.WriteTaggedUint64(math.MaxUint64) }),
		field(10, meta.TypeVarUint64, false, func(b *buffer.Buffer) { b.WriteVarUint64(10) }),
		field(11, meta.TypeFloat32, false, func(b *buffer.Buffer) { b.WriteFloat32(1.5) }),
		field(12, meta.TypeFloat64, false, func(b *buffer.Buffer) { b.WriteFloat64(-2.25) }),
		field(13, meta.TypeFloat16, false, func(b *buffer.Buffer) { b.WriteUint16(0x3c00) }),
		field(14, meta.TypeString, false, func(b *buffer.Buffer) { WriteString(b, "named") }),
		field(15, meta.TypeVarInt64, true, func(b *buffer.Buffer) { b.WriteUint8(FlagNull) }),
	}
	got, err := readScalarsProbe(t, fields)
	require.NoError(t, err)
	want := scalarsProbe{B: true, I8: -8, I16: -1600, I32: -32_000_000, I64: math.MinInt64, I: -5, U8: 200, U16: 60000,
		U32: math.MaxUint32, U64: math.MaxUint64, U: 10, F32: 1.5, F64: -2.25, H: 0x3c00, S: "named", PS: &s, L: []int32{7}}
	assert.Equal(t, want, got)
}

// TestReadScalarsConvert: numbers of another type convert into each
// integer and float kind when they fit, pointers included, and fail with
// the field's name when they do not.
func TestReadScalarsConvert(t *testing.T) {
	got, err := readScalarsProbe(t, []remoteField{
		field(1, meta.TypeVarInt64, false, func(b *buffer.Buffer) { b.WriteVarInt64(-128) }),
		field(4, meta.TypeInt8, false, func(b *buffer.Buffer) { b.WriteInt8(-1) }),
		field(6, meta.TypeVarInt32, false, func(b *buffer.Buffer) { b.WriteVarInt32(255) }),
		field(11, meta.TypeVarInt32, false, func(b *buffer.Buffer) { b.WriteVarInt32(1 << 24) }),
		field(12, meta.TypeUint64, false, func(b *buffer.Buffer) { b.WriteUint64(1 << 53) }),
		field(15, meta.TypeFloat64, true, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); b.WriteFloat64(-3) }),
		field(10, meta.TypeInt32, false, func(b *buffer.Buffer) { b.WriteInt32(7) }),
	})
	require.NoError(t, err)
	m3 := int64(-3)
	assert.Equal(t, scalarsProbe{I8: -128, I64: -1, U8: 255, F32: 1 << 24, F64: 1 << 53, PI: &m3, U: 7}, got)

	for _, bad := range []struct {
		f    remoteField
		path string
	}{
		{field(1, meta.TypeVarInt64, false, func(b *buffer.Buffer) { b.WriteVarInt64(128) }), "I8"},
		{field(6, meta.TypeInt8, false, func(b *buffer.Buffer) { b.WriteInt8(-1) }), "U8"},
		{field(10, meta.TypeVarInt64, false, func(b *buffer.Buffer) { b.WriteVarInt64(-1) }), "U"},
		{field(11, meta.TypeVarInt32, false, func(b *buffer.Buffer) { b.WriteVarInt32(1<<24 + 1) }), "F32"},
		{field(15, meta.TypeFloat32, true, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); b.WriteFloat32(0.5) }), "PI"},
	} {
		_, err := readScalarsProbe(t, []remoteField{bad.f})
		require.ErrorIs(t, err, ErrSchemaMismatch, bad.path)
		assert.Contains(t, err.Error(), "decoding foryimpl.scalarsProbe."+bad.path+" at offset", "the error names the field")
	}
}

// TestReadScalarsIntWidth: a 64-bit value in an int or uint field reads
// where the platform's int holds it and fails where it does not (GOARCH=386),
// through a same-type read and a conversion alike; it is never truncated.
func TestReadScalarsIntWidth(t *testing.T) {
	big := int64(1) << 40
	for _, f := range []remoteField{
		field(5, meta.TypeVarInt64, false, func(b *buffer.Buffer) { b.WriteVarInt64(big) }),
		field(5, meta.TypeInt64, false, func(b *buffer.Buffer) { b.WriteInt64(big) }),
		field(10, meta.TypeVarUint64, false, func(b *buffer.Buffer) { b.WriteVarUint64(uint64(big)) }),
		field(10, meta.TypeUint64, false, func(b *buffer.Buffer) { b.WriteUint64(uint64(big)) }),
	} {
		got, err := readScalarsProbe(t, []remoteField{f})
		if strconv.IntSize == 32 {
			require.ErrorIs(t, err, ErrSchemaMismatch)
			assert.Contains(t, err.Error(), "overflows")
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, uint64(big), uint64(got.I)|uint64(got.U))
	}
}

// TestReadScalarsTruncated: a message cut anywhere inside the scalars is
// an error, never a panic or a partial value reported as success.
func TestReadScalarsTruncated(t *testing.T) {
	data := scalarsMessage([]remoteField{
		field(4, meta.TypeInt64, false, func(b *buffer.Buffer) { b.WriteInt64(-1) }),
		field(14, meta.TypeString, false, func(b *buffer.Buffer) { WriteString(b, "tail") }),
		field(16, meta.TypeString, true, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); WriteString(b, "x") }),
	})
	var ok scalarsProbe
	require.NoError(t, newRuntime().deserializeRoot(data, &ok))
	for n := 0; n < len(data); n++ {
		var got scalarsProbe
		assert.Error(t, newRuntime().deserializeRoot(data[:n:n], &got), "cut at %d", n)
	}
}

// TestResolveScalarsRefusesMismatch: a scalar table that does not fit the
// struct or its TypeDef (a generator bug, an edited generated file) panics
// when the package initialises, before ReadScalars could store through a
// wrong offset.
func TestResolveScalarsRefusesMismatch(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*StructSpec)
		msg  string
	}{
		{"kind", func(s *StructSpec) { s.Scalars, s.GoFields = ScalarFieldsOf[probe](0, 1, 2), []string{"F", "A", "B"} },
			"0 of foryimpl.scalarsProbe: F float64 has type id 1"},
		{"list", func(s *StructSpec) { s.Scalars = ScalarFieldsOf[scalarsProbe](17) }, "17 of foryimpl.scalarsProbe: L []int32 has type id 22"},
		{"index", func(s *StructSpec) { s.Scalars = ScalarFieldsOf[scalarsProbe](18) }, "18 of foryimpl.scalarsProbe: no such field"},
		{"name", func(s *StructSpec) { s.Scalars = ScalarFieldsOf[struct{ X bool }](0) }, "0 of foryimpl.scalarsProbe: no field B in struct { X bool }"},
		{"struct", func(s *StructSpec) { s.Scalars = ScalarFieldsOf[int](0) }, "-1 of foryimpl.scalarsProbe: int is not a struct"},
	} {
		spec := scalarsProbeSpec()
		c.edit(&spec)
		assert.PanicsWithValue(t, "serializer: generated scalar field "+c.msg+"; regenerate", func() { NewStructType(spec) }, c.name)
	}
}
