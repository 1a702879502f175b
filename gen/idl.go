package gen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/forygen/forygen/gen/internal/idl"
	"github.com/forygen/forygen/gen/internal/load"
)

// IDLConfig configures `forygen idl`: Fory IDL files compiled to one Go
// package in Out, whose annotated types the generator then generates as
// usual (Check, Verbose, Tags, Stdout and Stderr of the embedded Config
// apply; its Dir and Patterns are Out's).
type IDLConfig struct {
	Config
	Files       []string // the .fdl files
	Out         string   // the Go package directory; "" is the current directory
	ImportPaths []string // -I directories for imported files
	GoPackage   string   // overrides the files' go_package: "import/path;name"
	GRPC        bool     // write client and server stubs of the services
}

// IDLFiles compiles the IDL of cfg and returns the Go files it writes
// beside their generated code, without touching the disk.
func IDLFiles(cfg IDLConfig) ([]idl.Output, []error) {
	_, outs, errs := idl.Compile(idl.Config{Files: cfg.Files, ImportPaths: cfg.ImportPaths, GoPackage: cfg.GoPackage, GRPC: cfg.GRPC})
	return outs, errs
}

// IDL runs `forygen idl`: it writes the Go declarations of the IDL files
// into cfg.Out (README, "From a Fory IDL schema"), then generates their serializers there, as a
// run of the generator on that directory does. Errors are reported at the
// IDL's file:line:col, also those the generator finds in the declarations.
// With Check it writes nothing and returns ErrStale when a file differs.
func IDL(cfg IDLConfig) error {
	stdout, stderr := cfg.Stdout, cfg.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	fail := func(errs []error) error {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		return ErrGeneration
	}
	outs, errs := IDLFiles(cfg)
	if len(errs) > 0 {
		return fail(errs)
	}
	dir := cfg.Out
	if dir == "" {
		dir = "."
	}
	if !cfg.Check {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	stale := false
	byPath := map[string]idl.Output{}
	for _, o := range outs {
		path := filepath.Join(dir, o.Name)
		abs, _ := filepath.Abs(path)
		byPath[abs] = o
		changed, err := put(path, o.Content, cfg.Check, cfg.Verbose, stdout)
		if err != nil {
			return err
		}
		stale = stale || changed
	}
	if cfg.Check && stale {
		// The generated code of stale declarations cannot be checked.
		return ErrStale
	}
	gcfg := cfg.Config
	gcfg.Dir, gcfg.Patterns = dir, []string{"."}
	g, errs := generate(gcfg, nil)
	if len(errs) > 0 {
		for i, e := range errs {
			errs[i] = atIDL(e, byPath)
		}
		return fail(errs)
	}
	for _, o := range g.outputs {
		if o.Content == nil {
			if cfg.Check {
				fmt.Fprintf(stdout, "stale: %s should be removed\n", o.Path)
				stale = true
			} else if err := os.Remove(o.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			continue
		}
		changed, err := put(o.Path, o.Content, cfg.Check, cfg.Verbose, stdout)
		if err != nil {
			return err
		}
		stale = stale || changed
	}
	if cfg.Check && stale {
		return ErrStale
	}
	return nil
}

// put writes content to path unless it is there already; in check mode it
// only reports whether it would.
func put(path string, content []byte, check, verbose bool, stdout interface{ Write([]byte) (int, error) }) (bool, error) {
	old, err := os.ReadFile(path)
	if err == nil && bytes.Equal(old, content) {
		return false, nil
	}
	if check {
		fmt.Fprintf(stdout, "stale: %s\n", path)
		return true, nil
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		return false, err
	}
	if verbose {
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return true, nil
}

// atIDL reports a generator error found in a file written from IDL at the
// IDL declaration the line came from.
func atIDL(e error, byPath map[string]idl.Output) error {
	var le *load.Error
	if !errors.As(e, &le) {
		return e
	}
	abs, _ := filepath.Abs(le.Pos.File)
	o, ok := byPath[abs]
	if !ok {
		return e
	}
	p, ok := o.Lines[le.Pos.Line]
	if !ok {
		return e
	}
	return &idl.Error{File: o.Source, Pos: p, Msg: fmt.Sprintf("%s (in the Go written to %s:%d)", le.What, filepath.Base(le.Pos.File), le.Pos.Line)}
}
