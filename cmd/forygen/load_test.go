package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 27 item 8: a run type-checks only the packages it generates and
// loads their dependencies from the compiler's export data. A dependency's
// directives are still read from its source: under -trimpath, where export
// data records module-relative file names, and when the dependency's own
// generated file is stale and it does not compile.
func TestDependenciesFromExportData(t *testing.T) {
	dir := module(t, map[string]string{
		"a/a.go": "package a\n\n//fory:generate id=1\ntype A struct {\n\tX int32\n\tY string\n}\n\n//fory:enum id=2\ntype E int32\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\n//fory:generate id=3\ntype B struct {\n\tA  a.A\n\tP  *a.A\n\tE  a.E\n\tAs []a.A\n}\n",
	})
	mustRun(t, dir, "forygen", "./...")
	mustRun(t, dir, "go", "vet", "./...")
	want, err := os.ReadFile(filepath.Join(dir, "b", "b_fory.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"./b", "./..."} {
		if r := runEnv(t, dir, []string{"GOFLAGS=-mod=mod -trimpath"}, "forygen", "-check", pkg); r.code != 0 {
			t.Errorf("forygen -check %s under -trimpath: %v", pkg, r)
		}
	}

	// a's generated file no longer compiles: b still generates, the same.
	src := filepath.Join(dir, "a", "a.go")
	old, _ := os.ReadFile(src)
	if err := os.WriteFile(src, []byte(strings.Replace(string(old), "\tY string\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, dir, "go", "build", "./a"); r.code == 0 {
		t.Fatal("package a builds with its stale generated file; the test means it not to")
	}
	if err := os.Remove(filepath.Join(dir, "b", "b_fory.go")); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "forygen", "./b")
	got, err := os.ReadFile(filepath.Join(dir, "b", "b_fory.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("b_fory.go generated against a stale dependency differs:\n%s", got)
	}
	mustRun(t, dir, "forygen", "./a")
	mustRun(t, dir, "go", "vet", "./...")
}
