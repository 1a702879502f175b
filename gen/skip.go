package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/forygen/forygen/gen/internal/load"
	"github.com/forygen/forygen/gen/internal/lock"
)

// The up-to-date skip (issue 27 item 8). A successful run records, per
// package directory, a digest of the package's inputs and the generated
// files it left there, in a record under Config.CacheDir. A later run
// lists the packages (go list, no type-checking), and a package whose
// digest and generated files match its record is not loaded, planned or
// rendered: its files are what a run would write. The record lives in the
// cache directory, not in the generated files, so that the committed
// output does not change with every edit of a comment, of a dependency,
// or with the Go version, and -check, which never skips, keeps comparing
// the real output.
//
// The digest is conservative (load.Listing.Hash): the content of every
// source file of the package and of every package it imports, directly or
// not, the directory's file names, the fory.lock, and the generator
// itself (the bytes of the running executable, so that a rebuilt forygen
// regenerates), its versions, the options and the environment that
// selects files. A skipped package still counts in the run: its recorded
// registrations join the duplicate check, and its recorded changes
// against its fory.lock are printed again.

// recordVersion names the record format; a change makes every record
// stale.
const recordVersion = "forygen-record-1"

// record is what a successful run remembers of one package directory.
type record struct {
	Key           string              // hex digest of the inputs (skipper.plan)
	Outputs       map[string]string   // every forygen output file of the directory → hex sha256 of its content
	Annotated     bool                // the package has annotated types (a named package without is an error)
	Registrations []load.Registration // for the duplicate check of runs that skip it
	Changes       []lock.Change       // against the directory's fory.lock, printed when skipped
}

// skipper finds the up-to-date packages of a run and records the others.
type skipper struct {
	dir     string
	prefix  []byte // the digest of the generator, the options and the environment
	keys    map[*load.Unit]string
	skipped map[*load.Unit]*record
	force   bool
}

// DefaultCacheDir is where forygen keeps its records: $FORYGEN_CACHE, or
// forygen in the user's cache directory (as the go build cache, e.g.
// ~/.cache/forygen). FORYGEN_CACHE=off turns the skip off: "" is returned.
func DefaultCacheDir() string {
	if d := os.Getenv("FORYGEN_CACHE"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "forygen")
}

// newSkipper returns the skipper of a run, or nil when the run skips
// nothing: without a cache directory, with -check (which compares real
// output), and with -type (which writes some files only, so a record
// could not vouch for the others).
func newSkipper(cfg Config) *skipper {
	if cfg.CacheDir == "" || cfg.Check || len(cfg.Types) > 0 {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil
	}
	fmt.Fprintf(h, "\n%s\ngen version %d\n", recordVersion, GenVersion)
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "go %s main %s %s\n", bi.GoVersion, bi.Main.Path, bi.Main.Version)
		for _, m := range bi.Deps {
			fmt.Fprintf(h, "dep %s %s %s\n", m.Path, m.Version, m.Sum)
		}
	}
	fmt.Fprintf(h, "tags %q\naccept-breaking %t\n", cfg.Tags, cfg.AcceptBreaking)
	for _, v := range []string{"GOOS", "GOARCH", "GOFLAGS", "GODEBUG", "GOEXPERIMENT", "CGO_ENABLED", "GOTOOLCHAIN", "GOWORK"} {
		fmt.Fprintf(h, "env %s=%q\n", v, os.Getenv(v))
	}
	return &skipper{dir: filepath.Join(cfg.CacheDir, "records"), prefix: h.Sum(nil), force: cfg.Force,
		keys: map[*load.Unit]string{}, skipped: map[*load.Unit]*record{}}
}

// plan digests the inputs of every unit that can have generated files and
// finds those whose record says they are up to date.
func (sk *skipper) plan(ls *load.Listing) {
	named := map[string]bool{}
	for _, n := range ls.Named {
		named[n.PkgPath] = true
	}
	for _, u := range ls.Units {
		if !u.MayAnnotate() {
			continue // nothing to generate, remove or compare: not loaded either
		}
		h := sha256.New()
		h.Write(sk.prefix)
		h.Write(ls.Hash(u))
		lockData, err := os.ReadFile(filepath.Join(u.Dir, lock.FileName))
		fmt.Fprintf(h, "lock %t %d\n", err == nil, len(lockData))
		h.Write(lockData)
		key := hex.EncodeToString(h.Sum(nil))
		sk.keys[u] = key
		if sk.force {
			continue
		}
		r := sk.read(u)
		if r == nil || r.Key != key || named[u.PkgPath] && !r.Annotated || !sameOutputs(u.Dir, r.Outputs) {
			continue
		}
		sk.skipped[u] = r
	}
}

// known returns the registrations of the skipped units.
func (sk *skipper) known() []load.Registration {
	var out []load.Registration
	for _, r := range sk.skipped {
		out = append(out, r.Registrations...)
	}
	return out
}

// sameOutputs reports whether the forygen output files of dir are
// exactly the recorded ones, byte for byte.
func sameOutputs(dir string, want map[string]string) bool {
	files := load.GeneratedFiles(dir)
	if len(files) != len(want) {
		return false
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || want[f] != digest(data) {
			return false
		}
	}
	return true
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (sk *skipper) path(u *load.Unit) string {
	sum := sha256.Sum256([]byte(u.Dir))
	return filepath.Join(sk.dir, hex.EncodeToString(sum[:16])+".json")
}

func (sk *skipper) read(u *load.Unit) *record {
	data, err := os.ReadFile(sk.path(u))
	if err != nil {
		return nil
	}
	var r record
	if json.Unmarshal(data, &r) != nil {
		return nil
	}
	return &r
}

// save records the loaded units of a successful run: what it wrote (or
// found unchanged), and for other forygen files of their directories
// (kept because their source is left out by build constraints) their
// content on disk. A record that cannot be written only costs the next
// run its skip.
func (sk *skipper) save(g *generated, changes map[string][]lock.Change) {
	written := map[string][]byte{}
	removed := map[string]bool{}
	for _, o := range g.outputs {
		if o.Content == nil {
			removed[o.Path] = true
		} else {
			written[o.Path] = o.Content
		}
	}
	for _, u := range g.units {
		key, ok := sk.keys[u]
		if !ok || sk.skipped[u] != nil {
			continue
		}
		r := record{Key: key, Outputs: map[string]string{}, Annotated: g.annotated[u.PkgPath], Changes: changes[u.Dir]}
		for _, f := range load.GeneratedFiles(u.Dir) {
			if removed[f] {
				continue
			}
			if c, ok := written[f]; ok {
				r.Outputs[f] = digest(c)
			} else if data, err := os.ReadFile(f); err == nil {
				r.Outputs[f] = digest(data)
			}
		}
		for f, c := range written {
			if filepath.Dir(f) == u.Dir {
				r.Outputs[f] = digest(c) // even if it vanished since: the next run then regenerates
			}
		}
		for _, reg := range g.res.Registrations {
			if filepath.Dir(reg.Pos.File) == u.Dir {
				r.Registrations = append(r.Registrations, reg)
			}
		}
		data, err := json.Marshal(r)
		if err != nil {
			continue
		}
		if err := os.MkdirAll(sk.dir, 0o755); err != nil {
			return
		}
		tmp, err := os.CreateTemp(sk.dir, "record-*")
		if err != nil {
			return
		}
		_, werr := io.Copy(tmp, bytes.NewReader(data))
		if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), sk.path(u)) != nil {
			os.Remove(tmp.Name())
		}
	}
}
