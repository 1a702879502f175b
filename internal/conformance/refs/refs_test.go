package refs

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/benchid"
	"github.com/forygen/forygen/internal/conformance/specform"
	"github.com/forygen/forygen/serializer"
)

func golden(t *testing.T, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

// fory is the Fory of a case. This test binary links two Go types
// registered as id 4 (benchid.Image and refs.Image): WithAnyTypes says
// which one an any value holds.
func fory(compatible, track bool) *serializer.Fory {
	return serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track), serializer.WithAnyTypes((*Image)(nil)), serializer.WithOfficialGoForm(true))
}

func huge() *Image {
	return &Image{URI: "http://javaone.com/keynote_huge.jpg", Title: "Javaone Keynote\u1234", Width: 32000, Height: 24000, Size: SizeLarge}
}

func small() *Image {
	return &Image{URI: "http://javaone.com/keynote_small.jpg", Width: 320, Height: 240, Size: SizeSmall}
}

// refCase is one fixture: the value official Go wrote (with its sharing),
// a fresh target, and a check of the identities the decoded value must
// have.
type refCase struct {
	name    string
	track   bool
	value   func() serializer.Message
	target  func() serializer.Message
	aliases func(t *testing.T, v serializer.Message)
	// anyFields: the root declares any fields, which forygen's TypeDef
	// declares nullable and official Go's does not.
	anyFields bool
}

func refCases() []refCase {
	return []refCase{
		{name: "ref_shared_image_fields", track: true,
			value:  func() serializer.Message { a := huge(); return &ImagePair{Cover: a, Thumb: a} },
			target: func() serializer.Message { return new(ImagePair) },
			aliases: func(t *testing.T, v serializer.Message) {
				p := v.(*ImagePair)
				require.Same(t, p.Cover, p.Thumb)
			}},
		{name: "ref_image_ptr_list", track: true,
			value: func() serializer.Message {
				a, b := huge(), small()
				return &ImagePtrList{Images: []*Image{a, b, a, nil, b, nil, a}}
			},
			target: func() serializer.Message { return new(ImagePtrList) },
			aliases: func(t *testing.T, v serializer.Message) {
				l := v.(*ImagePtrList).Images
				require.Same(t, l[0], l[2])
				require.Same(t, l[0], l[6])
				require.Same(t, l[1], l[4])
				require.NotSame(t, l[0], l[1])
				require.Nil(t, l[3])
			}},
		{name: "ref_cycle", track: true,
			value: func() serializer.Message {
				a := &Node{Value: 1}
				a.Next = &Node{Value: 2, Next: a}
				return a
			},
			target: func() serializer.Message { return new(Node) },
			aliases: func(t *testing.T, v serializer.Message) {
				a := v.(*Node)
				require.Same(t, a, a.Next.Next)
			}},
		{name: "ref_self_loop", track: true,
			value: func() serializer.Message {
				a := &Node{Value: 7}
				a.Next = a
				return a
			},
			target: func() serializer.Message { return new(Node) },
			aliases: func(t *testing.T, v serializer.Message) {
				a := v.(*Node)
				require.Same(t, a, a.Next)
			}},
		{name: "ref_tree_parent", track: true,
			value: func() serializer.Message {
				root := &TreeNode{Name: "root"}
				left := &TreeNode{Name: "left", Parent: root}
				left.Children = []*TreeNode{{Name: "leaf", Parent: left}}
				root.Children = []*TreeNode{left, {Name: "right", Parent: root}}
				return root
			},
			target: func() serializer.Message { return new(TreeNode) },
			aliases: func(t *testing.T, v serializer.Message) {
				root := v.(*TreeNode)
				require.Same(t, root, root.Children[0].Parent)
				require.Same(t, root, root.Children[1].Parent)
				require.Same(t, root.Children[0], root.Children[0].Children[0].Parent)
			}},
		{name: "ref_untracked_kinds", track: true,
			value: func() serializer.Message {
				ints, strs, m := []int32{1, 2, 3}, []string{"x", "y"}, map[string]int32{"k": 9}
				n, l := int32(42), "label"
				return &SharedUntracked{Name1: "shared text", Name2: "shared text", Ints1: ints, Ints2: ints, Strs1: strs, Strs2: strs,
					Map1: m, Map2: m, Count1: &n, Count2: &n, Label1: &l, Label2: &l}
			},
			target: func() serializer.Message { return new(SharedUntracked) },
			aliases: func(t *testing.T, v serializer.Message) {
				// Untracked kinds come back as copies.
				s := v.(*SharedUntracked)
				require.NotSame(t, s.Count1, s.Count2)
				require.NotSame(t, &s.Ints1[0], &s.Ints2[0])
			}},
		{name: "ref_shared_across_containers", track: true,
			value: func() serializer.Message {
				e := &RefElem{ID: 7, Name: "shared_element"}
				return &RefContainers{List: []*RefElem{e, e}, Set: serializer.NewSet(e), Map: map[string]*RefElem{"k1": e}, One: e}
			},
			target: func() serializer.Message { return new(RefContainers) },
			aliases: func(t *testing.T, v serializer.Message) {
				c := v.(*RefContainers)
				require.Same(t, c.One, c.List[0])
				require.Same(t, c.One, c.List[1])
				require.Same(t, c.One, c.Map["k1"])
				require.True(t, c.Set.Contains(c.One))
			}},
		{name: "ref_nil_pointers", track: true, anyFields: true,
			value:  func() serializer.Message { return &NilPointers{} },
			target: func() serializer.Message { return new(NilPointers) },
			aliases: func(t *testing.T, v serializer.Message) {
				// An untracked list is written without a flag, so a nil one comes
				// back empty (as official Go decodes it: the manifest's
				// normalization note); the nil any stays nil.
				require.Equal(t, &NilPointers{Images: []*Image{}}, v)
			}},
		{name: "ref_tracked_kinds", track: true, anyFields: true,
			value: func() serializer.Message {
				arr, bin, list, m := []int32{10, 20, 30}, []byte{0xde, 0xad, 0xbe, 0xef}, []int32{-1, -2}, map[string]int32{"a": 1}
				img := small()
				return &SharedTracked{Arr1: arr, Arr2: arr, Bin1: bin, Bin2: bin, List1: list, List2: list, Map1: m, Map2: m, Any1: img, Any2: img}
			},
			target: func() serializer.Message { return new(SharedTracked) },
			aliases: func(t *testing.T, v serializer.Message) {
				s := v.(*SharedTracked)
				require.Same(t, &s.Arr1[0], &s.Arr2[0])
				require.Same(t, &s.Bin1[0], &s.Bin2[0])
				require.Same(t, &s.List1[0], &s.List2[0])
				a, ok := s.Any1.(*Image)
				require.True(t, ok, "an any field holding a struct pointer decodes as one: %T", s.Any1)
				require.Same(t, a, s.Any2)
				require.Equal(t, small(), a)
			}},
		{name: "ref_tags_trackref_off", track: false,
			value: func() serializer.Message {
				e := &RefElem{ID: 1, Name: "one"}
				return &RefTagged{Tagged1: e, Tagged2: e, Plain: e, List: []*RefElem{e, e, nil}}
			},
			target: func() serializer.Message { return new(RefTagged) },
			aliases: func(t *testing.T, v serializer.Message) {
				// Tracking off: every occurrence is a copy.
				r := v.(*RefTagged)
				require.NotSame(t, r.Tagged1, r.Tagged2)
				require.NotSame(t, r.List[0], r.List[1])
			}},
		{name: "ref_tags_disabled_trackref_on", track: true,
			value: func() serializer.Message {
				a := huge()
				return &RefDisabled{Off1: a, Off2: a, On1: a, On2: a, OffList: []*Image{a, a}, OnList: []*Image{a, a}}
			},
			target: func() serializer.Message { return new(RefDisabled) },
			aliases: func(t *testing.T, v serializer.Message) {
				r := v.(*RefDisabled)
				require.Same(t, r.On1, r.On2)
				require.Same(t, r.On1, r.OnList[0])
				require.Same(t, r.On1, r.OnList[1])
				require.NotSame(t, r.Off1, r.Off2)
				require.NotSame(t, r.Off1, r.On1)
				require.NotSame(t, r.OffList[0], r.OffList[1])
			}},
	}
}

// The reference-tracking fixtures: forygen writes official Go's bytes from
// the same shared value, in both modes, and decodes official's bytes to an
// equal value with the same sharing.
func TestRefGolden(t *testing.T) {
	for _, tc := range refCases() {
		for _, m := range modes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				f := fory(m.compatible, tc.track)
				data := golden(t, m.dir, tc.name)
				want := data
				if tc.anyFields && m.compatible {
					// forygen declares the any fields nullable (docs/format.md §14.18).
					var err error
					want, err = specform.AnyNullable(data)
					require.NoError(t, err)
					require.NotEqual(t, data, want)
				}
				out, err := f.Serialize(tc.value())
				require.NoError(t, err)
				require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(out))
				for _, in := range [][]byte{data, out} {
					got := tc.target()
					require.NoError(t, f.Deserialize(in, got))
					tc.aliases(t, got)
					// The decoded graph writes forygen's bytes again.
					again, err := f.Serialize(got)
					require.NoError(t, err)
					require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(again))
				}
			})
		}
	}
}

// The benchmark types as Fory-IDL-generated peers send them: tracking on,
// nothing shared. Decoded to the manifest value, re-encoded byte for byte.
func TestRefBenchmarkGolden(t *testing.T) {
	var manifest struct {
		Cases []struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		} `json:"cases"`
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", "manifest.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &manifest))
	values := map[string]json.RawMessage{}
	for _, c := range manifest.Cases {
		values[c.Name] = c.Value
	}
	for name, newValue := range map[string]func() serializer.Message{
		"ref_numeric_struct_id":      func() serializer.Message { return new(benchid.NumericStruct) },
		"ref_sample_id":              func() serializer.Message { return new(benchid.Sample) },
		"ref_media_content_id":       func() serializer.Message { return new(benchid.MediaContent) },
		"ref_numeric_struct_list_id": func() serializer.Message { return new(benchid.NumericStructList) },
		"ref_sample_list_id":         func() serializer.Message { return new(benchid.SampleList) },
		"ref_media_content_list_id":  func() serializer.Message { return new(benchid.MediaContentList) },
	} {
		for _, m := range modes {
			t.Run(name+"/"+m.dir, func(t *testing.T) {
				f := fory(m.compatible, true)
				data := golden(t, m.dir, name)
				want := newValue()
				require.NoError(t, json.Unmarshal(values[name], want))
				got := newValue()
				require.NoError(t, f.Deserialize(data, got))
				require.Equal(t, want, got)
				out, err := f.Serialize(want)
				require.NoError(t, err)
				require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out))
			})
		}
	}
}

// A tracked message is read whatever the reader's WithTrackRef says: its
// root flag 0x00 switches the read into tracking (and an untracked one's
// 0xff out of it). Official Go's tracked fixtures decode with tracking off
// to the same graph, sharing included; in compatible mode a default
// serializer.New() reads the benchmark types as Fory-IDL-generated peers
// send them. forygen's untracked messages decode with tracking on.
func TestRefGoldenEitherTracking(t *testing.T) {
	for _, tc := range refCases() {
		for _, m := range modes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				data := golden(t, m.dir, tc.name)
				got := tc.target()
				require.NoError(t, fory(m.compatible, !tc.track).Deserialize(data, got))
				tc.aliases(t, got)
				again, err := fory(m.compatible, tc.track).Serialize(got)
				require.NoError(t, err)
				if !tc.anyFields || !m.compatible {
					require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(again))
				}
			})
		}
	}
	for name, newValue := range map[string]func() serializer.Message{
		"ref_numeric_struct_id":      func() serializer.Message { return new(benchid.NumericStruct) },
		"ref_sample_id":              func() serializer.Message { return new(benchid.Sample) },
		"ref_media_content_id":       func() serializer.Message { return new(benchid.MediaContent) },
		"ref_numeric_struct_list_id": func() serializer.Message { return new(benchid.NumericStructList) },
		"ref_sample_list_id":         func() serializer.Message { return new(benchid.SampleList) },
		"ref_media_content_list_id":  func() serializer.Message { return new(benchid.MediaContentList) },
	} {
		for _, m := range modes {
			t.Run(name+"/"+m.dir, func(t *testing.T) {
				data := golden(t, m.dir, name)
				readers := []*serializer.Fory{fory(m.compatible, false)}
				if m.compatible {
					readers = append(readers, serializer.New())
				}
				for _, f := range readers {
					msg := newValue()
					require.NoError(t, f.Deserialize(data, msg))
					// The value decoded writes the fixture again with tracking.
					out, err := fory(m.compatible, true).Serialize(msg)
					require.NoError(t, err)
					require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out))
					// Its untracked message reads with tracking on.
					plain, err := fory(m.compatible, false).Serialize(msg)
					require.NoError(t, err)
					require.Equal(t, byte(0xff), plain[1])
					back := newValue()
					require.NoError(t, fory(m.compatible, true).Deserialize(plain, back))
					require.Equal(t, msg, back)
				}
			})
		}
	}
}
