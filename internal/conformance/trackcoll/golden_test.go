package trackcoll

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func golden(t testing.TB, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-3", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

// fory is the Fory of every case of the group: tracking on.
func fory(compatible bool) *serializer.Fory {
	return serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(true), serializer.WithOfficialGoForm(true))
}

// trackCase is one fixture of group 1.
type trackCase struct {
	name string
	// value is the value official Go wrote, with its sharing.
	value func() serializer.Message
	// want is what a reader decodes from the golden bytes (and from
	// forygen's): value after the normalisation the README states (a nil
	// list field decodes as an empty one; a struct in an any as a pointer).
	want func() serializer.Message
	// aliases checks the sharing of a decoded value; nil: nothing shared.
	aliases func(t *testing.T, v serializer.Message)
	// officialBug is set where official Go writes a fault the specification
	// and the other languages do not share (the manifest's
	// known_official_bug): forygen writes other bytes, checked by ours, and
	// still reads official's.
	officialBug bool
	// ours, for an officialBug case, turns official's bytes of a mode into
	// the bytes forygen writes.
	ours func(official []byte) []byte
}

func leaf311(name string, n int32) *Leaf311 { return &Leaf311{Name: name, N: n} }

func cases() []trackCase {
	return []trackCase{
		{name: "ref_nested_lists",
			value: func() serializer.Message {
				return &NestedLists{Ints: [][]int32{{1, 2, 3}, nil, {-4}}, Strs: [][]string{{"a", "bc"}, {"d"}}}
			},
			want: func() serializer.Message {
				return &NestedLists{Ints: [][]int32{{1, 2, 3}, nil, {-4}}, Strs: [][]string{{"a", "bc"}, {"d"}}, Missing: [][]int32{}}
			}},
		{name: "ref_list_of_maps",
			value: func() serializer.Message {
				return &ListOfMaps{Maps: []map[string]int32{{"a": 1}, nil, {"b": -2}}}
			}},
		{name: "ref_map_of_lists",
			value: func() serializer.Message {
				return &MapOfLists{Ints: map[string][]int32{"x": {5, 6}}, Strs: map[string][]string{"y": {"p", "q"}}, NilList: map[string][]int32{"z": nil}}
			}},
		{name: "ref_map_of_maps",
			value: func() serializer.Message {
				return &MapOfMaps{Nested: map[string]map[string]int32{"outer": {"inner": 7}}}
			}},
		{name: "ref_sets_in_containers",
			value: func() serializer.Message {
				return &SetsInside{List: []serializer.Set[string]{serializer.NewSet("apple"), serializer.NewSet("pear")},
					Map: map[string]serializer.Set[int32]{"k": serializer.NewSet[int32](42)}}
			}},
		{name: "ref_binaries_in_containers",
			value: func() serializer.Message {
				return &Binaries{List: [][]byte{{1, 2, 3}, {0xff}}, Map: map[string][]byte{"b": {9, 8}}}
			}},
		{name: "ref_shared_inner_collections",
			value: func() serializer.Message {
				l, m := []int32{10, 20}, map[string]int32{"s": 1}
				return &SharedInner{Lists: [][]int32{l, {30}, l}, Maps: []map[string]int32{m, m}}
			},
			aliases: func(t *testing.T, v serializer.Message) {
				s := v.(*SharedInner)
				require.Same(t, &s.Lists[0][0], &s.Lists[2][0])
				require.NotSame(t, &s.Lists[0][0], &s.Lists[1][0])
				require.Equal(t, reflect.ValueOf(s.Maps[0]).UnsafePointer(), reflect.ValueOf(s.Maps[1]).UnsafePointer(), "one map")
			}},
		{name: "ref_empty_dense_arrays", officialBug: true,
			value: func() serializer.Message {
				return &EmptyArrays{I32: []int32{}, F32: []float32{}, Bin: []byte{}, I64: []int64{}}
			},
			// Official Go writes the three later fields as references to the
			// first (fe 01) because Go gives every zero-length slice one base
			// address; each empty array is an object of its own (00 00).
			ours: func(official []byte) []byte {
				return replaceSuffix(official, "0000fe01fe01fe01", "0000000000000000")
			}},
		{name: "ref_one_empty_dense_array",
			value: func() serializer.Message {
				return &OneEmptyArray{Empty: []int32{}, Full: []int32{1, 2}, Bin: []byte{7}}
			}},
		{name: "ref_empty_inner_lists", officialBug: true,
			value: func() serializer.Message {
				return &EmptyInner{Ints: [][]int32{{}, {1}}, Strs: [][]string{{}, {"x"}}}
			},
			// Official Go writes Strs' empty inner list as a reference to
			// Ints' (fe 01); it is an object of its own (00 00).
			ours: func(official []byte) []byte {
				return replaceSuffix(official, "020dfe0100010c0678", "020d000000010c0678")
			}},
		{name: "ref_map_nil_struct_value",
			value: func() serializer.Message {
				return &NilValues{Nils: map[string]*Leaf311{"a_b_c": nil}, Items: map[string]*Leaf311{"k": leaf311("leaf", 3)}}
			}},
		{name: "ref_enum_pointers",
			value: func() serializer.Message {
				zero, two := ColorRed, ColorBlue
				return &EnumPtrs{Zero: &zero, Two: &two}
			}},
		{name: "ref_nullable_sets",
			value: func() serializer.Message {
				return &NullableSets{Empty: serializer.NewSet[string](), One: serializer.NewSet[int32](7), Plain: serializer.NewSet("p")}
			}},
		{name: "ref_any_list_structs_by_id",
			value: func() serializer.Message {
				return &AnyListByID{Items: []any{&Leaf316{Name: "ptr", N: 1}, Leaf316{Name: "val", N: 2}, int32(3), "s"}}
			},
			want: func() serializer.Message {
				return &AnyListByID{Items: []any{&Leaf316{Name: "ptr", N: 1}, &Leaf316{Name: "val", N: 2}, int32(3), "s"}}
			}},
		{name: "ref_any_list_structs_by_name",
			value: func() serializer.Message {
				return &AnyListByName{Items: []any{&LeafNamed{Name: "ptr", N: 1}, LeafNamed{Name: "val", N: 2}}}
			},
			want: func() serializer.Message {
				return &AnyListByName{Items: []any{&LeafNamed{Name: "ptr", N: 1}, &LeafNamed{Name: "val", N: 2}}}
			}},
		{name: "ref_any_map_structs",
			value: func() serializer.Message {
				return &AnyMaps{ByID: map[string]any{"p": &Leaf319{Name: "id", N: 5}}, ByName: map[string]any{"v": Tag{Label: "named"}}}
			},
			want: func() serializer.Message {
				return &AnyMaps{ByID: map[string]any{"p": &Leaf319{Name: "id", N: 5}}, ByName: map[string]any{"v": &Tag{Label: "named"}}}
			}},
		{name: "ref_shared_pointer_in_any", officialBug: true,
			value: func() serializer.Message {
				l := &Leaf321{Name: "shared", N: 9}
				return &SharedAny{Field: l, List: []any{l, int32(1), l}, Map: map[string]any{"m": l}}
			},
			aliases: func(t *testing.T, v serializer.Message) {
				s := v.(*SharedAny)
				require.Same(t, s.Field, s.List[0])
				require.Same(t, s.Field, s.List[2])
				require.Same(t, s.Field, s.Map["m"])
			},
			ours: func(official []byte) []byte { return official }},
		{name: "ref_shared_pointer_in_any_list",
			value: func() serializer.Message {
				l := &Leaf323{Name: "again", N: 3}
				return &SharedAnyList{List: []any{l, l, "x", l}, Map: map[string]any{"m": l}}
			},
			aliases: func(t *testing.T, v serializer.Message) {
				s := v.(*SharedAnyList)
				require.Same(t, s.List[0], s.List[1])
				require.Same(t, s.List[0], s.List[3])
				require.Same(t, s.List[0], s.Map["m"])
			}},
	}
}

// replaceSuffix swaps the hex suffix old of data for new.
func replaceSuffix(data []byte, old, new string) []byte {
	h := hex.EncodeToString(data)
	if len(h) < len(old) || h[len(h)-len(old):] != old {
		panic("replaceSuffix: " + h + " does not end in " + old)
	}
	out, err := hex.DecodeString(h[:len(h)-len(old)] + new)
	if err != nil {
		panic(err)
	}
	return out
}

// Every case of group 1, both modes: forygen writes official Go's bytes
// (or, where official Go has a fault, the bytes the specification asks
// for), decodes official's bytes and its own to the expected value with
// the expected sharing, and writes the decoded value back byte for byte.
func TestTrackedCollectionsGolden(t *testing.T) {
	for _, tc := range cases() {
		for _, m := range modes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				f := fory(m.compatible)
				official := golden(t, m.dir, tc.name)
				expect := official
				if tc.officialBug {
					expect = tc.ours(official)
				}
				out, err := f.Serialize(tc.value())
				require.NoError(t, err)
				require.Equal(t, hex.EncodeToString(expect), hex.EncodeToString(out))
				want := tc.value
				if tc.want != nil {
					want = tc.want
				}
				// The decoded value writes what it holds: the expected bytes,
				// or, where decoding normalises (a struct in an any comes
				// back as a pointer), the bytes of the normalised value.
				wantBytes, err := f.Serialize(want())
				require.NoError(t, err)
				for _, data := range [][]byte{official, expect} {
					got := tc.value()
					require.NoError(t, f.Deserialize(data, got))
					require.Equal(t, want(), got)
					if tc.aliases != nil {
						tc.aliases(t, got)
					}
					again, err := f.Serialize(got)
					require.NoError(t, err)
					require.Equal(t, hex.EncodeToString(wantBytes), hex.EncodeToString(again), "decoded value re-encoded")
				}
				for n := 0; n < len(expect); n++ {
					err := f.Deserialize(expect[:n], tc.value())
					require.Error(t, err, "prefix of %d bytes", n)
					var de *serializer.DecodeError
					require.True(t, errors.As(err, &de), "%v", err)
				}
			})
		}
	}
}

// A null map key is valid Fory (a peer with nullable keys, Java's
// HashMap, writes chunk header 0x22) that a Go string key cannot hold: a
// schema mismatch naming the map, not malformed input.
func TestNullMapKey(t *testing.T) {
	official := golden(t, "schema-consistent", "ref_map_of_maps")
	// The inner map {"inner": 7}: 01 24 01 16 "inner" 0e. As {null: 7}: 01 22 0e.
	bad := replaceSuffix(official, "01240116696e6e65720e", "01220e")
	err := fory(false).Deserialize(bad, new(MapOfMaps))
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
	require.Contains(t, err.Error(), "null map key")
	require.Contains(t, err.Error(), "Nested")
}
