// Package exttest holds the tests of extension values in an any, as roots
// and as list elements and map values, which packages byid and byname run
// on their own types: each registers money.Money once, so an any holding
// one is not ambiguous in their test binaries.
package exttest

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/ext/money"
	"github.com/forygen/forygen/internal/conformance/goldencases"
	"github.com/forygen/forygen/serializer"
)

// Types are a package's generated Holder{V any} and Bag{L []Money; M
// map[string]Money; P []*Money}, seen through functions.
type Types struct {
	ByName    bool
	Holder    func(v any) serializer.Message // &Holder{V: v}
	NewHolder func() serializer.Message      // &Holder{}
	HeldValue func(serializer.Message) any   // h.V
	Bag       func(l []money.Money, m map[string]money.Money, p []*money.Money) serializer.Message
	NewBag    func() serializer.Message
	BagPtrs   func(serializer.Message) []*money.Money // b.P
}

func (ty Types) cases(t *testing.T, values ...string) []goldencases.Case {
	cs := goldencases.Load(t, "../testdata/any.json", 40)
	return goldencases.Select(cs, func(c goldencases.Case) bool {
		if c.ByName != ty.ByName {
			return false
		}
		for _, v := range values {
			if c.Value == v {
				return true
			}
		}
		return false
	})
}

var eur = money.Money{Units: 5, Cur: "EUR"}

// InAny: an extension value in an any is written as official Go writes
// it (the type meta, then the codec's bytes), byte for byte in same-schema
// mode; in compatible mode forygen's TypeDef declares the any field
// nullable (docs/format.md §14), so the messages have official Go's
// length; both read each other's, as a money.Money value, and every prefix
// of official Go's is refused.
func InAny(t *testing.T, ty Types) {
	cs := ty.cases(t, "any", "anyPtr")
	require.NotEmpty(t, cs)
	for _, g := range cs {
		f := g.Fory()
		m := eur
		in := ty.Holder(m)
		if g.Value == "anyPtr" {
			in = ty.Holder(&m)
		}
		got, err := f.Serialize(in)
		require.NoError(t, err, "%+v", g)
		want := g.Bytes()
		if g.Compatible {
			require.Equal(t, len(want), len(got), "%+v", g)
		} else {
			require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		}
		for _, data := range [][]byte{want, got} {
			back := ty.NewHolder()
			require.NoError(t, f.Deserialize(data, back), "%+v", g)
			require.Equal(t, m, ty.HeldValue(back), "%+v", g)
		}
		for k := range len(want) {
			require.ErrorIs(t, f.Deserialize(want[:k], ty.NewHolder()), serializer.ErrMalformed, "%+v at %d", g, k)
		}
	}
	// In a []any, in the four modes.
	m := money.Money{Units: -7, Cur: "CHF"}
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			in := ty.Holder([]any{m, "x", m})
			data, err := f.Serialize(in)
			require.NoError(t, err)
			back := ty.NewHolder()
			require.NoError(t, f.Deserialize(data, back))
			require.Equal(t, in, back)
		}
	}
}

// Root: an extension value as the root (Serialize(&m)) is written as
// official Go writes f.Serialize(&m), in the four modes where official Go
// wrote it, and read back into a *Money; every prefix is refused.
func Root(t *testing.T, ty Types) {
	cs := ty.cases(t, "root")
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			m := eur
			got, err := f.Serialize(&m)
			require.NoError(t, err)
			for _, g := range cs {
				if g.Compatible == compatible && g.TrackRef == track {
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

// Elems: extension values as list elements (header 08 and the type meta
// once, in both modes), as map values (declared, no meta) and as pointer
// elements (a null flag each, or with tracking a reference flag, the second
// &m a back-reference) are written as official Go writes them, byte for
// byte in the four modes, and read back; every prefix is refused.
func Elems(t *testing.T, ty Types) {
	cs := ty.cases(t, "list", "map", "ptrs")
	require.Len(t, cs, 12)
	for _, g := range cs {
		f := g.Fory()
		m := eur
		l, mp, p := []money.Money{}, map[string]money.Money{}, []*money.Money{}
		switch g.Value {
		case "list":
			l = []money.Money{m}
		case "map":
			mp = map[string]money.Money{"k": m}
		default:
			p = []*money.Money{&m, nil, &m}
		}
		in := ty.Bag(l, mp, p)
		got, err := f.Serialize(in)
		require.NoError(t, err, "%+v", g)
		require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		back := ty.NewBag()
		require.NoError(t, f.Deserialize(got, back), "%+v", g)
		require.Equal(t, in, back, "%+v", g)
		if g.Value == "ptrs" && g.TrackRef {
			ps := ty.BagPtrs(back)
			require.Same(t, ps[0], ps[2])
		}
		for k := range len(got) {
			require.ErrorIs(t, f.Deserialize(got[:k], ty.NewBag()), serializer.ErrMalformed, "%+v at %d", g, k)
		}
	}
}
