package serializer_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func TestWithMaxDepthRejectsBelowOne(t *testing.T) {
	for _, d := range []int{0, -1} {
		require.PanicsWithValue(t, "serializer: WithMaxDepth("+map[int]string{0: "0", -1: "-1"}[d]+"): the depth must be at least 1",
			func() { serializer.WithMaxDepth(d) })
	}
	require.NotPanics(t, func() { serializer.New(serializer.WithMaxDepth(1)) })
}
