package e2e_test

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/refs"
	"github.com/forygen/forygen/internal/conformance/trackcoll"
	"github.com/forygen/forygen/serializer"
)

// TestAllocTracked holds the allocation bound for messages read with
// reference tracking, whose every 00 flag gives a new reference id: the
// read table's memory, its growth included, counts (issue 25 item 2: a
// []any of a million 00 flags with element type NONE allocated 188 MB for
// 1 MB, 2.9 times the bound), in both modes. Each shape is also decoded
// untracked, for comparison.
func TestAllocTracked(t *testing.T) {
	const n = 1_000_000
	var rec allocRecord
	for _, m := range modes {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(track))
			name := fmt.Sprintf("%s track=%v", m.name, track)
			must := func(b []byte, err error) []byte {
				t.Helper()
				require.NoError(t, err)
				return b
			}
			// A []any of a million elements taking a byte each: NONE's
			// type meta (24) each untracked; tracked, one declared type
			// NONE (09 24) and a 00 flag per element.
			b := must(f.Serialize(&trackcoll.AnyListByID{Items: []any{}}))
			b = append(b[:len(b)-1:len(b)-1], uvarint(n)...)
			if track {
				b = append(append(b, 0x09, 0x24), bytes.Repeat([]byte{0x00}, n)...)
			} else {
				b = append(append(b, 0x00), bytes.Repeat([]byte{0x24}, n)...)
			}
			err := rec.check(t, name+" []any of NONE", f, b[:len(b):len(b)], func() any { return new(trackcoll.AnyListByID) })
			require.NoError(t, err)

			lists := &trackcoll.NestedLists{Ints: make([][]int32, n)}
			for i := range lists.Ints {
				lists.Ints[i] = []int32{}
			}
			err = rec.check(t, name+" a list of empty lists", f, must(f.Serialize(lists)), func() any { return new(trackcoll.NestedLists) })
			require.NoError(t, err)

			mp := &trackcoll.MapOfLists{Ints: map[string][]int32{}}
			for i := range 100_000 {
				mp.Ints[strconv.Itoa(i)] = []int32{}
			}
			err = rec.check(t, name+" a map of empty list values", f, must(f.Serialize(mp)), func() any { return new(trackcoll.MapOfLists) })
			require.NoError(t, err)

			imgs := &refs.ImagePtrList{Images: make([]*refs.Image, 100_000)}
			for i := range imgs.Images {
				imgs.Images[i] = &refs.Image{}
			}
			err = rec.check(t, name+" new structs by pointer", f, must(f.Serialize(imgs)), func() any { return new(refs.ImagePtrList) })
			require.NoError(t, err)
		}
	}
	rec.log(t)
}
