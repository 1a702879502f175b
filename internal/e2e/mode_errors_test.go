package e2e_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// TestModeMismatchNamesOption: a message written in one mode and read in
// the other says which side used which mode and names WithCompatible.
func TestModeMismatchNamesOption(t *testing.T) {
	compatible := serializer.New(serializer.WithCompatible(true))
	consistent := serializer.New(serializer.WithCompatible(false))
	for _, r := range roots() {
		v := r.value()
		data, err := compatible.Serialize(v)
		require.NoError(t, err)
		err = consistent.Deserialize(data, r.fresh())
		require.ErrorIs(t, err, serializer.ErrSchemaMismatch, r.name)
		require.Contains(t, err.Error(), "the writer used compatible mode and this reader did not", r.name)
		require.Contains(t, err.Error(), "WithCompatible(true)", r.name)

		data, err = consistent.Serialize(v)
		require.NoError(t, err)
		err = compatible.Deserialize(data, r.fresh())
		require.ErrorIs(t, err, serializer.ErrSchemaMismatch, r.name)
		require.Contains(t, err.Error(), "the writer used same-schema mode and this reader compatible mode", r.name)
		require.Contains(t, err.Error(), "WithCompatible(false) here", r.name)
	}
}
