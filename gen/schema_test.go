package gen_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/forygen/forygen/gen"
	"github.com/forygen/forygen/gen/internal/schema"
)

// schemaPatterns are the packages whose IDL is kept under testdata/schema:
// every conformance and end-to-end test package, the fixture with one field
// of every kind the IDL can describe, and two fixtures, one importing the
// other.
var schemaPatterns = []string{"../internal/conformance/...", "../internal/e2e/...", "./testdata/src/schema",
	"./testdata/src/schemadeps/geo", "./testdata/src/schemadeps/draw"}

var schemaErrLine = regexp.MustCompile(`^(/[^:]+):(\d+):(\d+): (.*)$`)

// TestSchemaGolden keeps, for every package of schemaPatterns, what
// `forygen schema` prints for it: its IDL, or the errors that name the
// fields the IDL cannot describe exactly, without their line and column
// (go test ./gen -run TestSchemaGolden -update rewrites them after a change
// to the test packages' types).
func TestSchemaGolden(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files, errs := gen.Schema(gen.Config{Patterns: schemaPatterns})
	got := map[string]*bytes.Buffer{} // by directory relative to the repository
	out := func(dir string) *bytes.Buffer {
		if got[dir] == nil {
			got[dir] = &bytes.Buffer{}
		}
		return got[dir]
	}
	for _, e := range errs {
		m := schemaErrLine.FindStringSubmatch(e.Error())
		if m == nil {
			t.Fatalf("error without a position: %v", e)
		}
		rel, err := filepath.Rel(root, m[1])
		if err != nil {
			t.Fatal(err)
		}
		// Lines and columns are left out, so that an edit elsewhere in a
		// test package's file does not change its golden file.
		out(filepath.Dir(rel)).WriteString(rel + ": " + m[4] + "\n")
	}
	byName := map[string]*schema.File{}
	for _, f := range files {
		parsed, err := schema.Parse(string(f.Content))
		if err != nil {
			t.Fatalf("%s: %v", f.PkgPath, err)
		}
		if byName[f.Name] != nil {
			t.Fatalf("two files named %s", f.Name)
		}
		byName[f.Name] = parsed
	}
	for _, f := range files {
		dir := strings.TrimPrefix(f.PkgPath, "github.com/forygen/forygen/")
		// The IDL parses back and describes the package's declarations:
		// Write has planned what foryc would generate from it and compared
		// it with forygen's plan; here the file is read once more, with the
		// files it imports as written.
		parsed := byName[f.Name]
		if len(parsed.Messages)+len(parsed.Enums) == 0 {
			t.Fatalf("%s: an empty IDL file", dir)
		}
		var imports []*schema.File
		for _, name := range parsed.Imports {
			if byName[name] == nil {
				t.Fatalf("%s imports %s, which the run did not write", dir, name)
			}
			imports = append(imports, byName[name])
		}
		if _, _, _, err := schema.Declarations(parsed, imports...); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		out(dir).Write(f.Content)
	}
	if len(got) < 30 {
		t.Fatalf("only %d packages", len(got))
	}
	var dirs []string
	for d := range got {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	wantFiles := map[string]bool{}
	for _, d := range dirs {
		name := strings.ReplaceAll(d, "/", "__") + ".fdl"
		if strings.Contains(got[d].String(), ": forygen: ") {
			name = strings.TrimSuffix(name, ".fdl") + ".errors"
		}
		wantFiles[name] = true
		path := filepath.Join("testdata", "schema", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got[d].Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go test ./gen -update)", d, err)
			continue
		}
		if !bytes.Equal(want, got[d].Bytes()) {
			t.Errorf("forygen schema of %s differs from %s (run go test ./gen -update):\n%s", d, path, gen.Diff(path, want, got[d].Bytes()))
		}
	}
	entries, _ := os.ReadDir(filepath.Join("testdata", "schema"))
	for _, e := range entries {
		if !wantFiles[e.Name()] {
			if *update {
				os.Remove(filepath.Join("testdata", "schema", e.Name()))
				continue
			}
			t.Errorf("testdata/schema/%s belongs to no package", e.Name())
		}
	}
	// The fixtures export completely: every kind has an IDL spelling, and
	// draw's file imports geo's for the types it names.
	for _, dir := range []string{"gen/testdata/src/schema", "gen/testdata/src/schemadeps/geo", "gen/testdata/src/schemadeps/draw"} {
		if !wantFiles[strings.ReplaceAll(dir, "/", "__")+".fdl"] {
			t.Errorf("the fixture %s did not export: %s", dir, got[dir])
		}
	}
	if draw := got["gen/testdata/src/schemadeps/draw"].String(); !strings.Contains(draw, "\nimport \"geo.fdl\";\n") {
		t.Errorf("draw's IDL does not import geo.fdl:\n%s", draw)
	}
}

// readmeBlocks returns README.md's `<!-- schema:NAME -->` blocks.
func readmeBlocks(t *testing.T) (string, map[string][2]int) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?m)^<!-- schema:(\\w+) -->\n```\\w*\n((?s:.*?))```\n")
	blocks := map[string][2]int{}
	for _, m := range re.FindAllStringSubmatchIndex(string(raw), -1) {
		blocks[string(raw[m[2]:m[3]])] = [2]int{m[4], m[5]}
	}
	return string(raw), blocks
}

// TestReadmeExamplesExport exports every Go example of README.md that
// declares annotated types (the Quick start's type file, the Schema tools'
// v1 and v2), each in a module of its own: `forygen schema` must write its
// IDL without an error, and the IDL must parse back and read back into one
// declaration per directive of the example.
func TestReadmeExamplesExport(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	directive := regexp.MustCompile(`(?m)^//fory:(generate|enum|union)\b`)
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```\n").FindAllStringSubmatch(string(raw), -1)
	n := 0
	for i, b := range blocks {
		body := b[1]
		decls := len(directive.FindAllString(body, -1))
		if decls == 0 || strings.Contains(body, "\n//fory:ext ") {
			// An extension type has no IDL spelling: forygen schema
			// refuses its fields ("type id 31 (ext) has no IDL
			// spelling"), as README "Types you don't own" says.
			continue
		}
		n++
		name := fmt.Sprintf("block %d (%s)", i, strings.SplitN(body, "\n", 2)[0])
		dir := t.TempDir()
		for file, content := range map[string]string{"go.mod": "module example.com/readme\n\ngo 1.23\n", "example.go": body} {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		files, errs := gen.Schema(gen.Config{Dir: dir})
		if len(errs) > 0 || len(files) != 1 {
			t.Errorf("README %s does not export: %v", name, errs)
			continue
		}
		f, err := schema.Parse(string(files[0].Content))
		if err != nil {
			t.Errorf("README %s: its IDL does not parse back: %v\n%s", name, err, files[0].Content)
			continue
		}
		if _, _, _, err := schema.Declarations(f); err != nil {
			t.Errorf("README %s: its IDL does not read back: %v", name, err)
		}
		if got := len(f.Messages) + len(f.Enums) + len(f.Unions); got != decls {
			t.Errorf("README %s: %d IDL types for %d annotated types:\n%s", name, got, decls, files[0].Content)
		}
	}
	if n < 3 {
		t.Fatalf("README.md has %d Go examples with annotated types; want the Quick start's and the Schema tools' v1 and v2", n)
	}
}

// TestReadmeSchemaExample runs README's "Schema tools" example in a new
// module: v1 of the type, its IDL and its lock, then v2 and the report
// `forygen -check` prints, which must be README's, byte for byte
// (go test ./gen -update rewrites README's output blocks).
func TestReadmeSchemaExample(t *testing.T) {
	readme, blocks := readmeBlocks(t)
	for _, name := range []string{"v1", "idl", "lock", "v2", "check"} {
		if _, ok := blocks[name]; !ok {
			t.Fatalf("README.md has no <!-- schema:%s --> block", name)
		}
	}
	block := func(name string) string { b := blocks[name]; return readme[b[0]:b[1]] }
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/users\n\ngo 1.23\n")
	write("users.go", block("v1"))
	cfg := gen.Config{Dir: dir, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	if err := gen.Run(cfg); err != nil {
		t.Fatalf("generate v1: %v %s", err, cfg.Stderr)
	}
	files, errs := gen.Schema(cfg)
	if len(errs) > 0 || len(files) != 1 {
		t.Fatalf("schema v1: %v", errs)
	}
	if _, errs := gen.Lock(gen.LockConfig{Config: cfg}); len(errs) > 0 {
		t.Fatalf("lock v1: %v", errs)
	}
	lockText, err := os.ReadFile(filepath.Join(dir, "fory.lock"))
	if err != nil {
		t.Fatal(err)
	}
	write("users.go", block("v2"))
	if err := gen.Run(cfg); !errors.Is(err, gen.ErrBreaking) {
		t.Fatalf("generate v2 against the v1 lock: %v, want ErrBreaking %s", err, cfg.Stderr)
	}
	accept := cfg
	accept.AcceptBreaking = true
	if err := gen.Run(accept); err != nil {
		t.Fatalf("generate v2: %v %s", err, cfg.Stderr)
	}
	var report bytes.Buffer
	check := cfg
	check.Check, check.Stdout = true, &report
	if err := gen.Run(check); !errors.Is(err, gen.ErrSchemaChange) {
		t.Fatalf("check v2: %v, want ErrSchemaChange; printed:\n%s", err, report.String())
	}
	got := map[string]string{"idl": string(files[0].Content), "lock": string(lockText), "check": report.String()}
	if *update {
		type edit struct {
			at   [2]int
			text string
		}
		var edits []edit
		for name, text := range got {
			edits = append(edits, edit{blocks[name], text})
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].at[0] > edits[j].at[0] })
		for _, e := range edits {
			readme = readme[:e.at[0]] + e.text + readme[e.at[1]:]
		}
		if err := os.WriteFile(filepath.Join("..", "README.md"), []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range []string{"idl", "lock", "check"} {
		if block(name) != got[name] {
			t.Errorf("README.md's schema:%s block differs from what the tool prints (run go test ./gen -run TestReadmeSchemaExample -update):\n%s",
				name, gen.Diff("README.md", []byte(block(name)), []byte(got[name])))
		}
	}
	// Lossy changes alone pass with AcceptLossy; breaking ones never do.
	check.AcceptLossy, check.Stdout = true, &bytes.Buffer{}
	if err := gen.Run(check); !errors.Is(err, gen.ErrSchemaChange) {
		t.Fatalf("with AcceptLossy the breaking changes must still fail: %v", err)
	}
	// No lock file: -check compares nothing, as before.
	os.Remove(filepath.Join(dir, "fory.lock"))
	check.AcceptLossy, check.Stdout = false, &bytes.Buffer{}
	if err := gen.Run(check); err != nil || check.Stdout.(*bytes.Buffer).Len() != 0 {
		t.Fatalf("without a lock: %v %s", err, check.Stdout)
	}
}

// TestLockModes checks -accept-lossy and the same-schema mode end to end: a
// narrowing alone passes with AcceptLossy, and fails for a type locked in
// same-schema mode.
func TestLockModes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.23\n")
	v1 := "package m\n\n//fory:generate id=1\ntype A struct {\n\tX int64 `fory:\"id=1\"`\n}\n"
	write("m.go", v1)
	cfg := gen.Config{Dir: dir, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	for _, same := range []bool{false, true} {
		write("m.go", v1)
		if err := gen.Run(cfg); err != nil {
			t.Fatal(err)
		}
		lc := gen.LockConfig{Config: cfg}
		if same {
			lc.SameSchema = []string{"A"}
		}
		if _, errs := gen.Lock(lc); len(errs) > 0 {
			t.Fatal(errs)
		}
		write("m.go", strings.Replace(v1, "int64", "int32", 1))
		// Generation prints the verdicts too, and refuses a breaking
		// change (writing nothing) unless AcceptBreaking; a lossy one
		// passes.
		var genOut bytes.Buffer
		run := cfg
		run.Stdout = &genOut
		err := gen.Run(run)
		switch {
		case !same && err != nil:
			t.Fatalf("compatible, lossy: generation failed: %v\n%s", err, genOut.String())
		case same && !errors.Is(err, gen.ErrBreaking):
			t.Fatalf("same-schema: generation: %v, want ErrBreaking\n%s", err, genOut.String())
		}
		if want := "A.X: narrowed"; !strings.Contains(genOut.String(), want) {
			t.Fatalf("generation did not print the verdict %q:\n%s", want, genOut.String())
		}
		if same {
			if src, _ := os.ReadFile(filepath.Join(dir, "m_fory.go")); !strings.Contains(string(src), "X int64") {
				t.Fatalf("a refused generation rewrote m_fory.go")
			}
			run.AcceptBreaking = true
			if err := gen.Run(run); err != nil {
				t.Fatalf("AcceptBreaking: %v", err)
			}
		}
		var out bytes.Buffer
		check := cfg
		check.Check, check.AcceptLossy, check.Stdout = true, true, &out
		err = gen.Run(check)
		switch {
		case !same && err != nil:
			t.Fatalf("compatible, lossy, accepted: %v\n%s", err, out.String())
		case same && !errors.Is(err, gen.ErrSchemaChange):
			t.Fatalf("same-schema: %v, want ErrSchemaChange\n%s", err, out.String())
		}
		if want := "lossy: A.X: narrowed"; !same && !strings.Contains(out.String(), want) {
			t.Fatalf("report lacks %q:\n%s", want, out.String())
		}
		if want := "breaking: A.X: narrowed from varint64 to varint32 (same-schema mode)"; same && !strings.Contains(out.String(), want) {
			t.Fatalf("report lacks %q:\n%s", want, out.String())
		}
		// A relock keeps the mode.
		if _, errs := gen.Lock(gen.LockConfig{Config: cfg}); len(errs) > 0 {
			t.Fatal(errs)
		}
		text, _ := os.ReadFile(filepath.Join(dir, "fory.lock"))
		if same != strings.Contains(string(text), "mode=same-schema") {
			t.Fatalf("relock lost the mode:\n%s", text)
		}
		os.Remove(filepath.Join(dir, "fory.lock"))
	}
}
