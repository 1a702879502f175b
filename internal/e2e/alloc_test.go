package e2e_test

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer"
)

// The allocation bound of issue 6: one decode allocates at most
// allocPerByte × len(input) + allocBase bytes, whatever the input.
const (
	allocPerByte = 64
	allocBase    = 64 << 10
)

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

// heapAllocs is the cumulative number of bytes allocated on the heap.
func heapAllocs() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

// decodeAllocs decodes in (already an exactly sized slice) into a new
// value and returns the bytes allocated and the error. The target is
// allocated before the measurement: it is the caller's.
//
// The metric counts small objects a span at a time when a P's cache is
// refilled, and corrects for unused slots when the cache is flushed; a
// collection flushes every cache, so one before and one after the decode
// make the count exact. The collector is off in between: a cycle during
// the decode could allocate runtime bookkeeping that is not the decoder's.
func decodeAllocs(f *serializer.Fory, in []byte, fresh func() any) (uint64, error) {
	v := fresh()
	old := debug.SetGCPercent(-1)
	runtime.GC()
	before := heapAllocs()
	err := f.Deserialize(in, v)
	runtime.GC()
	after := heapAllocs()
	debug.SetGCPercent(old)
	runtime.KeepAlive(v)
	return after - before, err
}

// allocRecord tracks the worst allocation seen relative to the input size.
type allocRecord struct {
	worstRatio float64 // bytes allocated per input byte, over inputs ≥ 64 KiB
	worstWhat  string
	worstBytes uint64
	worstLen   int
	n          int
}

// check fails t when a decode of in allocated more than the bound, and
// records the ratio.
func (a *allocRecord) check(t *testing.T, what string, f *serializer.Fory, in []byte, fresh func() any) error {
	t.Helper()
	// Warm the Fory's pools and caches first: they are per Fory, not per
	// decode.
	_, _ = decodeAllocs(f, in, fresh)
	got, err := decodeAllocs(f, in, fresh)
	a.record(t, what, in, got, err)
	return err
}

// record checks one measured decode against the bound and records it.
func (a *allocRecord) record(t *testing.T, what string, in []byte, got uint64, err error) {
	t.Helper()
	bound := uint64(allocPerByte*len(in) + allocBase)
	if asanBuild {
		// Redzones: up to twice the size of small objects (the bound
		// itself is held by the ordinary, -race and checkptr runs).
		bound *= 2
	}
	if got > bound {
		t.Errorf("%s: decoding %d bytes allocated %d bytes, more than %d×len+%d = %d (err: %v)",
			what, len(in), got, allocPerByte, allocBase, bound, err)
	}
	a.n++
	if len(in) >= allocBase {
		if r := float64(got) / float64(len(in)); r > a.worstRatio {
			a.worstRatio, a.worstWhat, a.worstBytes, a.worstLen = r, what, got, len(in)
		}
	}
	t.Logf("%s: %d bytes in, %d allocated (%.1f/byte), err %v", what, len(in), got, float64(got)/float64(len(in)), err)
}

func (a *allocRecord) log(t *testing.T) {
	t.Logf("%d decodes measured; worst: %.2f bytes allocated per input byte (%d bytes for a %d-byte input: %s)",
		a.n, a.worstRatio, a.worstBytes, a.worstLen, a.worstWhat)
}

func uvarint(v uint64) []byte { return binary.AppendUvarint(nil, v) }

// padded returns parts followed by pad zero bytes, as one exactly sized
// slice.
func padded(pad int, parts ...[]byte) []byte {
	n := pad
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	out = append(out, make([]byte, pad)...)
	return out[:n:n]
}

// treeBomb builds a Tree message whose Children lists, levels deep, each
// claim claim elements, followed by pad zero bytes: every level's length is
// backed by the bytes that remain, but the elements are not there. A
// decoder that checks each length against the remaining bytes alone
// allocates claim × 8 bytes per level.
func treeBomb(t testing.TB, compatible bool, levels, claim, pad int) []byte {
	f := serializer.New(serializer.WithCompatible(compatible))
	empty, err := f.Serialize(&e2e.Tree{})
	require.NoError(t, err)
	// An empty Tree body is: hash (same-schema mode), Children length 0,
	// Index length 0, Name header 0x02 (docs/format.md §9).
	bodyLen := 3
	var hash, elemMeta []byte
	if !compatible {
		bodyLen += 4
		hash = empty[len(empty)-bodyLen : len(empty)-3]
		elemMeta = empty[2:5] // 1b + varu32 user id, as the root's meta
	} else {
		elemMeta = []byte{0x1c, 0x01} // a reference to shared TypeDef #0 (§11.3)
	}
	parts := [][]byte{empty[:len(empty)-bodyLen]}
	for i := 0; i < levels; i++ {
		parts = append(parts, hash, uvarint(uint64(claim)), []byte{0x08}, elemMeta)
	}
	return padded(pad, parts...)
}

// indexBomb is treeBomb for the Index maps: each level claims claim
// entries, and the first entry's value is the next level.
func indexBomb(t testing.TB, compatible bool, levels, claim, pad int) []byte {
	f := serializer.New(serializer.WithCompatible(compatible))
	empty, err := f.Serialize(&e2e.Tree{})
	require.NoError(t, err)
	bodyLen := 3
	var hash []byte
	if !compatible {
		bodyLen += 4
		hash = empty[len(empty)-bodyLen : len(empty)-3]
	}
	parts := [][]byte{empty[:len(empty)-bodyLen]}
	for i := 0; i < levels; i++ {
		// Children: empty. Index: claim entries, a chunk of one entry with
		// both types declared (0x24), key "" (0x02), value body follows
		// (map struct values are bare bodies, §14.11).
		parts = append(parts, hash, []byte{0x00}, uvarint(uint64(claim)), []byte{0x24, 0x01, 0x02})
	}
	return padded(pad, parts...)
}

// TestAllocNestedClaims attacks with nested containers that each claim all
// the remaining bytes: per level the claim is legal, in total it is not.
func TestAllocNestedClaims(t *testing.T) {
	var rec allocRecord
	const pad = 1 << 20
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		fresh := func() any { return new(e2e.Tree) }
		for _, levels := range []int{1, 2, 5, 19, 25} {
			in := treeBomb(t, m.compatible, levels, pad, pad)
			err := rec.check(t, fmt.Sprintf("%s Children bomb, %d levels", m.name, levels), f, in, fresh)
			require.Error(t, err)
			in = indexBomb(t, m.compatible, levels, pad/2, pad)
			err = rec.check(t, fmt.Sprintf("%s Index bomb, %d levels", m.name, levels), f, in, fresh)
			require.Error(t, err)
		}
	}
	rec.log(t)
}

// treeDef returns Tree's generated TypeDef, parsed.
func treeDef(t testing.TB) *meta.TypeDef {
	td, _, err := meta.ParseTypeDef((&e2e.Tree{}).ForyType().TypeDef, meta.Limits{})
	require.NoError(t, err)
	return td
}

// remoteTree returns the TypeDef of a Tree registration (id 925) whose
// schema has Tree's children field first and then extra bool fields with
// tag ids from tagBase, which the reader skips (docs/format.md §11.4).
func remoteTree(t testing.TB, extra, tagBase int) []byte {
	local := treeDef(t)
	td := &meta.TypeDef{Kind: local.Kind, UserID: local.UserID, Compatible: true}
	for _, f := range local.Fields {
		if f.Name == "children" {
			td.Fields = append(td.Fields, f)
		}
	}
	require.Len(t, td.Fields, 1)
	for i := 0; i < extra; i++ {
		td.Fields = append(td.Fields, meta.FieldDef{TagID: tagBase + i, Type: meta.FieldType{TypeID: 1}})
	}
	return meta.EncodeTypeDef(td)
}

// typeDefChain is a compatible-mode Tree message nested levels deep in
// which every level's Children list carries a new TypeDef with extra
// skipped bool fields (distinct per level, so no cache helps), and every
// level has one child until the last.
func typeDefChain(t testing.TB, levels, extra int) []byte {
	var parts [][]byte
	parts = append(parts, []byte{0x01, 0xff, 0x1c, 0x00}, remoteTree(t, extra, 0))
	bools := make([]byte, extra)
	for i := 1; i < levels; i++ {
		parts = append(parts, []byte{0x01, 0x08, 0x1c}, uvarint(uint64(i)<<1), remoteTree(t, extra, i*extra))
	}
	parts = append(parts, []byte{0x00})
	for i := 0; i < levels; i++ {
		parts = append(parts, bools)
	}
	return padded(0, parts...)
}

// typeDefFan is a compatible-mode Tree message whose root has n children,
// each written with a 1-field schema (the root's TypeDef, referenced), and
// each child's Children list carries a new TypeDef with extra fields and
// one null element: every TypeDef is parsed and matched, and no value is
// read with it.
func typeDefFan(t testing.TB, n, extra int) []byte {
	var parts [][]byte
	parts = append(parts, []byte{0x01, 0xff, 0x1c, 0x00}, remoteTree(t, 0, 0))
	parts = append(parts, uvarint(uint64(n)), []byte{0x08, 0x1c, 0x01})
	for i := 0; i < n; i++ {
		// Children: one element, nulls announced (0x0a), a new TypeDef
		// (#i+1), the element null (0xfd).
		parts = append(parts, []byte{0x01, 0x0a, 0x1c}, uvarint(uint64(i+1)<<1), remoteTree(t, extra, 1000+i*extra), []byte{0xfd})
	}
	return padded(0, parts...)
}

// TestAllocTypeDefs attacks with TypeDefs: parsing and matching a received
// schema allocates per field, and a message can carry a new TypeDef for
// every struct value. The caches of a Fory do not help an attacker who
// sends new schemas, so the measured decodes use a new Fory each.
func TestAllocTypeDefs(t *testing.T) {
	var rec allocRecord
	fresh := func() any { return new(e2e.Tree) }
	limited := 0
	for _, extra := range []int{0, 1, 30, 200, 500} {
		in := typeDefChain(t, 19, extra)
		// The chain is a valid message: it decodes.
		require.NoError(t, serializer.New().Deserialize(in, fresh()), "chain, %d extra fields", extra)
		got, err := decodeAllocs(serializer.New(), in, fresh)
		require.NoError(t, err)
		rec.record(t, fmt.Sprintf("TypeDef chain, 19 levels, %d extra fields", extra), in, got, err)

		for _, n := range []int{1, 100, 1100} {
			if n*extra > 200_000 {
				continue
			}
			// The fan is a valid message too, but a new schema per value is
			// what an attacker sends: the budget may stop it (ErrLimit).
			in := typeDefFan(t, n, extra)
			got, err := decodeAllocs(serializer.New(), in, fresh)
			if err != nil {
				require.ErrorIs(t, err, serializer.ErrLimit, "fan %d, %d extra fields", n, extra)
				limited++
			}
			rec.record(t, fmt.Sprintf("TypeDef fan of %d, %d extra fields", n, extra), in, got, err)
		}
	}
	rec.log(t)
	t.Logf("%d fan messages stopped by the allocation budget", limited)
}

// coarseAllocs is decodeAllocs without the collections: it may count up to
// a span per size class too much, never too little, so it screens inputs
// cheaply and decodeAllocs confirms the ones that look too large.
func coarseAllocs(f *serializer.Fory, in []byte, fresh func() any) uint64 {
	v := fresh()
	before := heapAllocs()
	_ = f.Deserialize(in, v)
	after := heapAllocs()
	runtime.KeepAlive(v)
	return after - before
}

// TestAllocExplorer puts a hostile length at every offset of every e2e
// encoding (both modes): the byte there is replaced by a varint claiming
// all, half or an eighth of what follows, or 2³²−1, and pad zero bytes
// follow the message so that the claims are backed by input. Whatever the
// byte was (a length, a count, a flag, part of a value), no decode may
// allocate more than the bound. Inputs are screened with coarseAllocs; the
// ones over the bound and the 20 worst are measured exactly.
func TestAllocExplorer(t *testing.T) {
	const pad = 128 << 10
	type cand struct {
		what  string
		f     *serializer.Fory
		in    []byte
		fresh func() any
		ratio float64
	}
	var worst []cand
	var rec allocRecord
	decodes := 0
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			data, err := f.Serialize(deterministic(r))
			require.NoError(t, err)
			// One buffer for every variant: the head (message with the
			// claim) is rewritten, the zero padding after it stays zero.
			scratch := make([]byte, len(data)+binary.MaxVarintLen64+pad)
			head := len(data) + binary.MaxVarintLen64
			for i := range data {
				rest := len(data) - i - 1 + pad
				for _, claim := range []uint64{uint64(rest), uint64(rest / 2), uint64(rest / 8), 1<<32 - 1} {
					clear(scratch[:head])
					n := copy(scratch, data[:i])
					n += copy(scratch[n:], uvarint(claim))
					n += copy(scratch[n:], data[i+1:])
					in := scratch[: n+pad : n+pad]
					decodes++
					c := cand{fmt.Sprintf("%s/%s: offset %d claims %d", m.name, r.name, i, claim), f, in, r.fresh,
						float64(coarseAllocs(f, in, r.fresh)) / float64(len(in))}
					if c.ratio*float64(len(in)) > float64(allocPerByte*len(in)+allocBase) {
						got, err := decodeAllocs(f, in, r.fresh)
						rec.record(t, c.what, in, got, err)
						continue
					}
					if len(worst) == 20 && c.ratio <= worst[19].ratio {
						continue
					}
					c.in = append([]byte(nil), in...)
					worst = append(worst, c)
					sort.Slice(worst, func(a, b int) bool { return worst[a].ratio > worst[b].ratio })
					if len(worst) > 20 {
						worst = worst[:20]
					}
				}
			}
		}
	}
	for _, c := range worst {
		got, err := decodeAllocs(c.f, c.in, c.fresh)
		rec.record(t, c.what, c.in, got, err)
	}
	t.Logf("%d hostile decodes screened, %d measured exactly", decodes, rec.n)
	rec.log(t)
}

// TestAllocLegitimate decodes large, legitimate values that take as much
// memory per encoded byte as the e2e types allow (long lists of zero
// structs, of nil and zero pointers, of empty strings and lists, big maps
// of small entries): they decode, within the budget, in both modes.
func TestAllocLegitimate(t *testing.T) {
	const n = 5000
	c := &e2e.Composite{}
	for i := 0; i < n; i++ {
		c.Addrs = append(c.Addrs, other.Address{})
		c.PAddrs = append(c.PAddrs, &other.Address{})
		c.Tags = append(c.Tags, other.Tag{})
	}
	c.PAddrs[0] = nil
	ct := &e2e.Containers{}
	for i := 0; i < n; i++ {
		ct.Strs = append(ct.Strs, "")
		ct.Nested = append(ct.Nested, []int32{})
		ct.PStrs = append(ct.PStrs, nil)
		ct.Times = append(ct.Times, time.Unix(0, 0))
	}
	mp := &e2e.Maps{ByStr: map[string]string{}, Lists: map[string][]int64{}, ByInt: map[int]int{}, Ptrs: map[int32]*other.Address{}}
	for i := 0; i < n; i++ {
		k := fmt.Sprint(i)
		mp.ByStr[k] = ""
		mp.Lists[k] = []int64{}
		mp.ByInt[i] = 0
		mp.Ptrs[int32(i)] = &other.Address{}
	}
	tr := &e2e.Tree{}
	for i := 0; i < n; i++ {
		tr.Children = append(tr.Children, &e2e.Tree{})
	}
	var rec allocRecord
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, v := range []struct {
			name  string
			v     any
			fresh func() any
		}{
			{"Composite", c, func() any { return new(e2e.Composite) }},
			{"Containers", ct, func() any { return new(e2e.Containers) }},
			{"Maps", mp, func() any { return new(e2e.Maps) }},
			{"Tree", tr, func() any { return new(e2e.Tree) }},
		} {
			data, err := f.Serialize(v.v)
			require.NoError(t, err)
			got, err := decodeAllocs(f, data, v.fresh)
			require.NoError(t, err, "%s/%s", m.name, v.name)
			rec.record(t, m.name+"/"+v.name, data, got, err)
		}
	}
	rec.log(t)
}
