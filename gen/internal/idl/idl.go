// Package idl compiles Fory IDL (.fdl, the schema language of Apache Fory's
// compiler foryc) to Go type declarations carrying forygen's //fory:
// directives and official Fory Go's field tags, the declarations foryc's Go
// generator writes (apache/fory c8bf233, compiler/fory_compiler/generators/
// go.py): the same type, field and constant names, the same registrations
// (explicit [id=N], ids computed as foryc computes them, or names), the same
// tags, so the messages of a forygen program are those of a foryc one. It
// writes Go source (go/format), which the generator's normal pipeline then
// loads; services become grpc-go client and server stubs on grpccodec.
//
// What forygen cannot express is an error at the IDL's file:line:col.
package idl

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/forygen/forygen/gen/internal/schema"
)

// Config is one compilation: IDL files that make one Go package.
type Config struct {
	Files       []string // the IDL files, one Go package
	ImportPaths []string // directories searched for imported files after the importing file's own
	// GoPackage overrides the files' go_package option: "import/path;name",
	// "import/path" (the name is its last element) or ";name".
	GoPackage string
	// GRPC writes <file>_grpc.go with client and server stubs of the
	// services, on github.com/forygen/forygen/grpccodec.
	GRPC bool
}

// Output is one Go file to write into the package directory.
type Output struct {
	Name    string // base name
	Content []byte
	// Source is the IDL file the Go file was written from, and Lines the
	// IDL position of each line of Content (1-based) that declares a type
	// or a field, so that errors found in the Go can be reported at the IDL.
	Source string
	Lines  map[int]schema.Pos
}

// Error is an error at a position of an IDL file.
type Error struct {
	File string
	Pos  schema.Pos
	Msg  string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: forygen idl: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: forygen idl: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// file is one parsed IDL file and what it declares.
type file struct {
	path    string // as opened
	ast     *schema.File
	decls   []*decl // own types in foryc's order (see collect)
	imports []*file
	goPath  string // Go import path ("" when unknown)
	goName  string // Go package name
}

// decl is one type of a file: a message, enum or union, nested or not.
type decl struct {
	kind    string // "message", "enum", "union"
	file    *file
	qual    string            // Outer.Inner
	goName  string            // Outer_Inner
	lineage []*schema.Message // the enclosing messages, outermost first
	msg     *schema.Message
	enum    *schema.Enum
	union   *schema.Union
	pos     schema.Pos
	name    string // the declaration's own name
	// registration
	byID      bool
	id        uint32
	generated string // the hash source of a computed id
	regName   string // ns.Qual when registered by name
}

type compiler struct {
	roots      map[*file]bool // the files of the run: one Go package
	grpcShared bool           // the package's codec has been written
	cfg        Config
	files      map[string]*file // by absolute path
	errs       []error
	stack      map[string]bool
}

func (c *compiler) errorf(f *file, pos schema.Pos, format string, args ...any) {
	c.errs = append(c.errs, &Error{File: f.path, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Compile reads the configured IDL files and returns the Go package name and
// the files to write (sorted by name), or every error found.
func Compile(cfg Config) (string, []Output, []error) {
	c := &compiler{cfg: cfg, files: map[string]*file{}, stack: map[string]bool{}}
	if len(cfg.Files) == 0 {
		return "", nil, []error{fmt.Errorf("forygen idl: no IDL files given")}
	}
	var roots []*file
	c.roots = map[*file]bool{}
	for _, p := range cfg.Files {
		f := c.load(p, nil, schema.Pos{})
		if f != nil {
			roots = append(roots, f)
			c.roots[f] = true
		}
	}
	if len(c.errs) > 0 {
		return "", nil, c.errs
	}
	goName := ""
	for _, f := range roots {
		if cfg.GoPackage != "" {
			f.goPath, f.goName = splitGoPackage(cfg.GoPackage, f.ast.Package)
		}
		if goName == "" {
			goName = f.goName
		} else if f.goName != goName {
			c.errorf(f, schema.Pos{}, "Go package %s, where %s is %s: the files of one run make one Go package (run forygen idl once per package)", f.goName, roots[0].path, goName)
		}
	}
	var outs []Output
	names := map[string]string{}
	for _, f := range roots {
		w := &writer{c: c, f: f, imports: map[string]string{}}
		src := w.file()
		if len(c.errs) > 0 {
			continue
		}
		name := fileBase(f) + ".go"
		if prev, dup := names[name]; dup {
			c.errorf(f, schema.Pos{}, "writes %s, as %s does: give the files different packages", name, prev)
			continue
		}
		names[name] = f.path
		outs = append(outs, Output{Name: name, Content: src, Source: f.path, Lines: lineMap(src, f)})
		if cfg.GRPC && len(f.ast.Services) > 0 {
			if g := w.grpcFile(); g != nil {
				outs = append(outs, Output{Name: fileBase(f) + "_grpc.go", Content: g, Source: f.path})
			}
		}
	}
	if len(c.errs) > 0 {
		return "", nil, c.errs
	}
	sort.Slice(outs, func(i, j int) bool { return outs[i].Name < outs[j].Name })
	return goName, outs, nil
}

// fileBase is foryc's Go file name: the package with dots as underscores,
// or "generated".
func fileBase(f *file) string {
	if f.ast.Package != "" {
		return strings.ReplaceAll(f.ast.Package, ".", "_")
	}
	return "generated"
}

// splitGoPackage reads a go_package value as foryc does.
func splitGoPackage(v, pkg string) (path, name string) {
	if i := strings.Index(v, ";"); i >= 0 {
		path, name = v[:i], v[i+1:]
	} else {
		path = v
		parts := strings.Split(strings.TrimRight(v, "/"), "/")
		name = parts[len(parts)-1]
	}
	if name == "" {
		name = defaultGoName(pkg)
	}
	return path, name
}

func defaultGoName(pkg string) string {
	if pkg == "" {
		return "generated"
	}
	parts := strings.Split(pkg, ".")
	return parts[len(parts)-1]
}

// load parses a file and, depth first, the files it imports.
func (c *compiler) load(path string, from *file, at schema.Pos) *file {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	if f, ok := c.files[abs]; ok {
		if c.stack[abs] {
			c.errorf(from, at, "import cycle through %s", path)
			return nil
		}
		return f
	}
	src, err := os.ReadFile(path)
	if err != nil {
		if from != nil {
			c.errorf(from, at, "import %q: %v", path, err)
		} else {
			c.errs = append(c.errs, fmt.Errorf("forygen idl: %v", err))
		}
		return nil
	}
	ast, err := schema.Parse(string(src))
	if err != nil {
		c.errs = append(c.errs, fmt.Errorf("%s:%v", path, strings.Replace(err.Error(), ": ", ": forygen idl: ", 1)))
		return nil
	}
	f := &file{path: path, ast: ast}
	f.goName = defaultGoName(ast.Package)
	if v, ok := ast.Options["go_package"]; ok {
		f.goPath, f.goName = splitGoPackage(v, ast.Package)
	}
	c.files[abs] = f
	c.stack[abs] = true
	for i, imp := range ast.Imports {
		p := c.resolveImport(f, imp)
		if p == "" {
			c.errorf(f, ast.ImportPos[i], "import %q: no such file beside %s or in the -I directories", imp, path)
			continue
		}
		if g := c.load(p, f, ast.ImportPos[i]); g != nil {
			f.imports = append(f.imports, g)
		}
	}
	delete(c.stack, abs)
	c.collect(f)
	return f
}

func (c *compiler) resolveImport(f *file, imp string) string {
	dirs := append([]string{filepath.Dir(f.path)}, c.cfg.ImportPaths...)
	for _, d := range dirs {
		p := filepath.Join(d, imp)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// collect lists a file's types and gives them their registrations, as
// foryc's validator does (_apply_type_id_defaults): explicit ids first,
// then, unless enable_auto_type_id = false, an id computed from the
// qualified name (murmur3 of "package.Outer.Inner", or of the alias) for
// every type without one, in the order top-level enums, unions, then each
// message followed by its nested enums, unions and messages.
func (c *compiler) collect(f *file) {
	style := f.ast.Options["go_nested_type_style"]
	style = strings.ToLower(strings.TrimSpace(style))
	if style != "" && style != "underscore" && style != "camelcase" {
		c.errorf(f, f.ast.OptionPos["go_nested_type_style"], "go_nested_type_style %q: use camelcase or underscore", style)
	}
	goName := func(lineage []*schema.Message, name string) string {
		parts := []string{}
		for _, m := range lineage {
			parts = append(parts, m.Name)
		}
		parts = append(parts, name)
		if style == "camelcase" {
			return strings.Join(parts, "")
		}
		return strings.Join(parts, "_")
	}
	qual := func(lineage []*schema.Message, name string) string {
		parts := []string{}
		for _, m := range lineage {
			parts = append(parts, m.Name)
		}
		return strings.Join(append(parts, name), ".")
	}
	add := func(d *decl) {
		d.qual = qual(d.lineage, d.name)
		d.goName = goName(d.lineage, d.name)
		d.file = f
		f.decls = append(f.decls, d)
	}
	for _, e := range f.ast.Enums {
		add(&decl{kind: "enum", enum: e, name: e.Name, pos: schema.Pos{Line: e.Line, Col: e.Col}})
	}
	for _, u := range f.ast.Unions {
		add(&decl{kind: "union", union: u, name: u.Name, pos: schema.Pos{Line: u.Line, Col: u.Col}})
	}
	var walk func(m *schema.Message, lineage []*schema.Message)
	walk = func(m *schema.Message, lineage []*schema.Message) {
		add(&decl{kind: "message", msg: m, name: m.Name, lineage: lineage, pos: schema.Pos{Line: m.Line, Col: m.Col}})
		inner := append(append([]*schema.Message(nil), lineage...), m)
		for _, e := range m.Enums {
			add(&decl{kind: "enum", enum: e, name: e.Name, lineage: inner, pos: schema.Pos{Line: e.Line, Col: e.Col}})
		}
		for _, u := range m.Unions {
			add(&decl{kind: "union", union: u, name: u.Name, lineage: inner, pos: schema.Pos{Line: u.Line, Col: u.Col}})
		}
		for _, n := range m.Messages {
			walk(n, inner)
		}
	}
	for _, m := range f.ast.Messages {
		walk(m, nil)
	}
	// Go names must be distinct (foryc's validate_type_names).
	seen := map[string]*decl{}
	for _, d := range f.decls {
		if o := seen[d.goName]; o != nil {
			c.errorf(f, d.pos, "Go type name %s is taken by %s too", d.goName, o.qual)
		}
		seen[d.goName] = d
	}
	used := map[uint32]*decl{}
	for _, d := range f.decls {
		id, has := d.explicitID()
		if !has {
			continue
		}
		if d.kind == "union" && id == 0 {
			c.errorf(f, d.pos, "union %s [id=0]: forygen registers types by ids from 1 (give another id)", d.qual)
		}
		if o := used[id]; o != nil {
			c.errorf(f, d.pos, "type id %d used by %s and %s", id, o.qual, d.qual)
		}
		used[id] = d
		d.byID, d.id = true, id
	}
	auto := f.ast.Options["enable_auto_type_id"] != "false"
	pkg := f.ast.PackageAlias
	if pkg == "" {
		pkg = f.ast.Package
	}
	for _, d := range f.decls {
		if d.byID {
			continue
		}
		if !auto {
			ns := f.ast.Package
			if ns == "" {
				ns = "default"
			}
			d.regName = ns + "." + d.qual
			continue
		}
		src := d.qual
		if pkg != "" {
			src = pkg + "." + d.qual
		}
		if alias := d.options()["alias"]; alias != "" {
			src = alias
			if !strings.Contains(alias, ".") && pkg != "" {
				src = pkg + "." + alias
			}
		}
		id := murmur3([]byte(src))
		if o := used[id]; o != nil {
			c.errorf(f, d.pos, "auto-generated type id collision for %q (with %s): give an explicit [id=...] or an [alias=\"...\"]", src, o.qual)
			continue
		}
		if id == 0 {
			c.errorf(f, d.pos, "the auto-generated type id of %q is 0, which forygen cannot register: give an explicit [id=...]", src)
			continue
		}
		used[id] = d
		d.byID, d.id, d.generated = true, id, src
	}
}

func (d *decl) explicitID() (uint32, bool) {
	switch d.kind {
	case "message":
		return uint32(d.msg.ID), d.msg.HasID
	case "enum":
		return uint32(d.enum.ID), d.enum.HasID
	}
	return uint32(d.union.ID), d.union.HasID
}

func (d *decl) options() map[string]string {
	switch d.kind {
	case "message":
		return d.msg.Options
	case "enum":
		return d.enum.Options
	}
	return d.union.Options
}

// scope is what a file's names resolve to: its own types and, merged as
// foryc merges them, those of the files it imports (directly or not), by
// qualified name and by package-qualified name.
func scope(f *file) map[string]*decl {
	s := map[string]*decl{}
	var visit func(g *file, seen map[*file]bool)
	visit = func(g *file, seen map[*file]bool) {
		if seen[g] {
			return
		}
		seen[g] = true
		for _, imp := range g.imports {
			visit(imp, seen)
		}
		for _, d := range g.decls {
			if _, ok := s[d.qual]; !ok || g == f {
				s[d.qual] = d
			}
			if g.ast.Package != "" {
				s[g.ast.Package+"."+d.qual] = d
			}
		}
	}
	visit(f, map[*file]bool{})
	return s
}

// resolve finds the type a name written inside lineage refers to: a nested
// type of an enclosing message, innermost first, then a type of the scope.
func resolve(s map[string]*decl, name string, lineage []*schema.Message) *decl {
	if !strings.Contains(name, ".") {
		for i := len(lineage) - 1; i >= 0; i-- {
			var parts []string
			for _, m := range lineage[:i+1] {
				parts = append(parts, m.Name)
			}
			if d := s[strings.Join(append(parts, name), ".")]; d != nil {
				return d
			}
		}
	}
	return s[name]
}

// header is the first lines of a written file.
func header(c Config, f *file) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by forygen idl from %s. DO NOT EDIT.\n", filepath.ToSlash(filepath.Base(f.path)))
	return b.String()
}

func gofmt(f *file, c *compiler, src []byte) []byte {
	out, err := format.Source(src)
	if err != nil {
		c.errorf(f, schema.Pos{}, "internal error: the Go written does not format: %v\n%s", err, src)
		return nil
	}
	return out
}

// lineMap maps the lines of src that declare f's types (their doc
// comments included) to the types' IDL positions, and each message field's
// line to the field's.
func lineMap(src []byte, f *file) map[int]schema.Pos {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		return nil
	}
	byName := map[string]*decl{}
	for _, d := range f.decls {
		byName[d.goName] = d
	}
	lines := map[int]schema.Pos{}
	for _, gd := range af.Decls {
		g, ok := gd.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, sp := range g.Specs {
			ts := sp.(*ast.TypeSpec)
			d := byName[ts.Name.Name]
			if d == nil {
				continue
			}
			from, to := fset.Position(g.Pos()).Line, fset.Position(g.End()).Line
			if g.Doc != nil {
				from = fset.Position(g.Doc.Pos()).Line
			}
			for l := from; l <= to; l++ {
				lines[l] = d.pos
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok || d.kind != "message" {
				continue
			}
			for i, fl := range st.Fields.List {
				if i < len(d.msg.Fields) {
					lines[fset.Position(fl.Pos()).Line] = d.msg.Fields[i].Pos()
				}
			}
		}
	}
	return lines
}
