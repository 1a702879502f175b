// Package gen is the forygen generator as a library: Run loads annotated
// types, plans their wire layout and writes one generated file per source
// file. cmd/forygen is a thin wrapper around it.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/forygen/forygen/gen/internal/emit"
	"github.com/forygen/forygen/gen/internal/load"
	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// GenVersion is the version of the generated-code API the generator
// writes: the foryimpl.GenVersion of the runtime its output compiles
// against.
const GenVersion = emit.GenVersion

// Config configures a generator run.
type Config struct {
	Dir      string   // working directory for package patterns; "" is the current directory
	Patterns []string // package patterns; empty means "."
	Types    []string // generate only these type names; empty means all
	Tags     []string // build tags for loading
	Check    bool     // do not write; report stale or missing files with a diff
	Verbose  bool
	// AcceptLossy lets a check pass when the only changes against a
	// directory's fory.lock lose values (narrowing conversions, nulls that
	// become zero values); breaking changes always fail it.
	AcceptLossy bool
	// AcceptBreaking lets a run pass (and generation write its files)
	// when changes against a directory's fory.lock break peers on the
	// locked schema; the changes are printed all the same.
	AcceptBreaking bool
	// CacheDir keeps, per package directory, the record of the last
	// successful run (skip.go): a run does not load, plan or render a
	// package whose inputs and generated files are those of its record.
	// "" records nothing and skips nothing; the forygen command uses
	// DefaultCacheDir. -check and -type runs never skip.
	CacheDir string
	// Force regenerates every package, up to date or not, and records it.
	Force  bool
	Stdout io.Writer // progress and diffs; nil means os.Stdout
	Stderr io.Writer // generation errors; nil means os.Stderr
}

// ErrStale is returned by Run in check mode when generated files are not up
// to date.
var ErrStale = errors.New("forygen: generated files are stale; run go generate")

// ErrBreaking is returned by Run outside check mode when the types changed
// against a directory's fory.lock in a way that breaks peers on the locked
// schema; the changes have been printed to Stdout and no file was written.
var ErrBreaking = errors.New("forygen: the types changed against fory.lock in ways that break peers on the locked schema (see above); nothing was written: fix the types, run forygen lock to accept the new schema, or pass -accept-breaking to generate anyway")

// ErrGeneration is returned when any type could not be generated; every
// error has been printed to Stderr.
var ErrGeneration = errors.New("forygen: generation failed")

// Output is one file a run would write; nil Content means the file should be
// removed (its source no longer has annotated types).
type Output struct {
	Path    string
	Content []byte
}

// Generate loads, plans and renders, and returns the files a run would write,
// sorted by path, without touching the disk. On generation errors it returns
// them all (each `file:line:col: forygen: Type.Field: what; how to fix`).
func Generate(cfg Config) ([]Output, []error) {
	g, errs := generate(cfg, nil)
	if g == nil {
		return nil, errs
	}
	return g.outputs, errs
}

// generated is what generate returns to Run.
type generated struct {
	outputs   []Output
	res       *load.Result
	units     []*load.Unit
	annotated map[string]bool // package paths with annotated types
}

// generate lists the packages, loads those sk does not find up to date
// (all of them without sk), and renders their files.
func generate(cfg Config, sk *skipper) (*generated, []error) {
	ls, errs := load.List(load.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Tags: cfg.Tags, OneRegistry: true, OnlyAnnotated: true})
	if ls == nil {
		return nil, errs
	}
	var stale func(*load.Unit) bool
	var known []load.Registration
	if sk != nil {
		sk.plan(ls)
		stale = func(u *load.Unit) bool { return sk.skipped[u] == nil }
		known = sk.known()
	}
	res, errs := ls.Load(stale, known)
	if res == nil {
		return nil, errs
	}
	// -type selects which generated files are written: those of the
	// source files declaring a named type. Every file is still generated
	// whole, with all the annotated types of its source, so that two
	// //go:generate lines with different -type flags in one package write
	// the same bytes and never drop each other's types.
	want := map[string]bool{}
	for _, t := range cfg.Types {
		if t = strings.TrimSpace(t); t != "" {
			want[t] = true
		}
	}
	found := map[string]bool{}
	var names []string // every annotated type of the run, for the -type error
	outputs := map[string][]byte{}
	selected := map[string]bool{}
	dirs := map[string]bool{}
	annotated := map[string]bool{} // package paths with annotated types
	if sk != nil {
		for u, r := range sk.skipped {
			if r.Annotated {
				annotated[u.PkgPath] = true
			}
		}
	}
	for _, p := range res.Packages {
		var all []*model.StructDecl
		for _, f := range p.Files {
			all = append(all, f.Structs...)
		}
		recursive := plan.Recursive(p.Path, all)
		for _, f := range p.Files {
			var structs []*plan.Struct
			sel := false
			mark := func(name string) {
				names = append(names, name)
				if want[name] {
					found[name], sel = true, true
				}
			}
			for _, u := range f.Unions {
				mark(u.Name)
			}
			for _, s := range f.Structs {
				mark(s.Name)
				ps, perrs := plan.PlanStruct(s)
				for _, e := range perrs {
					errs = append(errs, asGenError(e))
				}
				if ps != nil {
					ps.Recursive = recursive[s.Name]
					structs = append(structs, ps)
				}
			}
			for _, e := range f.Enums {
				mark(e.Name)
			}
			for _, e := range f.Exts {
				mark(e.Name)
			}
			if len(f.Structs) == 0 && len(f.Enums) == 0 && len(f.Unions) == 0 && len(f.Exts) == 0 {
				continue
			}
			annotated[p.Path] = true
			src, err := emit.Render(emit.Input{PkgPath: p.Path, PkgName: p.Name, Structs: structs, Enums: f.Enums, Unions: f.Unions, Exts: f.Exts})
			if err != nil {
				errs = append(errs, err)
				continue
			}
			// A source file's build constraint goes on its generated file,
			// before the header, so both are compiled together; -check
			// compares these same bytes.
			if c := res.Constraints[f.Path]; c != "" {
				src = append([]byte(c+"\n\n"), src...)
			}
			outputs[outputPath(f.Path)] = src
			if len(want) == 0 || sel {
				selected[outputPath(f.Path)] = true
			}
		}
		if p.Dir != "" {
			dirs[p.Dir] = true
		}
	}
	var unknown []string
	for t := range want {
		if !found[t] {
			unknown = append(unknown, t)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		sort.Strings(names)
		have := "there are none"
		if len(names) > 0 {
			have = "the annotated types are " + strings.Join(names, ", ")
		}
		errs = append(errs, fmt.Errorf("forygen: -type %s: no annotated type of that name in %s; %s", strings.Join(unknown, ","), patternList(cfg.Patterns), have))
	}
	// Generated files whose source no longer has annotated types, or no
	// longer exists, would break the build: remove them. A source that
	// exists but was not loaded (left out by build constraints) keeps its
	// generated file.
	removing := map[string]bool{} // directories with a generated file to remove
	if len(want) == 0 {
		for dir := range dirs {
			for _, suffix := range []string{load.GeneratedSuffix, load.GeneratedTestSuffix} {
				matches, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
				for _, m := range matches {
					if _, ok := outputs[m]; ok || !load.IsGenerated(m) {
						continue
					}
					src := sourcePath(m)
					if _, err := os.Stat(src); res.Sources[src] || errors.Is(err, fs.ErrNotExist) {
						outputs[m] = nil
						selected[m] = true
						removing[dir] = true
					}
				}
			}
		}
	}
	// A package named without a wildcard (the current directory of a
	// //go:generate line included) must have annotated types, unless the
	// run removes its last generated files.
	for _, n := range res.Named {
		if annotated[n.PkgPath] {
			continue
		}
		stale := false
		for _, p := range res.Packages {
			if p.Path == n.PkgPath && removing[p.Dir] {
				stale = true
			}
		}
		if !stale {
			errs = append(errs, fmt.Errorf("forygen: %s (package %s) has no annotated types (with the build tags of this run); annotate a type with //fory:generate id=N, //fory:enum id=N, //fory:union or //fory:ext, or remove the //go:generate line", n.Pattern, n.PkgPath))
		}
	}
	if len(errs) > 0 {
		sortErrors(errs)
		return nil, errs
	}
	out := make([]Output, 0, len(outputs))
	for p, c := range outputs {
		if selected[p] {
			out = append(out, Output{Path: p, Content: c})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return &generated{outputs: out, res: res, units: ls.Units, annotated: annotated}, nil
}

func patternList(patterns []string) string {
	if len(patterns) == 0 {
		return "."
	}
	return strings.Join(patterns, " ")
}

// Run generates code for the annotated types of the configured packages and
// writes (or, with Check, compares) the output files. It also compares the
// types with each directory's fory.lock, when there is one, and prints every
// change: with Check it fails on changes that break peers on the locked
// schema or lose values (unless AcceptLossy); otherwise it fails on
// breaking ones before writing anything (unless AcceptBreaking).
func Run(cfg Config) error {
	stdout, stderr := cfg.Stdout, cfg.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	sk := newSkipper(cfg)
	g, errs := generate(cfg, sk)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		return ErrGeneration
	}
	changes, err := lockChanges(g.res)
	if err != nil {
		return err
	}
	if sk != nil {
		for u, r := range sk.skipped {
			changes[u.Dir] = r.Changes
		}
	}
	breaking, lossy := printChanges(changes, cfg, stdout)
	if !cfg.Check && breaking && !cfg.AcceptBreaking {
		return ErrBreaking
	}
	if sk != nil && cfg.Verbose {
		for _, u := range g.units {
			if r := sk.skipped[u]; r != nil {
				fmt.Fprintf(stdout, "up to date %s (skipped; -force regenerates)\n", u.Dir)
			}
		}
	}
	stale := false
	for _, o := range g.outputs {
		path, content := o.Path, o.Content
		old, err := os.ReadFile(path)
		exists := err == nil
		if content == nil {
			if cfg.Check {
				fmt.Fprintf(stdout, "%s: should be removed (no annotated types in its source)\n", path)
				stale = true
				continue
			}
			if err := os.Remove(path); err != nil {
				return err
			}
			if cfg.Verbose {
				fmt.Fprintf(stdout, "removed %s\n", path)
			}
			continue
		}
		if exists && bytes.Equal(old, content) {
			if cfg.Verbose {
				fmt.Fprintf(stdout, "unchanged %s\n", path)
			}
			continue
		}
		if cfg.Check {
			stale = true
			fmt.Fprint(stdout, staleReport(path, old, content, exists))
			continue
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
		if cfg.Verbose {
			fmt.Fprintf(stdout, "wrote %s\n", path)
		}
	}
	if cfg.Check && !stale && (breaking && !cfg.AcceptBreaking || lossy && !cfg.AcceptLossy) {
		return ErrSchemaChange
	}
	if stale {
		return ErrStale
	}
	if sk != nil {
		sk.save(g, changes)
	}
	return nil
}

// outputPath names the generated file of a source file: x.go → x_fory.go,
// x_test.go → x_fory_test.go (a test file's code stays in the test build).
func outputPath(src string) string {
	if base, ok := strings.CutSuffix(src, "_test.go"); ok {
		return base + load.GeneratedTestSuffix
	}
	return strings.TrimSuffix(src, ".go") + load.GeneratedSuffix
}

// sourcePath is outputPath's inverse.
func sourcePath(out string) string {
	if base, ok := strings.CutSuffix(out, load.GeneratedTestSuffix); ok {
		return base + "_test.go"
	}
	return strings.TrimSuffix(out, load.GeneratedSuffix) + ".go"
}

func asGenError(e error) error {
	var pe *plan.Error
	if errors.As(e, &pe) {
		return &load.Error{Pos: pe.Pos, What: pe.Msg}
	}
	return e
}

// sortErrors orders errors by source position; errors without one go first.
func sortErrors(errs []error) {
	pos := func(e error) model.Pos {
		var le *load.Error
		if errors.As(e, &le) {
			return le.Pos
		}
		return model.Pos{}
	}
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := pos(errs[i]), pos(errs[j])
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Diff renders a line diff of a generated file against its expected
// content: the changed region with three lines of context.
func Diff(path string, old, new []byte) string {
	a := strings.Split(string(old), "\n")
	b := strings.Split(string(new), "\n")
	if len(old) == 0 {
		a = nil
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s (on disk)\n+++ %s (generated)\n", path, path)
	from := max(0, pre-3)
	fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", from+1, len(a)-suf-from, from+1, len(b)-suf-from)
	for i := from; i < pre; i++ {
		sb.WriteString(" " + a[i] + "\n")
	}
	for i := pre; i < len(a)-suf; i++ {
		sb.WriteString("-" + a[i] + "\n")
	}
	for i := pre; i < len(b)-suf; i++ {
		sb.WriteString("+" + b[i] + "\n")
	}
	for i := len(b) - suf; i < min(len(b), len(b)-suf+3); i++ {
		sb.WriteString(" " + b[i] + "\n")
	}
	return sb.String()
}
