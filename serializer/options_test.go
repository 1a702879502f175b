package serializer_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/example"
	"github.com/forygen/forygen/serializer"
)

func TestWithMaxDepthRejectsBelowOne(t *testing.T) {
	for _, d := range []int{0, -1} {
		require.PanicsWithValue(t, "serializer: WithMaxDepth("+map[int]string{0: "0", -1: "-1"}[d]+"): the depth must be at least 1",
			func() { serializer.WithMaxDepth(d) })
	}
	require.NotPanics(t, func() { serializer.New(serializer.WithMaxDepth(1)) })
}

// Marshal and Serialize give the same bytes; nil values are refused.
func TestMarshal(t *testing.T) {
	f := serializer.New()
	in := example.User{ID: 3, Name: "Lin", Tags: []string{"a"}}
	a, err := serializer.Marshal(f, &in)
	require.NoError(t, err)
	b, err := f.Serialize(&in)
	require.NoError(t, err)
	require.Equal(t, b, a)
	var out example.User
	require.NoError(t, serializer.Unmarshal(f, a, &out))
	require.Equal(t, in.Name, out.Name)
	_, err = serializer.Marshal[example.User](f, nil)
	require.ErrorIs(t, err, serializer.ErrNotGenerated)
	require.ErrorIs(t, serializer.Unmarshal[example.User](f, a, nil), serializer.ErrNotGenerated)
	_, err = f.Serialize((*example.User)(nil))
	require.ErrorIs(t, err, serializer.ErrNotGenerated)
}
