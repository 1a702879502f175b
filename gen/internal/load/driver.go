package load

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// How a run loads, and what it costs (issue 27). go/packages, asked for
// the syntax and types of a package and of all its dependencies, parses
// and type-checks every dependency from source, the standard library
// included: seconds of CPU for a package with a dozen types. forygen needs
// syntax only for the packages it generates; of the others it needs their
// types (which the compiler's export data holds, built once and kept in
// the go build cache) and the directives above the types they declare
// (read by parsing the declaring file, directiveOf). So a load is:
//
//  1. List: go list of the patterns with their dependencies, names, files
//     and imports, no types (one go list per pattern).
//  2. The packages read for generation, and every listed package that
//     imports one of them (the test variant q [p.test] of a dependency q
//     that imports p), are type-checked here from source, without
//     function bodies and with forygen's own output hidden.
//  3. Every other package they import comes from export data: one go list
//     -export of those packages, which compiles only what the build cache
//     lacks (never the generated packages themselves, whose stale output
//     may not compile).

// Listing is what go list says about a run's packages and their
// dependencies: names, files and imports, no types. It is enough to tell
// which packages' inputs changed (Hash) before anything is type-checked.
type Listing struct {
	cfg        Config
	buildFlags []string
	byID       map[string]*packages.Package // every listed package: the patterns' and their dependencies
	roots      []*packages.Package          // the patterns' packages, test variants and external tests, in go list order; no test binaries
	// Named lists the packages named by patterns without "...".
	Named []Named
	// Units holds the patterns' packages, each with its tests.
	Units     []*Unit
	goroot    string // $GOROOT/src, whose files are hashed by size and time
	hashes    map[string][]byte
	outputs   map[string]bool     // isOutput
	importIDs map[string][]string // imports
}

// Unit is one package of the patterns with its test variant and its
// external test package: the Go files of one directory, where generation
// writes its files.
type Unit struct {
	Dir     string
	PkgPath string
	pkgs    []*packages.Package
}

// List runs go list on the configured patterns.
func List(cfg Config) (*Listing, []error) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	buildFlags := []string{}
	if len(cfg.Tags) > 0 {
		buildFlags = append(buildFlags, "-tags="+strings.Join(cfg.Tags, ","))
	}
	// One pattern at a time, so that a pattern matching nothing is an
	// error naming it.
	listCfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedDeps | packages.NeedForTest | packages.NeedModule,
		Dir: cfg.Dir, BuildFlags: buildFlags, Tests: true,
	}
	listed, named, errs := listPatterns(listCfg, patterns)
	if len(errs) > 0 {
		return nil, errs
	}
	ls := &Listing{cfg: cfg, buildFlags: buildFlags, byID: map[string]*packages.Package{}, Named: named, hashes: map[string][]byte{}, outputs: map[string]bool{}, importIDs: map[string][]string{}}
	var index func(p *packages.Package)
	index = func(p *packages.Package) {
		if _, ok := ls.byID[p.ID]; ok {
			return
		}
		ls.byID[p.ID] = p
		for _, imp := range p.Imports {
			index(imp)
		}
	}
	tested := map[string]bool{} // packages with test variants
	for _, p := range listed {
		index(p)
		if p.ForTest != "" {
			tested[p.ForTest] = true
		}
	}
	if rt := ls.byID["runtime"]; rt != nil && filepath.Base(rt.Dir) == "runtime" {
		ls.goroot = filepath.Dir(rt.Dir) + string(filepath.Separator)
	}
	units := map[string]*Unit{}
	for _, p := range listed {
		if p.ForTest == "" && strings.HasSuffix(p.ID, ".test") && tested[strings.TrimSuffix(p.ID, ".test")] {
			continue // the test binary's synthesized main package
		}
		ls.roots = append(ls.roots, p)
		base := p.PkgPath
		if p.ForTest != "" {
			base = p.ForTest
		}
		u := units[base]
		if u == nil {
			u = &Unit{PkgPath: base}
			units[base] = u
			ls.Units = append(ls.Units, u)
		}
		if u.Dir == "" {
			u.Dir = p.Dir
		}
		u.pkgs = append(u.pkgs, p)
	}
	return ls, nil
}

// selectedFiles are the files of p a load reads annotated types from: the
// plain package's non-test files, the test variant's in-package tests, the
// external test package's files.
func selectedFiles(p *packages.Package) func(path string) bool {
	variant := p.ForTest != "" && p.ForTest == p.PkgPath
	if p.ForTest != "" && !variant {
		return func(string) bool { return true }
	}
	return func(path string) bool { return strings.HasSuffix(path, "_test.go") == variant }
}

// mayAnnotate reports whether p can declare anything a run reads: a file
// it is read from mentions "fory:" (every directive, misspelled ones
// included, and every fory tag does), or its directory holds generated
// files or a fory.lock (which a run removes or compares). A package that
// cannot is not type-checked.
func (u *Unit) mayAnnotate(p *packages.Package) bool {
	for _, suffix := range []string{"*" + GeneratedSuffix, "*" + GeneratedTestSuffix, LockFileName} {
		if m, _ := filepath.Glob(filepath.Join(u.Dir, suffix)); len(m) > 0 {
			return true
		}
	}
	sel := selectedFiles(p)
	for _, f := range p.GoFiles {
		if !sel(f) {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil || bytes.Contains(src, []byte("fory:")) {
			return true
		}
	}
	return false
}

// LockFileName is the name of a directory's lock file (gen/internal/lock).
const LockFileName = "fory.lock"

// Load type-checks the packages of the units want selects (all of them
// when want is nil) and returns their annotated declarations; see the
// package Load. known are the registrations of the units a run does not
// load, which an earlier run recorded, for the duplicate check.
func (ls *Listing) Load(want func(*Unit) bool, known []Registration) (*Result, []error) {
	res := &Result{Constraints: map[string]string{}, Sources: map[string]bool{}, Named: ls.Named, Consts: map[string][]Const{}}
	var read []*packages.Package // the packages annotated types are read from
	inRead := map[string]bool{}
	for _, u := range ls.Units {
		if want != nil && !want(u) {
			continue
		}
		for _, p := range u.pkgs {
			sel := selectedFiles(p)
			for _, f := range p.GoFiles {
				if sel(f) && !IsGenerated(f) {
					res.Sources[f] = true
				}
			}
			if ls.cfg.OnlyAnnotated && !u.mayAnnotate(p) {
				continue
			}
			read = append(read, p)
			inRead[p.ID] = true
		}
	}
	fset := token.NewFileSet()
	if err := ls.typeCheck(fset, inRead); err != nil {
		return nil, []error{err}
	}
	l := &loader{fset: fset, external: map[string]*ast.File{}, files: ls.filesOf}
	var errs []error
	for _, p := range read {
		ls.consts(p, res.Consts)
		mp, perrs := l.loadPackage(p, selectedFiles(p), res)
		errs = append(errs, perrs...)
		if mp != nil {
			res.Packages = append(res.Packages, mp)
		}
	}
	for k, cs := range res.Consts {
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].Pos.Filename != cs[j].Pos.Filename {
				return cs[i].Pos.Filename < cs[j].Pos.Filename
			}
			return cs[i].Pos.Offset < cs[j].Pos.Offset
		})
		res.Consts[k] = cs
	}
	res.Registrations = l.all
	errs = append(errs, duplicateRegistrations(append(append([]Registration(nil), l.all...), known...), ls.cfg.OneRegistry)...)
	return res, errs
}

// filesOf returns the Go files of a listed package, by import path.
func (ls *Listing) filesOf(pkgPath string) []string {
	if p := ls.byID[pkgPath]; p != nil {
		return p.GoFiles
	}
	return nil
}

// typeCheck sets Syntax, Types and TypesInfo on the packages of read and
// on every listed package that imports one of them, checked from source
// in import order; what they import otherwise is loaded from export data.
// Imports are those of the files a check reads (Listing.imports): not of
// the hidden generated files.
func (ls *Listing) typeCheck(fset *token.FileSet, read map[string]bool) error {
	fromSource := map[string]bool{}
	var order []*packages.Package // dependencies first
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		if v, ok := fromSource[p.ID]; ok {
			return v
		}
		fromSource[p.ID] = false // import graphs have no cycles
		src := read[p.ID]
		for _, id := range ls.imports(p) {
			if visit(ls.byID[id]) {
				src = true
			}
		}
		fromSource[p.ID] = src
		if src {
			order = append(order, p)
		}
		return src
	}
	for _, p := range ls.roots {
		if read[p.ID] {
			visit(p)
		}
	}
	// The packages the source packages import, loaded from export data.
	var exported []string
	seen := map[string]bool{}
	for _, p := range order {
		for _, id := range ls.imports(p) {
			if !fromSource[id] && !seen[id] && id != "unsafe" {
				seen[id] = true
				exported = append(exported, id)
			}
		}
	}
	sort.Strings(exported)
	typesOf := map[string]*types.Package{}
	var sizes types.Sizes
	if len(exported) > 0 {
		// Every package with export data loads from it; one without
		// (it does not compile, as a package whose generated file is
		// stale) is type-checked from source by go/packages, with its
		// generated files hidden as ours are.
		ps, err := packages.Load(&packages.Config{
			Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesSizes,
			Dir:  ls.cfg.Dir, Fset: fset, ParseFile: parseHidingGenerated, BuildFlags: ls.buildFlags,
		}, exported...)
		if err != nil {
			return fmt.Errorf("forygen: loading the dependencies of %v: %w", ls.cfg.Patterns, err)
		}
		for _, p := range ps {
			typesOf[p.ID] = p.Types
			if p.TypesSizes != nil {
				sizes = p.TypesSizes
			}
		}
	}
	if sizes == nil {
		arch := os.Getenv("GOARCH")
		if arch == "" {
			arch = runtime.GOARCH
		}
		sizes = types.SizesFor("gc", arch)
	}
	for _, p := range order {
		var syntax []*ast.File
		files := p.CompiledGoFiles
		if len(files) == 0 {
			files = p.GoFiles
		}
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				continue // reported by the type checker as missing declarations
			}
			if f, _ := parseHidingGenerated(fset, name, src); f != nil {
				syntax = append(syntax, f)
			}
		}
		tc := &types.Config{
			Importer: importerFunc(func(path string) (*types.Package, error) {
				if path == "unsafe" {
					return types.Unsafe, nil
				}
				imp := p.Imports[path]
				if imp == nil {
					return nil, fmt.Errorf("no package for import %q", path)
				}
				t := typesOf[imp.ID]
				if t == nil || !t.Complete() {
					return nil, fmt.Errorf("could not load package %s", imp.ID)
				}
				return t, nil
			}),
			// Only declarations matter to forygen.
			IgnoreFuncBodies: true,
			Error:            func(error) {}, // a package with errors is still read when its declarations can be
			Sizes:            sizes,
		}
		if p.Module != nil && p.Module.GoVersion != "" {
			tc.GoVersion = "go" + p.Module.GoVersion
		}
		p.Fset = fset
		p.Syntax = syntax
		p.Types = types.NewPackage(p.PkgPath, p.Name)
		p.TypesInfo = &types.Info{Defs: map[*ast.Ident]types.Object{}}
		_ = types.NewChecker(tc, fset, p.Types, p.TypesInfo).Files(syntax)
		typesOf[p.ID] = p.Types
	}
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// parseHidingGenerated parses a source file, replacing a forygen output
// file by its package clause, so that stale or broken output never blocks
// regeneration (and never feeds it).
func parseHidingGenerated(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	if isGeneratedSource(filename, src) {
		return parser.ParseFile(fset, filename, src, parser.PackageClauseOnly)
	}
	return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
}

// isGeneratedSource is IsGenerated on a file's content.
func isGeneratedSource(path string, src []byte) bool {
	if !strings.HasSuffix(path, GeneratedSuffix) && !strings.HasSuffix(path, GeneratedTestSuffix) {
		return false
	}
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		l := strings.TrimSpace(string(line))
		if l == "" || strings.HasPrefix(l, "//go:build ") || strings.HasPrefix(l, "// +build ") {
			continue
		}
		return l == generatedHeader
	}
	return false
}
