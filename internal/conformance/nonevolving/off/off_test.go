package off

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// official Go's bytes of the values below, ForyEvolving() false on Fixed
// and FixedN, in same-schema mode and in compatible mode.
var cases = []struct {
	name                   string
	value, target          func() serializer.Message
	consistent, compatible string
}{
	{"fixed", func() serializer.Message { return &Fixed{Name: "a", N: 1} }, func() serializer.Message { return new(Fixed) },
		"01ff1bd904d2f33941020661", "01ff1bd904020661"},
	{"outer", func() serializer.Message {
		return &Outer{F: Fixed{"b", 2}, FP: &Fixed{"c", 3}, L: []Fixed{{"d", 4}}}
	}, func() serializer.Message { return new(Outer) },
		"01ff1bda04554c292ad2f33941040662ffd2f3394106066301081bd904d2f33941080664",
		"01ff1c000ea073ffe2e1f270c3da04401b14461b176f40166e2c1bd904040662ff1bd90406066301081bd904080664"},
	{"named", func() serializer.Message { return &FixedN{Name: "n", N: 5} }, func() serializer.Message { return new(FixedN) },
		"01ff1d06040c8c700a023e42e20738d2f339410a066e",
		"01ff1d0013a0df8e272f6629a20d0c8c70163e42e207384005344815340c200a066e"},
}

// A struct declared evolving=false writes official Go's bytes for a
// non-evolving struct in both modes (STRUCT and the id, or NAMED_STRUCT and
// a TypeDef without the compatible bit, in compatible mode; a field of its
// type declared STRUCT in the parent's TypeDef) and reads them back.
func TestNonEvolvingWrite(t *testing.T) {
	for _, tc := range cases {
		for _, m := range []struct {
			compatible bool
			want       string
		}{{false, tc.consistent}, {true, tc.compatible}} {
			f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithOfficialGoForm(true))
			out, err := f.Serialize(tc.value())
			require.NoError(t, err, tc.name)
			require.Equal(t, m.want, hex.EncodeToString(out), "%s compatible=%v", tc.name, m.compatible)
			got := tc.target()
			require.NoError(t, f.Deserialize(out, got), tc.name)
			require.Equal(t, tc.value(), got, tc.name)
			for n := 0; n < len(out); n++ {
				require.Error(t, f.Deserialize(out[:n], tc.target()), "%s: prefix of %d bytes", tc.name, n)
			}
			ft := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(true), serializer.WithOfficialGoForm(true))
			out, err = ft.Serialize(tc.value())
			require.NoError(t, err, tc.name)
			got = tc.target()
			require.NoError(t, ft.Deserialize(out, got), "%s tracked", tc.name)
			require.Equal(t, tc.value(), got, "%s tracked", tc.name)
		}
	}
}
