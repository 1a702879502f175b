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
// `fory:"type=array(element=int32)"`, `fory:"type=bytes"` (on []byte); a
// key may appear once. json tags are not read, but a field tagged
// `json:"-"` must also carry a fory tag: `fory:"-"` to keep it out, or one
// such as `fory:"id=N"` to serialize it.
//
// Flags:
//
//	-type T1,T2   generate only these types
//	-tags t1,t2   build tags used when loading packages
//	-check        write nothing; exit 1 and print a diff if generated files are stale
//	-v            print what is written
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
	"strings"

	"github.com/forygen/forygen/gen"
)

func main() {
	typeFlag := flag.String("type", "", "comma-separated type names to generate (default: all annotated types)")
	tagsFlag := flag.String("tags", "", "comma-separated build tags")
	check := flag.Bool("check", false, "report stale generated files with a diff and exit 1; write nothing")
	verbose := flag.Bool("v", false, "verbose output")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: forygen [flags] [packages]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	cfg := gen.Config{Patterns: flag.Args(), Check: *check, Verbose: *verbose}
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
