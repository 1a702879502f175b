package benchmarks

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/forygen/forygen/internal/conformance/anyunion"
	"github.com/forygen/forygen/internal/conformance/refs"
	"github.com/forygen/forygen/internal/conformance/trackcoll"
	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/zero"
	"github.com/forygen/forygen/serializer"
)

// dosInput is a hostile or extreme input, the type it is decoded into and
// the reader that decodes it: the default options, or with reference
// tracking (track) for the "ref:" inputs.
type dosInput struct {
	name  string
	data  []byte
	fresh func() any
	track bool
	// want is what the decode must give: nil (decoded), an error
	// category (serializer.ErrLimit, ...), or errAny (some decode error).
	want error
}

// errAny: the input must fail, with any decode error (random bytes).
var errAny = errors.New("any decode error")

// dosReader returns the Fory that decodes in: default options, with
// WithTrackRef(true) for a tracking input.
func dosReader(in dosInput) *serializer.Fory {
	if in.track {
		return serializer.New(serializer.WithTrackRef(true))
	}
	return serializer.New()
}

// dosInputs are the worst inputs known per kind (issue 17), each about
// 100 KB to 1 MB: BenchmarkDoS reports the decode time per input byte,
// which must stay far below 100 ns whatever the input. The "ref:" inputs
// are read with reference tracking (serializer/foryimpl/refs.go), into the
// pointer types of internal/conformance/refs.
func dosInputs(tb testing.TB) []dosInput {
	tb.Helper()
	f := serializer.New()
	must := func(b []byte, err error) []byte {
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	composite := func() any { return new(e2e.Composite) }
	var out []dosInput

	// Nested lists of zero-field structs, skipped: 1,000 inner lists of
	// 4,000 elements in about 5 KB. The element budget refuses it.
	bomb := make([][]zero.Address, 1000)
	for i := range bomb {
		bomb[i] = make([]zero.Address, 4000)
	}
	out = append(out, dosInput{"skip: nested lists of zero-field structs", must(f.Serialize(&zero.Composite{Bomb: bomb})), composite, false, serializer.ErrLimit})

	// A list of 100,000 pointers to zero-field structs, read into full
	// ones, padded so the length is backed: the allocation budget stops it.
	ptrs := make([]*zero.Address, 100_000)
	for i := range ptrs {
		ptrs[i] = &zero.Address{}
	}
	padded := append(must(f.Serialize(&zero.Composite{PAddrs: ptrs})), make([]byte, 100_000)...)
	out = append(out, dosInput{"read: 100k zero-field structs by pointer", padded, composite, false, serializer.ErrLimit})

	// Strings: 1 MB of ASCII, 1 MB of two-byte characters.
	containers := func() any { return new(e2e.Containers) }
	out = append(out, dosInput{"read: a 1 MB ASCII string", must(f.Serialize(&e2e.Containers{S: strings.Repeat("a", 1<<20)})), containers, false, nil})
	out = append(out, dosInput{"read: a 1 MB string of é", must(f.Serialize(&e2e.Containers{S: strings.Repeat("é", 1<<19)})), containers, false, nil})

	// 100,000 empty strings in a list, and a map of 50,000 entries.
	out = append(out, dosInput{"read: 100k empty strings", must(f.Serialize(&e2e.Containers{Strs: make([]string, 100_000)})), containers, false, nil})
	m := make(map[int32]string, 50_000)
	for i := range 50_000 {
		m[int32(i)] = ""
	}
	out = append(out, dosInput{"read: a map of 50k entries", must(f.Serialize(&e2e.Maps{ByI32: m})), func() any { return new(e2e.Maps) }, false, nil})

	// A chain of 100,000 nodes: refused at the maximum depth.
	root := &e2e.Node{Value: 1}
	deep := serializer.New(serializer.WithMaxDepth(1 << 20))
	cur := root
	for i := 0; i < 100_000; i++ {
		cur.Next = &e2e.Node{Value: 1}
		cur = cur.Next
	}
	out = append(out, dosInput{"read: 100k nested structs", must(deep.Serialize(root)), func() any { return new(e2e.Node) }, false, serializer.ErrLimit})

	// 1 MB of random bytes after a valid header.
	garbage := make([]byte, 1<<20)
	rand.New(rand.NewSource(1)).Read(garbage)
	copy(garbage, must(f.Serialize(&e2e.Containers{}))[:8]) // header, root flag, the start of the type meta
	out = append(out, dosInput{"read: 1 MB of garbage", garbage, containers, false, errAny})

	// Reference tracking. A back-reference is resolved by its id, never
	// followed, so a message of back-references reads in time linear in
	// its length; each new object costs its allocation and one entry of
	// the read table.
	tf := serializer.New(serializer.WithTrackRef(true))
	imagePtrs := func() any { return new(refs.ImagePtrList) }

	// 100,000 list elements that are one image: the first is new, every
	// later one is a back-reference (fe 01: the root is object 0).
	one := &refs.Image{}
	same := make([]*refs.Image, 100_000)
	for i := range same {
		same[i] = one
	}
	backrefs := must(tf.Serialize(&refs.ImagePtrList{Images: same}))
	out = append(out, dosInput{"ref: 100k back-references", backrefs, imagePtrs, true, nil})

	// The same list with every back-reference turned into fe 00, the
	// root: an ImagePtrList where an *Image must be. The first one fails.
	wrong := append([]byte(nil), backrefs...)
	n := 0
	for i := len(wrong) - 2; i >= 0 && wrong[i] == 0xfe && wrong[i+1] == 0x01; i -= 2 {
		wrong[i+1] = 0x00
		n++
	}
	if n != len(same)-1 {
		tb.Fatalf("found %d back-references (fe 01) at the end of the list, want %d", n, len(same)-1)
	}
	out = append(out, dosInput{"ref: 100k back-references to the root (fe 00)", wrong, imagePtrs, true, serializer.ErrSchemaMismatch})

	// 100,000 new images (all zero, so each is a few bytes): one
	// allocation and one table entry per element.
	distinct := make([]*refs.Image, 100_000)
	for i := range distinct {
		distinct[i] = &refs.Image{}
	}
	out = append(out, dosInput{"ref: 100k new structs by pointer", must(tf.Serialize(&refs.ImagePtrList{Images: distinct})), imagePtrs, true, nil})

	// A list of 100,000 tree nodes whose Parent is the node before them
	// (the first's is the root): a new object and a back-reference per
	// element, no nesting.
	tree := &refs.TreeNode{Name: "root"}
	tree.Children = make([]*refs.TreeNode, 100_000)
	prev := tree
	for i := range tree.Children {
		tree.Children[i] = &refs.TreeNode{Parent: prev}
		prev = tree.Children[i]
	}
	out = append(out, dosInput{"ref: 100k elements each referring to the one before", must(tf.Serialize(tree)), func() any { return new(refs.TreeNode) }, true, nil})

	// A chain of 100,000 new nodes, written with a raised depth limit:
	// the reader refuses it at its maximum depth.
	deepRef := serializer.New(serializer.WithTrackRef(true), serializer.WithMaxDepth(1<<20))
	head := &refs.Node{Value: 1}
	for i, cur := 0, head; i < 100_000; i++ {
		cur.Next = &refs.Node{Value: 1}
		cur = cur.Next
	}
	out = append(out, dosInput{"ref: a chain of 100k new objects", must(deepRef.Serialize(head)), func() any { return new(refs.Node) }, true, serializer.ErrLimit})
	out = append(out, trackedShapes(tb)...)

	// A map[any]any of a million int32 keys and values, in an any field
	// (issue 25 item 5: built by growth, 342 ns per input byte).
	big := make(map[any]any, 1_000_000)
	for i := range int32(1_000_000) {
		big[i] = i
	}
	out = append(out, dosInput{"read: map[any]any of 1M int32 entries", must(f.Serialize(&anyunion.AnyHolder{Ptr: big})), func() any { return new(anyunion.AnyHolder) }, false, nil})
	return out
}

// trackedShapes are the worst tracked shape of every tracked kind that is
// not a struct pointer (issue 25 item 2), each beside the same shape
// untracked, for the 2x comparison: a []any of a million 00 flags with
// element type NONE (one reference id per input byte, the most a message
// can claim), a list of a million empty tracked lists, a map of 200,000
// tracked empty list values.
func trackedShapes(tb testing.TB) []dosInput {
	tb.Helper()
	must := func(b []byte, err error) []byte {
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	plain, tf := serializer.New(), serializer.New(serializer.WithTrackRef(true))
	var out []dosInput

	// An empty Items list ends its message with the length 00: replace it
	// with a million elements. Untracked, each element is its type meta
	// NONE (24); tracked, the header declares one type, NONE, for all
	// (09 24), and each element is a 00 flag, a new object.
	const n = 1_000_000
	anyList := func(f *serializer.Fory, header []byte, elem byte) []byte {
		b := must(f.Serialize(&trackcoll.AnyListByID{Items: []any{}}))
		b = append(b[:len(b)-1:len(b)-1], binary.AppendUvarint(nil, n)...)
		b = append(b, header...)
		return append(b, bytes.Repeat([]byte{elem}, n)...)
	}
	anyFresh := func() any { return new(trackcoll.AnyListByID) }
	out = append(out, dosInput{"read: []any of 1M NONE elements", anyList(plain, []byte{0x00}, 0x24), anyFresh, false, nil})
	out = append(out, dosInput{"ref: []any of 1M 00 flags, element type NONE", anyList(tf, []byte{0x09, 0x24}, 0x00), anyFresh, true, nil})

	// A million empty inner lists: 00 each untracked, 00 00 tracked (the
	// writer gives every empty slice its own id).
	lists := &trackcoll.NestedLists{Ints: make([][]int32, n)}
	for i := range lists.Ints {
		lists.Ints[i] = []int32{}
	}
	listsFresh := func() any { return new(trackcoll.NestedLists) }
	out = append(out, dosInput{"read: 1M empty lists in a list", must(plain.Serialize(lists)), listsFresh, false, nil})
	out = append(out, dosInput{"ref: 1M empty tracked lists in a list", must(tf.Serialize(lists)), listsFresh, true, nil})

	// A map of 200,000 entries whose values are empty lists, tracked as
	// map values.
	m := &trackcoll.MapOfLists{Ints: make(map[string][]int32, 200_000)}
	for i := range 200_000 {
		m.Ints[strconv.Itoa(i)] = []int32{}
	}
	mapFresh := func() any { return new(trackcoll.MapOfLists) }
	out = append(out, dosInput{"read: a map of 200k empty list values", must(plain.Serialize(m)), mapFresh, false, nil})
	out = append(out, dosInput{"ref: a map of 200k tracked empty list values", must(tf.Serialize(m)), mapFresh, true, nil})
	return out
}

// BenchmarkDoS decodes each hostile input with the default options (with
// WithTrackRef(true) for the "ref:" inputs); ns/op divided by the input
// length is the time per input byte (PERFORMANCE.md, "Hostile input").
func BenchmarkDoS(b *testing.B) {
	for _, in := range dosInputs(b) {
		f := dosReader(in)
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.data)))
			for i := 0; i < b.N; i++ {
				_ = f.Deserialize(in.data, in.fresh())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in.data)), "ns/byte")
		})
	}
}

// TestDoSInputs: every input decodes, or fails with a decode error for
// the reason it was built for.
func TestDoSInputs(t *testing.T) {
	for _, in := range dosInputs(t) {
		err := dosReader(in).Deserialize(in.data, in.fresh())
		var de *serializer.DecodeError
		switch {
		case in.want == nil:
			if err != nil {
				t.Errorf("%s: %v", in.name, err)
			}
		case err == nil:
			t.Errorf("%s: decoded", in.name)
		case !errors.As(err, &de):
			t.Errorf("%s: %v is not a *serializer.DecodeError", in.name, err)
		case in.want != errAny && !errors.Is(err, in.want):
			t.Errorf("%s: %v, want %v", in.name, err, in.want)
		}
		t.Logf("%s: %d bytes: %v", in.name, len(in.data), err)
	}
}
