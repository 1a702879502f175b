package e2e_test

import (
	"strconv"
	"testing"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/zero"
	"github.com/forygen/forygen/serializer"
)

// TestAllocZeroFieldSchema: a compatible-mode writer whose schemas for the
// structs in e2e.Composite's lists and map have no fields sends elements
// that take no bytes; the reader allocates a whole struct for each. With
// the elements padded so every length passes the remaining-bytes check, the
// decode must still stay within the allocation bound, on every container
// kind (issue 17 item 2: pointer elements reached 72 bytes per input byte).
func TestAllocZeroFieldSchema(t *testing.T) {
	var rec allocRecord
	f := serializer.New()
	const n = 100_000
	for _, tc := range []struct {
		what string
		v    *zero.Composite
	}{
		{"[]Address", &zero.Composite{Addrs: make([]zero.Address, n)}},
		{"[]*Address", &zero.Composite{PAddrs: func() []*zero.Address {
			s := make([]*zero.Address, n)
			for i := range s {
				s[i] = &zero.Address{}
			}
			return s
		}()}},
		{"[]Tag", &zero.Composite{Tags: make([]zero.Tag, n)}},
		{"map[string]*Tag", &zero.Composite{ByName: func() map[string]*zero.Tag {
			m := make(map[string]*zero.Tag, n)
			for i := 0; i < n; i++ {
				m[strconv.Itoa(i)] = &zero.Tag{}
			}
			return m
		}()}},
	} {
		data, err := f.Serialize(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		// Padding backs every claimed length; the decode then fails on the
		// trailing bytes, after its allocations.
		in := padded(n, data)
		_ = rec.check(t, tc.what, f, in, func() any { return new(e2e.Composite) })
		_ = rec.check(t, tc.what+" (no padding)", f, data, func() any { return new(e2e.Composite) })
	}
	rec.log(t)
}
