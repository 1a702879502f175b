package optionals

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func want() Optionals {
	return Optionals{I32: serializer.Some[int32](-5), I64: serializer.Some[int64](1125899906842624), Str: serializer.Some("opt"),
		Flag: serializer.Some(false), F64: serializer.Some(-0.125)}
}

// Optional[T] is a nullable T with nullable=1 in the schema: the golden files
// decode to the manifest's values and re-encode byte for byte in both
// modes, unset fields as null.
func TestOptionalGolden(t *testing.T) {
	for _, m := range []struct {
		dir        string
		compatible bool
	}{{"schema-consistent", false}, {"compatible", true}} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", m.dir, "optional_fields.bin"))
		require.NoError(t, err)
		f := serializer.New(serializer.WithCompatible(m.compatible))
		var got Optionals
		require.NoError(t, f.Deserialize(data, &got), m.dir)
		require.Equal(t, want(), got, m.dir)
		in := want()
		out, err := f.Serialize(&in)
		require.NoError(t, err)
		require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out), m.dir)
	}
	// A string that is not UTF-8 in an Optional is refused like any other.
	_, err := serializer.Serialize(&Optionals{Str: serializer.Some(string([]byte{0xff}))})
	var ee *serializer.EncodeError
	require.True(t, errors.As(err, &ee))
	require.Equal(t, "Str", ee.Path)
	o := serializer.None[int32]()
	require.True(t, o.IsNone())
	require.Equal(t, int32(4), o.UnwrapOr(4))
	require.Panics(t, func() { o.Unwrap() })
}
