package load

import (
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildConstraint(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"x.go", "package x\n", ""},
		{"x.go", "//go:build special\n\npackage x\n", "//go:build special"},
		{"x.go", "// Copyright.\n\n//go:build (a || b) && !c\n\n// Package x.\npackage x\n", "//go:build (a || b) && !c"},
		{"x.go", "// +build a b\n// +build c\n\npackage x\n", "//go:build (a || b) && c"},
		{"x.go", "//go:build a\n// +build a\n\npackage x\n", "//go:build a"},
		{"x.go", "package x\n\n//go:build late\n", ""}, // after the package clause: not a constraint
		{"x_linux.go", "package x\n", "//go:build linux"},
		{"x_linux_amd64.go", "package x\n", "//go:build linux && amd64"},
		{"x_arm64_test.go", "package x\n", "//go:build arm64"},
		{"x_windows.go", "//go:build special\n\npackage x\n", "//go:build special && windows"},
		{"linux.go", "package x\n", ""},  // the first element of a name never counts
		{"x_unix.go", "package x\n", ""}, // unix is not a file-name constraint
	}
	for _, tt := range tests {
		f, err := parser.ParseFile(token.NewFileSet(), tt.name, tt.src, parser.ParseComments)
		require.NoError(t, err)
		got, err := buildConstraint(f, "/some/dir/"+tt.name)
		require.NoError(t, err, tt.src)
		assert.Equal(t, tt.want, got, "%s: %q", tt.name, tt.src)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "//go:build a &&\n\npackage x\n", parser.ParseComments)
	require.NoError(t, err)
	_, err = buildConstraint(f, "x.go")
	assert.Error(t, err)
}

func TestDirectiveLines(t *testing.T) {
	for _, tt := range []struct {
		text, name, args string
		ok               bool
	}{
		{"//fory:generate id=1", "generate", "id=1", true},
		{"//fory:generate\tid=1", "generate", "id=1", true},
		{"//fory:enum", "enum", "", true},
		{"//fory:generat id=1", "generat", "id=1", true},
		{"// fory:generate id=1", "", "", false},
		{"//go:generate forygen", "", "", false},
	} {
		name, args, ok := parseDirectiveLine(tt.text)
		assert.Equal(t, tt.ok, ok, tt.text)
		assert.Equal(t, tt.name, name, tt.text)
		assert.Equal(t, tt.args, args, tt.text)
	}
	for _, tt := range []struct {
		text string
		ok   bool
	}{
		{"// fory:generate id=1", true},
		{"//\tfory:enum id=2", true},
		{"// fory: the format", false},
		{"//fory:generate id=1", false},
		{"// see fory:generate", false},
	} {
		_, ok := spacedDirective(tt.text)
		assert.Equal(t, tt.ok, ok, tt.text)
	}
	assert.Contains(t, suggest("generat"), "did you mean //fory:generate?")
	assert.Contains(t, suggest("enums"), "did you mean //fory:enum?")
	assert.NotContains(t, suggest("foo"), "did you mean")
}
