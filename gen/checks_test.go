package gen_test

import (
	"bytes"
	"errors"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen"
)

// The generator's checks (issue 12) on testdata/src/checks and
// testdata/src/dup: every error of a run is printed at once, as
// `file:line:col: forygen: Type.Field: what; how to fix`, and Run returns
// ErrGeneration (exit status 1).

var errLine = regexp.MustCompile(`^(.+\.go):(\d+:\d+): forygen: (.*)$`)

type genError struct{ file, pos, what string }

var (
	checksOnce sync.Once
	checksErrs []genError
)

// runErrors runs the generator on patterns, requires it to fail and returns
// its errors, parsed.
func runErrors(t *testing.T, patterns ...string) []genError {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := gen.Run(gen.Config{Patterns: patterns, Check: true, Stdout: &stdout, Stderr: &stderr})
	require.True(t, errors.Is(err, gen.ErrGeneration), "err = %v\n%s", err, stdout.String())
	var out []genError
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		m := errLine.FindStringSubmatch(line)
		require.NotNil(t, m, "line %q is not file:line:col: forygen: ...", line)
		out = append(out, genError{file: filepath.Base(m[1]), pos: m[2], what: m[3]})
	}
	return out
}

// checksErrors is the error list of testdata/src/checks, computed once.
func checksErrors(t *testing.T) []genError {
	t.Helper()
	checksOnce.Do(func() { checksErrs = runErrors(t, "./testdata/src/checks") })
	require.NotEmpty(t, checksErrs)
	return checksErrs
}

// requireError finds the error at pos and checks its text.
func requireError(t *testing.T, errs []genError, file, pos, what string) {
	t.Helper()
	for _, e := range errs {
		if e.file == file && e.pos == pos {
			assert.Equal(t, what, e.what, "%s:%s", file, pos)
			return
		}
	}
	t.Errorf("no error at %s:%s; want %q; got %v", file, pos, what, errs)
}

func requireNoError(t *testing.T, errs []genError, file, pos string) {
	t.Helper()
	for _, e := range errs {
		if e.file == file && e.pos == pos {
			t.Errorf("unexpected error at %s:%s: %s", file, pos, e.what)
		}
	}
}

func checksFile(t *testing.T) string {
	abs, err := filepath.Abs(filepath.Join("testdata", "src", "checks", "checks.go"))
	require.NoError(t, err)
	return abs
}

// All errors of testdata/src/checks come out of one run, in source order,
// and the command exits with status 1.
func TestChecksReportedTogether(t *testing.T) {
	errs := checksErrors(t)
	assert.Len(t, errs, 18)
	assert.True(t, sort.SliceIsSorted(errs, func(i, j int) bool {
		li, ci := lineCol(t, errs[i].pos)
		lj, cj := lineCol(t, errs[j].pos)
		return li < lj || (li == lj && ci < cj)
	}), "errors are not in source order: %v", errs)
	if testing.Short() {
		return
	}
	cmd := exec.Command("go", "run", "../cmd/forygen", "-check", "./testdata/src/checks")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "forygen: %v\n%s", err, out)
	assert.Equal(t, 1, exit.ExitCode(), "%s", out)
	assert.Equal(t, 18, strings.Count(string(out), ": forygen: "), "%s", out)
}

func lineCol(t *testing.T, pos string) (int, int) {
	l, c, _ := strings.Cut(pos, ":")
	line, err := strconv.Atoi(l)
	require.NoError(t, err)
	col, err := strconv.Atoi(c)
	require.NoError(t, err)
	return line, col
}

// Item 1: a registration id or name used twice in a package (structs and
// enums share the id space, as in official Fory Go's resolver), or by any
// two packages of one run (issue 27 item 5), importing each other or not.
func TestDuplicateRegistrations(t *testing.T) {
	errs := checksErrors(t)
	file := checksFile(t)
	requireError(t, errs, "checks.go", "26:6", "B: registration id=1 is also used by struct A ("+file+":8:6); give each type its own id")
	requireError(t, errs, "checks.go", "29:6", "E: registration id=1 is also used by struct A ("+file+":8:6), and structs and enums share Fory's registration ids; give each type its own id")
	requireError(t, errs, "checks.go", "35:6", "N2: registration name=ns.N is also used by struct N1 ("+file+":32:6), and structs and enums share Fory's registration names; give each type its own name")

	dup := runErrors(t, "./testdata/src/dup/...")
	a, err := filepath.Abs(filepath.Join("testdata", "src", "dup", "a", "a.go"))
	require.NoError(t, err)
	const aPath = "github.com/forygen/forygen/gen/testdata/src/dup/a"
	require.Len(t, dup, 4, "%v", dup)
	requireError(t, dup, "b.go", "7:6", "U: registration id=40 is also used by struct "+aPath+".T ("+a+":5:6); give each type its own id")
	requireError(t, dup, "b.go", "10:6", "Named: registration name=dup.Named is also used by struct "+aPath+".Named ("+a+":8:6), and structs and enums share Fory's registration names; give each type its own name")
	// c does not import a: one run is one registry all the same (issue 27
	// item 5), and the error says how to generate them apart.
	const apart = " (the packages of one forygen run share one registry, as one program's Fory does; if the two never meet in one program, run forygen on each package alone)"
	requireError(t, dup, "c.go", "7:6", "T: registration id=40 is also used by struct "+aPath+".T ("+a+":5:6); give each type its own id"+apart)
	requireError(t, dup, "c.go", "10:6", "Named: registration name=dup.Named is also used by struct "+aPath+".Named ("+a+":8:6); give each type its own name"+apart)
	// Each package alone generates.
	for _, p := range []string{"./testdata/src/dup/a", "./testdata/src/dup/c"} {
		_, errs := gen.Generate(gen.Config{Patterns: []string{p}})
		assert.Empty(t, errs, p)
	}
}

// Item 2: json:"-" without a fory tag.
func TestJSONDashNeedsForyTag(t *testing.T) {
	errs := checksErrors(t)
	requireError(t, errs, "checks.go", "9:2", "A.Private: tag `json:\"-\"` does not keep a field out of the Fory encoding; tag it `fory:\"-\"` to keep it private, or give it a fory tag (`fory:\"id=N\"`) to serialize it")
	requireNoError(t, errs, "checks.go", "10:2") // json:"-" fory:"-"
	requireNoError(t, errs, "checks.go", "11:2") // json:"-" fory:"id=3"
	requireNoError(t, errs, "checks.go", "12:2") // json:"-,": a field named "-"
}

// Item 3: directives on type aliases.
func TestDirectiveOnAlias(t *testing.T) {
	errs := checksErrors(t)
	requireError(t, errs, "checks.go", "38:6", "Alias: //fory:generate on a type alias (type Alias = A) cannot be generated; put the directive on the aliased type's declaration, or declare a defined type (type Alias A); only an alias of an instantiation of a generic struct of this package (type UserPage = Page[User]) takes //fory:generate")
	requireError(t, errs, "checks.go", "41:6", "EnumAlias: //fory:enum on a type alias (type EnumAlias = E) cannot be generated; put the directive on the aliased type's declaration, or declare a defined type (type EnumAlias E); only an alias of an instantiation of a generic struct of this package (type UserPage = Page[User]) takes //fory:generate")
}

// Item 4: unknown directives, a space after //, and directives that are
// not attached to a type.
func TestUnknownDirectives(t *testing.T) {
	errs := checksErrors(t)
	requireError(t, errs, "checks.go", "43:1", "Typo: //fory:generat is not a forygen directive; did you mean //fory:generate? (the directives are //fory:generate, //fory:enum, //fory:union and //fory:ext)")
	requireError(t, errs, "checks.go", "46:1", "Foo: //fory:foo is not a forygen directive; the directives are //fory:generate, //fory:enum, //fory:union and //fory:ext")
	requireError(t, errs, "checks.go", "49:1", "Spaced: \"// fory:generate id=8\" is not read as a directive; remove the space after // (//fory:generate), as in //go:generate")
	requireError(t, errs, "checks.go", "52:1", "//fory:generate is not attached to a type declaration, so it would be ignored; put it in the doc comment directly above a package-level `type T …` (no blank line between them)")
}

// Item 5: a tag key given twice.
func TestRepeatedTagKeys(t *testing.T) {
	errs := checksErrors(t)
	requireError(t, errs, "checks.go", "13:2", "A.Twice: tag `fory:\"id=1,id=2\"`: key \"id\" appears more than once; keep one")
	requireError(t, errs, "checks.go", "14:2", "A.Null2: tag `fory:\"nullable,nullable\"`: key \"nullable\" appears more than once; keep one")
}

// Item 6: type=bytes (and other container hints) on a field of another
// kind, which plan would ignore.
func TestTypeBytesNeedsByteSlice(t *testing.T) {
	errs := checksErrors(t)
	requireError(t, errs, "checks.go", "15:2", "A.Str: type=bytes applies only to a []byte field, not string; remove type=bytes or declare the field []byte")
	requireError(t, errs, "checks.go", "16:2", "A.PStr: type=bytes applies only to a []byte field, not *string; remove type=bytes or declare the field []byte")
	requireError(t, errs, "checks.go", "17:2", "A.Ints: type=bytes applies only to a []byte field, not []int32; remove type=bytes or declare the field []byte")
	requireNoError(t, errs, "checks.go", "18:2") // []byte
	requireError(t, errs, "checks.go", "19:2", "A.Arr: type=array(element=int32) applies only to a slice or array field, not string; remove it")
}

// Item 7: field ids are 0 ≤ id < 2^29.
func TestFieldIDRange(t *testing.T) {
	errs := checksErrors(t)
	requireError(t, errs, "checks.go", "20:2", "A.Big: tag `fory:\"id=536870912\"`: id=\"536870912\" must be an integer from 0 to 536870911 (field ids are below 2^29)")
	requireError(t, errs, "checks.go", "21:2", "A.Neg: tag `fory:\"id=-1\"`: id=\"-1\" must be an integer from 0 to 536870911 (field ids are below 2^29)")
	requireNoError(t, errs, "checks.go", "22:2") // id=536870911
}

// tempModule writes files into a new module that requires this checkout of
// forygen, and runs go mod tidy.
func tempModule(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir := t.TempDir()
	files["go.mod"] = "module example.com/tm\n\ngo 1.23\n\nrequire github.com/forygen/forygen v0.0.0\n\nreplace github.com/forygen/forygen => " + root + "\n"
	for name, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	goIn(t, dir, nil, "mod", "tidy")
	return dir
}

func goIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod"), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	return string(out)
}

const roundTripTest = `
func roundTrip[T comparable, P interface {
	*T
	serializer.Message
}](t *testing.T, in T) {
	t.Helper()
	data, err := serializer.Serialize(P(&in))
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := serializer.Deserialize(data, P(&out)); err != nil || out != in {
		t.Fatalf("got %v, %v; want %v", out, err, in)
	}
}
`

// Item 8: a source file's build constraint (its //go:build line, and the
// GOOS of its name) is repeated on its generated file, before the header;
// the file builds with the tag and is left out without it, and a run
// without the tag keeps it.
func TestBuildConstraints(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temporary module")
	}
	dir := tempModule(t, map[string]string{
		"a.go": "package tm\n\n//fory:generate id=1\ntype A struct{ X int32 }\n",
		"s.go": "//go:build special\n\npackage tm\n\n//fory:generate id=2\ntype S struct {\n\tA A\n\tV int32\n}\n",
		"s_test.go": "//go:build special\n\npackage tm\n\nimport (\n\t\"testing\"\n\n\t\"github.com/forygen/forygen/serializer\"\n)\n" +
			roundTripTest + "\nfunc TestS(t *testing.T) { roundTrip(t, S{A: A{X: 1}, V: 2}) }\n",
		"l_linux.go": "package tm\n\n//fory:generate id=3\ntype L struct{ V int32 }\n",
	})
	require.NoError(t, gen.Run(gen.Config{Dir: dir, Tags: []string{"special"}}))
	s, err := os.ReadFile(filepath.Join(dir, "s_fory.go"))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(s, []byte("//go:build special\n\n// Code generated by forygen. DO NOT EDIT.\n\npackage tm\n")), "%s", s[:min(len(s), 200)])
	l, err := os.ReadFile(filepath.Join(dir, "l_linux_fory.go"))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(l, []byte("//go:build linux\n\n// Code generated by forygen. DO NOT EDIT.\n")), "%s", l[:min(len(l), 200)])
	a, err := os.ReadFile(filepath.Join(dir, "a_fory.go"))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(a, []byte("// Code generated by forygen. DO NOT EDIT.\n")))
	for _, src := range [][]byte{s, l} {
		formatted, err := format.Source(src)
		require.NoError(t, err)
		assert.Equal(t, string(formatted), string(src), "not gofmt-clean")
	}

	goIn(t, dir, nil, "vet", "-tags", "special", "./...")
	goIn(t, dir, nil, "test", "-count=1", "-tags", "special", "./...")
	goIn(t, dir, nil, "build", "./...") // without the tag: s.go and s_fory.go are both left out
	files := goIn(t, dir, []string{"GOOS=darwin"}, "list", "-f", "{{join .GoFiles \" \"}}", ".")
	assert.Equal(t, "a.go a_fory.go\n", files, "l_linux_fory.go must be left out where l_linux.go is")

	// -check compares the same bytes, with and without the tag: a run that
	// does not load s.go keeps its generated file.
	for _, tags := range [][]string{{"special"}, nil} {
		var stdout bytes.Buffer
		require.NoError(t, gen.Run(gen.Config{Dir: dir, Tags: tags, Check: true, Stdout: &stdout}), "tags %v:\n%s", tags, stdout.String())
		assert.Empty(t, stdout.String())
	}
	// Once the source is gone, its generated file goes too.
	require.NoError(t, os.Remove(filepath.Join(dir, "s.go")))
	require.NoError(t, gen.Run(gen.Config{Dir: dir}))
	_, err = os.Stat(filepath.Join(dir, "s_fory.go"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "s_fory.go outlived s.go: %v", err)
}

// Item 9: annotated types of test files are generated into x_fory_test.go,
// in the package of x_test.go: the package itself (in-package tests) or
// the external _test package. go/packages returns the package, its test
// variant (which repeats its files), the external test package and the
// test binary; each type is generated once.
func TestTestFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temporary module")
	}
	dir := tempModule(t, map[string]string{
		"a.go": "package tm\n\n//fory:generate id=1\ntype A struct{ X int32 }\n",
		"a_test.go": "package tm\n\nimport (\n\t\"testing\"\n\n\t\"github.com/forygen/forygen/serializer\"\n)\n" + roundTripTest +
			"\n//fory:generate id=2\ntype T struct {\n\tA A\n\tN int32\n}\n\nfunc TestT(t *testing.T) { roundTrip(t, T{A: A{X: 1}, N: 2}) }\n",
		"b_test.go": "package tm_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/tm\"\n\t\"github.com/forygen/forygen/serializer\"\n)\n" + roundTripTest +
			"\n//fory:generate id=3\ntype E struct {\n\tA tm.A\n\tS string\n}\n\nfunc TestE(t *testing.T) { roundTrip(t, E{A: tm.A{X: 1}, S: \"x\"}) }\n",
	})
	outs, errs := gen.Generate(gen.Config{Dir: dir})
	require.Empty(t, errs)
	want := map[string]string{"a_fory.go": "package tm\n", "a_fory_test.go": "package tm\n", "b_fory_test.go": "package tm_test\n"}
	require.Len(t, outs, len(want))
	all := ""
	for _, o := range outs {
		clause, ok := want[filepath.Base(o.Path)]
		require.True(t, ok, "unexpected output %s", o.Path)
		assert.Contains(t, string(o.Content), "\n\n"+clause, o.Path)
		all += string(o.Content)
	}
	for _, typ := range []string{"A", "T", "E"} {
		assert.Equal(t, 1, strings.Count(all, "func (x *"+typ+") ForyType()"), "%s generated more than once", typ)
	}
	require.NoError(t, gen.Run(gen.Config{Dir: dir}))
	goIn(t, dir, nil, "vet", "./...")
	out := goIn(t, dir, nil, "test", "-count=1", "-v", "./...")
	assert.Contains(t, out, "--- PASS: TestT")
	assert.Contains(t, out, "--- PASS: TestE")
	var stdout bytes.Buffer
	require.NoError(t, gen.Run(gen.Config{Dir: dir, Check: true, Stdout: &stdout}), stdout.String())
	assert.Empty(t, stdout.String())
}

// marshal=text and marshal=binary (README "Types you don't own") are
// refused with the missing method named, on what cannot carry them, and
// next to keys that would contradict them; a type with both methods, a
// pointer to one, and time.Time's own MarshalBinary are accepted.
func TestMarshalerChecks(t *testing.T) {
	errs := runErrors(t, "./testdata/src/marshalerrs")
	requireError(t, errs, "marshalerrs.go", "10:2", "A.NoText: marshal=text needs Plain to implement encoding.TextMarshaler and, through its pointer, encoding.TextUnmarshaler; it lacks MarshalText() ([]byte, error) and (*Plain).UnmarshalText([]byte) error")
	requireError(t, errs, "marshalerrs.go", "11:2", "A.NoBinary: tag `fory:\"id=1,marshal=bin\"`: marshal=\"bin\" must be text (MarshalText/UnmarshalText, written as a string) or binary (MarshalBinary/UnmarshalBinary, written as bytes)")
	requireError(t, errs, "marshalerrs.go", "12:2", "A.Iface: marshal=text needs a concrete type, not the interface TM")
	requireError(t, errs, "marshalerrs.go", "13:2", "A.Slice: marshal=text needs a named type or a pointer to one, not []netip.Addr")
	requireError(t, errs, "marshalerrs.go", "14:2", "A.WithRef: tag `fory:\"id=4,marshal=text,ref\"`: marshal=text decides the encoding itself: remove encoding=, type= and ref")
	requireError(t, errs, "marshalerrs.go", "15:2", "A.WithType: tag `fory:\"id=5,marshal=text,type=string\"`: marshal=text decides the encoding itself: remove encoding=, type= and ref")
	requireNoError(t, errs, "marshalerrs.go", "16:2") // time.Time, marshal=binary
	requireNoError(t, errs, "marshalerrs.go", "17:2") // *netip.AddrPort
	requireError(t, errs, "marshalerrs.go", "18:2", "A.OnlyOne: marshal=text needs Half to implement encoding.TextMarshaler and, through its pointer, encoding.TextUnmarshaler; it lacks (*Half).UnmarshalText([]byte) error")
	// A non-empty interface is a field, slice element or map[string] value.
	requireError(t, errs, "marshalerrs.go", "19:2", "A.Shapes: interface type TM is supported as a field, a slice element and a map[string] value, not behind a pointer, in an array or Optional, or as a key; use any there")
	require.Len(t, errs, 8)
}

// //fory:ext codecs (README "Types you don't own") are checked where they
// are declared: a stateless struct, a type that exists and is not
// annotated, both methods with the extension type, one codec a type.
func TestExtChecks(t *testing.T) {
	errs := runErrors(t, "./testdata/src/exterrs")
	requireError(t, errs, "exterrs.go", "10:6", "WithFields: an //fory:ext codec is a struct without fields (type WithFields struct{}): generated code calls its methods on the zero value")
	requireError(t, errs, "exterrs.go", "13:6", "NoSuchType: //fory:ext type=netip.Nope: no such type; name a type of this package (Name) or of a package it imports (import/path.Name or pkgname.Name)")
	requireError(t, errs, "exterrs.go", "16:6", "NoMethods: an //fory:ext codec needs the method WriteExt(*buffer.Buffer, *netip.Prefix) error")
	requireError(t, errs, "exterrs.go", "19:6", "OnAnnotated: //fory:ext type=Gen is an annotated type; it has generated code and needs no codec")
	requireError(t, errs, "exterrs.go", "21:1", "NoTarget: //fory:ext: missing type=: //fory:ext takes id=N or name=ns.Type and type=T, the extension type (Name, or import/path.Name)")
	requireError(t, errs, "exterrs.go", "31:6", "Again: netip.AddrPort already has the extension codec Good (exterrs.go:25); keep one")
	requireError(t, errs, "exterrs.go", "43:2", "Elems.L: a map of pointers to the extension type AddrPort is not supported (a list of them is, and a map of them as values)")
	require.Len(t, errs, 7)
}

// Instantiations of generic structs: one file holds every registered
// instantiation of a generic type; a field of an unregistered one, a
// directive on a generic alias and any other directive on an alias are
// errors naming the remedy.
func TestGenericInstanceErrors(t *testing.T) {
	errs := runErrors(t, "./testdata/src/generrs")
	requireError(t, errs, "b.go", "4:6", "StrPage: every instantiation of Page registered by alias must be declared in one file (a.go has one): the methods of Page forward to them from that file's generated code")
	requireError(t, errs, "a.go", "10:2", "S.P: generic type Page[int64] has no generated code: register the instantiation with `//fory:generate id=N` (or name=ns.Type) on an alias of it in package generrs (type XPage = Page[int64])")
	requireError(t, errs, "a.go", "14:6", "GA: //fory:generate on a type alias (type GA = Page[T]) cannot be generated; put the directive on the aliased type's declaration, or declare a defined type (type GA Page[T]); only an alias of an instantiation of a generic struct of this package (type UserPage = Page[User]) takes //fory:generate")
	requireError(t, errs, "a.go", "17:6", "EA: //fory:enum on a type alias (type EA = Page[bool]) cannot be generated; put the directive on the aliased type's declaration, or declare a defined type (type EA Page[bool]); only an alias of an instantiation of a generic struct of this package (type UserPage = Page[User]) takes //fory:generate")
	require.Len(t, errs, 4, "%v", errs)
}
