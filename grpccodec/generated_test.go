package grpccodec_test

import (
	"os"
	"path/filepath"
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
	require.Len(t, outs, 3) // internal/testmsg, internal/idlgreeter, internal/idlsvc
	for _, o := range outs {
		have, err := os.ReadFile(o.Path)
		require.NoError(t, err)
		require.True(t, string(have) == string(o.Content),
			"%s is stale (run go generate ./... in grpccodec):\n%s", o.Path, gen.Diff(o.Path, have, o.Content))
	}
}

// TestIDLDeclarationsFresh: the Go that forygen idl -grpc wrote into
// internal/idlsvc and internal/idlgreeter is what it writes now.
func TestIDLDeclarationsFresh(t *testing.T) {
	for dir, fdl := range map[string]string{"internal/idlsvc": "everything.fdl", "internal/idlgreeter": "service.fdl"} {
		outs, errs := gen.IDLFiles(gen.IDLConfig{Files: []string{"../internal/conformance/idl/testdata/" + fdl}, GRPC: true})
		require.Empty(t, errs)
		require.Len(t, outs, 2, dir)
		for _, o := range outs {
			path := filepath.Join(dir, o.Name)
			have, err := os.ReadFile(path)
			require.NoError(t, err)
			require.True(t, string(have) == string(o.Content),
				"%s is stale (run internal/scripts/generate.sh):\n%s", path, gen.Diff(path, have, o.Content))
		}
	}
}
