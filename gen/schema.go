package gen

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/forygen/forygen/gen/internal/load"
	"github.com/forygen/forygen/gen/internal/lock"
	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
	"github.com/forygen/forygen/gen/internal/schema"
)

// ErrSchemaChange is returned by Run in check mode when the current types
// differ from a directory's fory.lock in a way that breaks peers on the
// locked schema (or loses values, without AcceptLossy); every change has
// been printed to Stdout.
var ErrSchemaChange = errors.New("forygen: the types changed against fory.lock in ways that break or lose values for peers on the locked schema (see above); fix them, pass -accept-lossy for lossy ones (-accept-breaking for breaking ones), or run forygen lock to accept them")

// planned is one run's loaded packages and the plans of all their structs.
type planned struct {
	res   *load.Result
	plans map[*model.StructDecl]*plan.Struct
}

func planAll(res *load.Result) (*planned, []error) {
	p := &planned{res: res, plans: map[*model.StructDecl]*plan.Struct{}}
	var errs []error
	for _, mp := range res.Packages {
		for _, f := range mp.Files {
			for _, s := range f.Structs {
				ps, perrs := plan.PlanStruct(s)
				for _, e := range perrs {
					errs = append(errs, asGenError(e))
				}
				if ps != nil {
					p.plans[s] = ps
				}
			}
		}
	}
	return p, errs
}

// packageDirs groups loaded packages by directory: a lock file covers a
// directory (a package, its in-package tests and its external test package).
func packageDirs(res *load.Result) (dirs []string, byDir map[string][]*model.Package) {
	byDir = map[string][]*model.Package{}
	for _, mp := range res.Packages {
		if mp.Dir == "" {
			continue
		}
		if _, ok := byDir[mp.Dir]; !ok {
			dirs = append(dirs, mp.Dir)
		}
		byDir[mp.Dir] = append(byDir[mp.Dir], mp)
	}
	sort.Strings(dirs)
	return dirs, byDir
}

// SchemaFile is the IDL of one Go package.
type SchemaFile struct {
	PkgPath string
	Name    string // file name: the IDL package (or Go package name) and ".fdl"
	Content []byte
}

// Schema loads the configured packages and returns the Fory IDL of each
// package's annotated types (docs/schema.md). Types the IDL cannot describe
// exactly are errors naming the field. A field whose type is declared in
// another loaded package imports that package's file; a package whose file
// imports one that does not export is an error too, and is not returned.
func Schema(cfg Config) ([]SchemaFile, []error) {
	res, errs := load.Load(load.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Tags: cfg.Tags})
	if res == nil || len(errs) > 0 {
		return nil, errs
	}
	p, errs := planAll(res)
	if len(errs) > 0 {
		return nil, errs
	}
	consts := res.Consts
	inputs := map[string]*schema.Input{}
	var paths []string
	for _, mp := range res.Packages {
		in := inputs[mp.Path]
		if in == nil {
			in = &schema.Input{PkgPath: mp.Path, PkgName: mp.Name, Values: map[string][]schema.EnumValue{}}
			inputs[mp.Path] = in
			paths = append(paths, mp.Path)
		}
		for _, f := range mp.Files {
			for _, s := range f.Structs {
				if ps := p.plans[s]; ps != nil {
					in.Structs = append(in.Structs, ps)
				}
			}
			in.Unions = append(in.Unions, f.Unions...)
			for _, e := range f.Enums {
				in.Enums = append(in.Enums, e)
				for _, c := range consts[mp.Path+"."+e.Name] {
					in.Values[e.Name] = append(in.Values[e.Name], schema.EnumValue{Name: c.Name, Value: c.Value})
				}
			}
		}
	}
	sort.Strings(paths)
	for _, in := range inputs {
		in.Others = inputs
	}
	asError := func(e error) error {
		var se *schema.Error
		if errors.As(e, &se) {
			return &load.Error{Pos: se.Pos, What: "schema: " + se.Msg}
		}
		return e
	}
	written := map[string]SchemaFile{}
	byName := map[string]string{} // file name → import path
	for _, path := range paths {
		in := inputs[path]
		if len(in.Structs) == 0 && len(in.Enums) == 0 && len(in.Unions) == 0 {
			continue
		}
		text, werrs := schema.Write(*in)
		for _, e := range werrs {
			errs = append(errs, asError(e))
		}
		if text == nil {
			continue
		}
		// Imports name files, and -o writes every file into one directory:
		// one name is one package.
		if prev, dup := byName[in.FileName()]; dup {
			errs = append(errs, asError(&schema.Error{Pos: firstPos(in), Msg: fmt.Sprintf("package %s: its IDL file is %s, as is the file of %s; give the packages different names, or register their types by name in different namespaces",
				path, in.FileName(), prev)}))
			continue
		}
		byName[in.FileName()] = path
		written[path] = SchemaFile{PkgPath: path, Name: in.FileName(), Content: text}
	}
	// A file importing one that is not written would not compile; so would
	// the files importing it, in turn.
	for changed := true; changed; {
		changed = false
		for _, path := range paths {
			if _, ok := written[path]; !ok {
				continue
			}
			for _, imp := range inputs[path].Imports() {
				if _, ok := written[imp]; ok {
					continue
				}
				errs = append(errs, asError(&schema.Error{Pos: firstPos(inputs[path]), Msg: fmt.Sprintf("package %s: its IDL file imports the file of %s, which is not written (see its errors); fix them to export this package", path, imp)}))
				delete(written, path)
				changed = true
				break
			}
		}
	}
	var out []SchemaFile
	for _, path := range paths {
		if f, ok := written[path]; ok {
			out = append(out, f)
		}
	}
	sortErrors(errs)
	return out, errs
}

// firstPos is the position of a package's first annotated declaration, for
// errors about its whole IDL file.
func firstPos(in *schema.Input) model.Pos {
	switch {
	case len(in.Enums) > 0:
		return in.Enums[0].Pos
	case len(in.Structs) > 0:
		return in.Structs[0].Model.Pos
	case len(in.Unions) > 0:
		return in.Unions[0].Pos
	}
	return model.Pos{}
}

// LockConfig configures `forygen lock`.
type LockConfig struct {
	Config
	// SameSchema names types (Go name, or import path and name) to lock in
	// same-schema mode; other types keep the mode of their existing lock
	// entry, or are compatible.
	SameSchema []string
	// TrackRef names types whose peers track references (WithTrackRef):
	// their track_ref bits with tracking count in the check. Other types
	// keep their existing setting, or are locked without.
	TrackRef []string
}

// Lock writes (or, with Check, compares with) the fory.lock of every loaded
// directory, and returns the paths it wrote.
func Lock(cfg LockConfig) ([]string, []error) {
	cur, errs := currentLocks(cfg.Config, cfg.SameSchema, cfg.TrackRef)
	if len(errs) > 0 {
		return nil, errs
	}
	var wrote []string
	for _, l := range cur {
		if err := os.WriteFile(l.path, l.file.Marshal(), 0o644); err != nil {
			return wrote, []error{err}
		}
		wrote = append(wrote, l.path)
	}
	return wrote, nil
}

type dirLock struct {
	path string
	old  *lock.File // nil when the directory has no lock file
	file *lock.File // the current declarations
}

// currentLocks builds the current lock of every loaded directory, keeping
// the modes of the existing lock files.
func currentLocks(cfg Config, sameSchema, trackRef []string) ([]dirLock, []error) {
	res, errs := load.Load(load.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Tags: cfg.Tags, OneRegistry: true})
	if res == nil || len(errs) > 0 {
		return nil, errs
	}
	return locksOf(res, sameSchema, trackRef, false)
}

func set(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// enumValues returns the constants of the loaded enums, by package path and
// name: those declared in the enum's own directory (another package's
// constants of the type depend on what a run loads), for the lock.
func enumValues(res *load.Result) map[string][]lock.EnumValue {
	out := map[string][]lock.EnumValue{}
	for _, mp := range res.Packages {
		for _, f := range mp.Files {
			for _, e := range f.Enums {
				key := mp.Path + "." + e.Name
				for _, c := range res.Consts[key] {
					if filepath.Dir(c.Pos.Filename) != filepath.Dir(e.Pos.File) {
						continue
					}
					out[key] = append(out[key], lock.EnumValue{Name: c.Name, Value: c.Value,
						Pos: model.Pos{File: c.Pos.Filename, Line: c.Pos.Line, Col: c.Pos.Column}})
				}
			}
		}
	}
	return out
}

// locksOf builds the current lock of every loaded directory; with
// onlyLocked, only of the directories that have a fory.lock.
func locksOf(res *load.Result, sameSchema, trackRef []string, onlyLocked bool) ([]dirLock, []error) {
	p, errs := planAll(res)
	if len(errs) > 0 {
		return nil, errs
	}
	dirs, byDir := packageDirs(res)
	var values map[string][]lock.EnumValue
	var out []dirLock
	for _, dir := range dirs {
		path := filepath.Join(dir, lock.FileName)
		var old *lock.File
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if old, err = lock.Parse(path, data); err != nil {
				return nil, []error{err}
			}
		case !errors.Is(err, fs.ErrNotExist):
			return nil, []error{err}
		}
		var prev map[string]lock.Options
		if old != nil {
			prev = old.Options()
		} else if onlyLocked {
			continue
		}
		if values == nil {
			values = enumValues(res)
		}
		out = append(out, dirLock{path: path, old: old, file: lock.Build(byDir[dir], p.plans, prev, set(sameSchema), set(trackRef), values)})
	}
	return out, nil
}

// lockChanges compares the current declarations with the fory.lock of
// every loaded directory that has one, and returns the changes by
// directory.
func lockChanges(res *load.Result) (map[string][]lock.Change, error) {
	locks, errs := locksOf(res, nil, nil, true)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	out := map[string][]lock.Change{}
	for _, l := range locks {
		if l.old == nil {
			continue
		}
		out[filepath.Dir(l.path)] = lock.Diff(l.old, l.file)
	}
	return out, nil
}

// printChanges prints the changes against the lock files, by directory,
// and reports whether any breaks peers on the locked schema, and whether
// any loses values.
func printChanges(changes map[string][]lock.Change, cfg Config, stdout io.Writer) (breaking, lossy bool) {
	dirs := make([]string, 0, len(changes))
	for dir := range changes {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		for _, c := range changes[dir] {
			c.Pos.File = relPath(cfg.Dir, c.Pos.File)
			fmt.Fprint(stdout, c)
			switch c.Verdict {
			case plan.Breaking:
				breaking = true
			case plan.Lossy:
				lossy = true
			}
		}
	}
	return breaking, lossy
}

// relPath shortens an absolute path to one relative to the run's directory
// (or the current one) when it lies below it.
func relPath(dir, path string) string {
	if path == "" {
		return path
	}
	base := dir
	if base == "" {
		base, _ = os.Getwd()
	} else if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	if r, err := filepath.Rel(base, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}
