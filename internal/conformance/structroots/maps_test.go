package structroots

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// A map[string]*User root: official Go's bytes written and read in both
// modes, with and without tracking; a shared value is one pointer with
// tracking; a map of many entries (several chunks, nil values between)
// round-trips.
func TestStructMapRoots(t *testing.T) {
	raw, err := os.ReadFile("testdata/maps.json")
	require.NoError(t, err)
	var doc struct{ Cases []golden }
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, 8)
	for _, g := range doc.Cases {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		want, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		v := map[string]*User{"x": {ID: 1, Name: "a"}}
		if g.Value == "userMapNil" {
			v = map[string]*User{"n": nil}
		}
		got, err := serializer.MarshalPtrMap(f, v)
		require.NoError(t, err, "%+v", g)
		require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		var back map[string]*User
		require.NoError(t, serializer.UnmarshalPtrMap(f, want, &back), "%+v", g)
		require.Equal(t, v, back, "%+v", g)
	}
	for _, tracked := range []bool{false, true} {
		for _, compatible := range []bool{true, false} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(tracked))
			shared := &User{ID: 5, Name: "s"}
			big := map[string]*User{"a": shared, "b": shared, "nil": nil}
			for i := 0; i < 600; i++ {
				big[string(rune('A'+i%26))+string(rune('a'+i/26))] = &User{ID: int64(i), Name: "n"}
			}
			data, err := serializer.MarshalPtrMap(f, big)
			require.NoError(t, err)
			var back map[string]*User
			require.NoError(t, serializer.UnmarshalPtrMap(f, data, &back))
			require.Equal(t, big, back)
			if tracked {
				require.Same(t, back["a"], back["b"])
			}
			for n := 0; n < len(data); n += 1 + len(data)/300 {
				keep := map[string]*User{"k": nil}
				require.Error(t, serializer.UnmarshalPtrMap(f, data[:n], &keep), "%d of %d", n, len(data))
				require.Equal(t, map[string]*User{"k": nil}, keep)
			}
		}
	}
	f := serializer.New()
	data, err := serializer.MarshalPtrMap[User](f, nil)
	require.NoError(t, err)
	require.Equal(t, []byte{0x01, 0xfd}, data)
	_, err = serializer.MarshalPtrMap(f, map[string]*User{"\xff": {}})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
}
