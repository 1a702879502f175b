package anykinds

import (
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/forygen/forygen/internal/conformance/goldencases"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

func goldens(t testing.TB) []goldencases.Case {
	return goldencases.Load(t, "testdata/official.json", 60)
}

var d20 = serializer.Date{Year: 2020, Month: 1, Day: 1}

func dec() serializer.Decimal { return serializer.NewDecimal(big.NewInt(-12345), 2) }

// value returns the message the golden named name holds, and the value
// forygen reads back from it where it differs (a *Decimal reads as a
// Decimal, a set of any element type as a Set[any]).
func value(name string) (written, read any) {
	h := func(v any) *Holder { return &Holder{V: v} }
	switch name {
	case "enum":
		return h(Color(2)), nil
	case "enumByName":
		return h(Tone(3)), nil
	case "twoNamedEnums":
		return &Pair{A: Tone(1), B: Tone(2)}, nil
	case "enumAndNamedEnum":
		return &Pair{A: Color(1), B: Tone(2)}, nil
	case "date":
		return h(serializer.Date{Year: 2024, Month: 2, Day: 29}), nil
	case "decimal":
		return h(dec()), nil
	case "decimalPtr":
		d := dec()
		return h(&d), h(dec())
	case "float16":
		return h(serializer.Float16FromFloat32(1.5)), nil
	case "bfloat16":
		return h(serializer.BFloat16FromFloat32(-2.5)), nil
	case "setInt32":
		return h(serializer.NewSet[int32](7)), h(serializer.NewSet[any](int32(7)))
	case "setString":
		return h(serializer.NewSet("a")), h(serializer.NewSet[any]("a"))
	case "mapEnumKey":
		return h(map[any]any{Color(1): "x"}), nil
	case "mapDateKey":
		return h(map[any]any{d20: "d"}), nil
	case "mapInt32Key":
		return h(map[any]any{int32(1): Tone(1)}), nil
	case "listAny":
		return h([]any{Color(1), d20, serializer.Float16FromFloat32(2)}), nil
	}
	panic("no value " + name)
}

// Every message official Go writes with these kinds in an any is written
// byte for byte by forygen in same-schema mode, with and without
// tracking, and read back as the carrier type or the generated enum; in
// compatible mode forygen's TypeDef declares the any fields nullable (as
// the specification, Java and Python do; docs/format.md §14), so its
// messages have official Go's length and both read each other's.
func TestAnyKindsGolden(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		want, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		v, read := value(g.Value)
		if read == nil {
			read = v
		}
		got, err := f.Serialize(v.(serializer.Message))
		require.NoError(t, err, "%+v", g)
		if g.Compatible {
			require.Equal(t, len(want), len(got), "%+v", g)
		} else {
			require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		}
		for _, data := range [][]byte{want, got} {
			switch read.(type) {
			case *Holder:
				var back Holder
				require.NoError(t, f.Deserialize(data, &back), "%+v", g)
				require.Equal(t, read, &back, "%+v", g)
			case *Pair:
				var back Pair
				require.NoError(t, f.Deserialize(data, &back), "%+v", g)
				require.Equal(t, read, &back, "%+v", g)
			}
		}
	}
}
