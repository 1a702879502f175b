package unioncases

import (
	"encoding/hex"
	"testing"

	"github.com/forygen/forygen/internal/conformance/anyunion"
	"github.com/forygen/forygen/internal/conformance/goldencases"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

func goldens(t testing.TB) []goldencases.Case {
	return goldencases.Load(t, "testdata/official.json", 16)
}

func value(name string) *Holder {
	switch name {
	case "int32s":
		return &Holder{C: NewChoice(0, []int32{1, 2})}
	case "strings":
		return &Holder{C: NewChoice(1, []string{"a"})}
	case "map":
		return &Holder{C: NewChoice(2, map[string]int32{"k": 5})}
	}
	return &Holder{C: NewChoice(3, "s"), V: NewChoice(1, []string{"b"})}
}

// Unions with list and map cases, and a union in an any, are written as
// official Go writes them, byte for byte in same-schema mode with and
// without tracking, and read back as the case's Go type; in compatible
// mode forygen's TypeDef declares the any field nullable (docs/format.md
// §14), so the messages have official Go's length and both are read.
func TestUnionCasesGolden(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		v := value(g.Value)
		got, err := f.Serialize(v)
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
			require.Equal(t, v, &back, "%+v", g)
		}
	}
}

// A pointer to a union in an any reads back as the union's value; a case
// value the union does not declare is refused on writing and reading.
func TestUnionCasesInAny(t *testing.T) {
	for _, track := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(false), serializer.WithTrackRef(track))
		c := NewChoice(2, map[string]int32{"x": -1})
		data, err := f.Serialize(&Holder{C: NewChoice(3, ""), V: &c})
		require.NoError(t, err)
		var back Holder
		require.NoError(t, f.Deserialize(data, &back))
		require.Equal(t, c, back.V)
	}
	_, err := serializer.Serialize(&Holder{C: NewChoice(3, ""), V: NewChoice(1, []int64{1})})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	// Case 1 ([]string) holding a list of an int32: a LIST of VARINT32.
	f := serializer.New(serializer.WithCompatible(false))
	good, err := f.Serialize(value("strings"))
	require.NoError(t, err)
	bad := append([]byte(nil), good...)
	i := len(bad) - 4 // ... 15 06 61 fd: the string element and V's null
	require.Equal(t, []byte{0x15, 0x06, 0x61, 0xfd}, bad[i:])
	bad = append(append(bad[:i], 0x05, 0x02), 0xfd)
	err = f.Deserialize(bad, &Holder{})
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
}

func TestUnionCasesTruncated(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef))
		data, _ := hex.DecodeString(g.Hex)
		for n := range len(data) {
			require.ErrorIs(t, f.Deserialize(data[:n], &Holder{}), serializer.ErrMalformed, "%+v at %d", g, n)
		}
	}
}

func FuzzUnionCases(f *testing.F) {
	for _, g := range goldens(f) {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false)),
		serializer.New(serializer.WithTrackRef(true))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			var h Holder
			if fy.Deserialize(data, &h) != nil {
				continue
			}
			again, err := fy.Serialize(&h)
			if err != nil {
				t.Fatalf("re-encoding %#v: %v", h, err)
			}
			if err := fy.Deserialize(again, &h); err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
		}
	})
}

// A union registered by name in an any: its names in same-schema mode
// (back-references the second time), a shared TypeDef in compatible mode.
func TestNamedUnionInAny(t *testing.T) {
	var tok anyunion.Token
	tok.ForyUnionSet(2, int64(-5))
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			in := &Holder{C: NewChoice(3, "x"), V: []any{tok, tok}}
			data, err := f.Serialize(in)
			require.NoError(t, err)
			var back Holder
			require.NoError(t, f.Deserialize(data, &back))
			require.Equal(t, in, &back, "compatible=%v track=%v", compatible, track)
		}
	}
}
