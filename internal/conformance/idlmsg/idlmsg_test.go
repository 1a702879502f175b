package idlmsg

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

func golden(t *testing.T, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-3", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

// foryc's createFory: xlang, reference tracking, compatible mode (and its
// same-schema twin).
func fory(compatible bool) *serializer.Fory {
	return serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(true), serializer.WithTimeLocation(time.UTC), serializer.WithOfficialGoForm(true))
}

func rich() *Everything {
	shared := &Leaf{Name: "shared", N: 7}
	a := "a"
	five := int32(5)
	return &Everything{B: true, I8: -8, I16: -1600, I32: -320000, Fi32: 1073741824, I64: -1099511627776,
		Fi64: 1125899906842624, Ti64: 35184372088832, U32: 4000000000, U64: 9223372036854775808, F32: 1.5, F64: -2.25,
		S: "h\u00e9llo", Bin: []byte{0, 1, 2}, Ts: time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC),
		D: serializer.Date{Year: 2024, Month: 5, Day: 6}, Dur: 90005000000,
		Dec: serializer.Decimal{Unscaled: *big.NewInt(12345), Scale: 2}, H: 15872,
		Os: serializer.Some("opt"), Oi: serializer.None[int32](), Leaf: &Leaf{Name: "own", N: 1}, Shared: shared,
		Leaves: []Leaf{{Name: "v1", N: 2}}, Ostrs: []*string{&a, nil}, Rleaves: []*Leaf{shared, shared},
		Lmap: map[string]Leaf{"k": {Name: "m", N: 3}}, Omap: map[string]*int32{"o": &five}, Arr: []int32{1, 2, 3},
		Kind: KindB, Anything: &Leaf{Name: "any", N: 4}, FixedList: []int32{1, -2}, Nested: map[int64]string{9: "nine"}}
}

// sparse is idl_rich_message_sparse as it decodes: its nil lists and maps
// come back empty (the manifest's normalisation), its date 1970-01-01.
func sparse() *Everything {
	return &Everything{I32: 42, S: "only", Ts: time.Time{}, D: serializer.Date{Year: 1970, Month: 1, Day: 1},
		Leaves: []Leaf{}, Ostrs: []*string{}, Rleaves: []*Leaf{}, Lmap: map[string]Leaf{}, Omap: map[string]*int32{},
		FixedList: []int32{}, Nested: map[int64]string{}}
}

// The messages of the types foryc generates, with foryc's options: forygen
// writes official Go's bytes from the manifest value, decodes official's
// bytes to it with its sharing, in both modes.
func TestIDLMessageGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value func() *Everything
	}{{"idl_rich_message", rich}, {"idl_rich_message_sparse", sparse}} {
		for _, m := range modes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				f := fory(m.compatible)
				data := golden(t, m.dir, tc.name)
				var got Everything
				require.NoError(t, f.Deserialize(data, &got))
				want := tc.value()
				require.True(t, want.Ts.Equal(got.Ts), "Ts %v", got.Ts)
				got.Ts, want.Ts = time.Time{}, time.Time{}
				require.Equal(t, want, &got)
				if got.Shared != nil {
					require.Same(t, got.Shared, got.Rleaves[0])
					require.Same(t, got.Shared, got.Rleaves[1])
				}
				out, err := f.Serialize(tc.value())
				require.NoError(t, err)
				require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out))
				for n := 0; n < len(data); n++ {
					require.Error(t, f.Deserialize(data[:n], new(Everything)), "prefix of %d bytes", n)
				}
			})
		}
	}
}
