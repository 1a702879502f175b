package iface

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

func galleryValue(name string, tracked bool) *Gallery {
	switch name {
	case "gallery":
		return &Gallery{Shapes: []Shape{&Circle{R: 1}, &Square{S: 2}}, ByName: map[string]Shape{"c": &Circle{R: 3}}, Anys: []any{&Circle{R: 1}, &Square{S: 2}}}
	case "sameType":
		return &Gallery{Shapes: []Shape{&Square{S: 1}, &Square{S: 2}}, Anys: []any{&Square{S: 1}, &Square{S: 2}}}
	}
	if tracked {
		return &Gallery{Shapes: []Shape{&Square{S: 9}, &Square{S: 2}}, Anys: []any{&Square{S: 9}, &Square{S: 2}}}
	}
	return &Gallery{Shapes: []Shape{nil, &Square{S: 2}}, ByName: map[string]Shape{"n": nil}, Anys: []any{nil, &Square{S: 2}}}
}

// Lists and maps of an interface are written as official Go writes them,
// as a []any and a map[string]any: byte for byte in same-schema mode, and
// official Go's messages are read in both modes, nil elements included.
func TestInterfaceCollectionsGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/gallery.json")
	require.NoError(t, err)
	var doc struct{ Cases []golden }
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, 12)
	for _, g := range doc.Cases {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		want, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		v := galleryValue(g.Value, g.TrackRef)
		got, err := f.Serialize(v)
		require.NoError(t, err, "%+v", g)
		if !g.Compatible {
			require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		}
		if v.ByName == nil {
			// A map field is not nullable: a nil map is written empty, as
			// official Go writes it.
			v.ByName = map[string]Shape{}
		}
		var own Gallery
		require.NoError(t, f.Deserialize(got, &own), "%+v", g)
		require.Equal(t, v, &own, "%+v", g)
		var back Gallery
		require.NoError(t, f.Deserialize(want, &back), "%+v", g)
		require.Equal(t, v, &back, "%+v", g)
	}
}

// An element that does not implement the interface is refused, naming it.
func TestInterfaceListWrongElement(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false))
	// Anys and Shapes are both []any on the wire: a Gallery whose Anys
	// hold a Label, with the two fields' bytes swapped, puts the Label in
	// Shapes. Fields in Fory order: anys, by_name, shapes.
	withLabel, err := f.Serialize(&Gallery{Anys: []any{&Label{Text: "x"}}})
	require.NoError(t, err)
	empty, err := f.Serialize(&Gallery{})
	require.NoError(t, err)
	// Each empty field is 00 (lists and maps are not nullable); the prefix
	// is the header and schema hash.
	head := empty[:len(empty)-3]
	require.Equal(t, []byte{0, 0, 0}, empty[len(head):])
	anys := withLabel[len(head) : len(withLabel)-2]
	data := append(append(append([]byte(nil), head...), 0, 0), anys...)
	var g Gallery
	err = f.Deserialize(data, &g)
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
	require.Contains(t, err.Error(), "element 0: a *iface.Label where a value implementing iface.Shape was expected")
}
