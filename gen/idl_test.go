package gen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/forygen/forygen/gen/internal/plan"
)

// idlScratch is a directory of the module for packages a test writes with
// forygen idl; go's ./... patterns skip names starting with _.
func idlScratch(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("testdata/src", "_idl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// plansOf loads a package and plans its structs, by registration.
func plansOf(t *testing.T, pattern string) map[string]*plan.Struct {
	t.Helper()
	g, errs := generate(Config{Patterns: []string{pattern}}, nil)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", pattern, errs)
	}
	p, errs := planAll(g.res)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", pattern, errs)
	}
	out := map[string]*plan.Struct{}
	for s, ps := range p.plans {
		out[s.Reg.String()] = ps
	}
	return out
}

// TestIDLRoundTrip: the Go that forygen idl wrote from each IDL file of
// internal/conformance/idl (imports aside), exported with forygen schema
// and compiled again with forygen idl, has the same schema: the same IDL
// text, and per registration the same same-schema fingerprint, TypeDefs
// (with and without reference tracking) and type meta.
func TestIDLRoundTrip(t *testing.T) {
	for _, pkg := range []string{"demo", "common", "greeter", "idlall"} {
		t.Run(pkg, func(t *testing.T) {
			src := "../internal/conformance/idl/" + pkg
			files, errs := Schema(Config{Patterns: []string{src}})
			if len(errs) > 0 || len(files) != 1 {
				t.Fatalf("schema of %s: %d files, %v", src, len(files), errs)
			}
			dir := idlScratch(t)
			fdl := filepath.Join(dir, files[0].Name)
			if err := os.WriteFile(fdl, files[0].Content, 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			if err := IDL(IDLConfig{Config: Config{Stderr: &stderr}, Files: []string{fdl}, Out: dir}); err != nil {
				t.Fatalf("forygen idl of the exported schema: %v\n%s", err, stderr.String())
			}
			again, errs := Schema(Config{Patterns: []string{"./" + dir}})
			if len(errs) > 0 || len(again) != 1 {
				t.Fatalf("schema of the round trip: %v", errs)
			}
			// The IDL without its header (which names the Go package) and
			// the names of enum values: foryc strips an enum's name from its
			// values' before naming the Go constants, which a nested enum's
			// flattened name (Everything_Inner_Kind) does not match, so
			// the constants are named differently the second time (the
			// values' numbers, which are on the wire, are compared).
			enumValue := regexp.MustCompile(`(?m)^    [A-Z0-9_]+ = (-?[0-9]+);$`)
			body := func(b []byte) string {
				s := string(b)
				s = s[strings.Index(s, "\npackage "):]
				return strings.TrimSpace(enumValue.ReplaceAllString(s, "    VALUE = $1;"))
			}
			if body(again[0].Content) != body(files[0].Content) {
				t.Errorf("the schema changed in the round trip:\n%s\nthen\n%s", files[0].Content, again[0].Content)
			}
			a, b := plansOf(t, src), plansOf(t, "./"+dir)
			if len(a) != len(b) || len(a) == 0 {
				t.Fatalf("%d structs, then %d", len(a), len(b))
			}
			for reg, pa := range a {
				pb := b[reg]
				switch {
				case pb == nil:
					t.Errorf("%s: no struct registered so after the round trip", reg)
				case pa.Fingerprint != pb.Fingerprint:
					t.Errorf("%s: fingerprint %q, then %q", reg, pa.Fingerprint, pb.Fingerprint)
				case !bytes.Equal(pa.TypeDef, pb.TypeDef) || !bytes.Equal(pa.TypeDefRef, pb.TypeDefRef):
					t.Errorf("%s: the TypeDef changed\n%x\n%x", reg, pa.TypeDef, pb.TypeDef)
				case !bytes.Equal(pa.ConsistentMeta, pb.ConsistentMeta):
					t.Errorf("%s: the same-schema type meta changed", reg)
				}
			}
		})
	}
}

// TestIDLErrorAtIDL: what the generator refuses in the Go forygen idl
// wrote is reported at the IDL field it came from.
func TestIDLErrorAtIDL(t *testing.T) {
	dir := idlScratch(t)
	fdl := filepath.Join(dir, "bad.fdl")
	src := "package bad;\n\nmessage Leaf [id=1] { string s = 1; }\nunion U [id=2] { Leaf leaf = 1; string s = 2; }\n\nmessage M [id=3] {\n    int32 n = 1;\n    map<string, U> by_name = 2;\n}\n"
	if err := os.WriteFile(fdl, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	err := IDL(IDLConfig{Config: Config{Stderr: &stderr}, Files: []string{fdl}, Out: dir})
	if !errors.Is(err, ErrGeneration) {
		t.Fatalf("err %v, want ErrGeneration", err)
	}
	want := fdl + ":8:5: forygen idl: M.ByName: a union as a map key or value is not supported"
	if !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr\n%s\nwant it to start with\n%s", stderr.String(), want)
	}
}
