package e2e_test

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/anyunion"
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

// A map[any]any or map[string]any is made for its declared size, so
// decoding one allocates what filling a map made for its size does, not
// the copies of its growth (issue 25 item 5).
func TestAllocAnyMapSized(t *testing.T) {
	const n = 100_000
	big := make(map[any]any, n)
	strs := make(map[string]any, n)
	for i := range int32(n) {
		big[i+1000] = i + 1000
		strs[strconv.Itoa(int(i))] = i + 1000
	}
	// What a map made for n entries costs filled with n boxed keys and
	// values (the decoder boxes what it reads the same way).
	fill := func(strKeys bool) uint64 {
		old := debug.SetGCPercent(-1)
		defer debug.SetGCPercent(old)
		runtime.GC()
		before := heapAllocs()
		if strKeys {
			m := make(map[string]any, n)
			for i := range int32(n) {
				// The decoder reads a key as an any, then puts it.
				boxSink = strconv.Itoa(int(i))
				m[boxSink.(string)] = any(i + 1000)
			}
			runtime.KeepAlive(m)
		} else {
			m := make(map[any]any, n)
			for i := range int32(n) {
				m[any(i+1000)] = any(i + 1000)
			}
			runtime.KeepAlive(m)
		}
		runtime.GC()
		return heapAllocs() - before
	}
	f := serializer.New()
	for _, tc := range []struct {
		name    string
		v       *anyunion.AnyHolder
		strKeys bool
	}{
		{"map[any]any", &anyunion.AnyHolder{Ptr: big}, false},
		{"map[string]any", &anyunion.AnyHolder{Ptr: strs}, true},
	} {
		data, err := f.Serialize(tc.v)
		require.NoError(t, err)
		_, _ = decodeAllocs(f, data, func() any { return new(anyunion.AnyHolder) })
		got, err := decodeAllocs(f, data, func() any { return new(anyunion.AnyHolder) })
		require.NoError(t, err)
		want := fill(tc.strKeys)
		t.Logf("%s: decoding %d entries allocated %d bytes; a map made for them and filled, %d", tc.name, n, got, want)
		require.LessOrEqual(t, got, want+want/10, "%s: decoding allocated %d bytes, filling a map made for its size %d", tc.name, got, want)
	}
}

// boxSink makes a value boxed in an any escape, as the decoder's keys do.
var boxSink any
