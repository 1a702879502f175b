// Package zero declares e2e.Composite and the structs in its lists and maps
// as a hostile writer would: the same registrations with no fields at all,
// so every element takes no bytes in compatible mode while the reader
// allocates a full struct for it (internal/e2e TestAllocZeroFieldSchema).
package zero

//go:generate go run github.com/forygen/forygen/cmd/forygen

// Address is other.Address without fields.
//
//fory:generate id=901
type Address struct{}

// Tag is other.Tag without fields.
//
//fory:generate name=other.Tag
type Tag struct{}

// Composite is e2e.Composite with only its lists and map of structs, and a
// field e2e.Composite lacks, which its reader skips: nested lists of
// zero-field structs, each inner list a few bytes however many elements it
// holds (benchmarks BenchmarkDoS, the element budget).
//
//fory:generate id=923
type Composite struct {
	Addrs  []Address
	PAddrs []*Address
	Tags   []Tag
	ByName map[string]*Tag
	Bomb   [][]Address
}
