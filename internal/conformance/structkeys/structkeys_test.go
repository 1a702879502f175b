package structkeys

import (
	"encoding/hex"
	"testing"

	"github.com/forygen/forygen/internal/conformance/goldencases"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

func goldens(t testing.TB) []goldencases.Case {
	return goldencases.Load(t, "testdata/official.json", 12)
}

func value(name string) *Grid {
	switch name {
	case "byPoint":
		return &Grid{ByPoint: map[Point]string{{1, 2}: "a"}, ByPair: map[[2]int32]string{}}
	case "byPair":
		return &Grid{ByPoint: map[Point]string{}, ByPair: map[[2]int32]string{{3, 4}: "b"}}
	}
	return &Grid{ByPoint: map[Point]string{}, ByPair: map[[2]int32]string{}}
}

// Maps keyed by a struct and by an array are written as official Go
// writes them, byte for byte in both modes with and without tracking, and
// official Go's messages are read back.
func TestStructKeysGolden(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		v := value(g.Value)
		got, err := f.Serialize(v)
		require.NoError(t, err, "%+v", g)
		require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		want, _ := hex.DecodeString(g.Hex)
		var back Grid
		require.NoError(t, f.Deserialize(want, &back), "%+v", g)
		require.Equal(t, v, &back, "%+v", g)
	}
}

// Several struct keys, the zero one included, round-trip in both modes.
func TestStructKeysRoundTrip(t *testing.T) {
	in := &Grid{ByPoint: map[Point]string{{1, 2}: "a", {-3, 4}: "b", {}: ""}, ByPair: map[[2]int32]string{{1, 1}: "x"}}
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible))
		data, err := f.Serialize(in)
		require.NoError(t, err)
		var out Grid
		require.NoError(t, f.Deserialize(data, &out))
		require.Equal(t, in, &out)
	}
}

func TestStructKeysTruncated(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef))
		data, _ := hex.DecodeString(g.Hex)
		for n := range len(data) {
			require.ErrorIs(t, f.Deserialize(data[:n], &Grid{}), serializer.ErrMalformed, "%+v at %d", g, n)
		}
	}
}

func FuzzStructKeys(f *testing.F) {
	for _, g := range goldens(f) {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			var g Grid
			if fy.Deserialize(data, &g) != nil {
				continue
			}
			again, err := fy.Serialize(&g)
			if err != nil {
				t.Fatalf("re-encoding: %v", err)
			}
			if err := fy.Deserialize(again, &g); err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
		}
	})
}
