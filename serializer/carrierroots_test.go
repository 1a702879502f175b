package serializer_test

import (
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// Dates, decimals and sets as roots: official Go's bytes (apache/fory
// c8bf233, f.Serialize(fory.Date{2024, 2, 29}), f.Serialize(&decimal),
// f.Serialize(set)), the same in both modes; with tracking official Go
// tracks the decimal's pointer and the sets (root flag 00, and elements
// behind ff in a set).
func TestCarrierRoots(t *testing.T) {
	for _, tracked := range []bool{false, true} {
		for _, compatible := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(tracked))
			pick := func(untracked, withTracking string) string {
				if tracked {
					return withTracking
				}
				return untracked
			}
			date := serializer.Date{Year: 2024, Month: 2, Day: 29}
			checkRoot(t, f, date, "01ff278cb502")
			checkRoot(t, f, serializer.NewDecimal(big.NewInt(-12345), 2), pick("01ff2804e28103", "01002804e28103"))
			checkRoot(t, f, serializer.NewSet[int32](7), pick("01ff170108050e", "010017010905ff0e"))
			checkRoot(t, f, serializer.NewSet[int64](-3), pick("01ff1701080705", "010017010907ff05"))
			checkRoot(t, f, serializer.NewSet("a"), pick("01ff170108150661", "010017010915ff0661"))
			checkRoot(t, f, serializer.NewSet[int32](), pick("01ff1700", "01001700"))

			// Several elements round-trip; a repeated one is refused.
			many := serializer.NewSet[int64](1, 2, 3, -40000)
			data, err := serializer.MarshalValue(f, many)
			require.NoError(t, err)
			var back serializer.Set[int64]
			require.NoError(t, serializer.UnmarshalValue(f, data, &back))
			require.Equal(t, many, back)
			twice, _ := hex.DecodeString(pick("01ff170208070202", "010017020907ff02ff02"))
			err = serializer.UnmarshalValue(f, twice, &back)
			require.ErrorIs(t, err, serializer.ErrMalformed)
			require.Contains(t, err.Error(), "repeats")
			// A nil set is a null root.
			data, err = serializer.MarshalValue[serializer.Set[string]](f, nil)
			require.NoError(t, err)
			require.Equal(t, []byte{1, 0xfd}, data)
		}
	}
}

func checkRoot[T serializer.RootValue](t *testing.T, f *serializer.Fory, v T, hexBytes string) {
	t.Helper()
	want, err := hex.DecodeString(hexBytes)
	require.NoError(t, err)
	got, err := serializer.MarshalValue(f, v)
	require.NoError(t, err)
	require.Equal(t, hexBytes, hex.EncodeToString(got))
	viaAny, err := f.Serialize(&v)
	require.NoError(t, err)
	require.Equal(t, want, viaAny)
	var back T
	require.NoError(t, serializer.UnmarshalValue(f, want, &back))
	require.Equal(t, v, back)
	var viaDeserialize T
	require.NoError(t, f.Deserialize(want, &viaDeserialize))
	require.Equal(t, v, viaDeserialize)
	for n := 0; n < len(want); n++ {
		require.Error(t, serializer.UnmarshalValue(f, want[:n], &back), "%d of %d", n, len(want))
	}
}
