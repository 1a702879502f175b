package main_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 27 item 8: a run skips a package whose inputs and generated files
// did not change since its last successful run. These tests run the
// binary with a go command on PATH that logs its arguments: a run that
// type-checks anything asks go list for export data (-export=true), a
// skipping one does not.

// goLog puts a logging go in front of the real one; it returns the
// environment that uses it and a function returning (and clearing) what
// was logged.
func goLog(t *testing.T) ([]string, func() string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "go.log")
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\nexec '" + goBin + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + dir + string(os.PathListSeparator) + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")}
	return env, func() string {
		data, _ := os.ReadFile(log)
		os.Remove(log)
		return string(data)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	src := read(t, path)
	if !strings.Contains(src, old) {
		t.Fatalf("%s lacks %q", path, old)
	}
	write(t, path, strings.Replace(src, old, new, 1))
}

const exportFlag = "-export=true"

func TestUpToDateSkip(t *testing.T) {
	dir := module(t, map[string]string{
		"z/z.go": "package z\n\n// Num is two packages away from b.\ntype Num int16\n",
		"a/a.go": "package a\n\nimport \"example.com/m/z\"\n\n//go:generate forygen\n\n//fory:generate id=1\ntype A struct {\n\tX int32\n}\n\n// Code is not annotated: b's code writes it as its underlying type.\ntype Code z.Num\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\n//go:generate forygen\n\n//fory:generate id=2\ntype B struct {\n\ta.A\n\tC a.Code\n\tP *a.A\n}\n",
		"c/c.go": "package c\n\n//go:generate forygen\n\n//fory:generate id=3\ntype C struct{ S string }\n",
		// A fory tag and no directive: loaded, recorded as not annotated.
		"tagged/t.go":    "package tagged\n\ntype T struct {\n\tX int32 `fory:\"id=1\"`\n}\n",
		"plain/plain.go": "package plain\n\ntype P struct{ X int32 }\n",
	})
	env, logged := goLog(t)
	forygen := func(args ...string) result {
		t.Helper()
		logged()
		return runEnv(t, dir, env, "forygen", args...)
	}
	ok := func(r result, args ...string) {
		t.Helper()
		if r.code != 0 {
			t.Fatalf("forygen %s: %v", strings.Join(args, " "), r)
		}
	}
	gen := func(pkg string) string { return filepath.Join(dir, pkg, pkg+"_fory.go") }
	// mustCheck: -check, which never skips, finds every file up to date.
	mustCheck := func(what string) {
		t.Helper()
		if r := forygen("-check", "./..."); r.code != 0 {
			t.Fatalf("after %s, forygen -check ./...: %v", what, r)
		}
	}
	skipped := func(r result, pkgs ...string) {
		t.Helper()
		for _, p := range pkgs {
			contains(t, "forygen -v", r.stdout, "up to date "+filepath.Join(dir, p)+" (skipped")
		}
	}
	notSkipped := func(what string, r result) {
		t.Helper()
		if strings.Contains(r.stdout, "up to date") {
			t.Errorf("%s: a package was skipped:\n%s", what, r.stdout)
		}
	}

	r := forygen("-v", "./...")
	ok(r, "-v", "./...")
	if log := logged(); !strings.Contains(log, exportFlag) {
		t.Fatalf("the first run did not load export data, so the log proves nothing:\n%s", log)
	}
	contains(t, "first run", r.stdout, "wrote "+gen("a"), "wrote "+gen("b"), "wrote "+gen("c"))
	notSkipped("first run", r)
	mustCheck("the first run")

	// Unchanged: every package skipped, no file touched, no type-checking,
	// little CPU.
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range []string{"a", "b", "c"} {
		if err := os.Chtimes(gen(p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	r = forygen("-v", "./...")
	ok(r, "-v", "./...")
	log := logged()
	skipped(r, "a", "b", "c", "tagged")
	if strings.Contains(r.stdout, "wrote") || strings.Contains(r.stdout, "unchanged") {
		t.Errorf("an up-to-date run rendered files:\n%s", r.stdout)
	}
	if strings.Contains(log, exportFlag) || lines(log, "list -e -json") != 1 {
		t.Errorf("an up-to-date run ran more than one go list, or loaded export data:\n%s", log)
	}
	for _, p := range []string{"a", "b", "c"} {
		if fi, err := os.Stat(gen(p)); err != nil || !fi.ModTime().Equal(old) {
			t.Errorf("an up-to-date run touched %s (%v)", gen(p), err)
		}
	}
	t.Logf("up-to-date run of ./...: %v CPU", r.cpu)
	if r.cpu > 2*time.Second {
		t.Errorf("an up-to-date run took %v CPU", r.cpu)
	}
	r = forygen("-v", "./b")
	ok(r, "-v", "./b")
	skipped(r, "b")
	if log := logged(); strings.Contains(log, exportFlag) {
		t.Errorf("forygen ./b, up to date, loaded export data:\n%s", log)
	}

	// A field of the package: regenerated.
	before := read(t, gen("a"))
	edit(t, filepath.Join(dir, "a", "a.go"), "\tX int32\n", "\tX int32\n\tY string\n")
	r = forygen("-v", "./...")
	ok(r, "-v", "./...")
	if log := logged(); !strings.Contains(log, exportFlag) {
		t.Errorf("the run after an edit loaded nothing:\n%s", log)
	}
	if read(t, gen("a")) == before {
		t.Error("a_fory.go did not change with a new field")
	}
	skipped(r, "c") // c does not import a
	if strings.Contains(r.stdout, "up to date "+filepath.Join(dir, "b")+" ") {
		t.Errorf("b, which imports a, was skipped after a changed:\n%s", r.stdout)
	}
	mustCheck("a new field")

	// A type of a dependency's dependency, run on the dependent package
	// alone (a //go:generate line): regenerated.
	before = read(t, gen("b"))
	edit(t, filepath.Join(dir, "z", "z.go"), "type Num int16", "type Num int64")
	ok(forygen("./b"), "./b")
	if read(t, gen("b")) == before {
		t.Error("b_fory.go did not change when a.Code's underlying type did")
	}
	mustCheck("a dependency's type changed")

	// Another generator (a rebuilt forygen): nothing skipped.
	other := filepath.Join(t.TempDir(), "forygen")
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, append(exe, "rebuilt"...), 0o755); err != nil {
		t.Fatal(err)
	}
	logged()
	r = runEnv(t, dir, env, other, "-v", "./...")
	ok(r, "(rebuilt) -v", "./...")
	notSkipped("another forygen binary", r)
	// Other flags: nothing skipped.
	for _, args := range [][]string{{"-v", "-tags", "special", "./..."}, {"-v", "-accept-breaking", "./..."}, {"-v", "./..."}, {"-v", "-force", "./..."}} {
		r = forygen(args...)
		ok(r, args...)
		notSkipped("forygen "+strings.Join(args, " "), r)
		contains(t, "forygen "+strings.Join(args, " "), r.stdout, "unchanged "+gen("a"))
	}
	r = forygen("-v", "./...")
	ok(r, "-v", "./...")
	skipped(r, "a", "b", "c")

	// A generated file edited by hand: restored.
	want := read(t, gen("c"))
	write(t, gen("c"), want+"// edited\n")
	ok(forygen("./..."), "./...")
	if read(t, gen("c")) != want {
		t.Error("a hand-edited c_fory.go was not regenerated")
	}

	// -check never trusts a record: a stale file fails it.
	edit(t, filepath.Join(dir, "c", "c.go"), "S string", "S int64")
	r = forygen("-check", "./...")
	if r.code == 0 || !strings.Contains(r.stdout, gen("c")+": stale") {
		t.Errorf("forygen -check with a stale c_fory.go: %v", r)
	}
	ok(forygen("./..."), "./...")
	mustCheck("c changed")

	// A named package recorded without annotated types is still an error.
	r = forygen("./tagged")
	if r.code == 0 || !strings.Contains(r.stderr, "has no annotated types") {
		t.Errorf("forygen ./tagged after a recorded run: %v", r)
	}

	// The directive removed: the generated file goes.
	edit(t, filepath.Join(dir, "c", "c.go"), "//fory:generate id=3\n", "")
	ok(forygen("./..."), "./...")
	if _, err := os.Stat(gen("c")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("c_fory.go outlived its directive (%v)", err)
	}
	mustCheck("c lost its directive")
	edit(t, filepath.Join(dir, "c", "c.go"), "type C", "//fory:generate id=3\ntype C")

	// go generate, one run per package: the second time every run skips,
	// and leaves its record alone. (go generate puts $GOROOT/bin first on
	// the generators' PATH, so the log of go commands sees nothing.)
	mustRun(t, dir, "go", "generate", "./...")
	records, err := filepath.Glob(filepath.Join(os.Getenv("FORYGEN_CACHE"), "records", "*.json"))
	if err != nil || len(records) == 0 {
		t.Fatalf("no records in $FORYGEN_CACHE (%v)", err)
	}
	for _, f := range records {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, dir, "go", "generate", "./...")
	for _, f := range records {
		if fi, err := os.Stat(f); err != nil || !fi.ModTime().Equal(old) {
			t.Errorf("go generate ./... of up-to-date packages rewrote the record %s (%v)", f, err)
		}
	}
	mustCheck("go generate")
	// The records are those of the runs that loaded: the next edit makes
	// go generate load again.
	edit(t, filepath.Join(dir, "c", "c.go"), "S int64", "S int64\n\tT bool")
	mustRun(t, dir, "go", "generate", "./...")
	mustCheck("go generate after an edit")
}

// Packages skipped by a run still meet in its registry: two packages
// generated apart with one id fail a run over both.
func TestUpToDateKeepsRegistry(t *testing.T) {
	dir := module(t, map[string]string{
		"x/x.go": "package x\n\n//fory:generate id=7\ntype X struct{ A int32 }\n",
		"y/y.go": "package y\n\n//fory:generate id=7\ntype Y struct{ B int32 }\n",
	})
	env, logged := goLog(t)
	for _, p := range []string{"./x", "./y", "./x", "./y"} {
		if r := runEnv(t, dir, env, "forygen", p); r.code != 0 {
			t.Fatalf("forygen %s: %v", p, r)
		}
	}
	logged()
	r := runEnv(t, dir, env, "forygen", "-v", "./...")
	if r.code == 0 || !strings.Contains(r.stderr, "registration id=7 is also used by struct example.com/m/x.X") {
		t.Errorf("forygen ./... over two skipped packages with one id: %v", r)
	}
	if log := logged(); strings.Contains(log, exportFlag) {
		t.Errorf("the packages were loaded, not skipped, so the test proves nothing:\n%s", log)
	}
}

// A skipped package's changes against its fory.lock are printed again,
// and a breaking one still fails the run.
func TestUpToDateReplaysLock(t *testing.T) {
	v1 := "package m\n\n//fory:generate id=1\ntype A struct {\n\tX int64 `fory:\"id=1\"`\n\tS string `fory:\"id=2\"`\n}\n"
	dir := module(t, map[string]string{"m.go": v1})
	env, logged := goLog(t)
	forygen := func(args ...string) result {
		t.Helper()
		logged()
		return runEnv(t, dir, env, "forygen", args...)
	}
	mustRun(t, dir, "forygen")
	mustRun(t, dir, "forygen", "lock")
	write(t, filepath.Join(dir, "m.go"), strings.Replace(v1, "}\n", "\tN *int32 `fory:\"id=3\"`\n}\n", 1))
	first := forygen()
	if first.code != 0 || !strings.Contains(first.stdout, "safe: A.N: field added") {
		t.Fatalf("forygen after a safe change: %v", first)
	}
	second := forygen()
	if log := logged(); strings.Contains(log, exportFlag) {
		t.Errorf("the second run loaded the package:\n%s", log)
	}
	if second.code != 0 || second.stdout != first.stdout {
		t.Errorf("a skipped run printed\n%s\nwhere the run before printed\n%s", second.stdout, first.stdout)
	}
	// Breaking, accepted: written and recorded; a run without
	// -accept-breaking still refuses it.
	edit(t, filepath.Join(dir, "m.go"), "S string", "S int32")
	for i := range 2 {
		r := forygen("-accept-breaking")
		if r.code != 0 || !strings.Contains(r.stdout, "breaking: A.S") {
			t.Fatalf("forygen -accept-breaking (%d): %v", i, r)
		}
	}
	if log := logged(); strings.Contains(log, exportFlag) {
		t.Errorf("the second -accept-breaking run loaded the package:\n%s", log)
	}
	before := read(t, filepath.Join(dir, "m_fory.go"))
	edit(t, filepath.Join(dir, "m_fory.go"), "// Code generated", "// Code generated") // untouched
	r := forygen()
	if r.code == 0 || !strings.Contains(r.stdout, "breaking: A.S") || !strings.Contains(r.stderr, "-accept-breaking") {
		t.Errorf("forygen without -accept-breaking after a recorded -accept-breaking run: %v", r)
	}
	if read(t, filepath.Join(dir, "m_fory.go")) != before {
		t.Error("a refused run rewrote m_fory.go")
	}
}

// lines counts the lines of log that start with prefix.
func lines(log, prefix string) int {
	n := 0
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}
