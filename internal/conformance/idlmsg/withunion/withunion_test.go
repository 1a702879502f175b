package withunion

import (
	"encoding/hex"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func rich() *Everything {
	shared := &Leaf{Name: "shared", N: 7}
	a := "a"
	five := int32(5)
	var shape Shape
	shape.ForyUnionSet(uint32(ShapeCaseLeaf), &Leaf{Name: "in-union", N: 8})
	return &Everything{B: true, I8: -8, I16: -1600, I32: -320000, Fi32: 1073741824, I64: -1099511627776,
		Fi64: 1125899906842624, Ti64: 35184372088832, U32: 4000000000, U64: 9223372036854775808, F32: 1.5, F64: -2.25,
		S: "h\u00e9llo", Bin: []byte{0, 1, 2}, Ts: time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC),
		D: serializer.Date{Year: 2024, Month: 5, Day: 6}, Dur: 90005000000,
		Dec: serializer.Decimal{Unscaled: *big.NewInt(12345), Scale: 2}, H: 15872,
		Os: serializer.Some("opt"), Oi: serializer.None[int32](), Leaf: &Leaf{Name: "own", N: 1}, Shared: shared,
		Leaves: []Leaf{{Name: "v1", N: 2}}, Ostrs: []*string{&a, nil}, Rleaves: []*Leaf{shared, shared},
		Lmap: map[string]Leaf{"k": {Name: "m", N: 3}}, Omap: map[string]*int32{"o": &five}, Arr: []int32{1, 2, 3},
		Kind: KindB, Shape: shape, Anything: &Leaf{Name: "any", N: 4}, FixedList: []int32{1, -2}, Nested: map[int64]string{9: "nine"}}
}

// idl_rich_message_union: the message with a union field holding its Leaf
// case, both modes, byte for byte both ways.
func TestIDLUnionGolden(t *testing.T) {
	for _, m := range []struct {
		dir        string
		compatible bool
	}{{"schema-consistent", false}, {"compatible", true}} {
		t.Run(m.dir, func(t *testing.T) {
			f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(true), serializer.WithTimeLocation(time.UTC), serializer.WithOfficialGoForm(true))
			data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "xlang-fixtures-3", m.dir, "idl_rich_message_union.bin"))
			require.NoError(t, err)
			var got Everything
			require.NoError(t, f.Deserialize(data, &got))
			want := rich()
			require.True(t, want.Ts.Equal(got.Ts))
			got.Ts, want.Ts = time.Time{}, time.Time{}
			require.Equal(t, want, &got)
			require.Same(t, got.Shared, got.Rleaves[1])
			out, err := f.Serialize(rich())
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out))
			for n := 0; n < len(data); n++ {
				require.Error(t, f.Deserialize(data[:n], new(Everything)), "prefix of %d bytes", n)
			}
		})
	}
}
