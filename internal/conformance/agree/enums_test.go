package agree

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/agree/v2"
	"github.com/forygen/forygen/serializer"
)

// An ordinal that does not fit the Go enum type is a schema mismatch, on the
// generated fast path and on the evolved path (issue 17 item 5: 70000 read
// into a uint16 enum gave 4464, 2^31 into an int32 one -2^31).
func TestEnumOrdinalsNotNarrowed(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible))
		for _, in := range []v2.Enums{{A: 70000}, {B: 1 << 31}} {
			data, err := f.Serialize(&in)
			require.NoError(t, err)
			var got Enums
			require.ErrorIs(t, f.Deserialize(data, &got), serializer.ErrSchemaMismatch, "compatible=%v %+v", compatible, in)
		}
		data, err := f.Serialize(&v2.Enums{A: 65535, B: 1<<31 - 1})
		require.NoError(t, err)
		var got Enums
		require.NoError(t, f.Deserialize(data, &got))
		require.Equal(t, Enums{A: 65535, B: 1<<31 - 1}, got)
	}
	f := serializer.New()
	for _, in := range []v2.EnumsEvolved{{A: 70000}, {B: 1 << 31}} {
		data, err := f.Serialize(&in)
		require.NoError(t, err)
		var got EnumsEvolved
		require.ErrorIs(t, f.Deserialize(data, &got), serializer.ErrSchemaMismatch, "evolved %+v", in)
	}
	data, err := f.Serialize(&v2.EnumsEvolved{A: 7, B: 9, C: 1})
	require.NoError(t, err)
	var got EnumsEvolved
	require.NoError(t, f.Deserialize(data, &got))
	require.Equal(t, EnumsEvolved{A: 7, B: 9}, got)
}

// A negative enum value has no ordinal: Serialize refuses it.
func TestNegativeEnumRefused(t *testing.T) {
	_, err := serializer.Serialize(&Enums{B: -1})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	var ee *serializer.EncodeError
	require.True(t, errors.As(err, &ee))
	require.Equal(t, "B", ee.Path)
}
