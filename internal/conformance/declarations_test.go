package conformance_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// conformancePkgPrefix is the import path prefix of the packages holding the
// cases' Go types; their directories are relative to this package.
const conformancePkgPrefix = "github.com/forygen/forygen/internal/conformance/"

// declaredType is a type declaration reduced to what matters for a case:
// its canonical Go definition and its forygen directive.
type declaredType struct {
	def       string // e.g. "struct{F1 int32 `fory:\"id=1\"`; ...}" or "int32"
	directive string // e.g. "//fory:generate id=1", "" when there is none
	pos       string
}

// caseSide is the writer or the reader side of a case.
type caseSide struct {
	label   string
	ptr     any
	goTypes string
	regs    []registration
}

// TestXlangDeclarations checks, without the generator, that the Go types of
// every case are declared exactly as the manifest's go_types (field names,
// order, types and tags; fory.Date is serializer.Date) and carry directives
// that reproduce the case's registrations.
func TestXlangDeclarations(t *testing.T) {
	_, m := loadManifest(t)
	pkgs := map[string]map[string]declaredType{} // dir -> type name -> declaration
	covered := map[string]map[string]bool{}      // dir -> type name -> some case registers it so
	for _, c := range m.Cases {
		ct, ok := caseTable[c.Name]
		if !ok || ct.root == nil {
			t.Errorf("%s: no caseTable entry", c.Name)
			continue
		}
		sides := []caseSide{{"", ct.root(), c.GoTypes, c.Registrations}}
		if c.Reader != nil && ct.reader != nil {
			sides = append(sides, caseSide{" (reader)", ct.reader(), c.Reader.GoTypes, c.Reader.Registrations})
		}
		for _, s := range sides {
			where := c.Name + s.label
			dir, err := packageDir(s.ptr)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			decls, ok := pkgs[dir]
			if !ok {
				decls, err = parsePackageTypes(dir)
				if err != nil {
					t.Errorf("%s: %v", where, err)
					continue
				}
				pkgs[dir] = decls
				covered[dir] = map[string]bool{}
			}
			checkSide(t, where, dir, s.goTypes, s.regs, decls, covered[dir])
		}
	}
	// Every directive in a package reproduces a registration of a case it serves.
	for _, dir := range sortedKeys(pkgs) {
		decls := pkgs[dir]
		for _, name := range sortedKeys(decls) {
			if d := decls[name]; d.directive != "" && !covered[dir][name] {
				t.Errorf("%s: %s has %q, which no case served by package %s registers", d.pos, name, d.directive, dir)
			}
		}
	}
}

func checkSide(t *testing.T, where, dir, goTypes string, regs []registration, decls map[string]declaredType, covered map[string]bool) {
	t.Helper()
	want, err := parseTypes("manifest.go", "package x\n"+goTypes)
	if err != nil {
		t.Errorf("%s: parsing the manifest's go_types: %v", where, err)
		return
	}
	regByType := map[string]registration{}
	for _, r := range regs {
		regByType[r.GoType] = r
	}
	for name, w := range want {
		got, ok := decls[name]
		if !ok {
			t.Errorf("%s: package %s does not declare %s", where, dir, name)
			continue
		}
		if wd := strings.ReplaceAll(w.def, "fory.Date", "serializer.Date"); got.def != wd {
			t.Errorf("%s: %s: %s is\n\t%s\nmanifest:\n\t%s", where, got.pos, name, got.def, wd)
		}
		if _, ok := regByType[name]; !ok {
			t.Errorf("%s: the manifest declares %s but does not register it", where, name)
		}
	}
	for _, r := range regs {
		wantDirective, err := directiveFor(r)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		got, ok := decls[r.GoType]
		if !ok {
			// Registered but not declared by this case (the benchmark registration
			// list registers all ten types in every benchmark case): fine if no
			// case type refers to it.
			if _, declared := want[r.GoType]; declared {
				t.Errorf("%s: package %s does not declare %s", where, dir, r.GoType)
			}
			continue
		}
		if got.directive != wantDirective {
			t.Errorf("%s: %s: %s has directive %q, want %q (%s)", where, got.pos, r.GoType, got.directive, wantDirective, r.Call)
			continue
		}
		covered[r.GoType] = true
	}
}

// directiveFor returns the forygen directive that reproduces a registration.
func directiveFor(r registration) (string, error) {
	var verb string
	switch r.Kind {
	case "struct":
		verb = "//fory:generate"
	case "enum":
		verb = "//fory:enum"
	default:
		return "", fmt.Errorf("registration of %s has unknown kind %q", r.GoType, r.Kind)
	}
	switch {
	case r.ID != nil:
		return fmt.Sprintf("%s id=%d", verb, *r.ID), nil
	case r.Namespace != nil && *r.Namespace != "":
		return fmt.Sprintf("%s name=%s.%s", verb, *r.Namespace, r.TypeName), nil
	case r.TypeName != "":
		return fmt.Sprintf("%s name=%s", verb, r.TypeName), nil
	}
	return "", fmt.Errorf("registration of %s has neither an id nor a name", r.GoType)
}

// packageDir maps a pointer to a conformance type to its package directory,
// relative to this package.
func packageDir(p any) (string, error) {
	t := reflect.TypeOf(p)
	if t == nil || t.Kind() != reflect.Pointer {
		return "", fmt.Errorf("%T is not a pointer", p)
	}
	path := t.Elem().PkgPath()
	if !strings.HasPrefix(path, conformancePkgPrefix) {
		return "", fmt.Errorf("%s is not in a package under %s", t.Elem(), conformancePkgPrefix)
	}
	return filepath.FromSlash(strings.TrimPrefix(path, conformancePkgPrefix)), nil
}

// parsePackageTypes parses the hand-written Go files of a package directory
// (not tests, not generated *_fory.go files) and checks its go:generate line.
func parsePackageTypes(dir string) (map[string]declaredType, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	all := map[string]declaredType{}
	generateLines := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_fory.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		generateLines += strings.Count(string(src), "\n//go:generate go run github.com/forygen/forygen/cmd/forygen\n")
		decls, err := parseTypes(filepath.Join(dir, name), string(src))
		if err != nil {
			return nil, err
		}
		for k, v := range decls {
			if prev, dup := all[k]; dup {
				return nil, fmt.Errorf("%s: %s already declared at %s", v.pos, k, prev.pos)
			}
			all[k] = v
		}
	}
	if generateLines != 1 {
		return nil, fmt.Errorf("package %s has %d go:generate lines for forygen, want exactly 1", dir, generateLines)
	}
	return all, nil
}

// parseTypes returns the top-level type declarations of a Go source file.
func parseTypes(filename, src string) (map[string]declaredType, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	out := map[string]declaredType{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			out[ts.Name.Name] = declaredType{
				def:       canonicalType(ts.Type),
				directive: forygenDirective(doc),
				pos:       fset.Position(ts.Pos()).String(),
			}
		}
	}
	return out, nil
}

// forygenDirective returns the //fory:generate or //fory:enum line of a doc
// comment, or "" when there is none (or "<several>" when there is more than one).
func forygenDirective(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	var found []string
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//fory:generate") || strings.HasPrefix(c.Text, "//fory:enum") {
			found = append(found, strings.TrimSpace(c.Text))
		}
	}
	switch len(found) {
	case 0:
		return ""
	case 1:
		return found[0]
	}
	return "<several: " + strings.Join(found, ", ") + ">"
}

// canonicalType prints a type expression; for structs, every field with its
// names, type and tag in declaration order (comments and alignment dropped).
func canonicalType(e ast.Expr) string {
	st, ok := e.(*ast.StructType)
	if !ok {
		return types.ExprString(e)
	}
	var fields []string
	for _, fld := range st.Fields.List {
		var names []string
		for _, n := range fld.Names {
			names = append(names, n.Name)
		}
		s := strings.Join(names, ", ")
		if s != "" {
			s += " "
		}
		s += types.ExprString(fld.Type)
		if fld.Tag != nil {
			tag, err := strconv.Unquote(fld.Tag.Value)
			if err != nil {
				tag = fld.Tag.Value
			}
			s += " `" + tag + "`"
		}
		fields = append(fields, s)
	}
	return "struct{" + strings.Join(fields, "; ") + "}"
}

// sortedKeys makes failure messages deterministic.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
