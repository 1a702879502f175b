package benchmarks

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/zero"
	"github.com/forygen/forygen/serializer"
)

// dosInput is a hostile or extreme input and the type it is decoded into.
type dosInput struct {
	name  string
	data  []byte
	fresh func() any
}

// dosInputs are the worst inputs known per kind (issue 17), each about
// 100 KB to 1 MB: BenchmarkDoS reports the decode time per input byte,
// which must stay far below 100 ns whatever the input.
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
	out = append(out, dosInput{"skip: nested lists of zero-field structs", must(f.Serialize(&zero.Composite{Bomb: bomb})), composite})

	// A list of 100,000 pointers to zero-field structs, read into full
	// ones, padded so the length is backed: the allocation budget stops it.
	ptrs := make([]*zero.Address, 100_000)
	for i := range ptrs {
		ptrs[i] = &zero.Address{}
	}
	padded := append(must(f.Serialize(&zero.Composite{PAddrs: ptrs})), make([]byte, 100_000)...)
	out = append(out, dosInput{"read: 100k zero-field structs by pointer", padded, composite})

	// Strings: 1 MB of ASCII, 1 MB of two-byte characters.
	containers := func() any { return new(e2e.Containers) }
	out = append(out, dosInput{"read: a 1 MB ASCII string", must(f.Serialize(&e2e.Containers{S: strings.Repeat("a", 1<<20)})), containers})
	out = append(out, dosInput{"read: a 1 MB string of é", must(f.Serialize(&e2e.Containers{S: strings.Repeat("é", 1<<19)})), containers})

	// 100,000 empty strings in a list, and a map of 50,000 entries.
	out = append(out, dosInput{"read: 100k empty strings", must(f.Serialize(&e2e.Containers{Strs: make([]string, 100_000)})), containers})
	m := make(map[int32]string, 50_000)
	for i := range 50_000 {
		m[int32(i)] = ""
	}
	out = append(out, dosInput{"read: a map of 50k entries", must(f.Serialize(&e2e.Maps{ByI32: m})), func() any { return new(e2e.Maps) }})

	// A chain of 100,000 nodes: refused at the maximum depth.
	root := &e2e.Node{Value: 1}
	deep := serializer.New(serializer.WithMaxDepth(1 << 20))
	cur := root
	for i := 0; i < 100_000; i++ {
		cur.Next = &e2e.Node{Value: 1}
		cur = cur.Next
	}
	out = append(out, dosInput{"read: 100k nested structs", must(deep.Serialize(root)), func() any { return new(e2e.Node) }})

	// 1 MB of random bytes after a valid header.
	garbage := make([]byte, 1<<20)
	rand.New(rand.NewSource(1)).Read(garbage)
	copy(garbage, must(f.Serialize(&e2e.Containers{}))[:8]) // header, root flag, the start of the type meta
	out = append(out, dosInput{"read: 1 MB of garbage", garbage, containers})
	return out
}

// BenchmarkDoS decodes each hostile input with the default options; ns/op
// divided by the input length is the time per input byte (PERFORMANCE.md,
// "Hostile input").
func BenchmarkDoS(b *testing.B) {
	f := serializer.New()
	for _, in := range dosInputs(b) {
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

// TestDoSInputs: every input decodes or fails with a decode error, the
// refused ones for the reason they were built for.
func TestDoSInputs(t *testing.T) {
	f := serializer.New()
	for _, in := range dosInputs(t) {
		err := f.Deserialize(in.data, in.fresh())
		switch {
		case strings.HasPrefix(in.name, "skip"), strings.Contains(in.name, "zero-field"), strings.Contains(in.name, "nested structs"):
			if err == nil {
				t.Errorf("%s: decoded", in.name)
			}
		case strings.Contains(in.name, "garbage"):
		default:
			if err != nil {
				t.Errorf("%s: %v", in.name, err)
			}
		}
		t.Logf("%s: %d bytes: %v", in.name, len(in.data), err)
	}
}
