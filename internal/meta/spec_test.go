package meta

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The facts of spec.go, against the specification's text and official Go's
// bytes (docs/format.md).
func TestSpecTables(t *testing.T) {
	for id := 0; id <= MaxTypeID; id++ {
		if TypeIDName(uint8(id)) == "" {
			t.Errorf("type id %d has no name", id)
		}
	}
	if TypeIDName(MaxTypeID+1) != "" {
		t.Errorf("type id %d has a name", MaxTypeID+1)
	}
	for _, c := range []struct {
		id   uint8
		name string
	}{{TypeVarUint32, "VAR_UINT32"}, {TypeNamedCompatibleStruct, "NAMED_COMPATIBLE_STRUCT"}, {TypeFloat64Array, "FLOAT64_ARRAY"},
		{TypeDecimal, "DECIMAL"}, {TypeUnknown, "UNKNOWN"}, {TypeFloat8Array, "FLOAT8_ARRAY"}} {
		if got := TypeIDName(c.id); got != c.name {
			t.Errorf("TypeIDName(%d) = %q, want %q", c.id, got, c.name)
		}
	}
	// Every dense array's element is the scalar of the same name, of a fixed
	// width, and DenseArrayOf inverts DenseArrayElem.
	arrays := 0
	for id := 0; id <= MaxTypeID; id++ {
		e := DenseArrayElem(uint8(id))
		if !strings.HasSuffix(TypeIDName(uint8(id)), "_ARRAY") || id == TypeArray {
			if e != 0 {
				t.Errorf("%s has element %d", TypeIDName(uint8(id)), e)
			}
			continue
		}
		arrays++
		if TypeIDName(e)+"_ARRAY" != TypeIDName(uint8(id)) || FixedWidth(e) == 0 || DenseArrayOf(e) != uint8(id) {
			t.Errorf("%s: element %s of width %d, DenseArrayOf %d", TypeIDName(uint8(id)), TypeIDName(e), FixedWidth(e), DenseArrayOf(e))
		}
	}
	if arrays != 14 {
		t.Errorf("%d dense arrays, want 14 (43..56 without the reserved 42)", arrays)
	}
	// Official Go's bytes: a list of declared scalars is 0c (§8.1), a map
	// chunk of a struct field 24 and a null value's 14 (§8.4), the header
	// 01 (§1), "" is 02 (§7).
	if ListDeclaredSameType != 0x0c || MapKeyDeclared|MapValueDeclared != 0x24 || MapKeyDeclared|MapValueHasNull != 0x14 ||
		HeaderXlang != 0x01 || 0<<StringLenShift|StringUTF8 != 0x02 || StringEncMask != 3 {
		t.Error("a header constant disagrees with official Go's bytes")
	}
	flags := []byte{FlagNull, FlagRef, FlagNotNull, FlagRefValue}
	if int8(flags[0]) != -3 || int8(flags[1]) != -2 || int8(flags[2]) != -1 || flags[3] != 0 {
		t.Error("the flags are not -3, -2, -1, 0 (§2)")
	}
}

// The layers that read and write the format take its numbers from this
// package: no type id, flag or list or map header bit is declared again or
// spelled as a literal where one is meant (issue 28). What counts as a
// stray literal:
//
//   - a constant declared with a literal under a name of a type id (typeList,
//     tString), a flag (flagRef) or a list or map header bit (listHasNull);
//   - an integer literal compared with, switched on or stored as a type id
//     (an expression named id, TypeID, Kind, …), as in `case 21:` or
//     `anyValue{id: 5}`;
//   - a flag byte: 0xfd or 0xfe anywhere, 0xff written or compared;
//   - a literal mask of a list or map header byte (`h&0x08`);
//   - in the emitter, any hex literal: a constant of generated code is named
//     (foryimpl's re-exports) or comes from the plan.
func TestNoStrayLiterals(t *testing.T) {
	dirs := []string{"../../serializer/foryimpl", "../../gen/internal/emit", "../../gen/internal/plan",
		"../../gen/internal/dump", "../../gen/internal/lock", "../../gen/internal/schema"}
	var stray []string
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			stray = append(stray, strayLiterals(t, f, strings.HasSuffix(dir, "emit"))...)
		}
	}
	sort.Strings(stray)
	for _, s := range stray {
		t.Error(s)
	}
}

// TestStrayLiteralsFound: the checker finds what it is meant to find.
func TestStrayLiteralsFound(t *testing.T) {
	src := `package p
const typeList = 22
const flagRef byte = 0xfe
const listHasNull = 0x02
func f(id uint8, h byte, ft struct{ TypeID uint8 }) int {
	switch id {
	case 21:
	}
	if ft.TypeID == 24 || h&0x08 != 0 {
		return 1
	}
	_ = struct{ id byte }{id: 5}
	g(0xff)
	return 0
}
func g(byte) { _ = jen.Op("0x0c") }
`
	f := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strayLiterals(t, f, true)
	for _, want := range []string{"const typeList", "const flagRef", "const listHasNull", "21 as a type id", "24 as a type id",
		"h&0x08", "5 as a type id", "0xfe", "0xff", `"0x0c"`} {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g, want)
		}
		if !found {
			t.Errorf("not found: %s (found %q)", want, got)
		}
	}
}

var (
	typeNameRe = func() *regexp.Regexp {
		var alts []string
		for _, n := range typeNames {
			alts = append(alts, strings.ReplaceAll(strings.ToLower(n), "_", ""))
		}
		return regexp.MustCompile(`^(type|t)(` + strings.Join(alts, "|") + `|namedcompat|compatstruct)$`)
	}()
	flagNameRe   = regexp.MustCompile(`^flag(null|notnull|ref|refval|refvalue)$`)
	headerNameRe = regexp.MustCompile(`^(list|map)(key|val|value)?(trackref|hasnull|declared|sametype|headermask|chunkdeclared|chunknullval)$|^headerxlang$|^str(latin1|utf16le|utf8)$`)
	idNameRe     = regexp.MustCompile(`^(id|TypeID|typeID|\w+TypeID|keyID|valID|elemID|Kind)$`)
	headerVarRe  = regexp.MustCompile(`^(h|hdr|header)$`)
	hexStringRe  = regexp.MustCompile(`^"0x[0-9a-fA-F]+"$`)
)

func exprName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.IndexExpr:
		return exprName(x.X)
	}
	return ""
}

func intLit(e ast.Expr) (uint64, string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.INT {
		return 0, "", false
	}
	v, err := strconv.ParseUint(strings.ReplaceAll(b.Value, "_", ""), 0, 64)
	return v, b.Value, err == nil
}

func strayLiterals(t *testing.T, path string, emitter bool) []string {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, fset.Position(n.Pos()).String()+": "+fmt.Sprintf(format, args...))
	}
	// asID reports a literal used as a type id. 0 counts only against a
	// TypeID or a Kind: elsewhere an id of 0 is most often no id at all.
	asID := func(e ast.Expr, lit ast.Expr) {
		name := exprName(e)
		if v, text, ok := intLit(lit); ok && idNameRe.MatchString(name) && (v != 0 || strings.HasSuffix(name, "TypeID") || name == "Kind") {
			report(lit, "%s as a type id (%s): use meta's Type constants", text, exprName(e))
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ValueSpec:
			for i, name := range x.Names {
				if i >= len(x.Values) {
					break
				}
				if _, text, ok := intLit(x.Values[i]); ok {
					l := strings.ToLower(name.Name)
					if typeNameRe.MatchString(l) || flagNameRe.MatchString(l) || headerNameRe.MatchString(l) {
						report(name, "const %s = %s declares a number of the format again: use internal/meta's", name.Name, text)
					}
				}
			}
		case *ast.SwitchStmt:
			if x.Tag != nil {
				for _, s := range x.Body.List {
					for _, v := range s.(*ast.CaseClause).List {
						asID(x.Tag, v)
					}
				}
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				asID(x.X, x.Y)
				asID(x.Y, x.X)
				for _, side := range []ast.Expr{x.X, x.Y} {
					if v, text, ok := intLit(side); ok && v == 0xff && strings.HasPrefix(text, "0x") {
						report(side, "0xff compared: FlagNotNull")
					}
				}
			case token.AND, token.AND_NOT:
				if v, text, ok := intLit(x.Y); ok && (v >= 0x04 && v <= 0x3f || v == 0xc0 || v == 0xf0) && headerVarRe.MatchString(exprName(x.X)) {
					report(x, "%s&%s masks a header byte with a literal: use meta's header bits", exprName(x.X), text)
				}
			}
		case *ast.KeyValueExpr:
			if k, ok := x.Key.(*ast.Ident); ok {
				if v, _, _ := intLit(x.Value); v != 0 {
					asID(k, x.Value)
				}
			}
		case *ast.CallExpr:
			for _, a := range x.Args {
				if v, _, ok := intLit(a); ok && v == 0xff {
					report(a, "0xff passed to %s: FlagNotNull", exprName(x.Fun))
				}
			}
		case *ast.BasicLit:
			if v, text, ok := intLit(x); ok && (v == 0xfd || v == 0xfe) && strings.HasPrefix(text, "0x") {
				report(x, "%s is a flag: FlagNull or FlagRef", text)
			}
			if emitter && (x.Kind == token.INT && strings.HasPrefix(x.Value, "0x") || x.Kind == token.STRING && hexStringRe.MatchString(x.Value)) {
				report(x, "%s in the emitter: name the constant (foryimpl's re-exports of meta) or take it from the plan", x.Value)
			}
		}
		return true
	})
	return out
}
