package structroots

import (
	"encoding/hex"
	"testing"

	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// Enum roots as official Go writes f.Serialize(Color(2)) (by id: the same
// bytes in every mode, ff even with tracking) and f.Serialize(Shade(3))
// with Shade registered by name ("paint.Shade": meta strings in
// same-schema mode, a NAMED_ENUM TypeDef in compatible mode).
func TestEnumRoots(t *testing.T) {
	for _, tracked := range []bool{false, true} {
		for _, compatible := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(tracked))
			checkEnum(t, f, Color(2), "01ff19f60302")
			shade := "01ff1a0804bc086cc00803c8e0190003"
			if compatible {
				shade = "01ff1a000b20785625ce1c330111bc086cc013c8e0190003"
			}
			checkEnum(t, f, Shade(3), shade)

			_, err := serializer.MarshalEnum(f, Color(-1))
			require.ErrorIs(t, err, serializer.ErrInvalidValue)
			data, err := serializer.MarshalEnum(f, Color(2))
			require.NoError(t, err)
			var s Shade
			require.ErrorIs(t, serializer.UnmarshalEnum(f, data, &s), serializer.ErrSchemaMismatch)
			var u User
			require.ErrorIs(t, serializer.Unmarshal(f, data, &u), serializer.ErrSchemaMismatch)
		}
	}
}

func checkEnum[E serializer.Enum](t *testing.T, f *serializer.Fory, v E, hexBytes string) {
	t.Helper()
	got, err := serializer.MarshalEnum(f, v)
	require.NoError(t, err)
	require.Equal(t, hexBytes, hex.EncodeToString(got))
	want, _ := hex.DecodeString(hexBytes)
	var back E
	require.NoError(t, serializer.UnmarshalEnum(f, want, &back))
	require.Equal(t, v, back)
	for n := 0; n < len(want); n++ {
		require.Error(t, serializer.UnmarshalEnum(f, want[:n], &back))
	}
}
