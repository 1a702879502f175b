package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forygen/forygen/serializer/foryimpl"
)

// These tests run the forygen binary as a user does (issue 27): built once,
// on PATH for //go:generate lines, in temporary modules that require this
// checkout of forygen.

var bin string // the built forygen binary

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "forygen-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "forygen")
	// The runs' records of up-to-date packages (gen/skip.go) stay out of
	// the user's cache.
	os.Setenv("FORYGEN_CACHE", filepath.Join(dir, "cache"))
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// module writes files into a new module requiring this checkout.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.24\n\nrequire github.com/forygen/forygen v0.0.0\n\nreplace github.com/forygen/forygen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type result struct {
	stdout, stderr string
	code           int
	cpu            time.Duration // user and system time, with the go commands it waited for
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// run runs name (the forygen binary for "forygen") with args in dir.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	return runEnv(t, dir, nil, name, args...)
}

// runEnv is run with env added to (and overriding) the environment.
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	if name == "forygen" {
		name = bin
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH")), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	if ps := cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime()
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return r
}

func mustRun(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	r := run(t, dir, name, args...)
	if r.code != 0 {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), r)
	}
	return r
}

func mustFail(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := run(t, dir, "forygen", args...)
	if r.code == 0 {
		t.Fatalf("forygen %s exited 0: %v", strings.Join(args, " "), r)
	}
	return r
}

func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// Item 1: two //go:generate lines with -type in one file each write the
// whole file, so neither drops the other's type; an unknown -type name is
// an error naming it.
func TestTypeFlag(t *testing.T) {
	dir := module(t, map[string]string{
		"ab.go": "package m\n\n//go:generate forygen -type A\n//go:generate forygen -type B\n\n//fory:generate id=1\ntype A struct{ X int32 }\n\n//fory:generate id=2\ntype B struct{ Y string }\n",
		"c.go":  "package m\n\n//fory:generate id=3\ntype C struct{ Z int64 }\n",
	})
	mustRun(t, dir, "go", "generate", "./...")
	src, err := os.ReadFile(filepath.Join(dir, "ab_fory.go"))
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "ab_fory.go", string(src), "foryTypeA ", "foryTypeB ")
	if _, err := os.Stat(filepath.Join(dir, "c_fory.go")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-type A and -type B wrote c_fory.go (%v)", err)
	}
	mustRun(t, dir, "forygen", "-type", "C")
	mustRun(t, dir, "go", "vet", ".")
	mustRun(t, dir, "forygen", "-check", "-type", "A")
	mustRun(t, dir, "forygen", "-check")

	r := mustFail(t, dir, "-type", "A,Nope")
	contains(t, "forygen -type A,Nope", r.stderr, "-type Nope: no annotated type of that name in .; the annotated types are A, B, C")
	after, _ := os.ReadFile(filepath.Join(dir, "ab_fory.go"))
	if !bytes.Equal(src, after) {
		t.Error("a failed -type run rewrote ab_fory.go")
	}
}

// Item 2: bad input exits non-zero with a message naming it; help and
// version print what they say.
func TestBadInput(t *testing.T) {
	dir := module(t, map[string]string{
		"a/a.go":         "package a\n\n//fory:generate id=1\ntype A struct{ X int32 }\n",
		"plain/plain.go": "package plain\n\ntype P struct{ X int32 }\n",
	})
	for _, args := range [][]string{{"./nosuchdir"}, {"-check", "./nosuchdir/..."}, {"-v", "./nosuchdir"}, {"./a", "./nosuchdir/..."}} {
		r := mustFail(t, dir, args...)
		contains(t, "forygen "+strings.Join(args, " "), r.stderr, "./nosuchdir")
	}
	r := mustFail(t, filepath.Join(dir, "plain"))
	contains(t, "forygen in a package without annotated types", r.stderr, ". (package example.com/m/plain) has no annotated types")
	r = mustFail(t, dir, "-check", "./plain")
	contains(t, "forygen -check ./plain", r.stderr, "./plain (package example.com/m/plain) has no annotated types")
	// A wildcard may match packages without annotated types.
	mustRun(t, dir, "forygen", "./...")
	mustRun(t, dir, "forygen", "-check", "./...")

	for _, args := range [][]string{{"help"}, {"-h"}} {
		r := run(t, dir, "forygen", args...)
		if r.code != 0 {
			t.Errorf("forygen %v: %v", args, r)
		}
		contains(t, "forygen "+args[0], r.stdout+r.stderr, "forygen schema", "forygen lock", "forygen version",
			"//fory:generate id=N", "//fory:enum", "//fory:union", "-check", "-type")
	}
	r = mustRun(t, dir, "forygen", "version")
	if !regexp.MustCompile(`^forygen \S+.* \(generated code version ` + fmt.Sprint(foryimpl.GenVersion) + `\)\n$`).MatchString(r.stdout) {
		t.Errorf("forygen version printed %q", r.stdout)
	}
	r = run(t, dir, "forygen", "-nosuchflag")
	if r.code != 2 || !strings.Contains(r.stderr, "-nosuchflag") {
		t.Errorf("forygen -nosuchflag: %v", r)
	}
}

// Item 5: one id (or name) for two types in packages that do not import
// each other is an error of generation, -check and lock, with both
// positions.
func TestDuplicateAcrossPackages(t *testing.T) {
	dir := module(t, map[string]string{
		"a/a.go": "package a\n\n//fory:generate id=500\ntype A struct{ X int32 }\n",
		"b/b.go": "package b\n\n//fory:generate id=500\ntype B struct{ Y string }\n\n//fory:enum name=ns.E\ntype E int32\n",
		"c/c.go": "package c\n\n//fory:generate name=ns.E\ntype C struct{ Z int64 }\n",
	})
	for _, args := range [][]string{{"./..."}, {"-check", "./..."}, {"lock", "./..."}} {
		r := mustFail(t, dir, args...)
		contains(t, "forygen "+strings.Join(args, " "), r.stderr,
			filepath.Join(dir, "b", "b.go")+":4:6: forygen: B: registration id=500 is also used by struct example.com/m/a.A ("+filepath.Join(dir, "a", "a.go")+":4:6)",
			filepath.Join(dir, "c", "c.go")+":4:6: forygen: C: registration name=ns.E is also used by enum example.com/m/b.E ("+filepath.Join(dir, "b", "b.go")+":7:6)",
			"run forygen on each package alone")
	}
	for _, p := range []string{"./a", "./b", "./c"} {
		mustRun(t, dir, "forygen", p)
	}
}

// Item 6: -check says which types and fields changed and prints a short
// diff, not the whole file.
func TestCheckReport(t *testing.T) {
	var fields strings.Builder
	for i := range 60 {
		fmt.Fprintf(&fields, "\tF%d int32 `fory:\"id=%d\"`\n", i, i+1)
	}
	src := "package m\n\n//fory:generate id=1\ntype Big struct {\n\tName string `fory:\"id=0\"`\n" + fields.String() + "}\n\n//fory:generate id=2\ntype Small struct{ X int32 }\n"
	dir := module(t, map[string]string{"m.go": src})
	mustRun(t, dir, "forygen")
	mustRun(t, dir, "forygen", "-check")
	edited := strings.Replace(src, "Name string `fory:\"id=0\"`", "Name int64 `fory:\"id=0\"`\n\tAdded bool `fory:\"id=99\"`", 1)
	edited = strings.Replace(edited, "\tF7 int32 `fory:\"id=8\"`\n", "", 1)
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The build stops, and the compiler's error says what to do.
	b := run(t, dir, "go", "build", ".")
	if b.code == 0 || !strings.Contains(b.stderr, "m_fory.go") || !strings.Contains(b.stderr, "as foryBigChanged_RunGoGenerate value") {
		t.Errorf("go build of stale code: %v", b)
	}
	r := mustFail(t, dir, "-check")
	gen := filepath.Join(dir, "m_fory.go")
	contains(t, "forygen -check", r.stdout,
		gen+": stale; run go generate:\n",
		"\tBig: field Name changed from string `fory:\"id=0\"` to int64 `fory:\"id=0\"`; field Added added (bool `fory:\"id=99\"`); field F7 removed\n",
		"--- "+gen+" (on disk)\n+++ "+gen+" (generated)\n",
		" more diff lines\n")
	if strings.Contains(r.stdout, "Small") {
		t.Errorf("-check names the unchanged type Small:\n%s", r.stdout)
	}
	if n := strings.Count(r.stdout, "\n"); n > 50 {
		t.Errorf("-check printed %d lines, want at most 50:\n%s", n, r.stdout)
	}
	if err := os.Remove(gen); err != nil {
		t.Fatal(err)
	}
	r = mustFail(t, dir, "-check")
	contains(t, "forygen -check without m_fory.go", r.stdout, gen+": missing; it would hold Big, Small; run go generate\n")
}

// Item 7: a plain run (go generate) with a fory.lock prints the verdicts,
// and a breaking change fails it without writing, unless -accept-breaking.
func TestGenerateChecksLock(t *testing.T) {
	v1 := "package m\n\n//go:generate forygen\n\n//fory:generate id=1\ntype A struct {\n\tX int64 `fory:\"id=1\"`\n\tS string `fory:\"id=2\"`\n}\n"
	dir := module(t, map[string]string{"m.go": v1})
	mustRun(t, dir, "go", "generate", ".")
	mustRun(t, dir, "forygen", "lock", ".")
	// A safe change: printed, generated.
	safe := strings.Replace(v1, "}\n", "\tN *int32 `fory:\"id=3\"`\n}\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(safe), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, "go", "generate", ".")
	contains(t, "go generate after a safe change", r.stdout, "m.go:9:2: forygen: safe: A.N: field added")
	// A breaking one: refused, nothing written.
	before, _ := os.ReadFile(filepath.Join(dir, "m_fory.go"))
	breaking := strings.Replace(safe, "S string", "S int32", 1)
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(breaking), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, dir, "go", "generate", ".")
	if r.code == 0 {
		t.Fatalf("go generate passed a breaking change: %v", r)
	}
	contains(t, "go generate after a breaking change", r.stdout+r.stderr, "forygen: breaking: A.S", "-accept-breaking")
	after, _ := os.ReadFile(filepath.Join(dir, "m_fory.go"))
	if !bytes.Equal(before, after) {
		t.Error("a refused run rewrote m_fory.go")
	}
	r = mustRun(t, dir, "forygen", "-accept-breaking")
	contains(t, "forygen -accept-breaking", r.stdout, "forygen: breaking: A.S")
	mustRun(t, dir, "go", "vet", ".")
	mustFail(t, dir, "-check")
	mustRun(t, dir, "forygen", "-check", "-accept-breaking")
	mustRun(t, dir, "forygen", "lock")
	r = mustRun(t, dir, "forygen")
	if r.stdout != "" {
		t.Errorf("after a relock, forygen printed:\n%s", r.stdout)
	}
}

// Issue 27 item 9: a field whose type is declared in another package makes
// its IDL file import that package's file. forygen schema -o writes both
// (creating the directory); a run without the other package, or without -o,
// says what to do; a file importing one that is not written is not written
// either; two packages of one IDL file name are an error.
func TestSchemaImports(t *testing.T) {
	dir := module(t, map[string]string{
		"a/a.go": "package a\n\n//fory:generate id=1\ntype Leaf struct {\n\tV int32 `fory:\"id=1\"`\n}\n\n" +
			"//fory:enum id=2\ntype Color int32\n\nconst ColorRed Color = 0\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\n//fory:generate id=3\ntype Tree struct {\n" +
			"\tLeaf     *a.Leaf `fory:\"id=1,nullable\"`\n\tReserved string  `fory:\"id=2\"`\n\tColor    a.Color `fory:\"id=3\"`\n\tUserID   int64   `fory:\"id=4\"`\n}\n",
	})
	r := mustFail(t, dir, "schema", "./b")
	contains(t, "forygen schema ./b", r.stderr, "Tree.Leaf: a.Leaf is declared in example.com/m/a, which this run does not export; export both packages in one run",
		"Tree.Color: a.Color is declared in example.com/m/a")
	r = mustFail(t, dir, "schema", "./a", "./b")
	contains(t, "forygen schema ./a ./b", r.stderr, "2 packages with annotated types; use -o dir")

	mustRun(t, dir, "forygen", "schema", "-o", "idl", "./...")
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "idl", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	bText := read("b.fdl")
	contains(t, "idl/b.fdl", bText, "package b;\n\noption enable_auto_type_id = false;\n\nimport \"a.fdl\";\n",
		"    Leaf leaf = 1;\n", "    string reserved_ = 2;\n", "    Color color = 3;\n", "    int64 user_id = 4;\n")
	if aText := read("a.fdl"); strings.Contains(aText, "import") || !strings.Contains(aText, "message Leaf [id=1] {") {
		t.Errorf("idl/a.fdl:\n%s", aText)
	}

	// c does not export (an untagged field), so d, which imports it, is
	// not written either; the message says why.
	dir = module(t, map[string]string{
		"c/c.go":        "package c\n\n//fory:generate id=1\ntype Leaf struct{ V int32 }\n",
		"d/d.go":        "package d\n\nimport \"example.com/m/c\"\n\n//fory:generate id=2\ntype Tree struct {\n\tLeaf *c.Leaf `fory:\"id=1,nullable\"`\n}\n",
		"x/models/m.go": "package models\n\n//fory:generate id=3\ntype X struct {\n\tV int32 `fory:\"id=1\"`\n}\n",
		"y/models/m.go": "package models\n\n//fory:generate id=4\ntype Y struct {\n\tV int32 `fory:\"id=1\"`\n}\n",
	})
	r = mustFail(t, dir, "schema", "-o", "idl", "./...")
	contains(t, "forygen schema -o idl ./...", r.stderr,
		`Leaf.V: identified by its name "v" on the wire`,
		"package example.com/m/d: its IDL file imports the file of example.com/m/c, which is not written (see its errors)",
		"package example.com/m/y/models: its IDL file is models.fdl, as is the file of example.com/m/x/models")
	entries, _ := os.ReadDir(filepath.Join(dir, "idl"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "models.fdl" {
		t.Errorf("idl holds %v, want only x/models' models.fdl", names)
	}
	if m, _ := os.ReadFile(filepath.Join(dir, "idl", "models.fdl")); !strings.Contains(string(m), "message X [id=3]") {
		t.Errorf("idl/models.fdl is not x/models':\n%s", m)
	}
}
