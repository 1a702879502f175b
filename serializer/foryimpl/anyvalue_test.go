package foryimpl

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Two hand-written generated-style structs, as in the golden files of
// internal/testdata/xlang-fixtures-2: AnyInner (id 218: ID int32, Tag
// string, untagged) and Dog (id 215: Name string id=1, Age int32 id=2).
// TestAnyTestTypes checks their TypeDefs and hashes against the files.

type testInner struct {
	ID  int32
	Tag string
}

type testDog struct {
	Name string
	Age  int32
}

func testStructType(name string, id uint32, hash int32, fields []meta.FieldDef) *TypeInfo {
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: id, Fields: fields})
	b := buffer.New(8)
	b.WriteUint8(meta.TypeStruct)
	b.WriteVarUint32(id)
	cm := append([]byte(nil), b.Bytes()...)
	return NewStructType(StructSpec{GoName: name, UserID: id, SchemaHash: hash, ConsistentMeta: cm, TypeDef: td,
		RootConsistent: append([]byte{meta.HeaderXlang, FlagNotNull}, cm...),
		RootCompatible: append([]byte{meta.HeaderXlang, FlagNotNull, meta.TypeCompatibleStruct, 0}, td...)})
}

var testInnerInfo = testStructType("foryimpl.testInner", 218, 320167363, []meta.FieldDef{
	{Name: "i_d", TagID: -1, Type: meta.FieldType{TypeID: 5}},
	{Name: "tag", TagID: -1, Type: meta.FieldType{TypeID: 21}},
})

var testDogInfo = testStructType("foryimpl.testDog", 215, int32(binary.LittleEndian.Uint32([]byte{0x62, 0x32, 0x6f, 0xfa})), []meta.FieldDef{
	{TagID: 2, Type: meta.FieldType{TypeID: 5}},
	{TagID: 1, Type: meta.FieldType{TypeID: 21}},
})

func readHash(c *ReadContext, t *TypeInfo) bool {
	if c.compatible {
		return true
	}
	if h := c.r.ReadInt32(); h != t.SchemaHash && c.r.Err() == nil {
		c.HashMismatch(t, h)
	}
	return c.r.Err() == nil
}

func (x *testInner) ForyType() *TypeInfo { return testInnerInfo }
func (x *testInner) ForyWrite(c *WriteContext) {
	if !c.compatible {
		c.buf.WriteInt32(testInnerInfo.SchemaHash)
	}
	c.buf.WriteVarInt32(x.ID)
	WriteString(c.buf, x.Tag)
}
func (x *testInner) ForyRead(c *ReadContext) {
	if !c.Enter(testInnerInfo) {
		return
	}
	defer c.Leave()
	if readHash(c, testInnerInfo) {
		x.ID = c.r.ReadVarInt32()
		x.Tag = c.ReadString()
	}
}

// ForyReadEvolved reads a body written with another schema, as generated
// code does: matched fields by their local index (same types only here),
// the others skipped.
func (x *testInner) ForyReadEvolved(c *ReadContext, ev *Evolution) {
	if !c.Enter(testInnerInfo) {
		return
	}
	defer c.Leave()
	*x = testInner{}
	for i := 0; i < ev.NumFields() && c.r.Err() == nil; i++ {
		switch f := ev.Field(i); f.Local {
		case 0:
			x.ID = c.r.ReadVarInt32()
		case 1:
			x.Tag = c.ReadString()
		default:
			c.SkipField(f)
		}
	}
}

func (x *testDog) ForyType() *TypeInfo { return testDogInfo }
func (x *testDog) ForyWrite(c *WriteContext) {
	if !c.compatible {
		c.buf.WriteInt32(testDogInfo.SchemaHash)
	}
	c.buf.WriteVarInt32(x.Age)
	WriteString(c.buf, x.Name)
}
func (x *testDog) ForyRead(c *ReadContext) {
	if !c.Enter(testDogInfo) {
		return
	}
	defer c.Leave()
	if readHash(c, testDogInfo) {
		x.Age = c.r.ReadVarInt32()
		x.Name = c.ReadString()
	}
}
func (x *testDog) ForyReadEvolved(c *ReadContext, ev *Evolution) {
	c.Fail(mismatch("testDog has no evolved reader"))
}

var registerTestTypes = sync.OnceFunc(func() {
	RegisterAny(AnyType{Info: testInnerInfo, New: func() Message { return new(testInner) },
		Deref: func(m Message) any { return *m.(*testInner) }, Ptr: (*testInner)(nil), Val: testInner{}})
	RegisterAny(AnyType{Info: testDogInfo, New: func() Message { return new(testDog) },
		Deref: func(m Message) any { return *m.(*testDog) }, Ptr: (*testDog)(nil), Val: testDog{}})
})

// fixture returns the bytes of a golden file of xlang-fixtures-2.
func fixture(t testing.TB, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "internal", "testdata", "xlang-fixtures-2", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

var fixtureModes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

func testRuntime(compatible, track bool) *Runtime {
	cfg := DefaultConfig()
	cfg.Compatible, cfg.TrackRef = compatible, track
	f := &Runtime{}
	f.Init(cfg)
	return f
}

// rootKey stands for the root struct of a golden file, whose TypeDef is
// entry 0 of the table in compatible mode.
var rootKey = &TypeInfo{StructSpec: StructSpec{GoName: "root"}}

// prefixLen is the length of a golden file's root prefix: header, flag,
// type meta, and in same-schema mode the root's hash.
func prefixLen(t testing.TB, data []byte, compatible bool) int {
	t.Helper()
	if !compatible {
		r := buffer.NewReader(data[3:])
		r.ReadVarUint32()
		return 3 + r.Offset() + 4
	}
	n := typeDefLen(data[4:])
	require.Positive(t, n)
	return 4 + n
}

// readerAt positions a read of data at off, with the root's TypeDef entry
// in compatible mode.
func readerAt(f *Runtime, data []byte, off int) *ReadContext {
	c := f.beginFragment(data)
	c.r.SetOffset(off)
	if c.compatible {
		c.defs = append(c.defs, &remoteDef{def: &meta.TypeDef{Kind: meta.TypeCompatibleStruct}})
	}
	return c
}

// writeWith writes prefix and then what body writes, in a message whose
// root is rootKey.
func writeWith(t testing.TB, f *Runtime, prefix []byte, body func(c *WriteContext)) []byte {
	t.Helper()
	b := buffer.New(64)
	c := f.BeginWrite(b, rootKey)
	b.WriteBytes(prefix)
	body(c)
	require.NoError(t, c.EndWrite(0))
	return append([]byte(nil), b.Bytes()...)
}

func anyFieldsValues() []any {
	return []any{2.5, true, int32(-7), int64(1) << 40, []int32{1, 2, 3}, nil,
		&testInner{ID: 1, Tag: "ptr"}, "text", testInner{ID: 2, Tag: "value"}}
}

func TestAnyTestTypes(t *testing.T) {
	// The compatible golden files hold the TypeDefs of the test types.
	data := fixture(t, "compatible", "any_fields")
	require.True(t, bytes.Contains(data, testInnerInfo.TypeDef))
	data = fixture(t, "compatible", "union_root_id")
	require.True(t, bytes.Contains(data, testDogInfo.TypeDef))
}

// any_fields: AnyHolder's nine any fields (f64, flag, i32, i64, ints, nil,
// ptr, str, value), written field by field with WriteAny after the root
// prefix, byte for byte; read back with ReadAny from the fixture. The
// struct value in Value decodes as *T, as official Go decodes it.
func TestAnyFieldsFixture(t *testing.T) {
	registerTestTypes()
	for _, m := range fixtureModes {
		t.Run(m.dir, func(t *testing.T) {
			data := fixture(t, m.dir, "any_fields")
			f := testRuntime(m.compatible, false)
			n := prefixLen(t, data, m.compatible)
			got := writeWith(t, f, data[:n], func(c *WriteContext) {
				for _, v := range anyFieldsValues() {
					WriteAny(c, v)
				}
			})
			require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(got))

			c := readerAt(f, data, n)
			want := anyFieldsValues()
			want[8] = &testInner{ID: 2, Tag: "value"}
			for i, w := range want {
				require.Equal(t, w, ReadAny(c, false), "field %d", i)
			}
			require.NoError(t, c.r.Err())
			require.Zero(t, c.r.Remaining())
			require.NoError(t, f.EndRead(c, rootKey))
		})
	}
}

func anyListValue() []any {
	return []any{int32(1), "two", nil, &testInner{ID: 3, Tag: "three"}, testInner{ID: 4, Tag: "four"}, int64(5), true}
}

// any_list: a []any of mixed types (header 02: nulls, one type meta per
// element), byte for byte; its *T and T elements take two TypeDef entries
// in compatible mode (markers 02 and 04). Elements decode as T values.
func TestAnyListFixture(t *testing.T) {
	registerTestTypes()
	for _, m := range fixtureModes {
		t.Run(m.dir, func(t *testing.T) {
			data := fixture(t, m.dir, "any_list")
			f := testRuntime(m.compatible, false)
			n := prefixLen(t, data, m.compatible)
			got := writeWith(t, f, data[:n], func(c *WriteContext) { WriteAnyList(c, anyListValue()) })
			require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(got))

			c := readerAt(f, data, n)
			// Structs in an any decode as pointers wherever they are.
			want := anyListValue()
			want[4] = &testInner{ID: 4, Tag: "four"}
			require.Equal(t, want, ReadAnyList(c))
			require.NoError(t, f.EndRead(c, rootKey))
		})
	}
}

// any_map: a map[string]any with a struct pointer, a string, an int32 and
// nil. Go's map order decides the chunk order, so the bytes are compared
// as the entry count and the set of one-entry chunks; the fixture decodes
// to the manifest's value (the struct as a T value).
func TestAnyMapFixture(t *testing.T) {
	registerTestTypes()
	chunks := map[bool][]string{
		false: {"140e6e696c", "04011bda010e707472c35d15130a1266697665", "0401150e7374720678", "0401050e6e756d0a"},
		true:  {"140e6e696c", "04011c02" + hex.EncodeToString(testInnerInfo.TypeDef) + "0e7074720a1266697665", "0401150e7374720678", "0401050e6e756d0a"},
	}
	value := func() map[string]any {
		return map[string]any{"nil": nil, "num": int32(5), "ptr": &testInner{ID: 5, Tag: "five"}, "str": "x"}
	}
	for _, m := range fixtureModes {
		t.Run(m.dir, func(t *testing.T) {
			data := fixture(t, m.dir, "any_map")
			f := testRuntime(m.compatible, false)
			n := prefixLen(t, data, m.compatible)
			for i := 0; i < 8; i++ {
				got := writeWith(t, f, data[:n], func(c *WriteContext) { WriteStringAnyMap(c, value()) })
				require.Len(t, got, len(data))
				require.Equal(t, data[:n+1], got[:n+1])
				rest := hex.EncodeToString(got[n+1:])
				left := append([]string(nil), chunks[m.compatible]...)
			next:
				for rest != "" {
					for j, ch := range left {
						if len(rest) >= len(ch) && rest[:len(ch)] == ch {
							rest, left = rest[len(ch):], append(left[:j], left[j+1:]...)
							continue next
						}
					}
					t.Fatalf("unexpected chunk at %s (fixture %x)", rest, data[n:])
				}
				require.Empty(t, left)
			}
			c := readerAt(f, data, n)
			require.Equal(t, value(), ReadStringAnyMap(c))
			require.NoError(t, f.EndRead(c, rootKey))
		})
	}
}

// union_field_*: PetOwner{Name, Pet}, whose Pet is a UNION field: after
// the root prefix and the name, WriteUnionValue writes the case id and the
// case value (a struct pointer, a string, an int32) byte for byte, and
// ReadUnionValue reads them back.
func TestUnionFieldFixtures(t *testing.T) {
	registerTestTypes()
	cases := []struct {
		name   string
		owner  string
		caseID uint32
		value  any
	}{
		{"union_field_struct", "Ann", 1, &testDog{Name: "Rex", Age: 3}},
		{"union_field_string", "Bo", 2, "Whiskers"},
		{"union_field_int32", "Cy", 3, int32(-7)},
	}
	for _, tc := range cases {
		for _, m := range fixtureModes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				data := fixture(t, m.dir, tc.name)
				f := testRuntime(m.compatible, false)
				n := prefixLen(t, data, m.compatible)
				got := writeWith(t, f, data[:n], func(c *WriteContext) {
					WriteString(c.buf, tc.owner)
					WriteUnionValue(c, tc.caseID, tc.value)
				})
				require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(got))
				c := readerAt(f, data, n)
				require.Equal(t, tc.owner, c.ReadString())
				id, v := ReadUnionValue(c)
				require.Equal(t, tc.caseID, id)
				require.Equal(t, tc.value, v)
				require.NoError(t, f.EndRead(c, rootKey))
			})
		}
	}
}

var (
	petUnion   = NewUnionType(UnionSpec{GoName: "foryimpl.Pet", UserID: 216})
	tokenUnion = NewUnionType(UnionSpec{GoName: "foryimpl.Token", ByName: true, Namespace: "demo", TypeName: "Token"})
)

// union_root_id (TYPED_UNION 216, case 1 a *Dog: in compatible mode the
// Dog TypeDef is entry 0, marker 00) and union_root_named (NAMED_UNION
// demo.Token, inline names or a non-struct TypeDef, case 2 an int64):
// whole messages byte for byte, and read back; the manifest's
// root_header_check describes the same prefixes.
func TestUnionRootFixtures(t *testing.T) {
	registerTestTypes()
	cases := []struct {
		name   string
		u      *UnionInfo
		caseID uint32
		value  any
	}{
		{"union_root_id", petUnion, 1, &testDog{Name: "Max", Age: 11}},
		{"union_root_named", tokenUnion, 2, int64(-1234567890123)},
	}
	for _, tc := range cases {
		for _, m := range fixtureModes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				data := fixture(t, m.dir, tc.name)
				for _, track := range []bool{false, true} {
					f := testRuntime(m.compatible, track)
					b := buffer.New(8)
					b.WriteBytes([]byte{0xaa}) // appended after what is there
					require.NoError(t, f.WriteUnionRoot(b, tc.u, tc.caseID, tc.value))
					got := b.Bytes()[1:]
					if !track {
						require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(got))
					} else {
						// The root is object 0 (flag 00), a struct case a
						// new tracked object (00, not ff).
						want := append([]byte{meta.HeaderXlang, meta.FlagRefValue}, data[2:]...)
						want = bytes.Replace(want, []byte{0x01, 0xff, meta.TypeStruct}, []byte{0x01, 0x00, meta.TypeStruct}, 1)
						want = bytes.Replace(want, []byte{0x01, 0xff, meta.TypeCompatibleStruct}, []byte{0x01, 0x00, meta.TypeCompatibleStruct}, 1)
						require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
					}
					id, v, err := f.ReadUnionRoot(got, tc.u)
					require.NoError(t, err)
					require.Equal(t, tc.caseID, id)
					require.Equal(t, tc.value, v)
				}
				// The other union, and every prefix, is an error.
				other := petUnion
				if tc.u == petUnion {
					other = tokenUnion
				}
				f := testRuntime(m.compatible, false)
				_, _, err := f.ReadUnionRoot(data, other)
				require.ErrorIs(t, err, ErrSchemaMismatch)
				for i := range data {
					_, _, err := f.ReadUnionRoot(data[:i], tc.u)
					var de *DecodeError
					require.ErrorAs(t, err, &de, "prefix %d", i)
					require.ErrorIs(t, err, ErrMalformed, "prefix %d", i)
				}
			})
		}
	}
}

func TestWriteAnyUnsupported(t *testing.T) {
	registerTestTypes()
	type unregistered struct{ X int }
	for _, v := range []any{func() {}, make(chan int), unregistered{1}, &unregistered{}, new(int32), complex(1, 2)} {
		f := testRuntime(true, false)
		b := buffer.New(8)
		c := f.BeginWrite(b, rootKey)
		WriteAny(c, v)
		err := c.EndWrite(0)
		var ee *EncodeError
		require.ErrorAs(t, err, &ee, "%T", v)
		require.ErrorIs(t, err, ErrInvalidValue)
		require.Equal(t, fmt.Sprintf("%T", v), ee.Type) // names the Go type
		require.Zero(t, b.Len())
	}
}

// roundTrip writes v as an any value in a message of its own and reads it
// back.
func roundTrip(t *testing.T, compatible, track bool, v any, byValue bool) any {
	t.Helper()
	f := testRuntime(compatible, track)
	b := buffer.New(8)
	c := f.BeginWrite(b, rootKey)
	WriteAny(c, v)
	require.NoError(t, c.EndWrite(0))
	rc := f.beginFragment(b.Bytes())
	if compatible {
		rc.defs = append(rc.defs, &remoteDef{def: &meta.TypeDef{Kind: meta.TypeCompatibleStruct}})
	}
	got := ReadAny(rc, byValue)
	require.NoError(t, f.EndRead(rc, rootKey))
	return got
}

func TestAnyRoundTrip(t *testing.T) {
	registerTestTypes()
	in := &testInner{ID: 9, Tag: "nine"}
	values := []struct{ in, out any }{
		{int8(-3), int8(-3)}, {int16(300), int16(300)}, {uint8(200), uint8(200)}, {uint16(60000), uint16(60000)},
		{uint32(1 << 31), uint32(1 << 31)}, {uint64(1 << 63), uint64(1 << 63)}, {uint(7), uint64(7)}, {7, int64(7)},
		{float32(1.5), float32(1.5)}, {"", ""}, {[]byte{1, 2}, []byte{1, 2}}, {[]float64{1.5}, []float64{1.5}},
		{[]string{"a", "b"}, []any{"a", "b"}}, {[]any{}, []any{}}, {map[string]any{}, map[any]any{}},
		{map[string]int32{"a": 1}, map[any]any{"a": int32(1)}},
		{map[any]any{int32(1): in, "k": nil, true: []any{in, in}}, map[any]any{int32(1): in, "k": nil, true: []any{in, in}}},
		{map[any]any{nil: in}, map[any]any{nil: in}}, {map[any]any{nil: nil}, map[any]any{nil: nil}},
		{[]any{[]any{int32(1)}, map[string]any{"x": *in}}, []any{[]any{int32(1)}, map[any]any{"x": in}}},
		{[]any{in, *in, nil}, []any{in, in, nil}}, {[]any{int32(1), int32(2)}, []any{int32(1), int32(2)}},
		{(*testInner)(nil), nil}, {[]int32(nil), nil}, {map[string]any(nil), nil},
	}
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			for _, v := range values {
				require.Equal(t, v.out, roundTrip(t, compatible, track, v.in, false), "%#v compatible=%v track=%v", v.in, compatible, track)
			}
			require.Equal(t, in, roundTrip(t, compatible, track, in, false))
			require.Equal(t, *in, roundTrip(t, compatible, track, *in, true))
		}
	}
}

// A typed nil (a nil pointer, slice or map in the interface) among
// elements of another type is written as null, as official Go writes it:
// the list's header keeps "same type" with the other elements' type meta,
// and the element is fd. It was written with the first element's codec and
// panicked.
func TestAnyListTypedNil(t *testing.T) {
	registerTestTypes()
	encode := func(compatible, track bool, v any) []byte {
		f := testRuntime(compatible, track)
		b := buffer.New(8)
		c := f.BeginWrite(b, rootKey)
		WriteAny(c, v)
		require.NoError(t, c.EndWrite(0))
		return append([]byte(nil), b.Bytes()...)
	}
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			// The list's flag (00 when tracked: a list is an object), LIST,
			// 2 elements, header has-null | same-type, UINT8, ff 00, fd.
			flag := "ff"
			if track {
				flag = "00"
			}
			require.Equal(t, flag+"16020a09ff00fd", hex.EncodeToString(encode(compatible, track, []any{uint8(0), []any(nil)})))
			for _, nilv := range []any{[]any(nil), (*testInner)(nil), map[string]any(nil), []int32(nil), map[any]any(nil)} {
				for _, l := range [][]any{
					{uint8(0), nilv}, {nilv, uint8(0)}, {"a", nilv, "b"}, {&testInner{ID: 1}, nilv}, {nilv, nilv},
					{[]any{int32(1)}, nilv}, {int32(1), "x", nilv},
				} {
					plain := append([]any(nil), l...)
					for i, v := range plain {
						if v != nil && isNilValue(v) {
							plain[i] = nil
						}
					}
					require.Equal(t, encode(compatible, track, plain), encode(compatible, track, l), "%#v", l)
					require.Equal(t, roundTrip(t, compatible, track, plain, false), roundTrip(t, compatible, track, l, false), "%#v", l)
				}
				// A map value: a null-value chunk either way (one entry: map
				// order is random).
				require.Equal(t, encode(compatible, track, map[string]any{"b": nil}), encode(compatible, track, map[string]any{"b": nilv}))
				m := map[string]any{"a": uint8(0), "b": nilv}
				require.Equal(t, map[any]any{"a": uint8(0), "b": nil}, roundTrip(t, compatible, track, m, false), "%#v", m)
			}
		}
	}
}

// With tracking, the same pointer, slice or map held twice is one object:
// the second is fe and its id, and reads back as the same object.
func TestAnySharedTracking(t *testing.T) {
	registerTestTypes()
	p := &testInner{ID: 1, Tag: "p"}
	s := []int32{1, 2}
	mp := map[string]any{"a": int32(1)}
	for _, compatible := range []bool{false, true} {
		f := testRuntime(compatible, true)
		b := buffer.New(8)
		c := f.BeginWrite(b, rootKey)
		WriteRootRef(c, rootKey) // the root is object 0
		for _, v := range []any{p, p, s, s, mp, mp, []any{p, s, mp}} {
			WriteAny(c, v)
		}
		require.NoError(t, c.EndWrite(0))
		data := b.Bytes()
		// p is object 1, s 2, mp 3.
		require.True(t, bytes.Contains(data, []byte{meta.FlagRef, 1, meta.FlagRefValue}), "%x", data)
		require.True(t, bytes.Contains(data, []byte{meta.FlagRef, 2, meta.FlagRefValue}), "%x", data)
		rc := f.beginFragment(data)
		rc.addRefs(refEntry{v: rootKey})
		if compatible {
			rc.defs = append(rc.defs, &remoteDef{def: &meta.TypeDef{Kind: meta.TypeCompatibleStruct}})
		}
		var got []any
		for i := 0; i < 7; i++ {
			got = append(got, ReadAny(rc, false))
		}
		require.NoError(t, f.EndRead(rc, rootKey))
		require.Same(t, got[0].(*testInner), got[1].(*testInner))
		require.Equal(t, p, got[0])
		s0, s1 := got[2].([]int32), got[3].([]int32)
		require.Equal(t, s, s0)
		require.Same(t, &s0[0], &s1[0])
		m0, m1 := got[4].(map[any]any), got[5].(map[any]any)
		m0["new"] = 1
		require.Equal(t, 1, m1["new"])
		l := got[6].([]any)
		require.Same(t, got[0].(*testInner), l[0].(*testInner)) // one object, also in a list
		require.Same(t, &s0[0], &l[1].([]int32)[0])
		require.Equal(t, 1, l[2].(map[any]any)["new"])
	}
}

// A []any that holds itself: without tracking the write fails at the depth
// limit; with tracking it is written once and read back as a cycle.
func TestAnyListCycle(t *testing.T) {
	l := []any{int32(1), nil}
	l[1] = l
	f := testRuntime(false, false)
	b := buffer.New(8)
	c := f.BeginWrite(b, rootKey)
	WriteAny(c, l)
	require.ErrorIs(t, c.EndWrite(0), ErrLimit)

	f = testRuntime(false, true)
	c = f.BeginWrite(b, rootKey)
	WriteRootRef(c, rootKey)
	WriteAny(c, l)
	require.NoError(t, c.EndWrite(0))
	rc := f.beginFragment(b.Bytes())
	rc.addRefs(refEntry{v: rootKey})
	got := ReadAny(rc, false).([]any)
	require.NoError(t, f.EndRead(rc, rootKey))
	require.Equal(t, int32(1), got[0])
	require.Same(t, &got[0], &got[1].([]any)[0])
}

func decodeAny(compatible, track bool, data []byte) error {
	f := testRuntime(compatible, track)
	c := f.beginFragment(data)
	if track {
		c.addRefs(refEntry{v: rootKey})
	}
	if compatible {
		c.defs = append(c.defs, &remoteDef{def: &meta.TypeDef{Kind: meta.TypeCompatibleStruct}})
	}
	for c.r.Err() == nil && c.r.Remaining() > 0 {
		ReadAny(c, false)
	}
	return f.EndRead(c, rootKey)
}

func TestAnyHostile(t *testing.T) {
	registerTestTypes()
	cases := []struct {
		name       string
		compatible bool
		data       string
		err        error
	}{
		{"unknown type id", false, "ff63", ErrMalformed},
		{"type id 0", false, "ff00", ErrMalformed},
		{"unregistered enum", false, "ff1901", ErrSchemaMismatch},
		{"unregistered extension", false, "ff1f01", ErrSchemaMismatch},
		{"float8", false, "ff10", ErrUnsupported},
		{"float16 array", false, "ff35", ErrUnsupported},
		{"unregistered struct", false, "ff1be70700000000", ErrSchemaMismatch},
		{"compatible id in same-schema mode", false, "ff1c00", ErrSchemaMismatch},
		{"same-schema id in compatible mode", true, "ff1bda01", ErrSchemaMismatch},
		{"bad TypeDef reference", true, "ff1c09", ErrMalformed},
		{"hash mismatch", false, "ff1bda010000000002" + "02", ErrSchemaMismatch},
		{"tracked flag without tracking", false, "000501", ErrMalformed},
		{"list declaring its type", false, "ff16010c05", ErrSchemaMismatch},
		{"list with tracking bit, no tracking", false, "ff1601090502", ErrUnsupported},
		{"list longer than the input", false, "ff16ff0f", ErrMalformed},
		{"map with slice key", false, "ff180100012e150400000000" + "0200", ErrUnsupported},
		{"map chunk declaring the value", false, "ff1801200115" + "0200", ErrSchemaMismatch},
		{"map with a struct key", false, "ff180100011bda0115", ErrUnsupported},
	}
	for _, tc := range cases {
		data, err := hex.DecodeString(tc.data)
		require.NoError(t, err)
		err = decodeAny(tc.compatible, false, data)
		require.ErrorIs(t, err, tc.err, tc.name)
	}
	// Nesting deeper than the limit.
	nest := func(levels int) []byte {
		d := append([]byte{FlagNotNull}, bytes.Repeat([]byte{meta.TypeList, 1, 0x00}, levels)...)
		return append(d, 5, 2)
	}
	require.NoError(t, decodeAny(false, false, nest(15)))
	require.ErrorIs(t, decodeAny(false, false, nest(40)), ErrLimit)
}

// Two Go types registered under one id: registering is fine, decoding the
// id in an any value is an error naming both.
func TestAnyAmbiguous(t *testing.T) {
	registerTestTypes()
	twinInfo := testStructType("foryimpl.twin", 218, 320167363, []meta.FieldDef{
		{Name: "i_d", TagID: -1, Type: meta.FieldType{TypeID: 5}},
		{Name: "tag", TagID: -1, Type: meta.FieldType{TypeID: 21}},
	})
	// Register a second Go type under 218 in a copy of the registry state,
	// restored afterwards.
	anyRegistry.mu.Lock()
	saved := append([]*anyEntry(nil), anyRegistry.all...)
	anyRegistry.mu.Unlock()
	defer func() {
		anyRegistry.mu.Lock()
		anyRegistry.all = saved
		anyRegistry.snap.Store(nil)
		anyRegistry.mu.Unlock()
	}()
	RegisterAny(AnyType{Info: twinInfo, New: func() Message { return &twinMsg{} },
		Deref: func(m Message) any { return *m.(*twinMsg) }, Ptr: (*twinMsg)(nil), Val: twinMsg{}})
	for _, m := range fixtureModes {
		data := fixture(t, m.dir, "any_fields")
		n := prefixLen(t, data, m.compatible)
		f := testRuntime(m.compatible, false)
		c := readerAt(f, data, n)
		for i := 0; i < 7 && c.r.Err() == nil; i++ {
			ReadAny(c, false)
		}
		err := f.EndRead(c, rootKey)
		require.ErrorIs(t, err, ErrSchemaMismatch)
		require.Contains(t, err.Error(), "foryimpl.testInner")
		require.Contains(t, err.Error(), "foryimpl.twin")
	}
}

type twinMsg struct{ testInner }

func (x *twinMsg) ForyType() *TypeInfo { return testInnerInfo }

// Every prefix of the any values of the golden files fails cleanly, and
// byte mutations never panic.
func TestAnyTruncatedAndMutated(t *testing.T) {
	registerTestTypes()
	for _, name := range []string{"any_fields", "any_list", "any_map", "union_field_struct"} {
		for _, m := range fixtureModes {
			data := fixture(t, m.dir, name)
			n := prefixLen(t, data, m.compatible)
			read := func(d []byte) error {
				f := testRuntime(m.compatible, false)
				c := readerAt(f, d, n)
				switch name {
				case "any_list":
					ReadAnyList(c)
				case "any_map":
					ReadStringAnyMap(c)
				case "union_field_struct":
					c.ReadString()
					ReadUnionValue(c)
				default:
					for i := 0; i < 9; i++ {
						ReadAny(c, false)
					}
				}
				return f.EndRead(c, rootKey)
			}
			require.NoError(t, read(data))
			for i := n; i < len(data); i++ {
				err := read(data[:i])
				require.ErrorIs(t, err, ErrMalformed, "%s %s prefix %d", name, m.dir, i)
			}
			for i := n; i < len(data); i++ {
				for _, x := range []byte{0x00, 0x01, 0x7f, 0x80, 0xfd, 0xfe, 0xff, data[i] ^ 0x40} {
					d := append([]byte(nil), data...)
					d[i] = x
					err := read(d)
					if err != nil {
						var de *DecodeError
						require.True(t, errors.As(err, &de))
					}
				}
			}
		}
	}
}

func TestAnyManifestValues(t *testing.T) {
	// The fixtures' manifest records these cases as deterministic except
	// any_map; the tests above rely on it.
	raw, err := os.ReadFile(filepath.Join("..", "..", "internal", "testdata", "xlang-fixtures-2", "manifest.json"))
	require.NoError(t, err)
	var man struct {
		Cases []struct {
			Name          string `json:"name"`
			Deterministic bool   `json:"byte_deterministic"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &man))
	det := map[string]bool{}
	for _, c := range man.Cases {
		det[c.Name] = c.Deterministic
	}
	for _, n := range []string{"any_fields", "any_list", "union_field_struct", "union_root_id", "union_root_named"} {
		require.True(t, det[n], n)
	}
	require.False(t, det["any_map"])
}

func FuzzAny(f *testing.F) {
	registerTestTypes()
	for _, name := range []string{"any_fields", "any_list", "any_map", "union_field_struct", "union_field_string"} {
		for _, m := range fixtureModes {
			data := fixture(f, m.dir, name)
			f.Add(m.compatible, data[prefixLen(f, data, m.compatible):])
		}
	}
	// Tracked seeds: shared pointers, slices and maps (00, then fe + id).
	p, sl := &testInner{ID: 1, Tag: "p"}, []int32{1, 2}
	for _, compatible := range []bool{false, true} {
		fr := testRuntime(compatible, true)
		b := buffer.New(8)
		c := fr.BeginWrite(b, rootKey)
		for _, v := range []any{p, p, sl, sl, []any{p, sl, map[string]any{"a": p}}} {
			WriteAny(c, v)
		}
		if err := c.EndWrite(0); err != nil {
			f.Fatal(err)
		}
		f.Add(compatible, append([]byte(nil), b.Bytes()...))
	}
	// Runtimes are safe for concurrent use: one per mode and tracking.
	var runtimes [2][2]*Runtime
	for i, compatible := range []bool{false, true} {
		for j, track := range []bool{false, true} {
			runtimes[i][j] = testRuntime(compatible, track)
		}
	}
	rt := func(compatible, track bool) *Runtime {
		i, j := 0, 0
		if compatible {
			i = 1
		}
		if track {
			j = 1
		}
		return runtimes[i][j]
	}
	f.Fuzz(func(t *testing.T, compatible bool, data []byte) {
		for _, track := range []bool{false, true} {
			fr := rt(compatible, track)
			c := fr.beginFragment(data)
			if compatible {
				c.defs = append(c.defs, &remoteDef{def: &meta.TypeDef{Kind: meta.TypeCompatibleStruct}})
			}
			var vals []any
			for c.r.Err() == nil && c.r.Remaining() > 0 && len(vals) < 64 {
				vals = append(vals, ReadAny(c, false))
			}
			if err := fr.EndRead(c, rootKey); err != nil {
				var de *DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("error %v is not a DecodeError", err)
				}
				continue
			}
			// What decoded writes and decodes again (with the same
			// tracking: a decoded list may hold itself).
			w := fr
			b := buffer.New(len(data))
			wc := w.BeginWrite(b, rootKey)
			for _, v := range vals {
				WriteAny(wc, v)
			}
			if err := wc.EndWrite(0); err != nil {
				t.Fatalf("re-encoding %v: %v", vals, err)
			}
			// The same values with typed nils (a nil pointer, slice or
			// map of a type picked from the input) where nils decoded:
			// the same bytes, never a panic.
			tb := buffer.New(len(data))
			tc := w.BeginWrite(tb, rootKey)
			for i, v := range vals {
				WriteAny(tc, withTypedNils(v, data, i))
			}
			if err := tc.EndWrite(0); err != nil {
				t.Fatalf("re-encoding %v with typed nils: %v", vals, err)
			}
			if !bytes.Equal(b.Bytes(), tb.Bytes()) {
				t.Fatalf("typed nils change the bytes of %v:\n% x\n% x", vals, b.Bytes(), tb.Bytes())
			}
			rc := w.beginFragment(b.Bytes())
			if compatible {
				rc.defs = append(rc.defs, &remoteDef{def: &meta.TypeDef{Kind: meta.TypeCompatibleStruct}})
			}
			for range vals {
				ReadAny(rc, false)
			}
			if err := w.EndRead(rc, rootKey); err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
		}
	})
}

// withTypedNils is v with every nil element of a list and every nil value
// of a map replaced by a typed nil, its type picked from data. Lists and
// maps are copied once each, so sharing and cycles stay as they were.
func withTypedNils(v any, data []byte, seed int) any {
	nils := []any{[]any(nil), (*testInner)(nil), map[string]any(nil), []int32(nil), map[any]any(nil), []byte(nil)}
	n := seed
	pick := func() any {
		n++
		if len(data) == 0 {
			return nils[n%len(nils)]
		}
		return nils[int(data[n%len(data)])%len(nils)]
	}
	type sliceKey struct {
		p *any
		n int
	}
	lists := map[sliceKey][]any{}
	maps := map[unsafe.Pointer]map[any]any{}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case []any:
			if len(x) == 0 {
				return x
			}
			k := sliceKey{unsafe.SliceData(x), len(x)}
			if out, ok := lists[k]; ok {
				return out
			}
			out := make([]any, len(x))
			lists[k] = out
			for i, e := range x {
				if e == nil {
					out[i] = pick()
				} else {
					out[i] = walk(e)
				}
			}
			return out
		case map[any]any:
			if x == nil {
				return x
			}
			k := reflect.ValueOf(x).UnsafePointer()
			if out, ok := maps[k]; ok {
				return out
			}
			out := make(map[any]any, len(x))
			maps[k] = out
			for key, e := range x {
				if e == nil {
					out[key] = pick()
				} else {
					out[key] = walk(e)
				}
			}
			return out
		}
		return v
	}
	return walk(v)
}

// testBox is a struct with an any field whose reader, like a generated
// reader of a struct that is not recursive by its declared fields, has no
// depth check of its own.
type testBox struct{ V any }

var testBoxInfo = testStructType("foryimpl.testBox", 230, 12345, []meta.FieldDef{
	{Name: "v", TagID: -1, Type: meta.FieldType{TypeID: meta.TypeUnknown}},
})

func (x *testBox) ForyType() *TypeInfo { return testBoxInfo }
func (x *testBox) ForyWrite(c *WriteContext) {
	if !c.compatible {
		c.buf.WriteInt32(testBoxInfo.SchemaHash)
	}
	WriteAny(c, x.V)
}
func (x *testBox) ForyRead(c *ReadContext) {
	if readHash(c, testBoxInfo) {
		x.V = ReadAny(c, false)
	}
}
func (x *testBox) ForyReadEvolved(c *ReadContext, ev *Evolution) {
	c.Fail(mismatch("no evolved reader"))
}

// A struct holding itself through an any: the write fails at the depth
// limit instead of recursing forever, and input nesting such structs past
// the limit fails with ErrLimit on read; within the limit it round-trips.
func TestAnyStructDepth(t *testing.T) {
	registerTestTypes()
	registerBox()
	for _, compatible := range []bool{false, true} {
		box := &testBox{}
		box.V = box
		f := testRuntime(compatible, false)
		b := buffer.New(8)
		c := f.BeginWrite(b, rootKey)
		WriteAny(c, box)
		require.ErrorIs(t, c.EndWrite(0), ErrLimit)

		nest := func(n int) *testBox {
			x := &testBox{V: int32(7)}
			for i := 1; i < n; i++ {
				x = &testBox{V: x}
			}
			return x
		}
		require.Equal(t, nest(10), roundTrip(t, compatible, false, nest(10), false))
		// A deep message, built with a writer whose limit is higher.
		deep := testRuntime(compatible, false)
		deep.opts.MaxDepth = 1 << 20
		b.Reset()
		c = deep.BeginWrite(b, rootKey)
		WriteAny(c, nest(5000))
		require.NoError(t, c.EndWrite(0))
		require.ErrorIs(t, decodeAny(compatible, false, b.Bytes()), ErrLimit)
	}
}

var registerBox = sync.OnceFunc(func() {
	RegisterAny(AnyType{Info: testBoxInfo, New: func() Message { return new(testBox) },
		Deref: func(m Message) any { return *m.(*testBox) }, Ptr: (*testBox)(nil), Val: testBox{}})
})

// FuzzUnionRoot reads mutated union roots: never a panic, every error a
// DecodeError, and what decodes writes again.
func FuzzUnionRoot(f *testing.F) {
	registerTestTypes()
	for _, name := range []string{"union_root_id", "union_root_named"} {
		for _, m := range fixtureModes {
			f.Add(m.compatible, name == "union_root_named", fixture(f, m.dir, name))
		}
	}
	f.Fuzz(func(t *testing.T, compatible, named bool, data []byte) {
		u := petUnion
		if named {
			u = tokenUnion
		}
		for _, track := range []bool{false, true} {
			fr := testRuntime(compatible, track)
			id, v, err := fr.ReadUnionRoot(data, u)
			if err != nil {
				var de *DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("%v is not a DecodeError", err)
				}
				continue
			}
			b := buffer.New(len(data))
			if err := fr.WriteUnionRoot(b, u, id, v); err != nil {
				t.Fatalf("re-encoding case %d %v: %v", id, v, err)
			}
			if _, _, err := fr.ReadUnionRoot(b.Bytes(), u); err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
		}
	})
}

// A struct in an any written with another schema (compatible mode): a
// TypeDef of id 218 without tag and with an extra field, first as a new
// entry (parsed to find the registration), then referenced; both read
// through the field mapping.
func TestAnyEvolvedStruct(t *testing.T) {
	registerTestTypes()
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: 218, Fields: []meta.FieldDef{
		{Name: "extra", TagID: -1, Nullable: true, Type: meta.FieldType{TypeID: 21}},
		{Name: "i_d", TagID: -1, Type: meta.FieldType{TypeID: 5}},
	}})
	b := buffer.New(64)
	b.WriteBytes([]byte{FlagNotNull, meta.TypeCompatibleStruct, 0x02})
	b.WriteBytes(td)
	b.WriteUint8(FlagNotNull)
	WriteString(b, "skipped")
	b.WriteVarInt32(-5)
	b.WriteBytes([]byte{FlagNotNull, meta.TypeCompatibleStruct, 0x03, FlagNull})
	b.WriteVarInt32(6)
	f := testRuntime(true, false)
	c := readerAt(f, b.Bytes(), 0)
	require.Equal(t, &testInner{ID: -5}, ReadAny(c, false))
	require.Equal(t, testInner{ID: 6}, ReadAny(c, true))
	require.NoError(t, f.EndRead(c, rootKey))
}

// testNamed is registered by name (demo.Named): same-schema type meta
// with inline meta strings, deduplicated per type, and a by-name TypeDef.
type testNamed struct{ N int32 }

var testNamedInfo = func() *TypeInfo {
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeNamedCompatibleStruct, Compatible: true, ByName: true,
		Namespace: "demo", TypeName: "Named", Fields: []meta.FieldDef{{Name: "n", TagID: -1, Type: meta.FieldType{TypeID: 5}}}})
	cm := []byte{meta.TypeNamedStruct}
	cm = meta.AppendInlineMetaString(cm, meta.EncodeMetaString("demo", meta.Namespace))
	cm = meta.AppendInlineMetaString(cm, meta.EncodeMetaString("Named", meta.TypeName))
	return NewStructType(StructSpec{GoName: "foryimpl.testNamed", ByName: true, Namespace: "demo", TypeName: "Named",
		SchemaHash: 777, ConsistentMeta: cm, TypeDef: td,
		RootConsistent: append([]byte{meta.HeaderXlang, FlagNotNull}, cm...),
		RootCompatible: append([]byte{meta.HeaderXlang, FlagNotNull, meta.TypeNamedCompatibleStruct, 0}, td...)})
}()

func (x *testNamed) ForyType() *TypeInfo { return testNamedInfo }
func (x *testNamed) ForyWrite(c *WriteContext) {
	if !c.compatible {
		c.buf.WriteInt32(testNamedInfo.SchemaHash)
	}
	c.buf.WriteVarInt32(x.N)
}
func (x *testNamed) ForyRead(c *ReadContext) {
	if readHash(c, testNamedInfo) {
		x.N = c.r.ReadVarInt32()
	}
}
func (x *testNamed) ForyReadEvolved(c *ReadContext, ev *Evolution) {
	c.Fail(mismatch("no evolved reader"))
}

// Structs registered by name in any values: the second occurrence refers
// back to the names (same-schema) or the TypeDef (compatible), *T list
// elements write their names again, and everything reads back.
func TestAnyNamedStruct(t *testing.T) {
	registerTestTypes()
	registerNamed()
	a, b := &testNamed{N: 1}, testNamed{N: 2}
	in := []any{a, b, []any{a, b, "s"}, map[string]any{"k": a}, a}
	for _, compatible := range []bool{false, true} {
		f := testRuntime(compatible, false)
		buf := buffer.New(64)
		c := f.BeginWrite(buf, rootKey)
		for _, v := range in {
			WriteAny(c, v)
		}
		require.NoError(t, c.EndWrite(0))
		data := buf.Bytes()
		if !compatible {
			// The names in full once for T, once more for *T in the list;
			// back-references otherwise (1d 01 03: strings 0 and 1).
			require.Equal(t, 2, bytes.Count(data, testNamedInfo.ConsistentMeta), "%x", data)
			require.True(t, bytes.Contains(data, []byte{meta.TypeNamedStruct, 0x03, 0x05}), "%x", data)
		} else {
			require.Equal(t, 2, bytes.Count(data, testNamedInfo.TypeDef), "%x", data)
		}
		rc := readerAt(f, data, 0)
		var got []any
		for range in {
			got = append(got, ReadAny(rc, false))
		}
		require.NoError(t, f.EndRead(rc, rootKey))
		require.Equal(t, []any{a, &b, []any{a, &b, "s"}, map[any]any{"k": a}, a}, got)
	}
}

var registerNamed = sync.OnceFunc(func() {
	RegisterAny(AnyType{Info: testNamedInfo, New: func() Message { return new(testNamed) },
		Deref: func(m Message) any { return *m.(*testNamed) }, Ptr: (*testNamed)(nil), Val: testNamed{}})
})

// Writing any values allocates nothing: the registry lookup, the struct
// pointer for a T value and the chunk framing stay off the heap.
func TestWriteAnyAllocs(t *testing.T) {
	if anyAsan {
		t.Skip("-asan's allocator makes allocations of its own")
	}
	registerTestTypes()
	f := testRuntime(true, false)
	b := buffer.New(1024)
	p := &testInner{ID: 1, Tag: "x"}
	for _, v := range []any{int32(5), "abc", p, *p, []int32{1, 2}, []any{int32(1), "a", p}, map[string]any{"a": int32(1), "b": p}} {
		n := testing.AllocsPerRun(100, func() {
			b.Reset()
			c := f.BeginWrite(b, rootKey)
			WriteAny(c, v)
			_ = c.EndWrite(0)
		})
		require.Zero(t, n, "%T", v)
	}
}

// Maps and lists of any values are charged to the allocation budget: a
// message within the defaults decodes, the same under a budget of 2 bytes
// per input byte fails with ErrLimit.
func TestAnyBudget(t *testing.T) {
	m := map[string]any{}
	l := make([]any, 1000)
	for i := range 1000 {
		m[fmt.Sprint(i)] = int32(i)
		l[i] = int64(i)
	}
	for _, v := range []any{m, l} {
		f := testRuntime(false, false)
		b := buffer.New(64)
		c := f.BeginWrite(b, rootKey)
		WriteAny(c, v)
		require.NoError(t, c.EndWrite(0))
		require.NoError(t, decodeAny(false, false, b.Bytes()))
		cfg := DefaultConfig()
		cfg.Compatible, cfg.AllocPerByte, cfg.AllocBase = false, 2, 1
		tight := &Runtime{}
		tight.Init(cfg)
		rc := tight.beginFragment(b.Bytes())
		ReadAny(rc, false)
		require.ErrorIs(t, tight.EndRead(rc, rootKey), ErrLimit, "%T", v)
	}
}

// testDirect is pointer-shaped: an interface holds a testDirect in its data
// word itself, so writing one as a T value takes the other path of
// classifyValue.
type testDirect struct{ P *int32 }

var testDirectInfo = testStructType("foryimpl.testDirect", 231, 4321, []meta.FieldDef{
	{Name: "p", TagID: -1, Nullable: true, Type: meta.FieldType{TypeID: 5}},
})

func (x *testDirect) ForyType() *TypeInfo { return testDirectInfo }
func (x *testDirect) ForyWrite(c *WriteContext) {
	if !c.compatible {
		c.buf.WriteInt32(testDirectInfo.SchemaHash)
	}
	if x.P == nil {
		c.buf.WriteUint8(FlagNull)
		return
	}
	c.buf.WriteUint8(FlagNotNull)
	c.buf.WriteVarInt32(*x.P)
}
func (x *testDirect) ForyRead(c *ReadContext) {
	if readHash(c, testDirectInfo) && c.ReadFlag() {
		v := c.r.ReadVarInt32()
		x.P = &v
	}
}
func (x *testDirect) ForyReadEvolved(c *ReadContext, ev *Evolution) {
	c.Fail(mismatch("no evolved reader"))
}

func TestAnyPointerShapedValue(t *testing.T) {
	RegisterAny(AnyType{Info: testDirectInfo, New: func() Message { return new(testDirect) },
		Deref: func(m Message) any { return *m.(*testDirect) }, Ptr: (*testDirect)(nil), Val: testDirect{}})
	x := int32(-42)
	for _, compatible := range []bool{false, true} {
		got := roundTrip(t, compatible, false, testDirect{P: &x}, true).(testDirect)
		require.Equal(t, x, *got.P)
		require.Equal(t, testDirect{}, roundTrip(t, compatible, false, testDirect{}, true))
		require.Equal(t, []any{&testDirect{}}, roundTrip(t, compatible, false, []any{testDirect{}}, false))
	}
}

// A back-reference in an any to a slice generated code recorded
// (SetRefSlice) reads as that slice, of whatever element type it has; one
// to a slice of structs, which an any cannot hold, is an error.
func TestAnyBackRefToGeneratedSlice(t *testing.T) {
	f := testRuntime(false, true)
	strs := []string{"a", "b"}
	structs := []testInner{{ID: 1}}
	c := f.beginFragment([]byte{meta.FlagRef, 0, meta.FlagRef, 1})
	c.addRefs(refEntry{}, refEntry{})
	SetRefSlice(c, 0, strs)
	SetRefSlice(c, 1, structs)
	got := ReadAny(c, false).([]string)
	require.Same(t, &strs[0], &got[0])
	require.Nil(t, ReadAny(c, false))
	require.ErrorIs(t, f.EndRead(c, rootKey), ErrSchemaMismatch)
}
