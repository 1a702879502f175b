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
// x_fory.go next to it; commit the output.
//
// Annotations:
//
//	//fory:generate id=100          struct registered by numeric id
//	//fory:generate name=ns.Type    struct registered by namespace and name
//	//fory:enum id=101              named integer type registered as an enum
//
// Field tags use the official Fory Go grammar: `fory:"id=N"`, `fory:"-"`,
// `fory:"nullable"`, `fory:"encoding=fixed|varint|tagged"`,
// `fory:"type=array(element=int32)"`, `fory:"type=bytes"`.
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
