package benchmarks

import (
	"reflect"
	"testing"

	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/serializer"
)

// blockSize is the WithBlockAlloc block of BenchmarkBlockAlloc: 8 KiB, an
// allocator size class, holds the strings and arrays of a few Samples and
// MediaContents, and a list's elements span several blocks.
const blockSize = 8 << 10

// blockModes are the Forys BenchmarkBlockAlloc compares: the default, and
// the default with blocks.
var blockModes = []struct {
	name string
	f    *serializer.Fory
}{{"default", serializer.New()}, {"blocks", serializer.New(serializer.WithBlockAlloc(blockSize))}}

// blockFixture is one fixture of BenchmarkBlockAlloc and
// TestBlockAllocFixtures.
type blockFixture struct {
	name  string
	bench func(*testing.B)
	test  func(*testing.T)
}

func blockCase[T any, P serializer.Generated[T]](name string, v T) blockFixture {
	return blockFixture{name, func(b *testing.B) { benchBlocks[T, P](b, name, v) }, func(t *testing.T) { testBlocks[T, P](t, name, v) }}
}

var blockFixtures = []blockFixture{
	blockCase("NumericStruct", fixtures.NewNumericStruct()),
	blockCase("Sample", fixtures.NewSample()),
	blockCase("MediaContent", fixtures.NewMediaContent()),
	blockCase("NumericStructList", fixtures.NewNumericStructList()),
	blockCase("SampleList", fixtures.NewSampleList()),
	blockCase("MediaContentList", fixtures.NewMediaContentList()),
	blockCase("SmallMessage", fixtures.NewSmallMessage()),
}

// BenchmarkBlockAlloc/<Fixture>/<default|blocks>/<fresh|reused> decodes
// each fixture with and without WithBlockAlloc, into a new value every
// time (fresh, as BenchmarkDeserializeFresh) and into one reused value
// (reused, as BenchmarkDeserialize). instructions.sh blocks counts them.
func BenchmarkBlockAlloc(b *testing.B) {
	for _, f := range blockFixtures {
		f.bench(b)
	}
}

func benchBlocks[T any, P serializer.Generated[T]](b *testing.B, name string, v T) {
	for _, m := range blockModes {
		data, err := serializer.Marshal[T, P](m.f, &v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/"+m.name+"/fresh", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := serializer.Unmarshal[T, P](m.f, data, new(T)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/"+m.name+"/reused", func(b *testing.B) {
			var out T
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := serializer.Unmarshal[T, P](m.f, data, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBlockAllocFixtures: each fixture decodes with blocks to what it
// decodes to without, in every one of a run of fresh decodes kept alive
// together, so BenchmarkBlockAlloc compares like with like.
func TestBlockAllocFixtures(t *testing.T) {
	for _, f := range blockFixtures {
		f.test(t)
	}
}

func testBlocks[T any, P serializer.Generated[T]](t *testing.T, name string, v T) {
	plain, blocks := blockModes[0].f, blockModes[1].f
	data, err := serializer.Marshal[T, P](plain, &v)
	if err != nil {
		t.Fatal(err)
	}
	var want T
	if err := serializer.Unmarshal[T, P](plain, data, &want); err != nil {
		t.Fatal(err)
	}
	kept := make([]*T, 20)
	for i := range kept {
		kept[i] = new(T)
		if err := serializer.Unmarshal[T, P](blocks, data, kept[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i, got := range kept {
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("%s: decode %d with blocks differs from the decode without", name, i)
		}
	}
}
