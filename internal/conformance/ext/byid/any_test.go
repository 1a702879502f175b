package byid

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/forygen/forygen/internal/conformance/ext/money"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// An extension value in an any is written as official Go writes it (the
// extension's type meta, then the codec's bytes), byte for byte in
// same-schema mode; in compatible mode forygen's TypeDef declares the any
// field nullable (docs/format.md §14), so the messages have official Go's
// length; both read each other's, as a money.Money value.
func TestExtInAnyGolden(t *testing.T) {
	raw, err := os.ReadFile("../testdata/any.json")
	require.NoError(t, err)
	var doc struct {
		Cases []struct {
			ByName     bool `json:"by_name"`
			TrackRef   bool `json:"track_ref"`
			Compatible bool `json:"compatible"`
			Value      string
			Hex        string
		}
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	n := 0
	for _, g := range doc.Cases {
		if g.ByName != false || g.Value != "any" && g.Value != "anyPtr" {
			continue
		}
		n++
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		m := money.Money{Units: 5, Cur: "EUR"}
		in := &Holder{V: m}
		if g.Value == "anyPtr" {
			in = &Holder{V: &m}
		}
		got, err := f.Serialize(in)
		require.NoError(t, err, "%+v", g)
		want, _ := hex.DecodeString(g.Hex)
		if g.Compatible {
			require.Equal(t, len(want), len(got), "%+v", g)
		} else {
			require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		}
		for _, data := range [][]byte{want, got} {
			var back Holder
			require.NoError(t, f.Deserialize(data, &back), "%+v", g)
			require.Equal(t, m, back.V, "%+v", g)
		}
		for k := range len(want) {
			require.ErrorIs(t, f.Deserialize(want[:k], &Holder{}), serializer.ErrMalformed, "%+v at %d", g, k)
		}
	}
	require.NotZero(t, n)
}

// An extension value in a []any round-trips in every mode.
func TestExtInAnyList(t *testing.T) {
	m := money.Money{Units: -7, Cur: "CHF"}
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			in := &Holder{V: []any{m, "x", m}}
			data, err := f.Serialize(in)
			require.NoError(t, err)
			var back Holder
			require.NoError(t, f.Deserialize(data, &back))
			require.Equal(t, in, &back)
		}
	}
}

// An extension value as the root (Serialize(&m)) is written as official Go
// writes f.Serialize(&m), in the four modes, and read back into a *Money.
func TestExtRoot(t *testing.T) {
	raw, err := os.ReadFile("../testdata/any.json")
	require.NoError(t, err)
	var doc struct {
		Cases []struct {
			ByName     bool `json:"by_name"`
			TrackRef   bool `json:"track_ref"`
			Compatible bool `json:"compatible"`
			Value      string
			Hex        string
		}
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	m := money.Money{Units: 5, Cur: "EUR"}
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			got, err := f.Serialize(&m)
			require.NoError(t, err)
			for _, g := range doc.Cases {
				if g.Value == "root" && g.ByName == false && g.Compatible == compatible && g.TrackRef == track {
					require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
				}
			}
			var back money.Money
			require.NoError(t, f.Deserialize(got, &back))
			require.Equal(t, m, back)
			for k := range len(got) {
				require.ErrorIs(t, f.Deserialize(got[:k], &back), serializer.ErrMalformed, "at %d", k)
			}
		}
	}
}

func bagValue(name string, m *money.Money) *Bag {
	switch name {
	case "list":
		return &Bag{L: []money.Money{*m}, M: map[string]money.Money{}, P: []*money.Money{}}
	case "map":
		return &Bag{L: []money.Money{}, M: map[string]money.Money{"k": *m}, P: []*money.Money{}}
	}
	return &Bag{L: []money.Money{}, M: map[string]money.Money{}, P: []*money.Money{m, nil, m}}
}

// Extension values as list elements (header 08 and the type meta once, in
// both modes), as map values (declared, no meta) and as pointer elements
// (a null flag each, or with tracking a reference flag, the second &m a
// back-reference) are written as official Go writes them, byte for byte
// in the four modes, and read back; every prefix is refused.
func TestExtElemsGolden(t *testing.T) {
	raw, err := os.ReadFile("../testdata/any.json")
	require.NoError(t, err)
	var doc struct {
		Cases []struct {
			ByName     bool `json:"by_name"`
			TrackRef   bool `json:"track_ref"`
			Compatible bool `json:"compatible"`
			Value      string
			Hex        string
		}
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	n := 0
	for _, g := range doc.Cases {
		if g.ByName != false || g.Value != "list" && g.Value != "map" && g.Value != "ptrs" {
			continue
		}
		n++
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		m := money.Money{Units: 5, Cur: "EUR"}
		in := bagValue(g.Value, &m)
		got, err := f.Serialize(in)
		require.NoError(t, err, "%+v", g)
		require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		var back Bag
		require.NoError(t, f.Deserialize(got, &back), "%+v", g)
		require.Equal(t, in, &back, "%+v", g)
		if g.Value == "ptrs" && g.TrackRef {
			require.Same(t, back.P[0], back.P[2])
		}
		for k := range len(got) {
			require.ErrorIs(t, f.Deserialize(got[:k], &Bag{}), serializer.ErrMalformed, "%+v at %d", g, k)
		}
	}
	require.Equal(t, 12, n)
}
