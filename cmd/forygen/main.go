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
// Structs and enums share one id space and one name space: two types of a
// package, or of packages of which one imports the other, cannot have the
// same id or name. Any other //fory: comment is an error.
//
// Field tags use the official Fory Go grammar: `fory:"id=N"` (0 ≤ N < 2^29),
// `fory:"-"`, `fory:"nullable"`, `fory:"encoding=fixed|varint|tagged"`,
// `fory:"type=array(element=int32)"`, `fory:"type=bytes"` (on []byte), and
// nested hints to any depth such as
// `fory:"type=map(key=uint32(encoding=fixed),value=list(element=int32(encoding=fixed)))"`
// (README, "Annotations and tags"); a hint forygen does not implement is an
// error naming the field. A key may appear once. json tags are not read, but a field tagged
// `json:"-"` must also carry a fory tag: `fory:"-"` to keep it out, or one
// such as `fory:"id=N"` to serialize it.
//
// Flags:
//
//	-type T1,T2    generate only these types
//	-tags t1,t2    build tags used when loading packages
//	-check         write nothing; exit 1 and print a diff if generated files are stale,
//	               or if the types changed against a directory's fory.lock in a way
//	               that breaks peers on the locked schema
//	-accept-lossy  with -check: pass when the only such changes lose values
//	-v             print what is written
//
// Schema tools (docs/schema.md):
//
//	forygen schema [-o dir] [-tags t1,t2] [packages]
//
// writes the Fory IDL (.fdl, the input of Apache Fory's foryc) of each
// package's annotated types: to stdout for one package, or as
// dir/<package>.fdl. A field the IDL cannot describe exactly (no id= tag,
// a non-nullable struct field, a set, …) is an error naming it.
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
	"strings"

	"github.com/forygen/forygen/gen"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "schema":
			schemaMain(os.Args[2:])
			return
		case "lock":
			lockMain(os.Args[2:])
			return
		case "decode":
			os.Exit(gen.DecodeMain(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
		}
	}
	typeFlag := flag.String("type", "", "comma-separated type names to generate (default: all annotated types)")
	tagsFlag := flag.String("tags", "", "comma-separated build tags")
	check := flag.Bool("check", false, "report stale generated files with a diff and exit 1; write nothing")
	acceptLossy := flag.Bool("accept-lossy", false, "with -check: pass when the only changes against fory.lock are lossy")
	verbose := flag.Bool("v", false, "verbose output")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: forygen [flags] [packages]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	cfg := gen.Config{Patterns: flag.Args(), Check: *check, AcceptLossy: *acceptLossy, Verbose: *verbose}
	if *typeFlag != "" {
		cfg.Types = strings.Split(*typeFlag, ",")
	}
	if *tagsFlag != "" {
		cfg.Tags = strings.Split(*tagsFlag, ",")
	}
	if err := gen.Run(cfg); err != nil {
		if !errors.Is(err, gen.ErrGeneration) {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
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
