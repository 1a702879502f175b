// Package schema writes the Fory IDL (.fdl, the input of Apache Fory's
// foryc compiler) of a package's annotated types, and reads it back.
//
// The IDL must describe exactly the bytes forygen writes, so a peer
// generated from it by foryc reads and writes the same messages in both
// modes. What the IDL cannot say is an error naming the field:
//
//   - a field without an `id=` tag: IDL fields are identified by their
//     number (foryc gives every field `id=N`), forygen's untagged fields by
//     their snake_case name;
//   - a struct field that is not nullable: IDL message fields always are;
//   - a pointer without `fory:"nullable"`: the IDL's `optional` puts the
//     nullable bit in the same-schema fingerprint, a plain pointer does not;
//   - sets (the IDL has list, array and map only), registration id 0, type
//     names registered by name that are IDL keywords or not identifiers, a
//     type of a package the run does not export, and any kind the writer
//     does not know.
//
// A tagged field is known on the wire by its tag id alone, so its IDL name
// is free: it is the Go name in readable snake_case (UserID → user_id), an
// IDL keyword gets a trailing underscore (reserved → reserved_). A type of
// another package is named through an `import` of that package's file.
//
// Write checks its own output: it parses the text back (Parse), builds the
// Go declarations foryc's Go generator would emit for it, plans them with
// the generator's plan functions and compares identifiers, field order, the
// TypeDef and the fingerprint with forygen's; a difference is an error.
package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
	"github.com/forygen/forygen/internal/meta"
)

// EnumValue is a named constant of an enum type.
type EnumValue struct {
	Name  string // the Go constant name
	Value int64
}

// Input is one Go package's annotated types.
type Input struct {
	PkgPath string
	PkgName string
	Structs []*plan.Struct
	Enums   []*model.EnumDecl
	Unions  []*model.UnionDecl
	// Values holds each enum's constants by enum name, in source order.
	Values map[string][]EnumValue
	// Others holds the run's other packages by import path. A field whose
	// type is declared in one of them imports that package's IDL file; a
	// package missing here cannot be named.
	Others map[string]*Input
}

// Error is an IDL error tied to a declaration.
type Error struct {
	Pos model.Pos
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: forygen schema: %s", e.Pos, e.Msg) }

// keywords of foryc's lexer (compiler/fory_compiler/frontend/fdl/lexer.py,
// apache/fory c8bf233): they are never IDENT tokens, and the IDL has no way
// to quote an identifier, so none of them can name a type or field. (foryc's
// parser takes `to` as a message field name; the writer renames it all the
// same, one rule for every keyword.)
var keywords = map[string]bool{"package": true, "import": true, "public": true, "weak": true, "message": true,
	"enum": true, "union": true, "optional": true, "ref": true, "repeated": true, "list": true, "array": true,
	"map": true, "option": true, "true": true, "false": true, "reserved": true, "to": true, "max": true,
	"service": true, "rpc": true, "returns": true, "stream": true}

// isIdent is the IDL's IDENTIFIER, [a-zA-Z_][a-zA-Z0-9_]* (schema-idl.md,
// "Grammar Summary").
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Snake spells a Go name in snake_case word by word, an acronym kept whole
// (UserID → user_id, HTTPCode → http_code, IDs → ids, I64Arr → i64_arr,
// X2Y → x2_y). It is the IDL name of a tagged field, which is not on the
// wire; the wire name of an untagged field is official Go's letter-by-letter
// rule (meta.SnakeCase, docs/format.md §6.2: UserID → user_i_d).
func Snake(goName string) string {
	out := make([]byte, 0, len(goName)+4)
	for i := 0; i < len(goName); i++ {
		c := goName[i]
		if isUpper(c) {
			if i > 0 && len(out) > 0 && out[len(out)-1] != '_' {
				prev := goName[i-1]
				// An acronym's plural: the s of IDs or URLs ends the word.
				plural := i+1 < len(goName) && goName[i+1] == 's' && (i+2 == len(goName) || !isLower(goName[i+2]))
				nextLower := i+1 < len(goName) && isLower(goName[i+1]) && !plural
				if isLower(prev) || isDigit(prev) || isUpper(prev) && nextLower {
					out = append(out, '_')
				}
			}
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}

// Package is the IDL package of a package's file: the namespace of the
// types registered by name (which must share one), or else the Go package
// name.
func (in *Input) Package() string {
	for _, s := range in.Structs {
		if s.Model.Reg.ByName {
			return s.Model.Reg.Namespace
		}
	}
	for _, e := range in.Enums {
		if e.Reg.ByName {
			return e.Reg.Namespace
		}
	}
	for _, u := range in.Unions {
		if u.Reg.ByName {
			return u.Reg.Namespace
		}
	}
	return in.PkgName
}

// FileName is the name of the package's IDL file: its IDL package (or, for
// types registered by name without a namespace, the Go package name) and
// ".fdl". Imports name files by it, all in one directory (forygen schema -o).
func (in *Input) FileName() string {
	if p := in.Package(); p != "" {
		return p + ".fdl"
	}
	return in.PkgName + ".fdl"
}

// decl is an annotated type of a package, under its IDL name.
type decl struct {
	kind         string // "enum", "message" or "union"
	reg          model.Registration
	goName, name string
	pos          model.Pos
}

// decls lists a package's types, each under its IDL name: the registered
// name of a type registered by name (it is on the wire, docs/format.md
// §5.1), else the Go name (the wire carries the id only).
func (in *Input) decls() []decl {
	var out []decl
	add := func(kind string, reg model.Registration, goName string, pos model.Pos) {
		name := goName
		if reg.ByName {
			name = reg.Name
		}
		out = append(out, decl{kind, reg, goName, name, pos})
	}
	for _, e := range in.Enums {
		add("enum", e.Reg, e.Name, e.Pos)
	}
	for _, s := range in.Structs {
		add("message", s.Model.Reg, s.Model.GoName(), s.Model.Pos)
	}
	for _, u := range in.Unions {
		add("union", u.Reg, u.Name, u.Pos)
	}
	return out
}

// Imports returns the import paths of the other packages whose types the
// package's fields and union cases name, sorted.
func (in *Input) Imports() []string {
	seen := map[string]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		for ; t != nil; t = t.Elem {
			if t.Named != nil && t.Named.PkgPath != in.PkgPath && (t.Kind == model.Struct || t.Kind == model.Enum || t.Kind == model.Union) {
				seen[t.Named.PkgPath] = true
			}
			walk(t.Key)
		}
	}
	for _, s := range in.Structs {
		for _, f := range s.Fields {
			walk(f.Type)
		}
	}
	for _, u := range in.Unions {
		for _, c := range u.Cases {
			walk(c.Type)
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

type writer struct {
	in    Input
	names map[string]string // registration → IDL type name
	uses  map[string]bool   // import paths of the packages the text names types of
	errs  []error
	sb    strings.Builder
}

func (w *writer) errorf(pos model.Pos, format string, args ...any) {
	w.errs = append(w.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Write renders the IDL of one package. Every error of the package is
// returned; the text is nil when there is any.
func Write(in Input) ([]byte, []error) {
	w := &writer{in: in, names: map[string]string{}, uses: map[string]bool{}}
	pkg := in.Package()
	for _, d := range in.decls() {
		switch {
		case d.reg.ByName:
			if d.reg.Namespace != pkg {
				w.errorf(d.pos, "%s: registered in namespace %q, but the package's IDL file has package %q; one IDL file has one namespace: register the package's types by name in one namespace", d.goName, d.reg.Namespace, pkg)
			}
			if !isIdent(d.name) || keywords[d.name] {
				// The name is in the type meta and the TypeDef: the IDL
				// cannot rename the type.
				w.errorf(d.pos, "%s: registered by name as %q, which is not an IDL identifier ([A-Za-z_][A-Za-z0-9_]*, not a keyword such as message or map); a type registered by name carries its name on the wire (docs/format.md §5.1), so the IDL cannot rename it: register it by another name or by id", d.goName, d.name)
			}
		case d.reg.ID == 0:
			w.errorf(d.pos, "%s: registration id 0 is not a valid IDL type id (ids are positive)", d.goName)
		case !isIdent(d.name):
			// Go type names are capitalised, never a keyword, but may hold
			// letters the IDL lacks.
			w.errorf(d.pos, "%s: the IDL names types with ASCII letters, digits and _ only; rename the Go type", d.goName)
		}
		w.names[d.reg.String()] = d.name
	}
	// The body first: it tells which files to import.
	enums := append([]*model.EnumDecl(nil), in.Enums...)
	sort.SliceStable(enums, func(i, j int) bool { return w.names[enums[i].Reg.String()] < w.names[enums[j].Reg.String()] })
	for _, e := range enums {
		w.enum(e)
	}
	unions := append([]*model.UnionDecl(nil), in.Unions...)
	sort.SliceStable(unions, func(i, j int) bool { return w.names[unions[i].Reg.String()] < w.names[unions[j].Reg.String()] })
	for _, u := range unions {
		w.union(u)
	}
	structs := append([]*plan.Struct(nil), in.Structs...)
	sort.SliceStable(structs, func(i, j int) bool {
		return w.names[structs[i].Model.Reg.String()] < w.names[structs[j].Model.Reg.String()]
	})
	for _, s := range structs {
		w.message(s)
	}
	w.checkScope()
	if len(w.errs) > 0 {
		return nil, w.errs
	}
	var head strings.Builder
	head.WriteString("// Code generated by forygen schema from " + in.PkgPath + ". DO NOT EDIT.\n")
	head.WriteString("// The Fory IDL of the package's annotated types: compile with foryc.\n\n")
	if pkg != "" {
		fmt.Fprintf(&head, "package %s;\n\n", pkg)
	}
	// Types without [id=…] are registered by namespace and name, as forygen
	// registers them, not by an id hashed from the name.
	head.WriteString("option enable_auto_type_id = false;\n")
	// Imports follow the file options, as the grammar orders them
	// (schema-idl.md, "Grammar Summary"); a path is relative to this file,
	// and forygen schema -o writes every file into one directory.
	var files []string
	byFile := map[string]string{}
	for p := range w.uses {
		name := in.Others[p].FileName()
		if prev, dup := byFile[name]; dup {
			a, b := min(p, prev), max(p, prev)
			return nil, []error{&Error{Pos: w.firstPos(), Msg: fmt.Sprintf("%s and %s both have the IDL file %s, and this package names types of both; give the packages different names or namespaces", a, b, name)}}
		}
		byFile[name] = p
		files = append(files, name)
	}
	sort.Strings(files)
	if len(files) > 0 {
		head.WriteString("\n")
	}
	for _, f := range files {
		fmt.Fprintf(&head, "import %q;\n", f)
	}
	text := []byte(head.String() + w.sb.String())
	if errs := verify(in, text); len(errs) > 0 {
		return nil, errs
	}
	return text, nil
}

// checkScope refuses two types of one IDL name in the file and the files it
// imports, directly or not: foryc merges an imported file's types into the
// importer's scope (cli.py resolve_imports; schema-idl.md, "Import
// Statement": imported types are "available as if defined in the current
// file") and then refuses a duplicate type name.
func (w *writer) checkScope() {
	type owner struct {
		pkg  string
		decl decl
	}
	seen := map[string]owner{}
	for _, d := range w.in.decls() {
		seen[d.name] = owner{w.in.PkgPath, d}
	}
	done := map[string]bool{w.in.PkgPath: true}
	queue := make([]string, 0, len(w.uses))
	for p := range w.uses {
		queue = append(queue, p)
	}
	sort.Strings(queue)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		other := w.in.Others[p]
		if done[p] || other == nil {
			continue
		}
		done[p] = true
		for _, d := range other.decls() {
			if prev, ok := seen[d.name]; ok && prev.pkg != p {
				pos := prev.decl.pos
				if prev.pkg != w.in.PkgPath {
					pos = w.firstPos()
				}
				w.errorf(pos, "%s: the IDL type %s of %s and the IDL type %s of %s share a name in one IDL scope: foryc merges a file with the files it imports, and refuses a duplicate type name; rename one of the Go types (or, registered by name, register it under another name)",
					prev.decl.goName, prev.decl.name, prev.pkg, d.name, p)
				continue
			}
			seen[d.name] = owner{p, d}
		}
		queue = append(queue, other.Imports()...)
	}
}

// firstPos is the position of the package's first declaration.
func (w *writer) firstPos() model.Pos {
	if ds := w.in.decls(); len(ds) > 0 {
		return ds[0].pos
	}
	return model.Pos{}
}

func typeOptions(reg model.Registration) string {
	if reg.ByName {
		return ""
	}
	return fmt.Sprintf(" [id=%d]", reg.ID)
}

func (w *writer) enum(e *model.EnumDecl) {
	fmt.Fprintf(&w.sb, "\nenum %s%s {\n", w.names[e.Reg.String()], typeOptions(e.Reg))
	if len(w.in.Values[e.Name]) == 0 {
		// foryc accepts an empty enum, but some of its targets (Swift)
		// refuse it, and a peer could not name any value.
		w.errorf(e.Pos, "%s: no constants of the type are declared; IDL enums list their values: declare them (const X %s = 1)", e.Name, e.Name)
	}
	seen := map[int64]string{}
	named := map[string]string{} // IDL name → Go constant
	for _, v := range w.in.Values[e.Name] {
		name := constName(e.Name, v.Name)
		if prev, ok := seen[v.Value]; ok {
			// The IDL has no aliases; the wire carries the number only.
			fmt.Fprintf(&w.sb, "    // %s = %d is also %s.\n", name, v.Value, prev)
			continue
		}
		switch prev, dup := named[name]; {
		case !isIdent(name):
			w.errorf(e.Pos, "%s: constant %s: the IDL names values with ASCII letters, digits and _ only; rename the constant", e.Name, v.Name)
		case dup:
			// foryc refuses a duplicate value name.
			w.errorf(e.Pos, "%s: constants %s and %s are both %s in the IDL (the enum's name prefixes every value); rename one", e.Name, prev, v.Name, name)
		}
		seen[v.Value], named[name] = name, v.Name
		fmt.Fprintf(&w.sb, "    %s = %d;\n", name, v.Value)
	}
	w.sb.WriteString("}\n")
}

// constName spells a Go constant in the IDL's UPPER_SNAKE_CASE, prefixed by
// the enum's name as protobuf style has it (foryc strips the prefix for
// languages with scoped enums): StatusActive of Status → STATUS_ACTIVE,
// HTTPNotFound of HTTPCode → HTTP_CODE_HTTP_NOT_FOUND. Names are not on the
// wire (ordinals are), so they are spelled word by word (Snake).
func constName(enum, goName string) string {
	s := strings.ToUpper(Snake(goName))
	prefix := strings.ToUpper(Snake(enum)) + "_"
	if !strings.HasPrefix(s, prefix) {
		s = prefix + s
	}
	return s
}

// union writes a //fory:union type: each case as its IDL type, named after
// it (a case's name is not on the wire; its id is).
func (w *writer) union(u *model.UnionDecl) {
	fmt.Fprintf(&w.sb, "\nunion %s%s {\n", w.names[u.Reg.String()], typeOptions(u.Reg))
	used := map[string]bool{}
	for _, c := range u.Cases {
		wire, err := plan.WireOf(c.Type, model.Tag{ID: -1})
		var text string
		if err == nil {
			text, err = w.typeText(wire, false)
		}
		if err != nil {
			w.errorf(u.Pos, "%s: case %d: %v", u.Name, c.ID, err)
			continue
		}
		name := strings.ReplaceAll(text, " ", "_") + "_value"
		if g := c.Type; g.Kind == model.Pointer || g.Named != nil {
			for g.Kind == model.Pointer {
				g = g.Elem
			}
			if g.Named != nil {
				name = Snake(g.Named.Name)
			}
		}
		if keywords[name] {
			name += "_"
		}
		if used[name] {
			name = fmt.Sprintf("%s_%d", name, c.ID)
		}
		used[name] = true
		fmt.Fprintf(&w.sb, "    %s %s = %d;\n", text, name, c.ID)
	}
	w.sb.WriteString("}\n")
}

func (w *writer) message(s *plan.Struct) {
	fmt.Fprintf(&w.sb, "\nmessage %s%s {\n", w.names[s.Model.Reg.String()], typeOptions(s.Model.Reg))
	fields := append([]*plan.Field(nil), s.Fields...)
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].Tag.ID < fields[j].Tag.ID })
	names := fieldNames(fields)
	for _, f := range fields {
		line, ok := w.field(s, f, names[f])
		if ok {
			w.sb.WriteString("    " + line + "\n")
		}
	}
	w.sb.WriteString("}\n")
}

// fieldNames gives each field of a message, in field number order, its IDL
// name. A tagged field is known on the wire by its tag id alone (its TypeDef
// entry has enc 3 and no name, docs/format.md §11.2; its fingerprint entry
// and its place in the field order use the id, §10.1, §9.3), and so is a
// field of an IDL peer (foryc tags each with its number), so the name is
// free: the Go name word by word (Snake: UserID → user_id), a keyword with a
// trailing underscore (reserved → reserved_: foryc's generators drop it in
// PascalCase and camelCase, Go's Reserved and Java's reserved), and a name
// already taken with the field number after it (foryc refuses a duplicate
// field name). Untagged fields do not export; their names are not used.
func fieldNames(fields []*plan.Field) map[*plan.Field]string {
	out := map[*plan.Field]string{}
	used := map[string]bool{}
	for _, f := range fields {
		name := Snake(f.GoName)
		if keywords[name] {
			name += "_"
		}
		for n := name; used[name]; {
			name = fmt.Sprintf("%s_%d", n, f.Tag.ID)
			n = name
		}
		used[name] = true
		out[f] = name
	}
	return out
}

func (w *writer) field(s *plan.Struct, f *plan.Field, name string) (string, bool) {
	where := s.Model.GoName() + "." + f.GoName
	ok := true
	bad := func(format string, args ...any) {
		w.errorf(f.Pos, where+": "+format, args...)
		ok = false
	}
	// Every problem of the field is reported, not only the first.
	if !f.Tagged() {
		bad("identified by its name %q on the wire, but IDL fields are identified by number; add an id= tag (fory:\"id=N\") to export it", f.Identifier)
	}
	if !isIdent(name) {
		bad("the IDL names fields with ASCII letters, digits and _ only (%q is not one); rename the Go field, its IDL name is not on the wire", name)
	}
	typ, err := w.typeText(f.Wire, true)
	if err != nil {
		bad("%v", err)
	}
	isStruct := meta.IsStructKind(f.Wire.TypeID)
	fpNullable := f.Tag.Nullable || f.Wire.Go.Kind == model.Optional
	var mods []string
	switch {
	case f.Wire.TypeID == meta.TypeUnknown && !fpNullable:
		bad("an any field without fory:\"nullable\": the same-schema fingerprint hashes it not nullable, as official Go does, and the IDL's any always is nullable; add nullable to its tag")
	case f.Wire.TypeID == meta.TypeUnknown:
		// `any` is nullable by definition; `optional any` is refused.
	case isStruct && !f.Wire.Nullable:
		st := f.Wire.Go
		if st.Kind == model.Pointer {
			st = st.Elem // tagged nullable=false
		}
		bad("a struct field written without a null flag; IDL message fields are always nullable: declare it *%s with fory:\"nullable\"", st.Named.Name)
	case f.Wire.Nullable && !fpNullable:
		bad("a pointer without fory:\"nullable\" is nullable on the wire but not in the same-schema fingerprint, and the IDL cannot say so; add nullable to its tag")
	case f.Wire.Nullable && !isStruct:
		mods = append(mods, "optional")
	}
	switch {
	case f.RefOff && !isStruct:
		bad("ref on a %s field: the IDL allows ref on message fields only", plan.TypeName(f.Wire.TypeID))
	case f.RefOff:
		mods = append(mods, "ref")
	case isStruct && !f.RefOn:
		bad("ref=false: IDL message fields are tracked when the Fory tracks references, and the IDL cannot say otherwise")
	}
	if !ok {
		return "", false
	}
	mods = append(mods, typ, name, "=", fmt.Sprint(f.Tag.ID))
	return strings.Join(mods, " ") + ";", true
}

// typeText spells a wire type in the IDL.
func (w *writer) typeText(t *plan.Wire, top bool) (string, error) {
	scalars := map[uint8]string{
		meta.TypeBool: "bool", meta.TypeInt8: "int8", meta.TypeInt16: "int16", meta.TypeInt32: "fixed int32",
		meta.TypeVarInt32: "int32", meta.TypeInt64: "fixed int64", meta.TypeVarInt64: "int64",
		meta.TypeTaggedInt64: "tagged int64", meta.TypeUint8: "uint8", meta.TypeUint16: "uint16",
		meta.TypeUint32: "fixed uint32", meta.TypeVarUint32: "uint32", meta.TypeUint64: "fixed uint64",
		meta.TypeVarUint64: "uint64", meta.TypeTaggedUint64: "tagged uint64", meta.TypeFloat16: "float16",
		meta.TypeBFloat16: "bfloat16", meta.TypeFloat32: "float32", meta.TypeFloat64: "float64",
		meta.TypeString: "string", meta.TypeBinary: "bytes", meta.TypeDuration: "duration",
		meta.TypeTimestamp: "timestamp", meta.TypeDate: "date", meta.TypeDecimal: "decimal",
	}
	arrays := map[uint8]string{
		meta.TypeBoolArray: "bool", meta.TypeInt8Array: "int8", meta.TypeInt16Array: "int16",
		meta.TypeInt32Array: "int32", meta.TypeInt64Array: "int64", meta.TypeUint8Array: "uint8",
		meta.TypeUint16Array: "uint16", meta.TypeUint32Array: "uint32", meta.TypeUint64Array: "uint64",
		meta.TypeFloat16Array: "float16", meta.TypeBFloat16Array: "bfloat16", meta.TypeFloat32Array: "float32",
		meta.TypeFloat64Array: "float64",
	}
	child := func(c *plan.Wire) (string, error) {
		if c.TypeID == meta.TypeUnknown && c.Nullable {
			return "", fmt.Errorf("nullable any elements: the IDL refuses optional any")
		}
		if c.TypeID == meta.TypeList || c.TypeID == meta.TypeMap || c.TypeID == meta.TypeSet {
			// The grammar has them, but of foryc's targets only C++
			// accepts them ("only one collection layer is supported").
			return "", fmt.Errorf("a %s inside a %s: foryc accepts one collection layer (its C++ target alone accepts more); wrap the inner collection in a struct",
				plan.TypeName(c.TypeID), plan.TypeName(t.TypeID))
		}
		// `list<ref S>` (no optional) is foryc's []*S hinted
		// _(nullable=false,ref=true); any other nullable=false child has
		// no IDL spelling.
		if c.NotNull && !(meta.IsStructKind(c.TypeID) && c.RefDeclared) {
			return "", fmt.Errorf("an element or value hinted nullable=false: foryc declares IDL elements nullable in the TypeDef, and the IDL cannot say otherwise; drop nullable=false from the hint")
		}
		s, err := w.typeText(c, false)
		if err != nil {
			return "", err
		}
		// foryc declares the tracking of nullable message elements either
		// way (`_(ref=true)` or `_(ref=false)`), so the TypeDef child
		// carries it; forygen's default tracks them without declaring it.
		if c.RefOn && !c.RefDeclared {
			return "", fmt.Errorf("elements of %s are tracked by reference with WithTrackRef but not declared so in the TypeDef, which the IDL cannot say; tag the field with type=%s(%s=_(ref=true)) or _(ref=false)",
				plan.TypeName(t.TypeID), plan.TypeName(t.TypeID), map[bool]string{true: "value", false: "element"}[t.TypeID == meta.TypeMap])
		}
		if c.RefDeclared {
			s = "ref " + s
		}
		if c.Nullable && !c.NotNull {
			s = "optional " + s
		}
		return s, nil
	}
	if s, ok := scalars[t.TypeID]; ok {
		return s, nil
	}
	if e, ok := arrays[t.TypeID]; ok {
		return "array<" + e + ">", nil
	}
	if t.TypeID == meta.TypeUnknown && t.Go != nil && t.Go.Kind == model.Any {
		return "any", nil
	}
	switch {
	case t.TypeID == meta.TypeList:
		e, err := child(t.Elem)
		if err != nil {
			return "", err
		}
		return "list<" + e + ">", nil
	case t.TypeID == meta.TypeMap:
		if t.Key.Nullable {
			return "", fmt.Errorf("a nullable map key has no IDL spelling")
		}
		if t.Key.NotNull {
			return "", fmt.Errorf("a map key hinted nullable=false: foryc declares IDL keys nullable in the TypeDef, and the IDL cannot say otherwise; drop nullable=false from the hint")
		}
		k, err := w.typeText(t.Key, false)
		if err != nil {
			return "", err
		}
		v, err := child(t.Elem)
		if err != nil {
			return "", err
		}
		return "map<" + k + ", " + v + ">", nil
	case t.TypeID == meta.TypeSet:
		return "", fmt.Errorf("a set (serializer.Set) has no IDL spelling: the IDL has list, array and map only")
	case meta.IsStructKind(t.TypeID) || t.TypeID == meta.TypeEnum || t.TypeID == meta.TypeNamedEnum || t.TypeID == meta.TypeUnion:
		g := t.Go
		for g != nil && (g.Kind == model.Pointer || g.Kind == model.Optional) {
			g = g.Elem
		}
		if g == nil || g.Named == nil {
			return "", fmt.Errorf("type id %d without a named Go type", t.TypeID)
		}
		if g.Named.PkgPath != w.in.PkgPath {
			return w.foreign(g)
		}
		name, ok := w.names[g.Reg.String()]
		if !ok {
			return "", fmt.Errorf("%s (%s) is not an annotated type of this package", g.Named.Name, g.Reg)
		}
		return name, nil
	}
	return "", fmt.Errorf("type id %d (%s) has no IDL spelling", t.TypeID, plan.TypeName(t.TypeID))
}

// foreign names a type of another package, and records the import of that
// package's IDL file. The name is the type's own, unqualified: foryc merges
// an imported file's types into the importer's scope (checkScope), and at
// c8bf233 its Go target mis-resolves a package-qualified message type
// (`a.Leaf leaf = 1;` becomes `Leaf a.a_Leaf` without nullable: another
// wire), where `Leaf leaf = 1;` becomes `Leaf *a.Leaf` tagged nullable.
func (w *writer) foreign(g *model.Type) (string, error) {
	other := w.in.Others[g.Named.PkgPath]
	if other == nil {
		return "", fmt.Errorf("%s.%s is declared in %s, which this run does not export; export both packages in one run (forygen schema -o DIR with both packages, or ./...), so that this package's IDL file can import that package's",
			g.Named.PkgName, g.Named.Name, g.Named.PkgPath)
	}
	if other.FileName() == w.in.FileName() {
		return "", fmt.Errorf("%s.%s is declared in %s, whose IDL file is %s too; an IDL file cannot import itself: give the packages different names or namespaces",
			g.Named.PkgName, g.Named.Name, g.Named.PkgPath, other.FileName())
	}
	for _, d := range other.decls() {
		// An instantiation (Page[User]) is declared under its alias.
		if d.reg.String() == g.Reg.String() && (d.goName == g.Named.Name || len(g.Named.TypeArgs) > 0) {
			w.uses[g.Named.PkgPath] = true
			return d.name, nil
		}
	}
	return "", fmt.Errorf("%s.%s (%s) is not an annotated type of %s", g.Named.PkgName, g.Named.Name, g.Reg, g.Named.PkgPath)
}
