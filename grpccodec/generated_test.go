package grpccodec_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen"
)

// TestGeneratedCodeFresh: the committed *_fory.go files of this module are
// what the generator in this repository writes now (the root module's CI
// checks only its own packages).
func TestGeneratedCodeFresh(t *testing.T) {
	outs, errs := gen.Generate(gen.Config{Patterns: []string{"./internal/..."}})
	require.Empty(t, errs)
	require.Len(t, outs, 1) // internal/testmsg
	for _, o := range outs {
		have, err := os.ReadFile(o.Path)
		require.NoError(t, err)
		require.True(t, string(have) == string(o.Content),
			"%s is stale (run go generate ./... in grpccodec):\n%s", o.Path, gen.Diff(o.Path, have, o.Content))
	}
}
