package sets

import (
	"bytes"
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

// A repeated set element is malformed input, refused at the set (issue 25
// item 4: it was silently collapsed). A set whose count claims more
// elements than it holds reads the bytes after it as elements: refused at
// the set when they repeat an element or the input ends there.
func TestSetRepeatedElement(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		data, err := f.Serialize(&SetMulti{Words: serializer.NewSet("a", "b"), Codes: serializer.NewSet[int32](1, 2)})
		require.NoError(t, err)
		// Words' elements are 06 61 and 06 62 (in some order): make both a.
		i := bytes.Index(data, []byte{0x06, 0x62})
		require.Positive(t, i, m.dir)
		bad := append([]byte(nil), data...)
		bad[i+1] = 0x61
		var v SetMulti
		err = f.Deserialize(bad, &v)
		require.ErrorIs(t, err, serializer.ErrMalformed, m.dir)
		require.Contains(t, err.Error(), "SetMulti.Words", m.dir)
		require.Contains(t, err.Error(), "repeats an earlier element", m.dir)
		// Codes' elements 1 and 2 are varints 02 and 04, in either
		// order: make both 1.
		i = max(bytes.Index(data, []byte{0x0c, 0x02, 0x04}), bytes.Index(data, []byte{0x0c, 0x04, 0x02}))
		require.Positive(t, i, m.dir)
		bad = append([]byte(nil), data...)
		bad[i+1], bad[i+2] = 0x02, 0x02
		err = f.Deserialize(bad, &v)
		require.ErrorIs(t, err, serializer.ErrMalformed, m.dir)
		require.Contains(t, err.Error(), "SetMulti.Codes", m.dir)

		// Sets inside a list and a map.
		data, err = f.Serialize(&SetsInside{List: []serializer.Set[int32]{serializer.NewSet[int32](1, 2)}})
		require.NoError(t, err)
		i = max(bytes.Index(data, []byte{0x0c, 0x02, 0x04}), bytes.Index(data, []byte{0x0c, 0x04, 0x02}))
		require.Positive(t, i, m.dir)
		bad = append([]byte(nil), data...)
		bad[i+1], bad[i+2] = 0x02, 0x02
		var in SetsInside
		err = f.Deserialize(bad, &in)
		require.ErrorIs(t, err, serializer.ErrMalformed, m.dir)
		require.Contains(t, err.Error(), "SetsInside.List", m.dir)

		// Codes {1, 2} claims three elements: the third is the next
		// field's first byte, Words' count 02, which repeats 1 (zigzag
		// 02): refused at Codes, not at Words. Words, last on the wire,
		// claiming three of its two is truncated at Words.
		data, err = f.Serialize(&SetMulti{Words: serializer.NewSet("a", "b"), Codes: serializer.NewSet[int32](1, 2)})
		require.NoError(t, err)
		i = max(bytes.Index(data, []byte{0x02, 0x0c, 0x02, 0x04, 0x02, 0x0c}), bytes.Index(data, []byte{0x02, 0x0c, 0x04, 0x02, 0x02, 0x0c}))
		require.Positive(t, i, m.dir)
		bad = append([]byte(nil), data...)
		bad[i] = 0x03
		err = f.Deserialize(bad, &v)
		require.ErrorIs(t, err, serializer.ErrMalformed, m.dir)
		require.Contains(t, err.Error(), "SetMulti.Codes", m.dir)
		bad = append([]byte(nil), data...)
		bad[i+4] = 0x03
		err = f.Deserialize(bad, &v)
		require.ErrorIs(t, err, serializer.ErrMalformed, m.dir)
		require.Contains(t, err.Error(), "SetMulti.Words", m.dir)
		require.Contains(t, err.Error(), "truncated", m.dir)
	}
}
