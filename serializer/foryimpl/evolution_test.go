package foryimpl

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// probe is a hand-written stand-in for a generated struct (the serializer
// package cannot import generated code): F float64 (name "f"), A int64 (tag
// id 0), B string (name "b"). In Fory order (docs/format.md §9.3) that is f
// (fixed), #0 (varint), b (other).
type probe struct {
	F float64
	A int64
	B string
}

const probeID = 9001

var probeFields = []meta.FieldDef{
	{Name: "f", TagID: -1, Type: meta.FieldType{TypeID: 20}},
	{TagID: 0, Type: meta.FieldType{TypeID: 7}},
	{Name: "b", TagID: -1, Type: meta.FieldType{TypeID: 21}},
}

var probeTypeDef = meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: probeID, Fields: probeFields})

var probeType = NewStructType(StructSpec{
	GoName:         "serializer.probe",
	UserID:         probeID,
	SchemaHash:     1,
	ConsistentMeta: []byte{meta.TypeStruct, 0xa9, 0x46}, // varu32(9001)
	TypeDef:        probeTypeDef,
	RootConsistent: []byte{meta.HeaderXlang, FlagNotNull, meta.TypeStruct, 0xa9, 0x46},
	RootCompatible: append([]byte{meta.HeaderXlang, FlagNotNull, meta.TypeCompatibleStruct, 0}, probeTypeDef...),
	GoFields:       []string{"F", "A", "B"},
	Scalars:        ScalarFieldsOf[probe](0, 1, 2),
})

// TestNewStructTypeChecksRootPrefixes: a spec whose root prefixes disagree
// with its type meta (a hand-edited generated file) panics at package
// initialisation instead of writing wrong bytes.
func TestNewStructTypeChecksRootPrefixes(t *testing.T) {
	spec := probeType.StructSpec
	spec.RootCompatible = append([]byte(nil), spec.RootCompatible...)
	spec.RootCompatible[2] = meta.TypeNamedCompatibleStruct
	require.PanicsWithValue(t, "serializer: generated root prefixes of serializer.probe do not match its type meta; regenerate",
		func() { NewStructType(spec) })
}

func (x *probe) ForyType() *TypeInfo { return probeType }

func (x *probe) ForySerializeTo(f *Runtime, b *buffer.Buffer) error { return f.serializeRoot(b, x) }

func (x *probe) ForyDeserialize(f *Runtime, data []byte) error { return f.deserializeRoot(data, x) }

// serializeRoot is the generic form of a generated ForySerializeTo, for
// hand-written Message implementations in tests.
func (f *Runtime) serializeRoot(b *buffer.Buffer, m Message) error {
	t := m.ForyType()
	c := f.BeginWrite(b, t)
	start := b.WriterIndex()
	prefix := t.rootConsistent
	if c.compatible {
		prefix = t.rootCompatible
	}
	b.WriteBytes(prefix)
	m.ForyWrite(c)
	return c.EndWrite(start)
}

// deserializeRoot is the generic form of a generated ForyDeserialize, for
// hand-written Message implementations in tests.
func (f *Runtime) deserializeRoot(data []byte, m Message) error {
	c := f.beginFragment(data)
	t := m.ForyType()
	prefix := t.rootConsistent
	if c.compatible {
		prefix = t.rootCompatible
	}
	if in := c.r.Bytes(); len(in) >= len(prefix) && string(in[:len(prefix)]) == string(prefix) {
		c.AcceptRoot(len(prefix), t)
		m.ForyRead(c)
		return f.EndRead(c, t)
	}
	return f.ReadRoot(c, m)
}

func (x *probe) ForyWrite(c *WriteContext) {
	b := c.Buffer()
	if !c.Compatible() {
		b.WriteInt32(1)
	}
	b.WriteFloat64(x.F)
	b.WriteVarInt64(x.A)
	WriteString(b, x.B)
}

func (x *probe) ForyRead(c *ReadContext) {
	*x = probe{}
	r := c.Reader()
	if !c.Compatible() && r.ReadInt32() != 1 {
		c.Fail(mismatch("hash"))
	}
	x.F = r.ReadFloat64()
	x.A = r.ReadVarInt64()
	x.B = c.ReadString()
}

// ForyReadEvolved follows the shape of generated code (emit/read.go): its
// fields are all scalars, which ReadScalars reads.
func (x *probe) ForyReadEvolved(c *ReadContext, ev *Evolution) {
	*x = probe{}
	ReadScalars(c, ev, 0, x)
}

// remoteField is a field of a foreign schema with the value to write.
type remoteField struct {
	def   meta.FieldDef
	write func(b *buffer.Buffer)
}

// probeMessage builds a compatible-mode message with a probe-registered root
// whose TypeDef lists fields (docs/format.md §1, §11.3).
func probeMessage(fields []remoteField) []byte { return probeMessageID(fields, probeID) }

// probeMessageID is probeMessage with the TypeDef registering user id id.
func probeMessageID(fields []remoteField, id uint32) []byte {
	defs := make([]meta.FieldDef, len(fields))
	for i := range fields {
		defs[i] = fields[i].def
	}
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: id, Fields: defs})
	b := buffer.New(64)
	b.WriteUint8(meta.HeaderXlang)
	b.WriteUint8(FlagNotNull)
	b.WriteUint8(meta.TypeCompatibleStruct)
	b.WriteVarUint32(0) // new TypeDef #0
	for _, c := range td {
		b.WriteUint8(c)
	}
	for _, f := range fields {
		f.write(b)
	}
	return b.Bytes()
}

// schema returns the i-th of many distinct foreign schemas of probe and the
// probe it must decode to: the local fields in a rotated order, a with one
// of several integer encodings, f as float32 or float64, and one extra field
// named x<i> of a rotating type that the reader must skip.
func schema(i int) ([]remoteField, probe) {
	want := probe{F: float64(float32(i) + 0.5), A: int64(i)*7919 - 1<<20, B: fmt.Sprintf("b%d", i)}
	var fa, ff remoteField
	switch i % 4 {
	case 0:
		fa = remoteField{meta.FieldDef{TagID: 0, Type: meta.FieldType{TypeID: 7}}, func(b *buffer.Buffer) { b.WriteVarInt64(want.A) }}
	case 1:
		fa = remoteField{meta.FieldDef{TagID: 0, Type: meta.FieldType{TypeID: 6}}, func(b *buffer.Buffer) { b.WriteInt64(want.A) }}
	case 2:
		fa = remoteField{meta.FieldDef{TagID: 0, Type: meta.FieldType{TypeID: 8}}, func(b *buffer.Buffer) { b.WriteTaggedInt64(want.A) }}
	default:
		fa = remoteField{meta.FieldDef{TagID: 0, Nullable: true, Type: meta.FieldType{TypeID: 5}}, func(b *buffer.Buffer) {
			b.WriteUint8(FlagNotNull)
			b.WriteVarInt32(int32(want.A))
		}}
	}
	if i%3 == 0 {
		ff = remoteField{meta.FieldDef{Name: "f", TagID: -1, Type: meta.FieldType{TypeID: 19}}, func(b *buffer.Buffer) { b.WriteFloat32(float32(want.F)) }}
	} else {
		ff = remoteField{meta.FieldDef{Name: "f", TagID: -1, Type: meta.FieldType{TypeID: 20}}, func(b *buffer.Buffer) { b.WriteFloat64(want.F) }}
	}
	fb := remoteField{meta.FieldDef{Name: "b", TagID: -1, Type: meta.FieldType{TypeID: 21}}, func(b *buffer.Buffer) { WriteString(b, want.B) }}
	name := fmt.Sprintf("x%d", i)
	var fx remoteField
	switch i % 5 {
	case 0:
		fx = remoteField{meta.FieldDef{Name: name, TagID: -1, Type: meta.FieldType{TypeID: 5}}, func(b *buffer.Buffer) { b.WriteVarInt32(-1) }}
	case 1:
		fx = remoteField{meta.FieldDef{Name: name, TagID: -1, Type: meta.FieldType{TypeID: 21}}, func(b *buffer.Buffer) { WriteString(b, "skip me") }}
	case 2:
		fx = remoteField{meta.FieldDef{Name: name, TagID: -1, Type: meta.FieldType{TypeID: 22, Children: []meta.FieldType{{TypeID: 7, Nullable: true}}}},
			func(b *buffer.Buffer) {
				b.WriteVarUint32(2)
				b.WriteUint8(meta.ListDeclared | meta.ListSameType)
				b.WriteVarInt64(math.MinInt64)
				b.WriteVarInt64(3)
			}}
	case 3:
		fx = remoteField{meta.FieldDef{Name: name, TagID: -1, Nullable: true, Type: meta.FieldType{TypeID: 24, Children: []meta.FieldType{{TypeID: 21}, {TypeID: 5}}}},
			func(b *buffer.Buffer) {
				b.WriteUint8(FlagNotNull)
				b.WriteVarUint32(1)
				b.WriteUint8(meta.MapKeyDeclared | meta.MapValueDeclared)
				b.WriteUint8(1)
				WriteString(b, "k")
				b.WriteVarInt32(9)
			}}
	default:
		fx = remoteField{meta.FieldDef{Name: name, TagID: -1, Type: meta.FieldType{TypeID: 38}}, func(b *buffer.Buffer) {
			b.WriteInt64(1700000000)
			b.WriteUint32(5)
		}}
	}
	fields := []remoteField{ff, fa, fb, fx}
	r := i % len(fields)
	return append(fields[r:], fields[:r]...), want
}

// resetRemotes empties the probe type's cache of received schemas, which
// is shared by every test.
func resetRemotes() { probeType.remotes.entries.Store(nil) }

// TestRemoteCacheBounded feeds 5000 distinct valid schemas of one
// registration: the type's cache holds at most maxRemoteVersions of them,
// and decoding stays correct for new schemas and cached ones.
func TestRemoteCacheBounded(t *testing.T) {
	resetRemotes()
	const schemas = 5000
	f := newRuntime()
	before := EvolvedReadCount()
	for i := 0; i < schemas; i++ {
		fields, want := schema(i)
		var got probe
		require.NoError(t, f.deserializeRoot(probeMessage(fields), &got), "schema %d", i)
		require.Equal(t, want, got, "schema %d", i)
		require.LessOrEqual(t, probeType.remotes.len(), maxRemoteVersions, "schema %d", i)
	}
	assert.Equal(t, uint64(schemas), EvolvedReadCount()-before)
	assert.Equal(t, maxRemoteVersions, probeType.remotes.len())
	for _, i := range []int{0, 1, schemas - 1, schemas, schemas + 1} {
		fields, want := schema(i)
		data := probeMessage(fields)
		for n := 0; n < 3; n++ {
			var got probe
			require.NoError(t, f.deserializeRoot(data, &got), "schema %d", i)
			require.Equal(t, want, got, "schema %d", i)
		}
	}
	assert.Equal(t, maxRemoteVersions, probeType.remotes.len())

	// A cached schema reuses its parsed TypeDef and mapping, does not pin
	// the caller's input, and its lookup does not allocate.
	fields, _ := schema(schemas + 1)
	data := probeMessage(fields)
	cached := probeType.remotes.lookup(data[4:])
	require.NotNil(t, cached)
	require.NotNil(t, cached.ev)
	require.NoError(t, f.deserializeRoot(data, new(probe)))
	assert.Same(t, cached, probeType.remotes.lookup(data[4:]))
	assert.Nil(t, cached.def.Encoded)
	assert.Zero(t, testing.AllocsPerRun(100, func() { probeType.remotes.lookup(data[4:]) }))
}

// TestRemoteCacheBoundConcurrent: many goroutines adding distinct schemas at
// once never push the cache past its bound.
func TestRemoteCacheBoundConcurrent(t *testing.T) {
	resetRemotes()
	f := newRuntime()
	const workers, per = 8, 300
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				fields, want := schema(10000 + w*per + i)
				var got probe
				if err := f.deserializeRoot(probeMessage(fields), &got); err != nil || got != want {
					errs <- fmt.Errorf("worker %d schema %d: %v %+v", w, i, err, got)
					return
				}
				if n := probeType.remotes.len(); n > maxRemoteVersions {
					errs <- fmt.Errorf("worker %d: %d cached schemas", w, n)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	assert.Equal(t, maxRemoteVersions, probeType.remotes.len())
}

// TestRemoteCacheFlood: rejected TypeDefs are never cached, and a flood of
// distinct accepted ones leaves a legitimate peer's schema cached, so its
// messages are still read without parsing (issue 17 item 7: 1,100 rejected
// messages filled the old cache for good, and the legitimate peer's
// decode went from 353 ns to 3 µs). The measure is the allocations of the
// legitimate decode, which a parse or a match would raise.
func TestRemoteCacheFlood(t *testing.T) {
	resetRemotes()
	f := newRuntime()
	legit, want := schema(7)
	data := probeMessage(legit)
	decode := func() {
		var got probe
		require.NoError(t, f.deserializeRoot(data, &got))
		require.Equal(t, want, got)
	}
	for i := 0; i < 200; i++ {
		decode()
	}
	allocs := testing.AllocsPerRun(50, decode)

	// Rejected: another registration, 1100 distinct schemas.
	for i := 0; i < 1100; i++ {
		fields, _ := schema(20000 + i)
		other := probeMessageID(fields, probeID+1)
		require.ErrorIs(t, f.deserializeRoot(other, new(probe)), ErrSchemaMismatch)
	}
	require.Equal(t, 1, probeType.remotes.len(), "rejected schemas must not be cached")
	// Accepted, distinct: they evict each other, not the hot entry.
	for i := 0; i < 2000; i++ {
		fields, _ := schema(30000 + i)
		require.NoError(t, f.deserializeRoot(probeMessage(fields), new(probe)))
	}
	require.NotNil(t, probeType.remotes.lookup(data[4:]), "the legitimate schema was evicted")
	assert.Equal(t, allocs, testing.AllocsPerRun(50, decode), "the legitimate decode changed")
}

// TestFastPathNoMatching: the probe's own TypeDef takes ForyRead.
func TestFastPathNoMatching(t *testing.T) {
	in := probe{F: 1.5, A: -3, B: "x"}
	f := newRuntime()
	b := buffer.New(64)
	require.NoError(t, f.serializeRoot(b, &in))
	before := EvolvedReadCount()
	var got probe
	require.NoError(t, f.deserializeRoot(b.Bytes(), &got))
	assert.Equal(t, in, got)
	assert.Equal(t, before, EvolvedReadCount())
}

func decodeErr(t *testing.T, data []byte, sentinel error) *DecodeError {
	t.Helper()
	err := newRuntime().deserializeRoot(data, new(probe))
	require.Error(t, err)
	require.ErrorIs(t, err, sentinel)
	var de *DecodeError
	require.True(t, errors.As(err, &de))
	return de
}

// TestConversionsExact: a numeric conversion (docs/format.md §11.4 point 3) must
// be exact; the checks may not rely on out-of-range float → int
// conversions, which are implementation-defined in Go (they saturate on
// arm64).
func TestConversionsExact(t *testing.T) {
	fb := remoteField{meta.FieldDef{Name: "b", TagID: -1, Type: meta.FieldType{TypeID: 21}}, func(b *buffer.Buffer) { WriteString(b, "") }}
	intAsF := func(id uint8, write func(*buffer.Buffer)) []byte {
		return probeMessage([]remoteField{{meta.FieldDef{Name: "f", TagID: -1, Type: meta.FieldType{TypeID: id}}, write}, fb})
	}
	for _, bad := range [][]byte{
		intAsF(6, func(b *buffer.Buffer) { b.WriteInt64(math.MaxInt64) }),
		intAsF(7, func(b *buffer.Buffer) { b.WriteVarInt64(math.MaxInt64 - 1) }),
		intAsF(13, func(b *buffer.Buffer) { b.WriteUint64(math.MaxUint64) }),
		intAsF(14, func(b *buffer.Buffer) { b.WriteVarUint64(1<<53 + 1) }),
	} {
		de := decodeErr(t, bad, ErrSchemaMismatch)
		assert.Contains(t, de.Error(), "exactly representable")
	}
	for _, ok := range []struct {
		data []byte
		want float64
	}{
		{intAsF(6, func(b *buffer.Buffer) { b.WriteInt64(math.MinInt64) }), math.MinInt64},
		{intAsF(14, func(b *buffer.Buffer) { b.WriteVarUint64(1 << 63) }), 1 << 63},
		{intAsF(5, func(b *buffer.Buffer) { b.WriteVarInt32(-7) }), -7},
	} {
		var got probe
		require.NoError(t, newRuntime().deserializeRoot(ok.data, &got))
		assert.Equal(t, ok.want, got.F)
	}

	floatAsA := func(v float64) []byte {
		return probeMessage([]remoteField{{meta.FieldDef{TagID: 0, Type: meta.FieldType{TypeID: 20}}, func(b *buffer.Buffer) { b.WriteFloat64(v) }}, fb})
	}
	for _, v := range []float64{1 << 63, -(1 << 63) * 2, 0.5, math.NaN(), math.Inf(1)} {
		decodeErr(t, floatAsA(v), ErrSchemaMismatch)
	}
	var got probe
	require.NoError(t, newRuntime().deserializeRoot(floatAsA(-(1<<63)), &got))
	assert.Equal(t, int64(math.MinInt64), got.A)
}

// TestUnskippableFields: fields only the writer has whose values cannot be
// skipped with the TypeDef alone are a clear ErrSchemaMismatch when the
// mapping is built, before any value is read.
func TestUnskippableFields(t *testing.T) {
	structT := meta.FieldType{TypeID: meta.TypeCompatibleStruct}
	for name, ft := range map[string]meta.FieldType{
		"map key":            {TypeID: 24, Children: []meta.FieldType{structT, {TypeID: 21}}},
		"list of map of key": {TypeID: 22, Children: []meta.FieldType{{TypeID: 24, Children: []meta.FieldType{{TypeID: meta.TypeNamedCompatibleStruct}, {TypeID: 5}}}}},
		"ext":                {TypeID: 31},
		"list of named ext":  {TypeID: 22, Children: []meta.FieldType{{TypeID: 32}}},
	} {
		data := probeMessage([]remoteField{{meta.FieldDef{Name: "zz", TagID: -1, Type: ft}, func(b *buffer.Buffer) { b.WriteVarUint32(0) }}})
		de := decodeErr(t, data, ErrSchemaMismatch)
		assert.Contains(t, de.Error(), "cannot be skipped", name)
		assert.Contains(t, de.Error(), "zz", name)
	}
	// A list of structs carries the element TypeDef (§8.1) and is skipped.
	ok := probeMessage([]remoteField{{meta.FieldDef{Name: "zz", TagID: -1, Type: meta.FieldType{TypeID: 22, Children: []meta.FieldType{structT}}},
		func(b *buffer.Buffer) { b.WriteVarUint32(0) }}})
	require.NoError(t, newRuntime().deserializeRoot(ok, new(probe)))

	// A map with struct values is skipped when it is empty or its chunks
	// carry the values' type meta (Java, Python, JavaScript); a chunk that
	// declares the value type (official Go, forygen) has bare bodies and no
	// TypeDef to skip them by.
	mapT := meta.FieldType{TypeID: 24, Children: []meta.FieldType{{TypeID: 21}, structT}}
	empty := probeMessage([]remoteField{{meta.FieldDef{Name: "zz", TagID: -1, Type: mapT}, func(b *buffer.Buffer) { b.WriteVarUint32(0) }}})
	require.NoError(t, newRuntime().deserializeRoot(empty, new(probe)))
	declared := probeMessage([]remoteField{{meta.FieldDef{Name: "zz", TagID: -1, Type: mapT}, func(b *buffer.Buffer) {
		b.WriteVarUint32(1)
		b.WriteUint8(0x24)
		b.WriteUint8(1)
		WriteString(b, "k")
	}}})
	de := decodeErr(t, declared, ErrSchemaMismatch)
	assert.Contains(t, de.Error(), "cannot be skipped")
}

// TestRefTrackedFieldUnsupported: a field the writer marks track_ref is
// written with reference flags, which forygen does not decode; matching
// says so up front instead of misreading the flag as the value.
func TestRefTrackedFieldUnsupported(t *testing.T) {
	for _, local := range []bool{true, false} {
		fd := meta.FieldDef{Name: "zz", TagID: -1, TrackRef: true, Type: meta.FieldType{TypeID: 21}}
		if local {
			fd = meta.FieldDef{Name: "b", TagID: -1, TrackRef: true, Type: meta.FieldType{TypeID: 21}}
		}
		data := probeMessage([]remoteField{{fd, func(b *buffer.Buffer) { b.WriteUint8(meta.FlagRefValue); WriteString(b, "x") }}})
		decodeErr(t, data, ErrUnsupported)
	}
}

// TestMismatchedRegistration: a TypeDef of another registration is refused
// even when its fields match.
func TestMismatchedRegistration(t *testing.T) {
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: probeID + 1, Fields: probeFields})
	data := append([]byte{meta.HeaderXlang, FlagNotNull, meta.TypeCompatibleStruct, 0}, td...)
	data = append(data, make([]byte, 8)...) // f
	data = append(data, 0, 0x02)            // a = 0, b = ""
	de := decodeErr(t, data, ErrSchemaMismatch)
	assert.Contains(t, de.Error(), fmt.Sprintf("received TypeDef registers id %d where %s (id %d) was expected", probeID+1, probeType.GoName, probeID))

	td = meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeNamedCompatibleStruct, Compatible: true, ByName: true, Namespace: "shop", TypeName: "Order", Fields: probeFields})
	data = append([]byte{meta.HeaderXlang, FlagNotNull, meta.TypeCompatibleStruct, 0}, td...)
	data = append(data, make([]byte, 8)...)
	data = append(data, 0, 0x02)
	de = decodeErr(t, data, ErrSchemaMismatch)
	assert.Contains(t, de.Error(), fmt.Sprintf(`received TypeDef registers "shop.Order" where %s (id %d) was expected`, probeType.GoName, probeID))
}

// A field whose outer type agrees but a nested one does not (official Go's
// map(key=uint32(encoding=fixed),value=list(element=uint64(encoding=tagged)))
// read as an untagged map[uint32][]uint64) names the nested type.
func TestNestedTypeMismatchNamed(t *testing.T) {
	ft := func(id uint8, children ...meta.FieldType) meta.FieldType {
		return meta.FieldType{TypeID: id, Nullable: true, Children: children}
	}
	remote := ft(24, ft(11), ft(22, ft(15)))
	local := ft(24, ft(11), ft(22, ft(14)))
	assert.Equal(t, ", map value list element: type id 15 in the input and 14 here", nestedDiff(&remote, &local, ""))
	local = ft(24, ft(12), ft(22, ft(15)))
	assert.Equal(t, ", map key: type id 11 in the input and 12 here", nestedDiff(&remote, &local, ""))
	assert.Equal(t, "", nestedDiff(&remote, &remote, ""))
	other := ft(22, ft(15))
	assert.Equal(t, "", nestedDiff(&remote, &other, ""), "outer ids differ: the message names them already")
}
