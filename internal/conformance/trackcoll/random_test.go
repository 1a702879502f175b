package trackcoll

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// gen builds random Mixed values whose inner lists, maps, sets and leaves
// are sometimes the same object twice (a pool of what it made before).
type gen struct {
	rng    *rand.Rand
	ints   [][]int32
	maps   []map[string]int32
	sets   []serializer.Set[int32]
	leaves []*Leaf311
}

func (g *gen) n(max int) int { return g.rng.Intn(max + 1) }

// pick returns an earlier object from pool, a new one, or nil.
func pick[T any](g *gen, pool *[]T, mk func() T, zero T) T {
	switch r := g.rng.Intn(10); {
	case r == 0:
		return zero
	case r < 4 && len(*pool) > 0:
		return (*pool)[g.rng.Intn(len(*pool))]
	}
	v := mk()
	*pool = append(*pool, v)
	return v
}

func (g *gen) int32s() []int32 {
	return pick(g, &g.ints, func() []int32 {
		s := make([]int32, g.n(3))
		for i := range s {
			s[i] = g.rng.Int31() - 1<<30
		}
		return s
	}, nil)
}

func (g *gen) strMap() map[string]int32 {
	return pick(g, &g.maps, func() map[string]int32 {
		m := map[string]int32{}
		for i := g.n(2); i > 0; i-- {
			m[string(rune('a'+g.n(5)))] = g.rng.Int31()
		}
		return m
	}, nil)
}

func (g *gen) set() serializer.Set[int32] {
	return pick(g, &g.sets, func() serializer.Set[int32] {
		s := serializer.NewSet[int32]()
		for i := g.n(2); i > 0; i-- {
			s.Add(int32(g.n(9)))
		}
		return s
	}, nil)
}

func (g *gen) leaf() *Leaf311 {
	return pick(g, &g.leaves, func() *Leaf311 { return &Leaf311{Name: "l", N: g.rng.Int31()} }, nil)
}

func (g *gen) mixed() *Mixed {
	m := &Mixed{Lists: [][]int32{}, Strs: [][]string{}, Deep: [][][]int64{}, Maps: []map[string][]int32{},
		ByKey: map[string][]string{}, Nested: map[int32]map[string]int32{}, Sets: []serializer.Set[int32]{},
		SetMap: map[string]serializer.Set[string]{}, Bins: [][]byte{}, Leaves: map[string]*Leaf311{},
		LeafList: []*Leaf311{}, Floats: [][]float64{}}
	for i := g.n(4); i > 0; i-- {
		m.Lists = append(m.Lists, g.int32s())
		m.Sets = append(m.Sets, g.set())
		m.LeafList = append(m.LeafList, g.leaf())
		m.Nested[int32(g.n(20))] = g.strMap()
		m.Leaves[string(rune('a'+g.n(9)))] = g.leaf()
	}
	for i := g.n(3); i > 0; i-- {
		var s []string
		if g.n(4) > 0 {
			s = make([]string, g.n(2))
			for j := range s {
				s[j] = "s" + string(rune('0'+g.n(9)))
			}
		}
		m.Strs = append(m.Strs, s)
		m.ByKey[string(rune('k'+g.n(5)))] = s
		var inner [][]int64
		if g.n(4) > 0 {
			inner = make([][]int64, g.n(2))
			for j := range inner {
				inner[j] = make([]int64, g.n(2))
			}
		}
		m.Deep = append(m.Deep, inner)
		row := map[string][]int32{"x": g.int32s()}
		if g.n(3) == 0 {
			row = nil
		}
		m.Maps = append(m.Maps, row)
		var b []byte
		if g.n(3) > 0 {
			b = make([]byte, g.n(3))
			g.rng.Read(b)
		}
		m.Bins = append(m.Bins, b)
		var set serializer.Set[string]
		if g.n(3) > 0 {
			set = serializer.NewSet("v" + string(rune('0'+g.n(9))))
		}
		m.SetMap[string(rune('p'+g.n(5)))] = set
		f := make([]float64, g.n(2))
		m.Floats = append(m.Floats, f)
	}
	return m
}

// identities records, for every non-empty slice, map and non-nil
// pointer reachable from v, the paths that hold it.
func identities(v reflect.Value, path string, seen map[[2]uintptr][]string) {
	key := func(p uintptr, n int) {
		k := [2]uintptr{p, uintptr(n)}
		seen[k] = append(seen[k], path)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			key(v.Pointer(), 0)
			identities(v.Elem(), path+"*", seen)
		}
	case reflect.Slice:
		if v.Len() > 0 {
			key(v.Pointer(), v.Len())
			for i := 0; i < v.Len(); i++ {
				identities(v.Index(i), fmt.Sprintf("%s/%d", path, i), seen)
			}
		}
	case reflect.Map:
		if !v.IsNil() {
			key(v.Pointer(), -1)
			for _, k := range v.MapKeys() {
				identities(v.MapIndex(k), fmt.Sprintf("%s/%v", path, k.Interface()), seen)
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			identities(v.Field(i), path+"."+v.Type().Field(i).Name, seen)
		}
	}
}

// sharing is the partition of v's locations into shared objects: the
// sorted groups of two or more paths that hold one object.
func sharing(v any) [][]string {
	seen := map[[2]uintptr][]string{}
	identities(reflect.ValueOf(v), "", seen)
	var groups [][]string
	for _, paths := range seen {
		if len(paths) > 1 {
			sort.Strings(paths)
			groups = append(groups, paths)
		}
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i][0] < groups[j][0] })
	return groups
}

// Random values with collections inside lists and maps, some shared,
// round-trip with tracking in both modes: equal, and shared exactly where
// the written value shared (every occurrence after the first is a
// reference to it; nothing else is).
func TestRandomTrackedCollections(t *testing.T) {
	g := &gen{rng: rand.New(rand.NewSource(23))}
	for i := 0; i < 400; i++ {
		g.ints, g.maps, g.sets, g.leaves = nil, nil, nil, nil
		in := g.mixed()
		for _, m := range modes {
			f := fory(m.compatible)
			data, err := f.Serialize(in)
			require.NoError(t, err)
			var out Mixed
			require.NoError(t, f.Deserialize(data, &out), "value %d", i)
			require.Equal(t, in, &out, "value %d", i)
			require.Equal(t, sharing(in), sharing(&out), "value %d: sharing", i)
		}
	}
}
