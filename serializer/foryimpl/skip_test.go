package foryimpl

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// skipWant is the probe every skip message decodes to: its own fields
// around the skipped one.
var skipWant = probe{F: 2.5, A: -77, B: "after"}

// skipMessage is a compatible-mode probe message whose TypeDef has one more
// field, zz, of type ft, between the probe's fixed and varint fields and
// its string: the reader must skip zz's value to read b.
func skipMessage(ft meta.FieldType, nullable bool, value func(b *buffer.Buffer)) []byte {
	return probeMessage([]remoteField{
		{meta.FieldDef{Name: "f", TagID: -1, Type: meta.FieldType{TypeID: 20}}, func(b *buffer.Buffer) { b.WriteFloat64(skipWant.F) }},
		{meta.FieldDef{TagID: 0, Type: meta.FieldType{TypeID: 7}}, func(b *buffer.Buffer) { b.WriteVarInt64(skipWant.A) }},
		{meta.FieldDef{Name: "zz", TagID: -1, Nullable: nullable, Type: ft}, value},
		{meta.FieldDef{Name: "b", TagID: -1, Type: meta.FieldType{TypeID: 21}}, func(b *buffer.Buffer) { WriteString(b, skipWant.B) }},
	})
}

func raw(p ...byte) func(b *buffer.Buffer) { return func(b *buffer.Buffer) { b.WriteBytes(p) } }

func list(elem uint8) meta.FieldType {
	return meta.FieldType{TypeID: meta.TypeList, Children: []meta.FieldType{{TypeID: elem, Nullable: true}}}
}

func mapOf(k, v uint8) meta.FieldType {
	return meta.FieldType{TypeID: meta.TypeMap, Children: []meta.FieldType{{TypeID: k, Nullable: true}, {TypeID: v, Nullable: true}}}
}

// innerTypeDef is the TypeDef of a struct the reader does not know, as a
// nested value inside skipped ones: x VARINT32, s nullable STRING, v any.
var innerTypeDef = meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: 4242, Fields: []meta.FieldDef{
	{Name: "x", TagID: -1, Type: meta.FieldType{TypeID: 5}},
	{Name: "s", TagID: -1, Nullable: true, Type: meta.FieldType{TypeID: 21}},
	{Name: "v", TagID: -1, Type: meta.FieldType{TypeID: meta.TypeUnknown}},
}})

// innerNew writes the type meta of an inner struct as the message's second
// TypeDef (marker 02) and a body: x = -1, s = "in", v = int32 3.
func innerNew(b *buffer.Buffer) {
	b.WriteUint8(meta.TypeCompatibleStruct)
	b.WriteUint8(0x02)
	b.WriteBytes(innerTypeDef)
	innerBody(b)
}

// innerRef is an inner struct referring to TypeDef #1 (marker 03).
func innerRef(b *buffer.Buffer) {
	b.WriteBytes([]byte{meta.TypeCompatibleStruct, 0x03})
	innerBody(b)
}

func innerBody(b *buffer.Buffer) {
	b.WriteVarInt32(-1)
	b.WriteUint8(FlagNotNull)
	WriteString(b, "in")
	b.WriteBytes([]byte{FlagNotNull, 5, 6})
}

// namedUnionTypeDef is a non-struct TypeDef of a union registered by name
// (docs/format.md §11.2), as official Go writes NAMED_UNION's meta in
// compatible mode.
var namedUnionTypeDef = meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeNamedUnion, ByName: true, Namespace: "demo", TypeName: "Token"})

// skipCases are values of every type id of the specification, each as the
// value of a field the reader lacks.
func skipCases() []struct {
	name     string
	ft       meta.FieldType
	nullable bool
	value    func(b *buffer.Buffer)
} {
	type c = struct {
		name     string
		ft       meta.FieldType
		nullable bool
		value    func(b *buffer.Buffer)
	}
	id := func(n uint8) meta.FieldType { return meta.FieldType{TypeID: n} }
	return []c{
		{"BOOL", id(1), false, raw(1)},
		{"INT8", id(2), false, raw(0x80)},
		{"INT16", id(3), false, raw(1, 2)},
		{"INT32", id(4), false, raw(1, 2, 3, 4)},
		{"VARINT32", id(5), false, raw(0xff, 0xff, 0xff, 0xff, 0x0f)},
		{"INT64", id(6), false, raw(1, 2, 3, 4, 5, 6, 7, 8)},
		{"VARINT64", id(7), false, raw(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)},
		{"TAGGED_INT64 small", id(8), false, raw(0xfa, 0xff, 0xff, 0xff)},
		{"TAGGED_INT64 large", id(8), false, raw(1, 0, 0, 0, 0x40, 0, 0, 0, 0)},
		{"UINT8", id(9), false, raw(0xff)},
		{"UINT16", id(10), false, raw(1, 2)},
		{"UINT32", id(11), false, raw(1, 2, 3, 4)},
		{"VAR_UINT32", id(12), false, raw(0x80, 0x01)},
		{"UINT64", id(13), false, raw(1, 2, 3, 4, 5, 6, 7, 8)},
		{"VAR_UINT64", id(14), false, raw(0x80, 0x80, 0x01)},
		{"TAGGED_UINT64", id(15), false, raw(1, 1, 2, 3, 4, 5, 6, 7, 8)},
		{"FLOAT8", id(16), false, raw(0x3c)},
		{"FLOAT16", id(17), false, raw(0x00, 0x3e)},
		{"BFLOAT16", id(18), false, raw(0xc0, 0x3f)},
		{"FLOAT32", id(19), false, raw(0, 0, 0xc0, 0x3f)},
		{"FLOAT64", id(20), false, raw(0, 0, 0, 0, 0, 0, 0xf4, 0xbf)},
		{"STRING", id(21), false, func(b *buffer.Buffer) { WriteString(b, "skipped ✓") }},
		{"nullable STRING, null", id(21), true, raw(FlagNull)},
		{"nullable STRING, set", id(21), true, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); WriteString(b, "x") }},
		{"LIST<VARINT32>", list(5), false, raw(3, 0x0c, 1, 2, 3)},
		{"LIST<STRING> with nulls", list(21), false, raw(3, 0x0e, FlagNotNull, 0x06, 'a', FlagNull, FlagNotNull, 0x02)},
		{"LIST<STRING>, element type in the header", list(21), false, raw(2, 0x08, 21, 0x06, 'a', 0x02)},
		{"LIST<struct>", list(meta.TypeCompatibleStruct), false, func(b *buffer.Buffer) {
			b.WriteBytes([]byte{2, 0x08, meta.TypeCompatibleStruct, 0x02})
			b.WriteBytes(innerTypeDef)
			innerBody(b)
			innerBody(b)
		}},
		{"LIST<any>", list(meta.TypeUnknown), false, func(b *buffer.Buffer) {
			// Official Go's []any: header 02 (nulls, not the same type),
			// each element a flag, its type meta and its value
			// (xlang-fixtures-2 any_list).
			b.WriteBytes([]byte{6, 0x02, FlagNotNull, 5, 2, FlagNotNull, 21, 0x06, 'a', FlagNull, FlagNotNull})
			innerNew(b)
			b.WriteUint8(FlagNotNull)
			innerRef(b)
			b.WriteBytes([]byte{FlagNotNull, 46, 4, 1, 0, 0, 0})
		}},
		{"LIST<any> without nulls", list(meta.TypeUnknown), false, raw(2, 0x00, 5, 2, 1, 1)},
		{"LIST<LIST<INT64>>", meta.FieldType{TypeID: meta.TypeList, Children: []meta.FieldType{list(7)}}, false,
			raw(2, 0x0c, 1, 0x0c, 2, 0)},
		{"SET<STRING>", meta.FieldType{TypeID: meta.TypeSet, Children: []meta.FieldType{{TypeID: 21}}}, false,
			raw(2, 0x0c, 0x06, 'a', 0x06, 'b')},
		{"MAP<STRING,VARINT32> declared", mapOf(21, 5), false, raw(2, 0x24, 2, 0x06, 'a', 2, 0x06, 'b', 4)},
		{"MAP<STRING,STRING> null value and undeclared chunks", mapOf(21, 21), false,
			raw(3, 0x14, 0x06, 'k', 0x00, 1, 21, 21, 0x06, 'a', 0x06, 'b', 0x10, 21, 0x06, 'z')},
		{"MAP<STRING,any>", mapOf(21, meta.TypeUnknown), false, func(b *buffer.Buffer) {
			// Official Go's map[string]any (xlang-fixtures-2 any_map): each
			// chunk declares the key, gives the value's type meta once.
			b.WriteBytes([]byte{4, 0x04, 1, 5, 0x06, 'n', 0x0a, 0x14, 0x06, 'z', 0x04, 1})
			b.WriteBytes([]byte{meta.TypeCompatibleStruct, 0x02})
			b.WriteBytes(innerTypeDef)
			b.WriteBytes([]byte{0x06, 'p'})
			innerBody(b)
			b.WriteBytes([]byte{0x04, 1, 21, 0x06, 's', 0x06, 'x'})
		}},
		{"MAP<VARINT32,LIST<STRING>>", meta.FieldType{TypeID: meta.TypeMap, Children: []meta.FieldType{{TypeID: 5}, list(21)}}, false,
			raw(1, 0x24, 1, 2, 1, 0x0c, 0x06, 'a')},
		{"MAP with a null key (a peer's)", mapOf(21, 5), false, raw(1, 0x22, 4)},
		{"ENUM", id(meta.TypeEnum), false, raw(0x80, 0x01)},
		{"NAMED_ENUM", id(meta.TypeNamedEnum), false, raw(3)},
		{"STRUCT", id(meta.TypeStruct), false, innerNew},
		{"COMPATIBLE_STRUCT", id(meta.TypeCompatibleStruct), false, innerNew},
		{"NAMED_STRUCT", id(meta.TypeNamedStruct), false, innerNew},
		{"NAMED_COMPATIBLE_STRUCT", id(meta.TypeNamedCompatibleStruct), true, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); innerNew(b) }},
		{"UNION, int32 case", id(meta.TypeUnion), false, raw(3, FlagNotNull, 5, 0x0d)},
		{"UNION, string case", id(meta.TypeUnion), false, raw(2, FlagNotNull, 21, 0x0a, 'a', 'b')},
		{"UNION, struct case", id(meta.TypeUnion), false, func(b *buffer.Buffer) { b.WriteBytes([]byte{1, FlagNotNull}); innerNew(b) }},
		{"UNION, null case", id(meta.TypeUnion), false, raw(0, FlagNull)},
		{"UNION, NONE case", id(meta.TypeUnion), false, raw(4, FlagNotNull, meta.TypeNone)},
		{"UNION, list case", id(meta.TypeUnion), false, raw(5, FlagNotNull, meta.TypeList, 1, 0x08, 5, 2)},
		{"TYPED_UNION in an any", id(meta.TypeUnknown), false, raw(FlagNotNull, meta.TypeTypedUnion, 0xd8, 0x01, 3, FlagNotNull, 5, 0x0d)},
		{"NAMED_UNION in an any", id(meta.TypeUnknown), false, func(b *buffer.Buffer) {
			b.WriteBytes([]byte{FlagNotNull, meta.TypeNamedUnion, 0x02})
			b.WriteBytes(namedUnionTypeDef)
			b.WriteBytes([]byte{2, FlagNotNull, 7, 0x0d})
		}},
		{"UNION in a union", id(meta.TypeUnion), false, raw(1, FlagNotNull, meta.TypeTypedUnion, 7, 2, FlagNotNull, 1, 1)},
		{"NONE", id(meta.TypeNone), false, raw()},
		{"DURATION", id(37), false, raw(0xb5, 0x01, 0xfb, 0xc9, 0x9a, 0x3b)},
		{"TIMESTAMP", id(38), false, raw(0, 0xf1, 0x53, 0x65, 0, 0, 0, 0, 0x15, 0xcd, 0x5b, 0x07)},
		{"DATE", id(39), false, raw(0x8c, 0xb5, 0x02)},
		{"DECIMAL small", id(40), false, raw(4, 4)},
		{"DECIMAL big", id(40), false, raw(0, 0x0b, 1, 2)},
		{"BINARY", id(41), false, raw(2, 3, 4)},
		{"BOOL_ARRAY", id(43), false, raw(2, 0, 1)},
		{"INT8_ARRAY", id(44), false, raw(1, 0xff)},
		{"INT16_ARRAY", id(45), false, raw(2, 1, 0)},
		{"INT32_ARRAY", id(46), false, raw(4, 1, 0, 0, 0)},
		{"INT64_ARRAY", id(47), false, raw(8, 1, 0, 0, 0, 0, 0, 0, 0)},
		{"UINT8_ARRAY", id(48), false, raw(1, 5)},
		{"UINT16_ARRAY", id(49), false, raw(2, 1, 0)},
		{"UINT32_ARRAY", id(50), false, raw(4, 1, 0, 0, 0)},
		{"UINT64_ARRAY", id(51), false, raw(8, 1, 0, 0, 0, 0, 0, 0, 0)},
		{"FLOAT8_ARRAY", id(meta.TypeFloat8Array), false, raw(0, 2, 0x3c, 0x40)},
		{"FLOAT16_ARRAY", id(53), false, raw(4, 0, 0x34, 0xd0, 0x63)},
		{"BFLOAT16_ARRAY", id(54), false, raw(2, 0x80, 0x3f)},
		{"FLOAT32_ARRAY", id(55), false, raw(4, 0, 0, 0x80, 0x3f)},
		{"FLOAT64_ARRAY", id(56), false, raw(8, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f)},
		{"any int32", id(meta.TypeUnknown), false, raw(FlagNotNull, 5, 0x0d)},
		{"any nil", id(meta.TypeUnknown), false, raw(FlagNull)},
		{"any nullable", id(meta.TypeUnknown), true, raw(FlagNotNull, 21, 0x02)},
		{"any struct", id(meta.TypeUnknown), false, func(b *buffer.Buffer) { b.WriteUint8(FlagNotNull); innerNew(b) }},
		{"any []int32", id(meta.TypeUnknown), false, raw(FlagNotNull, 46, 4, 1, 2, 3, 4)},
		{"any enum", id(meta.TypeUnknown), false, raw(FlagNotNull, meta.TypeEnum, 0x65, 2)},
		{"any named enum (same-schema names are not read in compatible mode)", id(meta.TypeUnknown), false, func(b *buffer.Buffer) {
			b.WriteBytes([]byte{FlagNotNull, meta.TypeNamedEnum, 0x02})
			b.WriteBytes(meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeNamedEnum, ByName: true, Namespace: "demo", TypeName: "Color"}))
			b.WriteUint8(1)
		}},
		{"any list of any", id(meta.TypeUnknown), false, raw(FlagNotNull, meta.TypeList, 2, 0x00, 21, 0x02, 1, 1)},
		{"any map", id(meta.TypeUnknown), false, raw(FlagNotNull, meta.TypeMap, 1, 0x00, 1, 21, 5, 0x06, 'k', 0x02)},
		{"any time", id(meta.TypeUnknown), false, raw(FlagNotNull, 38, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)},
	}
}

// A field of every type id the specification defines, which the reader
// lacks, is skipped, and the fields around it decode; every truncation of
// the message is an error, never a panic or a wrong value.
func TestSkipEveryTypeID(t *testing.T) {
	f := newRuntime()
	ids := map[uint8]bool{}
	for _, sc := range skipCases() {
		data := skipMessage(sc.ft, sc.nullable, sc.value)
		var got probe
		require.NoError(t, f.deserializeRoot(data, &got), sc.name)
		require.Equal(t, skipWant, got, sc.name)
		ids[sc.ft.TypeID] = true
		for i := 0; i < len(data); i++ {
			err := f.deserializeRoot(data[:i], new(probe))
			var de *DecodeError
			require.True(t, errors.As(err, &de), "%s cut at %d: %v", sc.name, i, err)
		}
		// Every single-byte change decodes or fails with a DecodeError.
		for i := range data {
			m := append([]byte(nil), data...)
			m[i] ^= 0x41
			if err := f.deserializeRoot(m, new(probe)); err != nil {
				var de *DecodeError
				require.True(t, errors.As(err, &de), "%s byte %d: %v", sc.name, i, err)
			}
		}
	}
	// Every id but the extensions, ARRAY (reserved) and the unused 52... is
	// covered: 52 is the specification's FLOAT8_ARRAY.
	for id := uint8(0); id <= 56; id++ {
		switch id {
		case meta.TypeExt, meta.TypeNamedExt, meta.TypeTypedUnion, meta.TypeNamedUnion, meta.TypeArray:
			continue
		}
		require.True(t, ids[id], "type id %d has no skip case", id)
	}
}

// Extension values have no length: a field of one is refused when the
// mapping is built, and one inside an `any` (or a union case) when it is
// met, with ErrUnsupported. ARRAY (42) is reserved and unsupported.
func TestSkipExtensions(t *testing.T) {
	for _, id := range []uint8{meta.TypeExt, meta.TypeNamedExt} {
		de := decodeErr(t, skipMessage(meta.FieldType{TypeID: id}, false, raw(0)), ErrSchemaMismatch)
		require.Contains(t, de.Error(), "extension")
	}
	de := decodeErr(t, skipMessage(meta.FieldType{TypeID: meta.TypeUnknown}, false, raw(FlagNotNull, meta.TypeExt, 5, 1, 2)), ErrUnsupported)
	require.Contains(t, de.Error(), "extension")
	require.Error(t, newRuntime().deserializeRoot(skipMessage(meta.FieldType{TypeID: meta.TypeUnion}, false,
		func(b *buffer.Buffer) {
			b.WriteBytes([]byte{1, FlagNotNull, meta.TypeNamedExt, 0x02})
			b.WriteBytes(meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeNamedExt, ByName: true, Namespace: "x", TypeName: "Y"}))
		}), new(probe)))
	decodeErr(t, skipMessage(meta.FieldType{TypeID: meta.TypeArray}, false, raw(0)), ErrUnsupported)
	// Type id 0 is no value's type meta.
	decodeErr(t, skipMessage(meta.FieldType{TypeID: meta.TypeUnknown}, false, raw(FlagNotNull, 0)), ErrMalformed)
	// A struct in an `any` must carry a TypeDef, not a user id.
	decodeErr(t, skipMessage(meta.FieldType{TypeID: meta.TypeUnknown}, false, raw(FlagNotNull, meta.TypeStruct, 5)), ErrMalformed)
}

// Skipping is bounded by the maximum depth: unions of unions, lists of
// lists of `any`, and structs in `any` values nested past it fail with
// ErrLimit, and depth n passes.
func TestSkipDepth(t *testing.T) {
	nestedUnions := func(n int) func(b *buffer.Buffer) {
		return func(b *buffer.Buffer) {
			b.WriteBytes([]byte{1, FlagNotNull})
			for i := 1; i < n; i++ {
				b.WriteBytes([]byte{meta.TypeTypedUnion, 7, 1, FlagNotNull})
			}
			b.WriteBytes([]byte{5, 2})
		}
	}
	nestedLists := func(n int) func(b *buffer.Buffer) {
		return func(b *buffer.Buffer) {
			b.WriteUint8(FlagNotNull)
			for i := 0; i < n; i++ {
				b.WriteBytes([]byte{meta.TypeList, 1, 0x00})
			}
			b.WriteBytes([]byte{5, 2})
		}
	}
	f := newRuntime(func(c *Config) { c.MaxDepth = 8 })
	for name, build := range map[string]func(int) func(*buffer.Buffer){"unions": nestedUnions, "lists": nestedLists} {
		ft := meta.FieldType{TypeID: meta.TypeUnion}
		if name == "lists" {
			ft = meta.FieldType{TypeID: meta.TypeUnknown}
		}
		require.NoError(t, f.deserializeRoot(skipMessage(ft, false, build(4)), new(probe)), name)
		err := f.deserializeRoot(skipMessage(ft, false, build(100000)), new(probe))
		require.ErrorIs(t, err, ErrLimit, name)
	}
}

// A list of `any` elements that take one byte each (NONE) is bounded by
// the element budget; a map claiming more entries than bytes is refused
// before it is read.
func TestSkipElementBudget(t *testing.T) {
	n := 100000
	b := buffer.New(n + 16)
	b.WriteVarUint32(uint32(n))
	b.WriteUint8(0x00)
	for i := 0; i < n; i++ {
		b.WriteUint8(meta.TypeNone)
	}
	value := b.Bytes()
	f := newRuntime()
	require.NoError(t, f.deserializeRoot(skipMessage(list(meta.TypeUnknown), false, raw(value...)), new(probe)))
	err := newRuntime().deserializeRoot(skipMessage(mapOf(21, 21), false, raw(0xff, 0xff, 0xff, 0x7f, 0x24)), new(probe))
	require.ErrorIs(t, err, ErrMalformed)
}

// FuzzSkip decodes mutated skip messages: never a panic, every error a
// DecodeError.
func FuzzSkip(f *testing.F) {
	for _, sc := range skipCases() {
		f.Add(skipMessage(sc.ft, sc.nullable, sc.value))
	}
	rt := newRuntime()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := rt.deserializeRoot(data, new(probe)); err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%v is not a DecodeError", err)
			}
		}
	})
}
