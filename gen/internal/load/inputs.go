package load

import (
	"crypto/sha256"
	"fmt"
	"go/parser"
	"go/token"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// MayAnnotate reports whether any package of the unit can declare
// anything a generation run reads (see Config.OnlyAnnotated); a unit that
// cannot has nothing to generate, remove or compare.
func (u *Unit) MayAnnotate() bool {
	for _, p := range u.pkgs {
		if u.mayAnnotate(p) {
			return true
		}
	}
	return false
}

// Hash returns a digest of everything of the listing that the unit's
// generated files (and the errors and lock changes of a run) can depend
// on, read before anything is type-checked. It is conservative: any byte
// of a Go or other source file of the unit's packages or of any package
// they import, directly or not, counts, as do the directory's file names
// (a generated file is removed when its source is gone, and kept when its
// source is left out by build constraints), every file list, every
// module's version and go version, and every go list error. Left out:
// forygen's own output files (isOutput), and the content of the files
// under $GOROOT/src, hashed by size and modification time (they change
// with a Go installation).
func (ls *Listing) Hash(u *Unit) []byte {
	h := sha256.New()
	fmt.Fprintf(h, "unit %q %q\n", u.PkgPath, u.Dir)
	if entries, err := os.ReadDir(u.Dir); err == nil {
		for _, e := range entries {
			if !ls.isOutput(filepath.Join(u.Dir, e.Name())) {
				fmt.Fprintf(h, "entry %q\n", e.Name())
			}
		}
	} else {
		fmt.Fprintf(h, "entries: %v\n", err)
	}
	own := map[string]bool{}
	for _, p := range u.pkgs {
		own[p.ID] = true
	}
	deps := map[string]bool{}
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		for _, id := range ls.imports(p) {
			if !own[id] && !deps[id] {
				deps[id] = true
				walk(ls.byID[id])
			}
		}
	}
	for _, p := range u.pkgs {
		fmt.Fprintf(h, "package %x\n", ls.packageHash(p))
		walk(p)
	}
	ids := make([]string, 0, len(deps))
	for id := range deps {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(h, "dep %x\n", ls.packageHash(ls.byID[id]))
	}
	return h.Sum(nil)
}

// packageHash digests one listed package: its identity, module, errors,
// imports and files.
func (ls *Listing) packageHash(p *packages.Package) []byte {
	if sum, ok := ls.hashes[p.ID]; ok {
		return sum
	}
	h := sha256.New()
	fmt.Fprintf(h, "id %q path %q name %q forTest %q dir %q\n", p.ID, p.PkgPath, p.Name, p.ForTest, p.Dir)
	if m := p.Module; m != nil {
		fmt.Fprintf(h, "module %q %q %q\n", m.Path, m.Version, m.GoVersion)
		if m.Replace != nil {
			fmt.Fprintf(h, "replace %q %q\n", m.Replace.Path, m.Replace.Version)
		}
	}
	for _, e := range p.Errors {
		fmt.Fprintf(h, "error %q\n", e.Error())
	}
	fmt.Fprintf(h, "imports %q\n", ls.imports(p))
	seen := map[string]bool{}
	for _, list := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles} {
		fmt.Fprintf(h, "files\n")
		for _, f := range list {
			if ls.isOutput(f) {
				continue
			}
			fmt.Fprintf(h, "file %q\n", f)
			if !seen[f] {
				seen[f] = true
				ls.hashFile(h, f)
			}
		}
	}
	sum := h.Sum(nil)
	ls.hashes[p.ID] = sum
	return sum
}

// imports returns the IDs of the packages p's files import, sorted, its
// forygen output files left out: what they import (the forygen runtime)
// comes and goes with them. The files are those a type check reads (for
// a cgo package, cgo's output).
func (ls *Listing) imports(p *packages.Package) []string {
	if ids, ok := ls.importIDs[p.ID]; ok {
		return ids
	}
	files := p.CompiledGoFiles
	if len(files) == 0 {
		files = p.GoFiles
	}
	var paths map[string]bool // nil: every import
	for _, f := range files {
		if ls.isOutput(f) {
			paths = map[string]bool{}
			break
		}
	}
	if paths != nil {
		for _, f := range files {
			if ls.isOutput(f) {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				paths = nil // as listed, then
				break
			}
			for _, spec := range af.Imports {
				if path, err := strconv.Unquote(spec.Path.Value); err == nil {
					paths[path] = true
				}
			}
		}
	}
	var ids []string
	for path, imp := range p.Imports {
		if paths == nil || paths[path] {
			ids = append(ids, imp.ID)
		}
	}
	sort.Strings(ids)
	ls.importIDs[p.ID] = ids
	return ids
}

// isOutput reports whether path is a forygen output file, which a unit's
// digest leaves out, name and content: a load hides them, the unit's own
// are compared apart, and a run that creates one must not make the
// digest of the packages importing its package differ on the next run.
func (ls *Listing) isOutput(path string) bool {
	if !strings.HasSuffix(path, GeneratedSuffix) && !strings.HasSuffix(path, GeneratedTestSuffix) {
		return false
	}
	if v, ok := ls.outputs[path]; ok {
		return v
	}
	v := IsGenerated(path)
	ls.outputs[path] = v
	return v
}

// hashFile adds a file's content to h, or under $GOROOT/src its size and
// modification time.
func (ls *Listing) hashFile(h hash.Hash, path string) {
	if ls.goroot != "" && strings.HasPrefix(path, ls.goroot) {
		if fi, err := os.Stat(path); err == nil {
			fmt.Fprintf(h, "stat %d %d\n", fi.Size(), fi.ModTime().UnixNano())
		} else {
			fmt.Fprintf(h, "missing\n")
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(h, "missing\n")
		return
	}
	defer f.Close()
	n, err := io.Copy(h, f)
	fmt.Fprintf(h, "\nsize %d %v\n", n, err)
}

// GeneratedFiles returns the forygen output files of a directory.
func GeneratedFiles(dir string) []string {
	var out []string
	for _, suffix := range []string{GeneratedSuffix, GeneratedTestSuffix} {
		matches, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
		for _, m := range matches {
			if IsGenerated(m) {
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out
}
