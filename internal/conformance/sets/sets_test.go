package sets

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func golden(t *testing.T, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

// SET fields (type id 23): the golden files decode to the manifest's values
// in both modes; set_fields, one element a set, re-encodes byte for byte. A
// nil set is written as an empty one and decodes as empty, as official Go
// does; a nullable one stays nil.
func TestSetGolden(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		data := golden(t, m.dir, "set_fields")
		var got SetHolder
		require.NoError(t, f.Deserialize(data, &got), m.dir)
		want := SetHolder{Strings: serializer.NewSet("apple"), Ints: serializer.NewSet[int32](42),
			Empty: serializer.Set[int64]{}, Missing: serializer.Set[string]{}}
		require.Equal(t, want, got, m.dir)
		in := SetHolder{Strings: serializer.NewSet("apple"), Ints: serializer.NewSet[int32](42), Empty: serializer.Set[int64]{}}
		out, err := f.Serialize(&in)
		require.NoError(t, err)
		require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out), m.dir)

		var multi SetMulti
		require.NoError(t, f.Deserialize(golden(t, m.dir, "set_fields_multi"), &multi), m.dir)
		require.Equal(t, SetMulti{Words: serializer.NewSet("alpha", "beta", "gamma"), Codes: serializer.NewSet[int32](-2, 1, 300)}, multi, m.dir)
	}
}

// Sets as list elements and map values round-trip, and a null element is
// refused.
func TestSetsInside(t *testing.T) {
	in := SetsInside{List: []serializer.Set[int32]{serializer.NewSet[int32](1, 2), {}}, ByKey: map[string]serializer.Set[string]{"k": serializer.NewSet("x")}}
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		data, err := f.Serialize(&in)
		require.NoError(t, err)
		var back SetsInside
		require.NoError(t, f.Deserialize(data, &back), m.dir)
		require.Equal(t, in, back, m.dir)
	}
	// Same-schema set_fields with Ints' elements header declaring nulls
	// (0e) and a null flag: refused.
	f := serializer.New(serializer.WithCompatible(false))
	data := golden(t, "schema-consistent", "set_fields")
	bad := append([]byte(nil), data[:10]...)
	bad = append(bad, 0x01, 0x0e, 0xfd)
	bad = append(bad, data[13:]...)
	require.ErrorIs(t, f.Deserialize(bad, new(SetHolder)), serializer.ErrSchemaMismatch)
}
