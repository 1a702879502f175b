// Command forygen generates Apache Fory xlang serializers for annotated Go
// structs.
//
// Usage:
//
//	//go:generate go run github.com/forygen/forygen/cmd/forygen
//
//	forygen [flags] [packages]
//
// With no package arguments forygen generates for the package in the current
// directory. For every source file x.go holding annotated types it writes
// x_fory.go next to it; commit the output. Annotated types of a test file
// x_test.go go to x_fory_test.go, in the same package (in-package tests or
// the external _test package). A source file's build constraint (its
// //go:build line, and the GOOS or GOARCH of its name, as in x_linux.go)
// is repeated on the first line of its generated file.
//
// Annotations, in the doc comment directly above a package-level type
// declaration (not an alias), with no space after // (as //go: directives):
//
//	//fory:generate id=100          struct registered by numeric id
//	//fory:generate name=ns.Type    struct registered by namespace and name
//	//fory:enum id=101              named integer type registered as an enum
//
// Structs and enums share one id space and one name space, and the
// packages of one run share one registry, as one program's Fory does: two
// types anywhere in a run cannot have the same id or name (the error gives
// both positions; generate packages that never meet in one program, such
// as two versions of a schema, in separate runs). Any other //fory: comment
// is an error, and so is an unknown key in a directive.
//
// Field tags use the official Fory Go grammar: `fory:"id=N"` (0 ≤ N < 2^29),
// `fory:"-"`, `fory:"nullable"`, `fory:"encoding=fixed|varint|tagged"`,
// `fory:"type=array(element=int32)"`, `fory:"type=bytes"` (on []byte), and
// nested hints to any depth such as
// `fory:"type=map(key=uint32(encoding=fixed),value=list(element=int32(encoding=fixed)))"`
// (README, "Annotations and tags"); a hint forygen does not implement is an
// error naming the field. A key may appear once. json tags are not read, but a field tagged
// `json:"-"` must also carry a fory tag: `fory:"-"` to keep it out, or one
// such as `fory:"id=N"` to serialize it. A tag that would do nothing is an
// error: `nullable` on a bool, integer or float value field (never null;
// use a pointer or serializer.Optional), `ref` on a field whose values are
// never tracked (scalars, strings, times, dates, durations, decimals).
//
// Flags:
//
//	-type T1,T2       write only the generated files of the source files declaring
//	                  these types; each file still holds every annotated type of its
//	                  source, so -type never drops a type. An unknown name is an error.
//	-tags t1,t2       build tags used when loading packages
//	-check            write nothing; exit 1 if generated files are stale, saying which
//	                  types and fields changed, with the first 40 lines of the diff, or
//	                  if the types changed against a directory's fory.lock in a way
//	                  that breaks peers on the locked schema or loses values
//	-accept-lossy     with -check: pass when the only such changes lose values
//	-accept-breaking  pass, and write, although changes against fory.lock break peers
//	-force            regenerate the packages that are up to date too
//	-v                print what is written, and the packages skipped as up to date
//
// A pattern that matches no package, and a package named without "..." that
// has no annotated types (the current directory of a //go:generate line
// included), are errors. For a module, one run from its root
// (//go:generate go tool forygen ./..., or go tool forygen ./... in a
// shell) lists and loads every package once, where a //go:generate line per
// package starts forygen and lists the packages again for each line. A run
// type-checks only the packages it generates; what they import comes from
// the compiler's export data.
//
// A run skips a package that is up to date: its source files, those of
// every package it imports, its directory's file names, its fory.lock, the
// forygen binary and the flags are those of its last successful run, and
// its generated files are those that run left. The records are kept in
// $FORYGEN_CACHE, by default forygen in the user cache directory
// (~/.cache/forygen); FORYGEN_CACHE=off turns the skip off, -force
// regenerates anyway, and -check and -type never skip.
//
// With a fory.lock beside a package, every run prints the changes against
// it, as -check does, and a run that would write refuses breaking changes,
// writing nothing, unless -accept-breaking.
//
//	forygen help       the usage, subcommands and directives
//	forygen version    the forygen version and the generated-code version
//
// Schema tools (docs/schema.md):
//
//	forygen schema [-o dir] [-tags t1,t2] [packages]
//
// writes the Fory IDL (.fdl, the input of Apache Fory's foryc) of each
// package's annotated types: to stdout for one package, or as
// dir/<package>.fdl (dir is created). A field the IDL cannot describe
// exactly (no id= tag, a non-nullable struct field, a set, …) is an error
// naming it. A field naming another package's type imports that package's
// file, so both packages go in one run with -o.
//
//	forygen lock [-same-schema T1,T2] [-track-ref T1,T2] [-tags t1,t2] [packages]
//
// writes fory.lock beside each package: per type its registration, mode,
// schema hash and TypeDef fields. -check then compares the types with it and
// prints every change as safe, lossy or breaking, with what a peer on the
// old schema sees. Types are locked in compatible mode unless named by
// -same-schema or set to `mode=same-schema` in the lock, and as used
// without reference tracking unless named by -track-ref or set to
// `tracking=on`; a relock keeps both. Run forygen lock again to accept the
// current schemas.
//
// From Fory IDL (README "From a Fory IDL schema"):
//
//	forygen idl [-o dir] [-go_package path;name] [-I dir] [-grpc] [-check] file.fdl ...
//
// reads Fory IDL files (foryc's input) and writes into dir, one Go package,
// the type declarations foryc's Go generator writes for them (the same
// type, field and constant names, registrations and tags) with forygen's
// //fory: directives, then generates their serializers there, as
// `forygen dir` does. With -grpc, each file's services become grpc-go
// client and server stubs on grpccodec. A `//go:generate go tool forygen
// idl -o . schema.fdl` line in the package keeps it up to date. Errors are
// reported at the IDL's file:line:col.
//
// Message decoder:
//
//	forygen decode [-hex] [-compatible|-same-schema|-auto] [-types ./pkg] [file|-]
//
// prints a Fory xlang message (a file, stdin, or with -hex hex text) as a
// tree, without Go types: the header, every flag, type id and name, user
// ids and names, TypeDefs with their fields, shared-meta indexes,
// reference ids, list and map headers bit by bit, strings with their
// encoding, each line with its byte offset. A same-schema struct body
// carries no schema: -types loads a package's annotated types to walk it
// and to compare received TypeDefs with them. A malformed message prints
// what was decoded, then the offset and the reason, and exits 1.
//
// Generation errors are printed all at once as
// `file:line:col: forygen: Type.Field: what is wrong; how to fix`, and the
// exit status is 1.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/forygen/forygen/gen"
)

// usageText is what `forygen help` and -h print: the subcommands, the
// directives and the tags; the flags follow it.
const usageText = `forygen generates Apache Fory xlang serializers for annotated Go types.

Usage:
  forygen [flags] [packages]              write x_fory.go beside each x.go with annotated types
                                          (default package: the current directory)
  forygen schema [-o dir] [packages]      print the Fory IDL (.fdl) of the packages' types
  forygen idl [-o dir] [-grpc] file.fdl   write the Go types (and gRPC stubs) of Fory IDL files,
                                          as foryc's Go names them, and their serializers
  forygen lock [flags] [packages]         write fory.lock: the schemas peers rely on; -check and
                                          plain runs then report every change against it
  forygen decode [-hex] [-types ./pkg] [file|-]
                                          print any Fory message as a tree: header, flags, type
                                          ids, TypeDefs, list and map headers, offsets
  forygen version                         print the forygen version and the generated-code version
  forygen help                            print this help

In a package: //go:generate go tool forygen (Go 1.24 tool dependency), or
//go:generate go run github.com/forygen/forygen/cmd/forygen. For a whole
module, one run from its root is faster than one per package:
//go:generate go tool forygen ./... (or go tool forygen ./... in a shell).
A run skips the packages whose inputs did not change since their last run
(records in $FORYGEN_CACHE, default ~/.cache/forygen; FORYGEN_CACHE=off
turns it off); -force regenerates them.

Directives, in the doc comment directly above a type (no space after //):
  //fory:generate id=N [evolving=false]   a struct, registered by numeric id
  //fory:generate name=ns.Type            a struct, registered by namespace and name
  //fory:enum id=N | name=ns.Type         a named integer type as a Fory enum
  //fory:union id=N 0=T0 1=T1 ...         a tagged union (official Go's union shape) and its cases
  //fory:ext id=N | name=ns.Type type=T   a codec (WriteExt, ReadExt) for a type of any package (EXT)

Field tags (official Fory Go's grammar): fory:"id=N", fory:"-", nullable, ref,
encoding=varint|fixed|tagged, type=bytes, type=list(element=int32(encoding=fixed)), ...;
and forygen's marshal=text|binary for a type with encoding's marshalers.

Flags:
`

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "schema":
			schemaMain(os.Args[2:])
			return
		case "lock":
			lockMain(os.Args[2:])
			return
		case "idl":
			idlMain(os.Args[2:])
			return
		case "decode":
			os.Exit(gen.DecodeMain(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
		case "version":
			fmt.Printf("forygen %s (generated code version %d)\n", version(), gen.GenVersion)
			return
		case "help":
			fs, _ := generateFlags()
			fs.SetOutput(os.Stdout)
			fs.Usage()
			return
		}
	}
	fs, cfg := generateFlags()
	_ = fs.Parse(os.Args[1:])
	cfg.Patterns = fs.Args()
	cfg.CacheDir = gen.DefaultCacheDir()
	if err := gen.Run(*cfg); err != nil {
		if !errors.Is(err, gen.ErrGeneration) {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
}

// generateFlags declares the flags of a generator run; their values land in
// the returned Config once the set is parsed.
func generateFlags() (*flag.FlagSet, *gen.Config) {
	cfg := &gen.Config{}
	fs := flag.NewFlagSet("forygen", flag.ExitOnError)
	fs.Func("type", "comma-separated `types`: write only the generated files of the source files declaring them (each file still holds every annotated type of its source); an unknown name is an error", func(s string) error {
		cfg.Types = append(cfg.Types, split(s)...)
		return nil
	})
	fs.Func("tags", "comma-separated build `tags` used when loading packages", func(s string) error {
		cfg.Tags = append(cfg.Tags, split(s)...)
		return nil
	})
	fs.BoolVar(&cfg.Check, "check", false, "write nothing; exit 1 and say what changed if generated files are stale, or if the types break a directory's fory.lock")
	fs.BoolVar(&cfg.AcceptLossy, "accept-lossy", false, "with -check: pass when the only changes against fory.lock lose values")
	fs.BoolVar(&cfg.AcceptBreaking, "accept-breaking", false, "generate (or pass -check) although the types changed against fory.lock in ways that break peers on the locked schema")
	fs.BoolVar(&cfg.Force, "force", false, "regenerate the packages that are up to date too (a run skips a package whose inputs did not change since its last run, see forygen help)")
	fs.BoolVar(&cfg.Verbose, "v", false, "print what is written")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	return fs, cfg
}

// version is the forygen module's version in the binary's build
// information: the version go.mod requires when run as a tool, or the
// checkout's when built in the repository.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
	for _, m := range mods {
		if m.Path != "github.com/forygen/forygen" {
			continue
		}
		v := m.Version
		if v == "" {
			v = "(devel)"
		}
		if m.Replace != nil {
			v += " => " + m.Replace.Path
			if m.Replace.Version != "" {
				v += " " + m.Replace.Version
			}
		}
		return v
	}
	return "(unknown version)"
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func fail(errs []error) {
	for _, e := range errs {
		fmt.Fprintln(os.Stderr, e)
	}
	os.Exit(1)
}

func schemaMain(args []string) {
	fs := flag.NewFlagSet("forygen schema", flag.ExitOnError)
	out := fs.String("o", "", "write dir/<package>.fdl per package instead of printing one package's IDL")
	tags := fs.String("tags", "", "comma-separated build tags")
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: forygen schema [-o dir] [-tags t1,t2] [packages]\n")
		fs.PrintDefaults()
	}
	_ = fs.Parse(args)
	files, errs := gen.Schema(gen.Config{Patterns: fs.Args(), Tags: split(*tags)})
	if *out == "" {
		if len(errs) > 0 {
			fail(errs)
		}
		if len(files) != 1 {
			fail([]error{fmt.Errorf("forygen schema: %d packages with annotated types; use -o dir to write one file each", len(files))})
		}
		os.Stdout.Write(files[0].Content)
		return
	}
	// With -o, the packages that export are written even when others fail.
	if len(files) > 0 {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fail(append(errs, err))
		}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(*out, f.Name), f.Content, 0o644); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		fail(errs)
	}
}

func lockMain(args []string) {
	fs := flag.NewFlagSet("forygen lock", flag.ExitOnError)
	same := fs.String("same-schema", "", "comma-separated types to lock in same-schema mode")
	trackRef := fs.String("track-ref", "", "comma-separated types whose peers track references (WithTrackRef)")
	tags := fs.String("tags", "", "comma-separated build tags")
	verbose := fs.Bool("v", false, "print what is written")
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: forygen lock [-same-schema T1,T2] [-track-ref T1,T2] [-tags t1,t2] [packages]\n")
		fs.PrintDefaults()
	}
	_ = fs.Parse(args)
	wrote, errs := gen.Lock(gen.LockConfig{Config: gen.Config{Patterns: fs.Args(), Tags: split(*tags)}, SameSchema: split(*same), TrackRef: split(*trackRef)})
	if len(errs) > 0 {
		fail(errs)
	}
	if *verbose {
		for _, p := range wrote {
			fmt.Println("wrote", p)
		}
	}
}

func idlMain(args []string) {
	cfg := gen.IDLConfig{}
	fs := flag.NewFlagSet("forygen idl", flag.ExitOnError)
	fs.StringVar(&cfg.Out, "o", "", "the Go package `dir`ectory to write (default: the current directory)")
	fs.StringVar(&cfg.GoPackage, "go_package", "", "the Go package, `path;name` (or path, or ;name), overriding the files' go_package option")
	fs.Func("I", "a `dir`ectory searched for imported files, after the importing file's own (repeatable)", func(s string) error {
		cfg.ImportPaths = append(cfg.ImportPaths, s)
		return nil
	})
	fs.BoolVar(&cfg.GRPC, "grpc", false, "write grpc-go client and server stubs of the services (on github.com/forygen/forygen/grpccodec)")
	fs.BoolVar(&cfg.Check, "check", false, "write nothing; exit 1 if a written file would change")
	fs.BoolVar(&cfg.Verbose, "v", false, "print what is written")
	fs.Func("tags", "comma-separated build `tags` used when loading the package", func(s string) error {
		cfg.Tags = append(cfg.Tags, split(s)...)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: forygen idl [-o dir] [-go_package path;name] [-I dir] [-grpc] [-check] file.fdl ...\n")
		fs.PrintDefaults()
	}
	_ = fs.Parse(args)
	cfg.Files = fs.Args()
	if err := gen.IDL(cfg); err != nil {
		if !errors.Is(err, gen.ErrGeneration) {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
}
