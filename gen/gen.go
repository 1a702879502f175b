// Package gen is the forygen generator as a library: Run loads annotated
// types, plans their wire layout and writes one generated file per source
// file. cmd/forygen is a thin wrapper around it.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/forygen/forygen/gen/internal/emit"
	"github.com/forygen/forygen/gen/internal/load"
	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// Config configures a generator run.
type Config struct {
	Dir      string   // working directory for package patterns; "" is the current directory
	Patterns []string // package patterns; empty means "."
	Types    []string // generate only these type names; empty means all
	Tags     []string // build tags for loading
	Check    bool     // do not write; report stale or missing files with a diff
	Verbose  bool
	Stdout   io.Writer // progress and diffs; nil means os.Stdout
	Stderr   io.Writer // generation errors; nil means os.Stderr
}

// ErrStale is returned by Run in check mode when generated files are not up
// to date.
var ErrStale = errors.New("forygen: generated files are stale; run go generate")

// ErrGeneration is returned when any type could not be generated; every
// error has been printed to Stderr.
var ErrGeneration = errors.New("forygen: generation failed")

// Run generates code for the annotated types of the configured packages.
func Run(cfg Config) error {
	stdout, stderr := cfg.Stdout, cfg.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	pkgs, errs := load.Load(load.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Tags: cfg.Tags})
	want := map[string]bool{}
	for _, t := range cfg.Types {
		want[t] = true
	}
	outputs := map[string][]byte{} // path → content; nil content means "remove"
	for _, p := range pkgs {
		for _, f := range p.Files {
			var structs []*plan.Struct
			var enums []*model.EnumDecl
			for _, s := range f.Structs {
				if len(want) > 0 && !want[s.Name] {
					continue
				}
				ps, perrs := plan.PlanStruct(s)
				for _, e := range perrs {
					errs = append(errs, asGenError(e))
				}
				if ps != nil {
					structs = append(structs, ps)
				}
			}
			for _, e := range f.Enums {
				if len(want) == 0 || want[e.Name] {
					enums = append(enums, e)
				}
			}
			out := outputPath(f.Path)
			if len(structs) == 0 && len(enums) == 0 {
				continue
			}
			src, err := emit.Render(emit.Input{PkgPath: p.Path, PkgName: p.Name, Structs: structs, Enums: enums})
			if err != nil {
				errs = append(errs, err)
				continue
			}
			outputs[out] = src
		}
		// Generated files whose source no longer has annotated types would
		// break the build: remove them.
		if len(want) == 0 && p.Dir != "" {
			matches, _ := filepath.Glob(filepath.Join(p.Dir, "*"+load.GeneratedSuffix))
			for _, m := range matches {
				if _, ok := outputs[m]; !ok && isOurs(m) {
					outputs[m] = nil
				}
			}
		}
	}
	if len(errs) > 0 {
		printErrors(stderr, errs)
		return ErrGeneration
	}
	paths := make([]string, 0, len(outputs))
	for p := range outputs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	stale := false
	for _, path := range paths {
		content := outputs[path]
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
			fmt.Fprint(stdout, Diff(path, old, content))
			continue
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
		if cfg.Verbose {
			fmt.Fprintf(stdout, "wrote %s\n", path)
		}
	}
	if stale {
		return ErrStale
	}
	return nil
}

// outputPath names the generated file of a source file: x.go → x_fory.go.
func outputPath(src string) string {
	return strings.TrimSuffix(src, ".go") + load.GeneratedSuffix
}

func isOurs(path string) bool {
	b, err := os.ReadFile(path)
	return err == nil && bytes.HasPrefix(b, []byte("// "+emit.Header))
}

func asGenError(e error) error {
	var pe *plan.Error
	if errors.As(e, &pe) {
		return &load.Error{Pos: pe.Pos, What: pe.Msg}
	}
	return e
}

// printErrors prints every error, sorted by position.
func printErrors(w io.Writer, errs []error) {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i] < lines[j] })
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
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
