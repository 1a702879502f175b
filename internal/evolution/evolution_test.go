package evolution_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v1 "github.com/forygen/forygen/internal/evolution/v1"
	v2 "github.com/forygen/forygen/internal/evolution/v2"
	"github.com/forygen/forygen/serializer"
	"github.com/forygen/forygen/serializer/foryimpl"
)

// The tests below write a value with one side's schema and read it with the
// other's (docs/format.md §11.4), in both directions, and compare the result field
// by field with project(). Every struct pair has fields of every supported
// kind on both sides (matched), only in v1 (Rm*: skipped by v2, zero in v1's
// view of v2 bytes) and only in v2 (Add*: skipped by v1, zero in v2's view
// of v1 bytes).

// pair is one registration with its v1 and v2 Go types.
type pair struct {
	name   string
	v1, v2 func() any
}

var pairs = []pair{
	{"Scalars", func() any { return new(v1.Scalars) }, func() any { return new(v2.Scalars) }},
	{"Containers", func() any { return new(v1.Containers) }, func() any { return new(v2.Containers) }},
	{"Nested", func() any { return new(v1.Nested) }, func() any { return new(v2.Nested) }},
	{"Changes", func() any { return new(v1.Changes) }, func() any { return new(v2.Changes) }},
	{"Inner", func() any { return new(v1.Inner) }, func() any { return new(v2.Inner) }},
	{"Leaf", func() any { return new(v1.Leaf) }, func() any { return new(v2.Leaf) }},
	{"ReorderTags", func() any { return new(v1.ReorderTags) }, func() any { return new(v2.ReorderTags) }},
	{"ReorderNames", func() any { return new(v1.ReorderNames) }, func() any { return new(v2.ReorderNames) }},
	{"Record", func() any { return new(v1.Record) }, func() any { return new(v2.Record) }},
	{"Seqs", func() any { return new(v1.Seqs) }, func() any { return new(v2.Seqs) }},
}

// samples returns a v1 value and a v2 value whose shared fields hold the v1
// value's data (so they fit the narrower side) and whose v2-only fields are
// filled too.
func samples(p pair, nils bool) (a, b any) {
	a, b = p.v1(), p.v2()
	(&filler{seed: 1, nils: nils}).fill(a)
	(&filler{seed: 1000, nils: nils}).fill(b)
	overlay(reflect.ValueOf(b).Elem(), reflect.ValueOf(a).Elem())
	if s, ok := a.(*v1.Seqs); ok {
		// A null element cannot be read into v2's dense array
		// (TestSequenceNullElement): PtrL2A's are all set.
		for i, p := range s.PtrL2A {
			if p == nil {
				s.PtrL2A[i] = new(int32)
			}
		}
	}
	return a, b
}

// roundTrip writes src, reads it into a new value of dst's type with f and
// checks the result against project().
func roundTrip(t *testing.T, f *serializer.Fory, src any, dst func() any, context string) {
	t.Helper()
	data, err := f.Serialize(src)
	require.NoError(t, err, context)
	for attempt := 0; attempt < 2; attempt++ { // the second read uses the cached mapping
		got := dst()
		require.NoError(t, f.Deserialize(data, got), "%s (read %d)", context, attempt)
		requireFields(t, expect(got, src), got, context)
	}
}

func TestEvolutionBothWays(t *testing.T) {
	for _, p := range pairs {
		for _, nils := range []bool{false, true} {
			name := p.name
			if nils {
				name += "/nils"
			}
			t.Run(name, func(t *testing.T) {
				a, b := samples(p, nils)
				if !nils {
					nonZeroFields(t, a, "v1 sample")
					nonZeroFields(t, b, "v2 sample")
				}
				sameTypeDef := bytesOf(a) == bytesOf(b)
				for _, f := range []*serializer.Fory{serializer.New(), serializer.New(serializer.WithAliasStrings(true))} {
					before := foryimpl.EvolvedReadCount()
					roundTrip(t, f, a, p.v2, "v1 → v2")
					roundTrip(t, f, b, p.v1, "v2 → v1")
					if sameTypeDef {
						assert.Equal(t, before, foryimpl.EvolvedReadCount(), "identical TypeDefs must take the fast path")
					} else {
						assert.Greater(t, foryimpl.EvolvedReadCount(), before, "different TypeDefs must go through field matching")
					}
				}
			})
		}
	}
}

// bytesOf returns the generated TypeDef of the value's type.
func bytesOf(v any) string { return string(v.(foryimpl.Message).ForyType().TypeDef) }

// TestSameSchemaFastPath shows that a message whose TypeDefs are the
// reader's own never goes through field matching, at any nesting level.
func TestSameSchemaFastPath(t *testing.T) {
	f := serializer.New()
	for _, p := range pairs {
		a, b := samples(p, false)
		for _, v := range []any{a, b} {
			data, err := f.Serialize(v)
			require.NoError(t, err)
			got := reflect.New(reflect.TypeOf(v).Elem()).Interface()
			before := foryimpl.EvolvedReadCount()
			require.NoError(t, f.Deserialize(data, got))
			assert.Equal(t, before, foryimpl.EvolvedReadCount(), "%s: same-schema read used field matching", p.name)
			requireFields(t, expect(got, v), got, p.name+" same schema")
		}
	}
}

// TestReorderedDeclarations: the Fory field order is by group and identifier
// (docs/format.md §9.3), so declaring the same fields in another order, with tag
// ids or with names, gives the same TypeDef and the fast path.
func TestReorderedDeclarations(t *testing.T) {
	require.Equal(t, bytesOf(new(v1.ReorderTags)), bytesOf(new(v2.ReorderTags)))
	require.Equal(t, bytesOf(new(v1.ReorderNames)), bytesOf(new(v2.ReorderNames)))
	require.NotEqual(t, reflect.TypeOf(v1.ReorderTags{}).Field(0).Name, reflect.TypeOf(v2.ReorderTags{}).Field(0).Name)
	require.NotEqual(t, reflect.TypeOf(v1.ReorderNames{}).Field(0).Name, reflect.TypeOf(v2.ReorderNames{}).Field(0).Name)
}

// TestEvolvedTypeDefsDiffer guards the test tree itself: every pair except
// the Reorder ones must really differ, or the both-ways test would only
// exercise the fast path.
func TestEvolvedTypeDefsDiffer(t *testing.T) {
	for _, p := range pairs {
		if strings.HasPrefix(p.name, "Reorder") {
			continue
		}
		assert.NotEqual(t, bytesOf(p.v1()), bytesOf(p.v2()), p.name)
	}
}

// changesV2 returns a v2.Changes whose values all fit v1.Changes.
func changesV2() *v2.Changes {
	_, b := samples(pairs[3], false)
	return b.(*v2.Changes)
}

// TestNarrowing reads v2.Changes into v1.Changes, whose fields are narrower:
// values that fit convert, values that do not are ErrSchemaMismatch with the
// field in the error path.
func TestNarrowing(t *testing.T) {
	f32max := float64(math.MaxFloat32)
	fits := []struct {
		name string
		set  func(*v2.Changes)
		want func(*v1.Changes) bool
	}{
		{"w32 max", func(c *v2.Changes) { c.W32 = math.MaxInt32 }, func(c *v1.Changes) bool { return c.W32 == math.MaxInt32 }},
		{"w32 min", func(c *v2.Changes) { c.W32 = math.MinInt32 }, func(c *v1.Changes) bool { return c.W32 == math.MinInt32 }},
		{"w8 max", func(c *v2.Changes) { c.W8 = 127 }, func(c *v1.Changes) bool { return c.W8 == 127 }},
		{"w8 min", func(c *v2.Changes) { c.W8 = -128 }, func(c *v1.Changes) bool { return c.W8 == -128 }},
		{"wf max", func(c *v2.Changes) { c.WF = f32max }, func(c *v1.Changes) bool { return c.WF == math.MaxFloat32 }},
		{"wf nan", func(c *v2.Changes) { c.WF = math.NaN() }, func(c *v1.Changes) bool { return c.WF != c.WF }},
		{"wf inf", func(c *v2.Changes) { c.WF = math.Inf(-1) }, func(c *v1.Changes) bool { return math.IsInf(float64(c.WF), -1) }},
		{"wu max", func(c *v2.Changes) { c.WU = math.MaxUint16 }, func(c *v1.Changes) bool { return c.WU == math.MaxUint16 }},
		{"wfix", func(c *v2.Changes) { c.WFix = math.MinInt32 }, func(c *v1.Changes) bool { return c.WFix == math.MinInt32 }},
		{"wsu max", func(c *v2.Changes) { c.WSU = math.MaxUint16 }, func(c *v1.Changes) bool { return c.WSU == math.MaxUint16 }},
		{"wsu zero", func(c *v2.Changes) { c.WSU = 0 }, func(c *v1.Changes) bool { return c.WSU == 0 }},
		{"wif", func(c *v2.Changes) { c.WIF = -2147483648 }, func(c *v1.Changes) bool { return c.WIF == math.MinInt32 }},
		{"total", func(c *v2.Changes) { c.Total = -5 }, func(c *v1.Changes) bool { return c.Count == -5 }},
		{"npw", func(c *v2.Changes) { c.NPW = math.MinInt16 }, func(c *v1.Changes) bool { return c.NPW != nil && *c.NPW == math.MinInt16 }},
		{"nwp", func(c *v2.Changes) { x := float32(-128); c.NWP = &x }, func(c *v1.Changes) bool { return c.NWP == -128 }},
		{"nwp nil", func(c *v2.Changes) { c.NWP = nil }, func(c *v1.Changes) bool { return c.NWP == 0 }},
		{"inner score", func(c *v2.Changes) { c.NIn.Score = math.MaxInt32 }, func(c *v1.Changes) bool { return c.NIn.Score == math.MaxInt32 }},
	}
	for _, tc := range fits {
		c := changesV2()
		tc.set(c)
		data, err := serializer.Serialize(c)
		require.NoError(t, err)
		var got v1.Changes
		require.NoError(t, serializer.Deserialize(data, &got), tc.name)
		assert.True(t, tc.want(&got), "%s: got %+v", tc.name, got)
	}

	overflows := []struct {
		name, path string
		set        func(*v2.Changes)
	}{
		{"w32 > int32", "W32", func(c *v2.Changes) { c.W32 = math.MaxInt32 + 1 }},
		{"w32 < int32", "W32", func(c *v2.Changes) { c.W32 = math.MinInt64 }},
		{"w8 > int8", "W8", func(c *v2.Changes) { c.W8 = 128 }},
		{"w8 < int8", "W8", func(c *v2.Changes) { c.W8 = -129 }},
		{"wf inexact", "WF", func(c *v2.Changes) { c.WF = 0.1 }},
		{"wf > float32", "WF", func(c *v2.Changes) { c.WF = 1e39 }},
		{"wu > uint16", "WU", func(c *v2.Changes) { c.WU = math.MaxUint16 + 1 }},
		{"wu huge", "WU", func(c *v2.Changes) { c.WU = math.MaxUint64 }},
		{"wfix > int32", "WFix", func(c *v2.Changes) { c.WFix = 1 << 40 }},
		{"wsu negative", "WSU", func(c *v2.Changes) { c.WSU = -1 }},
		{"wsu > uint16", "WSU", func(c *v2.Changes) { c.WSU = 1 << 16 }},
		{"wif fraction", "WIF", func(c *v2.Changes) { c.WIF = 1.5 }},
		{"wif > int32", "WIF", func(c *v2.Changes) { c.WIF = 1e10 }},
		{"wif nan", "WIF", func(c *v2.Changes) { c.WIF = math.NaN() }},
		{"total > int32", "Count", func(c *v2.Changes) { c.Total = 1 << 31 }},
		{"npw > int16", "NPW", func(c *v2.Changes) { c.NPW = 1 << 15 }},
		{"nwp fraction", "NWP", func(c *v2.Changes) { x := float32(0.5); c.NWP = &x }},
		{"nwp > int8", "NWP", func(c *v2.Changes) { x := float32(300); c.NWP = &x }},
		{"nested inner score", "NIn.Score", func(c *v2.Changes) { c.NIn.Score = 1 << 33 }},
	}
	for _, tc := range overflows {
		c := changesV2()
		tc.set(c)
		data, err := serializer.Serialize(c)
		require.NoError(t, err)
		var got v1.Changes
		err = serializer.Deserialize(data, &got)
		require.Error(t, err, tc.name)
		require.ErrorIs(t, err, serializer.ErrSchemaMismatch, tc.name)
		var de *serializer.DecodeError
		require.True(t, errors.As(err, &de), tc.name)
		// The path names the local Go fields, also where the writer
		// knows the field by its tag id (Total, #2, is v1's Count).
		assert.Equal(t, tc.path, de.Path, "%s: %v", tc.name, err)
		assert.Equal(t, "v1.Changes", de.Type)
	}
}

// TestMapOfStructsCannotBeSkipped: a map with struct values, as official Go
// and forygen write it, carries no TypeDef for them (docs/format.md §14.11),
// so a non-empty field of that type that only the writer has cannot be
// skipped. The reader must say so, not decode garbage; an empty one is
// skipped.
func TestMapOfStructsCannotBeSkipped(t *testing.T) {
	same := map[string]v2.Item{"a": {K: "x", V: -1}, "b": {K: "y", V: 1 << 30}}
	for _, extra := range []map[int32]v2.Item{{7: {K: "z", V: 3}}, {}, nil} {
		src := &v2.MapHolder{Name: "n", Same: same, Extra: extra}
		data, err := serializer.Serialize(src)
		require.NoError(t, err)
		var got v1.MapHolder
		err = serializer.Deserialize(data, &got)
		if len(extra) == 0 {
			require.NoError(t, err)
			assert.Equal(t, "n", got.Name)
			continue
		}
		require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
		var de *serializer.DecodeError
		require.True(t, errors.As(err, &de))
		assert.Contains(t, err.Error(), "cannot be skipped")
	}

	// The other way the field is missing in the input and stays zero; the
	// shared map of identical structs is read.
	src := &v1.MapHolder{Name: "n", Same: map[string]v1.Item{"a": {K: "x", V: 5}}}
	data, err := serializer.Serialize(src)
	require.NoError(t, err)
	var got v2.MapHolder
	require.NoError(t, serializer.Deserialize(data, &got))
	assert.Equal(t, v2.MapHolder{Name: "n", Same: map[string]v2.Item{"a": {K: "x", V: 5}}}, got)
}

// TestSameSchemaModeRejectsEvolution: without TypeDefs (WithCompatible(false))
// the schema hash check refuses the other side's bytes (docs/format.md §10).
func TestSameSchemaModeRejectsEvolution(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false))
	a, _ := samples(pairs[0], false)
	data, err := f.Serialize(a)
	require.NoError(t, err)
	err = f.Deserialize(data, new(v2.Scalars))
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
}

// record returns the benchmark value in both schemas.
func record() (*v1.Record, *v2.Record) {
	r1 := &v1.Record{
		ID: 1 << 40, Name: "forygen evolution record", Count: 123456, Ratio: 0.75, Active: true,
		Tags:   []string{"alpha", "beta", "gamma", "delta"},
		Scores: map[string]int32{"x": 1, "y": -2, "z": 1 << 20},
	}
	for i := 0; i < 8; i++ {
		r1.Items = append(r1.Items, v1.Item{K: "item", V: int32(i * 1000)})
	}
	r2 := expect(new(v2.Record), r1).(*v2.Record)
	return r1, r2
}

func TestRecordPaths(t *testing.T) {
	r1, r2 := record()
	d1, err := serializer.Serialize(r1)
	require.NoError(t, err)
	d2, err := serializer.Serialize(r2)
	require.NoError(t, err)
	var fast, matched v2.Record
	before := foryimpl.EvolvedReadCount()
	require.NoError(t, serializer.Deserialize(d2, &fast))
	require.Equal(t, before, foryimpl.EvolvedReadCount())
	require.NoError(t, serializer.Deserialize(d1, &matched))
	// One evolved struct: the Record. Its Items have an identical TypeDef
	// and stay on the fast path.
	require.Equal(t, before+1, foryimpl.EvolvedReadCount())
	require.Equal(t, *r2, fast)
	require.Equal(t, fast, matched)
}

// BenchmarkEvolution decodes the same logical Record through the generated
// fast path (v2 bytes into v2) and through field matching (v1 bytes, whose
// Count is an int32, into v2).
func BenchmarkEvolution(b *testing.B) {
	r1, r2 := record()
	f := serializer.New()
	for _, bc := range []struct {
		name string
		src  any
	}{{"fast", r2}, {"matching", r1}} {
		data, err := f.Serialize(bc.src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var out v2.Record
			cpu0, ok := processCPU()
			for i := 0; i < b.N; i++ {
				if err := f.Deserialize(data, &out); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok1 := processCPU(); ok && ok1 {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// TestSequenceDomainChange: list ↔ dense array conversions keep the element
// domain (docs/format.md §11.4 point 3); int32 elements read as int64 are refused
// with a clear error, both ways.
func TestSequenceDomainChange(t *testing.T) {
	for _, tc := range []struct {
		src, dst any
	}{
		{&v1.SeqsBad{W: []int32{1}}, new(v2.SeqsBad)},
		{&v2.SeqsBad{W: []int64{1}}, new(v1.SeqsBad)},
		{&v1.SeqsBad{W: []int32{}}, new(v2.SeqsBad)},
	} {
		data, err := serializer.Serialize(tc.src)
		require.NoError(t, err)
		err = serializer.Deserialize(data, tc.dst)
		require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
		assert.Contains(t, err.Error(), "field W has type id") // the Go name, not the wire name w
	}
}

// TestSequenceArrayLength: a dense array read into a Go array must have the
// array's length.
func TestSequenceArrayLength(t *testing.T) {
	for _, n := range []int{0, 2, 4} {
		src := &v1.Seqs{Arr2Go: make([]int16, n)}
		data, err := serializer.Serialize(src)
		require.NoError(t, err)
		err = serializer.Deserialize(data, new(v2.Seqs))
		require.ErrorIs(t, err, serializer.ErrSchemaMismatch, "%d elements", n)
		assert.Contains(t, err.Error(), "array of 3")
	}
}

// FuzzEvolvedDecode feeds mutated v1 and v2 messages of every pair to both
// sides' readers: no panic, and every error is a *serializer.DecodeError
// wrapping one sentinel.
func FuzzEvolvedDecode(f *testing.F) {
	for _, p := range pairs {
		a, b := samples(p, false)
		for _, v := range []any{a, b} {
			data, err := serializer.Serialize(v)
			require.NoError(f, err)
			f.Add(data)
		}
	}
	sentinels := []error{serializer.ErrMalformed, serializer.ErrSchemaMismatch, serializer.ErrLimit, serializer.ErrUnsupported}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range pairs {
			for _, mk := range []func() any{p.v1, p.v2} {
				err := serializer.Deserialize(data, mk())
				if err == nil {
					continue
				}
				var de *serializer.DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("%s: %v is not a *serializer.DecodeError", p.name, err)
				}
				n := 0
				for _, s := range sentinels {
					if errors.Is(err, s) {
						n++
					}
				}
				if n != 1 {
					t.Fatalf("%s: %v wraps %d sentinels", p.name, err, n)
				}
			}
		}
	})
}

// TestSequenceNullElement: a null list element read into a dense array is
// a schema mismatch that names the element, never a silent zero; without
// a null the same field converts.
func TestSequenceNullElement(t *testing.T) {
	one, three := int32(1), int32(3)
	src := &v1.Seqs{Arr2Go: make([]int16, 3), PtrL2A: []*int32{&one, nil, &three}}
	data, err := serializer.Serialize(src)
	require.NoError(t, err)
	err = serializer.Deserialize(data, new(v2.Seqs))
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
	assert.Contains(t, err.Error(), "null element 1")

	src.PtrL2A = []*int32{&one, &three}
	data, err = serializer.Serialize(src)
	require.NoError(t, err)
	var dst v2.Seqs
	require.NoError(t, serializer.Deserialize(data, &dst))
	require.Equal(t, []int32{1, 3}, dst.PtrL2A)
}

// TestSequenceHalfFloats: 16-bit float lists and dense arrays convert into
// each other bit for bit, both ways (fory-java sends a list where the Go
// side declares an array).
func TestSequenceHalfFloats(t *testing.T) {
	h := []serializer.Float16{serializer.Float16FromFloat32(1.5), serializer.Float16FromFloat32(-2)}
	bh := []serializer.BFloat16{serializer.BFloat16FromFloat32(3.25)}
	data, err := serializer.Serialize(&v1.Seqs{Arr2Go: make([]int16, 3), H2A: h, BH2L: bh})
	require.NoError(t, err)
	var dst v2.Seqs
	require.NoError(t, serializer.Deserialize(data, &dst))
	require.Equal(t, h, dst.H2A)
	require.Equal(t, bh, dst.BH2L)
	data, err = serializer.Serialize(&dst)
	require.NoError(t, err)
	var back v1.Seqs
	require.NoError(t, serializer.Deserialize(data, &back))
	require.Equal(t, h, back.H2A)
	require.Equal(t, bh, back.BH2L)
}
