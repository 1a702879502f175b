package dump

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
)

// Usage is the synopsis of `forygen decode`.
const Usage = "usage: forygen decode [-hex] [-compatible|-same-schema|-auto] [-types ./pkg] [-tags t1,t2] [file|-]"

// LoadFunc loads the annotated structs of a package pattern for -types.
type LoadFunc func(pattern string, tags []string) (*Schemas, error)

// Main runs `forygen decode` with args (after the subcommand) and returns
// the exit status: 0 when the message was decoded (completely, or as far as
// it can be without the types), 1 for a malformed message, 2 for a usage or
// I/O error.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, load LoadFunc) int {
	fs := flag.NewFlagSet("forygen decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hexIn := fs.Bool("hex", false, "the input is hex text (whitespace, 0x prefixes and commas are ignored)")
	compatible := fs.Bool("compatible", false, "read struct type meta as compatible mode (default: -auto)")
	same := fs.Bool("same-schema", false, "read struct type meta as same-schema mode")
	auto := fs.Bool("auto", false, "infer the mode from the first struct type meta (the default)")
	types := fs.String("types", "", "package pattern whose annotated types give same-schema structs their fields and check TypeDefs")
	tags := fs.String("tags", "", "comma-separated build tags used with -types")
	fs.Usage = func() {
		fmt.Fprintln(stderr, Usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	opt := Options{}
	switch n := bit(*compatible) + bit(*same) + bit(*auto); {
	case n > 1:
		fmt.Fprintln(stderr, "forygen decode: -compatible, -same-schema and -auto exclude each other")
		return 2
	case *compatible:
		opt.Mode = Compatible
	case *same:
		opt.Mode = SameSchema
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "forygen decode: one input at most (a file, or - for stdin)\n"+Usage)
		return 2
	}
	name := "-"
	if fs.NArg() == 1 {
		name = fs.Arg(0)
	}
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		fmt.Fprintf(stderr, "forygen decode: %v\n", err)
		return 2
	}
	if *hexIn {
		if data, err = parseHex(string(data)); err != nil {
			fmt.Fprintf(stderr, "forygen decode: -hex: %v\n", err)
			return 2
		}
	}
	if *types != "" {
		var tl []string
		if *tags != "" {
			tl = strings.Split(*tags, ",")
		}
		if opt.Schemas, err = load(*types, tl); err != nil {
			fmt.Fprintf(stderr, "forygen decode: -types %s: %v\n", *types, err)
			return 2
		}
	}
	res, err := Decode(stdout, data, opt)
	if err != nil {
		var me *Error
		if errors.As(err, &me) {
			fmt.Fprintf(stderr, "forygen decode: %s: %v\n", name, err)
			return 1
		}
		fmt.Fprintf(stderr, "forygen decode: %v\n", err)
		return 2
	}
	if !res.Complete {
		fmt.Fprintf(stderr, "forygen decode: %s: decoded up to offset %#04x: %s\n", name, res.Offset, res.Stopped)
	}
	return 0
}

// parseHex reads hex text: pairs of digits, with whitespace, commas, colons
// and 0x prefixes ignored.
func parseHex(s string) ([]byte, error) {
	s = strings.ReplaceAll(s, "0x", "")
	s = strings.ReplaceAll(s, "0X", "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == ',' || r == ':' {
			return -1
		}
		return r
	}, s)
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, err
	}
	return b, nil
}
