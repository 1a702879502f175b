package iface

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

type golden struct {
	TrackRef   bool   `json:"track_ref"`
	Compatible bool   `json:"compatible"`
	Value      string `json:"value"`
	Hex        string `json:"hex"`
}

func goldens(t testing.TB) []golden {
	raw, err := os.ReadFile("testdata/official.json")
	require.NoError(t, err)
	var doc struct{ Cases []golden }
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, 12)
	return doc.Cases
}

func value(name string) *Drawing {
	switch name {
	case "two":
		return &Drawing{Main: &Circle{R: 2}, Other: &Square{S: 3}, Any: &Square{S: 4}, N: 1}
	case "nil":
		return &Drawing{Main: &Square{S: 5}, N: 2}
	}
	c := &Circle{R: 2}
	return &Drawing{Main: c, Other: c, N: 3}
}

// Interface fields are written as official Go writes them, byte for byte
// in same-schema mode, with and without tracking, and official Go's
// messages are read in both modes; a shared pointer is one object with
// tracking.
func TestInterfaceGolden(t *testing.T) {
	for _, g := range goldens(t) {
		name := g.Value
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		want, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		v := value(name)
		got, err := f.Serialize(v)
		require.NoError(t, err, "%+v", g)
		if !g.Compatible {
			require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		} else {
			// The TypeDef declares the interface and any fields nullable,
			// as the specification, Java and Python do (official Go: not
			// nullable, docs/format.md §14); the values are the same.
			require.Equal(t, len(want), len(got), "%+v", g)
			var own Drawing
			require.NoError(t, f.Deserialize(got, &own), "%+v", g)
			require.Equal(t, v, &own, "%+v", g)
		}
		var back Drawing
		require.NoError(t, f.Deserialize(want, &back), "%+v", g)
		require.Equal(t, v, &back, "%+v", g)
		if name == "shared" && g.TrackRef {
			require.Same(t, back.Main, back.Other, "%+v", g)
		}
	}
}

// A generated value that does not implement the interface is a schema
// mismatch naming the interface and the known implementations.
func TestInterfaceWrongType(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		// Any holds a Label (a generated type, not a Shape); move its
		// bytes to Main. An all-null Drawing is the prefix, N, then fd
		// for Any, Main and Other (fields in Fory order: N, any, main,
		// other).
		empty, err := f.Serialize(&Drawing{N: 1})
		require.NoError(t, err)
		withLabel, err := f.Serialize(&Drawing{Any: &Label{Text: "x"}, N: 1})
		require.NoError(t, err)
		head := empty[:len(empty)-3]
		require.Equal(t, head, withLabel[:len(head)])
		label := withLabel[len(head) : len(withLabel)-2]
		data := append(append(append(append([]byte(nil), head...), 0xfd), label...), 0xfd)
		var d Drawing
		err = f.Deserialize(data, &d)
		require.ErrorIs(t, err, serializer.ErrSchemaMismatch, "compatible=%v", compatible)
		require.Contains(t, err.Error(), "*iface.Label where a value implementing iface.Shape was expected (generated implementations: *Circle, *Square)")
	}
}

// Writing a value of a type without generated code in an interface field
// is refused, as for an any field.
func TestInterfaceNotGenerated(t *testing.T) {
	_, err := serializer.Serialize(&Drawing{Main: plain{}})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
}

type plain struct{}

func (plain) Area() float64 { return 0 }

func FuzzInterface(f *testing.F) {
	for _, g := range goldens(f) {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false)),
		serializer.New(serializer.WithTrackRef(true))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			var d Drawing
			if fy.Deserialize(data, &d) != nil {
				continue
			}
			again, err := fy.Serialize(&d)
			if err != nil {
				t.Fatalf("re-encoding a decoded value: %v", err)
			}
			var e Drawing
			if err := fy.Deserialize(again, &e); err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
		}
	})
}
