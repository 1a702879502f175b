package idl

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/forygen/forygen/gen/internal/schema"
)

const serializerPkg = "github.com/forygen/forygen/serializer"

// writer writes one file's Go declarations.
type writer struct {
	c       *compiler
	f       *file
	scope   map[string]*decl
	imports map[string]string // import path → name used
	b       bytes.Buffer
	idents  map[string]schema.Pos // package-level Go names declared, for collisions
}

// declare records a package-level Go name the file declares, and reports
// one declared twice (a type and a union's constructor, say, as foryc's Go
// would declare them too).
func (w *writer) declare(name string, pos schema.Pos, what string) {
	if w.idents == nil {
		w.idents = map[string]schema.Pos{}
	}
	if p, dup := w.idents[name]; dup {
		w.errorf(pos, "%s is Go identifier %s, which the declaration at %s has too: rename one", what, name, p)
		return
	}
	w.idents[name] = pos
}

func (w *writer) printf(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

func (w *writer) errorf(pos schema.Pos, format string, args ...any) {
	w.c.errorf(w.f, pos, format, args...)
}

// use records an import and returns the name to qualify with.
func (w *writer) use(path, name string) string {
	w.imports[path] = name
	return name
}

func (w *writer) ser() string { return w.use(serializerPkg, "serializer") }

// file writes the declarations of w.f in foryc's order: top-level enums,
// top-level unions, then each message after its nested types.
func (w *writer) file() []byte {
	w.scope = scope(w.f)
	byEnum, byUnion, byMsg := map[*schema.Enum]*decl{}, map[*schema.Union]*decl{}, map[*schema.Message]*decl{}
	for _, d := range w.f.decls {
		w.declare(d.goName, d.pos, d.kind+" "+d.qual)
	}
	for _, d := range w.f.decls {
		switch d.kind {
		case "enum":
			byEnum[d.enum] = d
		case "union":
			byUnion[d.union] = d
		default:
			byMsg[d.msg] = d
		}
	}
	for _, e := range w.f.ast.Enums {
		w.enum(byEnum[e])
	}
	for _, u := range w.f.ast.Unions {
		w.unionDecl(byUnion[u])
	}
	var walk func(m *schema.Message)
	walk = func(m *schema.Message) {
		for _, e := range m.Enums {
			w.enum(byEnum[e])
		}
		for _, u := range m.Unions {
			w.unionDecl(byUnion[u])
		}
		for _, n := range m.Messages {
			walk(n)
		}
		w.message(byMsg[m])
	}
	for _, m := range w.f.ast.Messages {
		walk(m)
	}
	w.checkServices()
	body := w.b.Bytes()
	var out bytes.Buffer
	out.WriteString(header(w.c.cfg, w.f))
	fmt.Fprintf(&out, "\npackage %s\n\n", w.f.goName)
	writeImports(&out, w.imports)
	out.Write(body)
	return gofmt(w.f, w.c, out.Bytes())
}

func writeImports(out *bytes.Buffer, imports map[string]string) {
	if len(imports) == 0 {
		return
	}
	var paths []string
	for p := range imports {
		paths = append(paths, p)
	}
	// The standard library first, then a blank line and the others.
	std := func(p string) bool { return !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") }
	sort.Slice(paths, func(i, j int) bool {
		if std(paths[i]) != std(paths[j]) {
			return std(paths[i])
		}
		return paths[i] < paths[j]
	})
	out.WriteString("import (\n")
	for i, p := range paths {
		if i > 0 && std(paths[i-1]) && !std(p) {
			out.WriteString("\n")
		}
		name := imports[p]
		last := p[strings.LastIndex(p, "/")+1:]
		if name == last {
			fmt.Fprintf(out, "\t%q\n", p)
		} else {
			fmt.Fprintf(out, "\t%s %q\n", name, p)
		}
	}
	out.WriteString(")\n\n")
}

// directive is the //fory: registration argument of a type.
func (d *decl) directive() string {
	if d.byID {
		return fmt.Sprintf("id=%d", d.id)
	}
	return "name=" + d.regName
}

// idComment is foryc's type id comment.
func (d *decl) idComment() string {
	switch {
	case d.generated != "":
		return fmt.Sprintf("// Type ID %d is generated from %s.\n", d.id, d.generated)
	case d.byID:
		return fmt.Sprintf("// Type ID %d is specified manually.\n", d.id)
	}
	return fmt.Sprintf("// Registered by name as %s.\n", d.regName)
}

func (w *writer) enum(d *decl) {
	e := d.enum
	name := d.goName
	w.printf("%s//fory:enum %s\ntype %s int32\n\n", d.idComment(), d.directive(), name)
	if len(e.Values) == 0 {
		return
	}
	w.printf("const (\n")
	for _, v := range e.Values {
		c := name + pascal(stripEnumPrefix(e.Name, v.Name))
		w.declare(c, v.Pos, "enum value "+d.qual+"."+v.Name)
		w.printf("\t%s %s = %d\n", c, name, v.Value)
	}
	w.printf(")\n\n")
	w.reserved(d, e.Reserved, nil)
}

// reserved checks that no value or field uses a reserved number or name.
func (w *writer) reserved(d *decl, rs []schema.Reserved, fields []*schema.Field) {
	type item struct {
		name string
		n    int64
		pos  schema.Pos
	}
	var items []item
	if d.kind == "enum" {
		for _, v := range d.enum.Values {
			items = append(items, item{v.Name, v.Value, v.Pos})
		}
	}
	for _, f := range fields {
		items = append(items, item{f.Name, int64(f.Number), f.Pos()})
	}
	for _, r := range rs {
		for _, it := range items {
			switch {
			case r.Name != "" && r.Name == it.name:
				w.errorf(it.pos, "%s: %s is reserved (at %s)", d.qual, it.name, r.Pos)
			case r.Name == "" && it.n >= r.From && (r.To < 0 || it.n <= r.To):
				w.errorf(it.pos, "%s: %s uses number %d, which is reserved (at %s)", d.qual, it.name, it.n, r.Pos)
			}
		}
	}
}

// unionCaseType is foryc's get_union_case_type: a named case is a pointer
// to its type; forygen takes struct pointers and bool, sized number and
// string scalars as cases.
func (w *writer) unionCaseType(d *decl, c *schema.Field) string {
	t := c.Type
	switch t.Kind {
	case "named":
		r := resolve(w.scope, t.Name, d.lineage)
		if r == nil {
			w.errorf(t.Pos, "unknown type %s", t.Name)
			return "any"
		}
		if r.kind != "message" {
			w.errorf(t.Pos, "union %s: case %s is %s %s %s; forygen's union cases are bool, sized numbers, string and messages", d.qual, c.Name, article(r.kind), r.kind, t.Name)
			return "any"
		}
		return "*" + w.typeName(r)
	case "scalar":
		ok := map[string]bool{"bool": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint8": true,
			"uint16": true, "uint32": true, "uint64": true, "float32": true, "float64": true, "string": true}
		if !ok[t.Name] {
			w.errorf(t.Pos, "union %s: case %s is %s; forygen's union cases are bool, sized numbers, string and messages", d.qual, c.Name, t.Name)
			return "any"
		}
		if t.Encoding != "" && t.Encoding != "varint" {
			w.errorf(t.Pos, "union %s: case %s is %s %s; forygen's union cases take the default encoding of their type", d.qual, c.Name, t.Encoding, t.Name)
		}
		return t.Name
	}
	w.errorf(t.Pos, "union %s: case %s is a %s; forygen's union cases are bool, sized numbers, string and messages (wrap the %s in a message)", d.qual, c.Name, t.Kind, t.Kind)
	return "any"
}

func article(kind string) string {
	if kind == "enum" {
		return "an"
	}
	return "a"
}

func (w *writer) unionDecl(d *decl) {
	u := d.union
	name := d.goName
	ct := name + "Case"
	w.declare(ct, d.pos, "the case type of union "+d.qual)
	w.declare(ct+"Invalid", d.pos, "the invalid case of union "+d.qual)
	w.declare(name+"Visitor", d.pos, "the visitor of union "+d.qual)
	for _, c := range u.Cases {
		w.declare(ct+pascal(c.Name), c.Pos(), "case "+c.Name+" of union "+d.qual)
		w.declare(pascal(c.Name)+name, c.Pos(), "the constructor of case "+c.Name+" of union "+d.qual)
	}
	zero := false
	for _, c := range u.Cases {
		zero = zero || c.Number == 0
	}
	w.printf("// %s is the case of a %s.\ntype %s uint32\n\nconst (\n", ct, name, ct)
	if zero {
		w.printf("\t%sInvalid %s = %s(^uint32(0))\n", ct, ct, ct)
	} else {
		w.printf("\t%sInvalid %s = 0\n", ct, ct)
	}
	types := make([]string, len(u.Cases))
	var cases []string
	for i, c := range u.Cases {
		types[i] = w.unionCaseType(d, c)
		w.printf("\t%s%s %s = %d\n", ct, pascal(c.Name), ct, c.Number)
		cases = append(cases, fmt.Sprintf("%d=%s", c.Number, types[i]))
	}
	w.printf(")\n\n")
	w.printf("%s//fory:union %s %s\ntype %s struct {\n\tcase_ %s\n\tvalue any\n}\n\n", d.idComment(), d.directive(), strings.Join(cases, " "), name, ct)
	for i, c := range u.Cases {
		cn := pascal(c.Name)
		ctor := cn + name
		w.printf("// %s is a %s holding case %s.\nfunc %s(v %s) %s {\n", ctor, name, cn, ctor, types[i], name)
		if strings.HasPrefix(types[i], "*") {
			w.printf("\tif v == nil {\n\t\tpanic(%q)\n\t}\n", ctor+": nil pointer")
		}
		w.printf("\treturn %s{case_: %s%s, value: v}\n}\n\n", name, ct, cn)
	}
	w.printf("// Case is the case u holds.\nfunc (u %s) Case() %s { return u.case_ }\n\n", name, ct)
	w.printf("// IsSet reports whether u holds a case.\nfunc (u %s) IsSet() bool { return u.case_ != %sInvalid && u.value != nil }\n\n", name, ct)
	for i, c := range u.Cases {
		cn := pascal(c.Name)
		w.printf("// As%s is the value of case %s, if u holds it.\nfunc (u %s) As%s() (%s, bool) {\n", cn, cn, name, cn, types[i])
		w.printf("\tif u.case_ != %s%s {\n\t\tvar zero %s\n\t\treturn zero, false\n\t}\n\tv, ok := u.value.(%s)\n\treturn v, ok\n}\n\n", ct, cn, types[i], types[i])
	}
	w.printf("// %sVisitor has a function per case of %s; nil ones are skipped.\ntype %sVisitor struct {\n\tInvalid func() error\n", name, name, name)
	for i, c := range u.Cases {
		w.printf("\t%s func(%s) error\n", pascal(c.Name), types[i])
	}
	w.printf("}\n\n")
	w.use("fmt", "fmt")
	w.printf("// Visit calls the visitor's function of the case u holds.\nfunc (u %s) Visit(visitor %sVisitor) error {\n", name, name)
	w.printf("\tif u.case_ == %sInvalid || u.value == nil {\n\t\tif visitor.Invalid != nil {\n\t\t\treturn visitor.Invalid()\n\t\t}\n\t\treturn nil\n\t}\n\tswitch u.case_ {\n", ct)
	for i, c := range u.Cases {
		cn := pascal(c.Name)
		w.printf("\tcase %s%s:\n\t\tv, ok := u.value.(%s)\n\t\tif !ok {\n\t\t\treturn fmt.Errorf(%q)\n\t\t}\n", ct, cn, types[i], "corrupted "+name+": case="+cn+" but invalid value")
		w.printf("\t\tif visitor.%s != nil {\n\t\t\treturn visitor.%s(v)\n\t\t}\n\t\treturn nil\n", cn, cn)
	}
	w.printf("\tdefault:\n\t\treturn fmt.Errorf(\"unknown %s case: %%d\", u.case_)\n\t}\n}\n\n", name)
	w.printf("// ForyUnionGet is the case id and value, for the serializer.\nfunc (u %s) ForyUnionGet() (uint32, any) { return uint32(u.case_), u.value }\n\n", name)
	w.printf("// ForyUnionSet sets the case id and value, for the serializer.\nfunc (u *%s) ForyUnionSet(caseId uint32, value any) {\n\tu.case_ = %s(caseId)\n\tu.value = value\n}\n\n", name, ct)
}

// typeName is the Go spelling of a declared type in w's file.
func (w *writer) typeName(d *decl) string {
	// A type of this file, or of another file of the run (one package).
	if d.file == w.f || w.c.roots[d.file] || d.file.goPath != "" && d.file.goPath == w.f.goPath {
		return d.goName
	}
	if d.file.goPath == "" {
		w.errorf(schema.Pos{}, "%s is declared in %s, which has no go_package option: forygen idl needs the Go import path of the package generated from it", d.qual, d.file.path)
		return d.goName
	}
	return w.use(d.file.goPath, d.file.goName) + "." + d.goName
}

func (w *writer) message(d *decl) {
	m := d.msg
	evolving := true
	if v, ok := m.Options["evolving"]; ok {
		evolving = v != "false"
	} else if v, ok := w.f.ast.Options["evolving"]; ok {
		evolving = v != "false"
	}
	dir := d.directive()
	if !evolving {
		dir += " evolving=false"
	}
	w.reserved(d, m.Reserved, m.Fields)
	lineage := append(append([]*schema.Message(nil), d.lineage...), m)
	w.printf("%s//fory:generate %s\ntype %s struct {\n", d.idComment(), dir, d.goName)
	names := map[string]schema.Pos{}
	for _, fd := range m.Fields {
		goName := pascal(fd.Name)
		if p, dup := names[goName]; dup {
			w.errorf(fd.Pos(), "%s: field %s is Go field %s, as the field at %s is", d.qual, fd.Name, goName, p)
		}
		names[goName] = fd.Pos()
		if foryMethods[goName] {
			w.errorf(fd.Pos(), "%s: field %s is Go field %s, the name of a method forygen generates on the struct: rename the field (its name is not on the wire)", d.qual, fd.Name, goName)
		}
		if fd.Number <= 0 {
			w.errorf(fd.Pos(), "%s.%s: field number %d: field numbers are positive", d.qual, fd.Name, fd.Number)
		} else if fd.Number >= 1<<29 {
			w.errorf(fd.Pos(), "%s.%s: field number %d: forygen's field ids are below 2^29", d.qual, fd.Name, fd.Number)
		}
		typ, tag := w.field(d, fd, lineage)
		w.printf("\t%s %s `fory:%q`\n", goName, typ, tag)
	}
	w.printf("}\n\n")
}

// foryMethods are the exported methods generated code declares on a
// struct (gen/internal/emit), which a field must not be named.
var foryMethods = map[string]bool{"ForyType": true, "ForyRead": true, "ForyWrite": true, "ForyReadEvolved": true,
	"ForySerializeTo": true, "ForyDeserialize": true, "ForyEvolving": true}
