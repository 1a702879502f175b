package refs

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// A back-reference to an id not given yet, to an object of another type,
// or to one still being read is a clear error, never a panic or a wrong
// value.
func TestHostileBackReferences(t *testing.T) {
	f := fory(false, true)
	cycle := golden(t, "schema-consistent", "ref_cycle")
	// The last back-reference (fe 00, to the root) names an id no flag
	// gave.
	bad := append([]byte(nil), cycle...)
	bad[len(bad)-1] = 0x05
	err := f.Deserialize(bad, new(Node))
	require.ErrorIs(t, err, serializer.ErrMalformed)
	require.Contains(t, err.Error(), "reference to object 5")

	// ImagePair's Thumb refers to object 0, the ImagePair itself: another
	// type.
	pair := golden(t, "schema-consistent", "ref_shared_image_fields")
	bad = append([]byte(nil), pair...)
	require.Equal(t, byte(0x01), bad[len(bad)-1])
	bad[len(bad)-1] = 0x00
	err = f.Deserialize(bad, new(ImagePair))
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
	require.Contains(t, err.Error(), "Thumb")

	// A reference as the root, and a reference flag in a message whose
	// root flag says it is untracked, whatever the reader's option.
	bad = append([]byte(nil), cycle...)
	bad[1] = 0xfe
	require.Error(t, f.Deserialize(bad, new(Node)))
	bad[1] = 0xff
	for _, track := range []bool{false, true} {
		err = fory(false, track).Deserialize(bad, new(Node))
		require.ErrorIs(t, err, serializer.ErrUnsupported)
		require.Contains(t, err.Error(), "reference-tracking flag 0x00 in a message whose root flag 0xff says it was written without reference tracking")
		require.Contains(t, err.Error(), "WithTrackRef(true) on the writer")
		require.Contains(t, err.Error(), "Node.Next")
	}
}

// Every prefix of every tracking fixture is an error, and random byte
// changes never panic (a back-reference cannot make the reader loop: it
// is resolved, never followed).
func TestHostileRefTruncationAndMutation(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for _, tc := range refCases() {
		for _, m := range modes {
			f := fory(m.compatible, tc.track)
			data := golden(t, m.dir, tc.name)
			for n := 0; n < len(data); n++ {
				err := f.Deserialize(data[:n], tc.target())
				require.Error(t, err, "%s/%s: prefix of %d bytes", tc.name, m.dir, n)
				var de *serializer.DecodeError
				require.True(t, errors.As(err, &de), "%s: %v", tc.name, err)
			}
			for i := 0; i < 300; i++ {
				bad := append([]byte(nil), data...)
				bad[rng.Intn(len(bad))] = byte(rng.Intn(256))
				_ = f.Deserialize(bad, tc.target())
			}
		}
	}
}

// Without tracking a cyclic value is refused with an error that names the
// option; with it, the cycle round-trips.
func TestCycleWithoutTracking(t *testing.T) {
	a := &Node{Value: 1}
	a.Next = &Node{Value: 2, Next: a}
	_, err := fory(true, false).Serialize(a)
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	require.Contains(t, err.Error(), "cycle")
	require.Contains(t, err.Error(), "WithTrackRef")
	data, err := fory(true, true).Serialize(a)
	require.NoError(t, err)
	var back Node
	require.NoError(t, fory(true, true).Deserialize(data, &back))
	require.Same(t, &back, back.Next.Next)
}

// Shared values in more shapes than the fixtures: shared dense arrays,
// bytes, tagged lists and maps decode to one slice or map.
func TestSharedTrackedKinds(t *testing.T) {
	arr, bin, list, m := []int32{10, 20, 30}, []byte{0xde, 0xad}, []int32{-1, -2}, map[string]int32{"a": 1}
	in := &SharedTrackedKinds{Arr1: arr, Arr2: arr, Bin1: bin, Bin2: bin, List1: list, List2: list, Map1: m, Map2: m}
	for _, mode := range modes {
		f := fory(mode.compatible, true)
		data, err := f.Serialize(in)
		require.NoError(t, err)
		var back SharedTrackedKinds
		require.NoError(t, f.Deserialize(data, &back))
		require.Equal(t, *in, back)
		require.Same(t, &back.Arr1[0], &back.Arr2[0])
		require.Same(t, &back.Bin1[0], &back.Bin2[0])
		require.Same(t, &back.List1[0], &back.List2[0])
		back.Map1["b"] = 2
		require.Equal(t, int32(2), back.Map2["b"], "one map")
		for n := 0; n < len(data); n++ {
			require.Error(t, f.Deserialize(data[:n], new(SharedTrackedKinds)))
		}
	}
}

// FuzzRefs decodes arbitrary input with reference tracking into each
// tracking fixture's type: no panic, and whatever decodes writes again.
func FuzzRefs(f *testing.F) {
	cases := refCases()
	for i, tc := range cases {
		for _, m := range modes {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", m.dir, tc.name+".bin"))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), m.compatible, data)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, compatible bool, data []byte) {
		tc := cases[int(which)%len(cases)]
		fy := fory(compatible, true)
		v := tc.target()
		if fy.Deserialize(data, v) == nil {
			if _, err := fy.Serialize(v); err != nil && !errors.Is(err, serializer.ErrInvalidValue) {
				t.Fatalf("%s: decoded value does not write: %v", tc.name, err)
			}
		}
	})
}

// Many objects (past the table's growth points) and many messages through
// one Fory (its table reset between them) keep ids right.
func TestManySharedObjects(t *testing.T) {
	f := fory(true, true)
	for round := 0; round < 3; round++ {
		imgs := make([]*Image, 300)
		for i := range imgs {
			imgs[i] = &Image{Width: int32(i + round)}
		}
		var list []*Image
		for i := range imgs {
			list = append(list, imgs[i], imgs[(i*7)%len(imgs)])
		}
		data, err := f.Serialize(&ImagePtrList{Images: list})
		require.NoError(t, err)
		var back ImagePtrList
		require.NoError(t, f.Deserialize(data, &back))
		require.Len(t, back.Images, len(list))
		for i := range imgs {
			require.Same(t, back.Images[2*i+1], back.Images[2*((i*7)%len(imgs))], "round %d, image %d", round, i)
			require.Equal(t, int32(i+round), back.Images[2*i].Width)
		}
	}
}

// Two Go types registered as one id make an any value ambiguous: a clear
// error that names them and the option, and WithAnyTypes resolves it.
func TestAmbiguousAnyType(t *testing.T) {
	data := golden(t, "compatible", "ref_tracked_kinds")
	err := serializer.New(serializer.WithTrackRef(true)).Deserialize(data, new(SharedTracked))
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
	require.Contains(t, err.Error(), "benchid.Image and refs.Image")
	require.Contains(t, err.Error(), "WithAnyTypes")
	require.NoError(t, fory(true, true).Deserialize(data, new(SharedTracked)))
	require.Panics(t, func() { serializer.WithAnyTypes(5) })
}

// Without tracking, lists, sets and map values of struct pointers are
// written as copies (a set of pointers included) and round-trip as equal
// values; a nil element in a list stays nil.
func TestPointerContainersUntracked(t *testing.T) {
	e := &RefElem{ID: 7, Name: "shared_element"}
	in := &RefContainers{List: []*RefElem{e, nil, e}, Set: serializer.NewSet(e), Map: map[string]*RefElem{"k1": e, "k2": nil}, One: e}
	for _, m := range modes {
		f := fory(m.compatible, false)
		data, err := f.Serialize(in)
		require.NoError(t, err)
		var back RefContainers
		require.NoError(t, f.Deserialize(data, &back))
		require.Equal(t, in.List, back.List)
		require.Equal(t, in.Map, back.Map)
		require.Equal(t, in.One, back.One)
		require.Len(t, back.Set, 1)
		for p := range back.Set {
			require.Equal(t, e, p)
		}
		require.NotSame(t, back.List[0], back.List[2], "copies without tracking")
		for n := 0; n < len(data); n++ {
			require.Error(t, f.Deserialize(data[:n], new(RefContainers)))
		}
	}
}

// A value decoded from a message in which two tracked slices are one
// object, then from a message in which they are not: each field gets its
// own elements. Reusing the first decode's memory would give both fields
// one backing array, and the first field the second's elements.
func TestSharedSliceNotReused(t *testing.T) {
	for _, m := range modes {
		f := fory(m.compatible, true)
		arr, list := []int32{1, 2, 3}, []int32{4, 5}
		shared, err := f.Serialize(&SharedTrackedKinds{Arr1: arr, Arr2: arr, List1: list, List2: list})
		require.NoError(t, err)
		apart, err := f.Serialize(&SharedTrackedKinds{Arr1: []int32{7, 8, 9}, Arr2: []int32{10, 11, 12}, List1: []int32{13, 14}, List2: []int32{15, 16}})
		require.NoError(t, err)
		var v SharedTrackedKinds
		require.NoError(t, f.Deserialize(shared, &v))
		require.Same(t, &v.Arr1[0], &v.Arr2[0])
		require.NoError(t, f.Deserialize(apart, &v))
		require.Equal(t, []int32{7, 8, 9}, v.Arr1)
		require.Equal(t, []int32{10, 11, 12}, v.Arr2)
		require.Equal(t, []int32{13, 14}, v.List1)
		require.Equal(t, []int32{15, 16}, v.List2)
	}
}

// A tracked dense array reuses the previous value's memory, as an untracked
// one does, but each backing array only once a message: after a message in
// which two fields (or two elements' fields) were one object, the next gives
// each its own elements, and the one that reused the memory keeps it.
func TestTrackedArrayReuse(t *testing.T) {
	for _, m := range modes {
		f := fory(m.compatible, true)
		arr := []int32{1, 2, 3}
		shared, err := f.Serialize(&SharedTrackedKinds{Arr1: arr, Arr2: arr})
		require.NoError(t, err)
		apart, err := f.Serialize(&SharedTrackedKinds{Arr1: []int32{7, 8, 9}, Arr2: []int32{10, 11, 12}})
		require.NoError(t, err)

		var v SharedTrackedKinds
		require.NoError(t, f.Deserialize(apart, &v))
		p1, p2 := &v.Arr1[0], &v.Arr2[0]
		require.NoError(t, f.Deserialize(apart, &v))
		require.Same(t, p1, &v.Arr1[0], m.dir+": Arr1 reuses its memory")
		require.Same(t, p2, &v.Arr2[0], m.dir+": Arr2 reuses its memory")

		require.NoError(t, f.Deserialize(shared, &v))
		require.Same(t, &v.Arr1[0], &v.Arr2[0], m.dir)
		require.Same(t, p1, &v.Arr1[0], m.dir+": the shared array reuses Arr1's memory")
		require.NoError(t, f.Deserialize(apart, &v))
		require.Equal(t, []int32{7, 8, 9}, v.Arr1, m.dir)
		require.Equal(t, []int32{10, 11, 12}, v.Arr2, m.dir)
		require.Same(t, p1, &v.Arr1[0], m.dir+": Arr1 keeps the memory")
		require.NotSame(t, &v.Arr1[0], &v.Arr2[0], m.dir)

		// Across elements: element 1's Arr2 was element 0's Arr1.
		sharedList, err := f.Serialize(&SharedTrackedList{Items: []SharedTrackedKinds{{Arr1: arr}, {Arr2: arr}}})
		require.NoError(t, err)
		apartList, err := f.Serialize(&SharedTrackedList{Items: []SharedTrackedKinds{{Arr1: []int32{4, 5, 6}}, {Arr2: []int32{13, 14, 15}}}})
		require.NoError(t, err)
		var l SharedTrackedList
		require.NoError(t, f.Deserialize(sharedList, &l))
		require.Same(t, &l.Items[0].Arr1[0], &l.Items[1].Arr2[0], m.dir)
		require.NoError(t, f.Deserialize(apartList, &l))
		require.Equal(t, []int32{4, 5, 6}, l.Items[0].Arr1, m.dir)
		require.Equal(t, []int32{13, 14, 15}, l.Items[1].Arr2, m.dir)
		require.Equal(t, []int32{1, 2, 3}, arr, m.dir)
	}
}

// sharedList builds a SharedTrackedList from spec: two bytes an array
// slot, each either a new array (its length and first element) or, with
// the top bit set, the array of an earlier slot.
func sharedList(spec []byte) *SharedTrackedList {
	var arrs [][]int32
	l := &SharedTrackedList{}
	for i := 0; i+1 < len(spec) && len(arrs) < 64; i += 2 {
		var a []int32
		if spec[i]&0x80 != 0 && len(arrs) > 0 {
			a = arrs[int(spec[i+1])%len(arrs)]
		} else if n := int(spec[i] & 0x0f); n > 0 || spec[i]&0x10 != 0 {
			a = make([]int32, n)
			for j := range a {
				a[j] = int32(spec[i+1]) + int32(j)
			}
		}
		arrs = append(arrs, a)
		if len(arrs)%2 == 1 {
			l.Items = append(l.Items, SharedTrackedKinds{Arr1: a})
		} else {
			l.Items[len(l.Items)-1].Arr2 = a
		}
	}
	return l
}

// Decoding a message into a value that held another message, with any
// pattern of shared tracked arrays in either, gives what decoding it into
// a new value gives: reused memory never lands in two fields.
func FuzzTrackedArrayReuse(f *testing.F) {
	f.Add([]byte{3, 1, 0x80, 0, 2, 5}, []byte{3, 7, 3, 9, 0x80, 1})
	f.Add([]byte{4, 1, 4, 2, 0x80, 1, 0x80, 0}, []byte{4, 1, 4, 2, 4, 3, 4, 4})
	f.Add([]byte{0x10, 0, 0x80, 0, 1, 1}, []byte{1, 2, 1, 3, 0x80, 0})
	// Past the tables' small arrays (refSmall): 24 arrays, some shared.
	many := make([]byte, 48)
	for i := 0; i < len(many); i += 2 {
		many[i], many[i+1] = byte(1+i%5), byte(i)
		if i%6 == 4 {
			many[i] = 0x80
		}
	}
	f.Add(many, many[6:])
	f.Fuzz(func(t *testing.T, prev, next []byte) {
		for _, m := range modes {
			fy := fory(m.compatible, true)
			a, err := fy.Serialize(sharedList(prev))
			require.NoError(t, err)
			b, err := fy.Serialize(sharedList(next))
			require.NoError(t, err)
			var reused, fresh SharedTrackedList
			require.NoError(t, fy.Deserialize(a, &reused))
			require.NoError(t, fy.Deserialize(b, &reused))
			require.NoError(t, fy.Deserialize(b, &fresh))
			require.Equal(t, fresh, reused, m.dir)
		}
	})
}

// A tracked message ends its read on one of two paths (EndReadFast for a
// success on the Fory's context when the message starts with the root's
// own prefix, after DeserializeRef has emptied the reference table;
// EndRead otherwise): after a message with trailing bytes or a truncated
// one, and across messages, each decode starts from an empty reference
// table, so every decoded value's identities are its own, never the
// previous message's objects. Both official Go's bytes and forygen's own
// are read.
func TestTrackedReadEnds(t *testing.T) {
	for _, tc := range refCases() {
		if !tc.track {
			continue
		}
		for _, m := range modes {
			for _, own := range []bool{false, true} {
				name := m.dir + "/" + tc.name + "/official"
				if own {
					name = m.dir + "/" + tc.name + "/own"
				}
				t.Run(name, func(t *testing.T) { checkTrackedReadEnds(t, tc, m.compatible, m.dir, own) })
			}
		}
	}
	// Two cycles decoded one after the other close on their own roots.
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(true))
		c := &Node{Value: 1}
		c.Next = &Node{Value: 2, Next: c}
		data, err := f.Serialize(c)
		require.NoError(t, err)
		a, b := new(Node), new(Node)
		require.NoError(t, f.Deserialize(data, a))
		require.NoError(t, f.Deserialize(data, b))
		require.Same(t, a, a.Next.Next)
		require.Same(t, b, b.Next.Next)
		require.NotSame(t, a.Next, b.Next)
	}
}

func checkTrackedReadEnds(t *testing.T, tc refCase, compatible bool, dir string, own bool) {
	f := fory(compatible, true)
	data := golden(t, dir, tc.name)
	if own {
		var err error
		data, err = f.Serialize(tc.value())
		require.NoError(t, err)
	}
	first := tc.target()
	require.NoError(t, f.Deserialize(data, first))
	tc.aliases(t, first)
	for i := 0; i < 3; i++ {
		trailing := append(append([]byte(nil), data...), 0)
		require.Error(t, f.Deserialize(trailing, tc.target()), "trailing byte")
		require.Error(t, f.Deserialize(data[:len(data)-1], tc.target()), "truncated")
		v := tc.target()
		require.NoError(t, f.Deserialize(data, v))
		tc.aliases(t, v)
		// Compared by what they write: a Set keyed by pointer
		// is equal to no other.
		want, err := f.Serialize(first)
		require.NoError(t, err)
		got, err := f.Serialize(v)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	// Successes one after the other, with no failed read (whose EndRead
	// empties the table) between them.
	for i := 0; i < 3; i++ {
		v := tc.target()
		require.NoError(t, f.Deserialize(data, v))
		tc.aliases(t, v)
	}
}
