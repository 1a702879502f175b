// Package lock is the format of fory.lock, the committed record of the
// schemas of a directory's annotated types, and the comparison of the
// current types with it.
//
// A lock holds, per type, its registration, its mode (compatible, the
// default, or same-schema, set by hand or by `forygen lock -same-schema`),
// and for a struct its schema hash and its TypeDef fields in write order:
// identifier, type (plan.TypeRef), nullability, ref, and the Go declaration
// the field had, for reports; for an enum its base type and constants
// (name = ordinal); for a union its cases (id, type, Go type). Whether a
// change is safe comes from plan.FieldChange and friends, the rules of the
// compatible-mode reader.
package lock

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// FileName is the name of the lock file beside a package's sources.
const FileName = "fory.lock"

// Modes a type can be locked in.
const (
	ModeCompatible = "compatible"
	ModeSameSchema = "same-schema"
)

// File is one lock file: the packages of one directory.
type File struct {
	Packages []*Package // sorted by path
}

// Package is the locked types of one Go package.
type Package struct {
	Path  string
	Types []*Type // sorted by name
}

// Type is one locked struct, enum or union.
type Type struct {
	Name  string // Go name
	Enum  bool
	Union bool
	Cases []UnionCase // unions: the cases in declaration order
	Reg   string      // model.Registration.String()
	Mode  string      // ModeCompatible or ModeSameSchema
	// Tracking is set for a type whose peers track references
	// (WithTrackRef): only then do the track_ref bits of a Fory that
	// tracks (FieldSchema.Tracked, tracked elements) count.
	Tracking bool
	Hash     int32 // structs: the same-schema hash
	// GoHash is official Go's same-schema hash where it differs from Hash
	// (a pointer or any field: docs/format.md §14.29), else 0.
	GoHash int32
	Base   string // enums: the underlying integer kind
	// Values are an enum's constants, sorted by ordinal then name.
	Values []EnumValue
	Fields []*Field
	Pos    model.Pos // current declarations only; not written
}

// UnionCase is one locked case of a union: its id, value type and Go type
// as the directive spells it (`*Dog`, `string`; "" in locks written before
// Go types were recorded).
type UnionCase struct {
	ID   uint32
	Type plan.TypeRef
	Go   string
}

// EnumValue is one constant of an enum: its name and ordinal.
type EnumValue struct {
	Name  string
	Value int64
	Pos   model.Pos // current declarations only; not written
}

// Field is one locked TypeDef field.
type Field struct {
	plan.FieldSchema
	GoName string
	Decl   string    // the Go declaration: name, type and tag
	Pos    model.Pos // current declarations only; not written
}

// Header opens every lock file.
const Header = `# fory.lock: the schemas of this directory's annotated types, written by
# "forygen lock" and compared with the current types by "forygen -check".
# Commit it. A type's mode (compatible or same-schema) and tracking (on when
# its peers track references; off when absent) may be edited by hand;
# run "forygen lock" again to accept the current schemas. A field line is
# its identifier, type (? a nullable element, & one tracked by reference),
# then nullable, ref (track_ref without reference tracking) and tracked
# (track_ref with it) when set. An enum lists its constants (value Name =
# ordinal), a union its cases (case id, type, then go= the Go type). A
# struct's go-hash is official Fory Go's same-schema hash where it differs.
`

// Marshal writes a lock file.
func (f *File) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(Header)
	for _, p := range f.Packages {
		fmt.Fprintf(&b, "\npackage %s\n", p.Path)
		for _, t := range p.Types {
			if t.Enum {
				fmt.Fprintf(&b, "\nenum %s %s base=%s\n", t.Name, t.Reg, t.Base)
				for _, v := range t.Values {
					fmt.Fprintf(&b, "\tvalue %s = %d\n", v.Name, v.Value)
				}
				continue
			}
			if t.Union {
				fmt.Fprintf(&b, "\nunion %s %s\n", t.Name, t.Reg)
				for _, c := range t.Cases {
					if c.Go != "" {
						fmt.Fprintf(&b, "\tcase %d %s go=%s\n", c.ID, c.Type, c.Go)
					} else {
						fmt.Fprintf(&b, "\tcase %d %s\n", c.ID, c.Type)
					}
				}
				continue
			}
			tracking := ""
			if t.Tracking {
				tracking = " tracking=on"
			}
			goHash := ""
			if t.GoHash != 0 {
				goHash = " go-hash=" + hashText(t.GoHash)
			}
			fmt.Fprintf(&b, "\nstruct %s %s mode=%s%s hash=%s%s\n", t.Name, t.Reg, t.Mode, tracking, hashText(t.Hash), goHash)
			for _, fd := range t.Fields {
				fmt.Fprintf(&b, "\tfield %s %s", fd.Identifier, fd.Type)
				if fd.Nullable {
					b.WriteString(" nullable")
				}
				if fd.Ref {
					b.WriteString(" ref")
				}
				if fd.Tracked {
					b.WriteString(" tracked")
				}
				fmt.Fprintf(&b, " go=%s decl=%s\n", fd.GoName, strconv.Quote(fd.Decl))
			}
		}
	}
	return b.Bytes()
}

func hashText(h int32) string { return fmt.Sprintf("%#08x", uint32(h)) }

// Parse reads a lock file; errors name the line.
func Parse(name string, data []byte) (*File, error) {
	f := &File{}
	var pkg *Package
	var typ *Type
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	line := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		word, rest, _ := strings.Cut(text, " ")
		switch word {
		case "package":
			pkg = &Package{Path: rest}
			f.Packages = append(f.Packages, pkg)
			typ = nil
		case "struct", "enum", "union":
			if pkg == nil {
				return nil, bad("%s before package", word)
			}
			parts := strings.Fields(rest)
			if len(parts) < 2 {
				return nil, bad("want %s Name id=N|name=ns.T …", word)
			}
			typ = &Type{Name: parts[0], Enum: word == "enum", Union: word == "union", Reg: parts[1], Mode: ModeCompatible}
			if !strings.HasPrefix(typ.Reg, "id=") && !strings.HasPrefix(typ.Reg, "name=") {
				return nil, bad("registration %q: want id=N or name=ns.T", typ.Reg)
			}
			for _, kv := range parts[2:] {
				k, v, _ := strings.Cut(kv, "=")
				switch {
				case k == "mode" && (v == ModeCompatible || v == ModeSameSchema):
					typ.Mode = v
				case k == "tracking" && (v == "on" || v == "off") && !typ.Enum && !typ.Union:
					typ.Tracking = v == "on"
				case k == "hash" && !typ.Enum && !typ.Union:
					h, err := strconv.ParseUint(v, 0, 32)
					if err != nil {
						return nil, bad("hash %q: %v", v, err)
					}
					typ.Hash = int32(uint32(h))
				case k == "go-hash" && !typ.Enum && !typ.Union:
					h, err := strconv.ParseUint(v, 0, 32)
					if err != nil {
						return nil, bad("go-hash %q: %v", v, err)
					}
					typ.GoHash = int32(uint32(h))
				case k == "base" && typ.Enum:
					typ.Base = v
				default:
					return nil, bad("unknown %q (modes are %s and %s; tracking is on or off)", kv, ModeCompatible, ModeSameSchema)
				}
			}
			pkg.Types = append(pkg.Types, typ)
		case "case":
			if typ == nil || !typ.Union {
				return nil, bad("case outside a union")
			}
			parts := strings.Fields(rest)
			var goType string
			if len(parts) == 3 && strings.HasPrefix(parts[2], "go=") && len(parts[2]) > 3 {
				goType, parts = parts[2][3:], parts[:2]
			}
			if len(parts) != 2 {
				return nil, bad("want case id type go=GoType")
			}
			id, err := strconv.ParseUint(parts[0], 10, 32)
			if err != nil {
				return nil, bad("case id %q: %v", parts[0], err)
			}
			t, err := plan.ParseTypeRef(parts[1])
			if err != nil {
				return nil, bad("%v", err)
			}
			typ.Cases = append(typ.Cases, UnionCase{ID: uint32(id), Type: t, Go: goType})
		case "value":
			if typ == nil || !typ.Enum {
				return nil, bad("value outside an enum")
			}
			parts := strings.Fields(rest)
			if len(parts) != 3 || parts[1] != "=" {
				return nil, bad("want value Name = ordinal")
			}
			v, err := strconv.ParseInt(parts[2], 10, 64)
			if err != nil {
				return nil, bad("value %s: %v", parts[0], err)
			}
			typ.Values = append(typ.Values, EnumValue{Name: parts[0], Value: v})
		case "field":
			if typ == nil || typ.Enum || typ.Union {
				return nil, bad("field outside a struct")
			}
			head, decl, ok := strings.Cut(rest, " decl=")
			if !ok {
				return nil, bad("field without decl=")
			}
			d, err := strconv.Unquote(decl)
			if err != nil {
				return nil, bad("decl: %v", err)
			}
			parts := strings.Fields(head)
			if len(parts) < 2 {
				return nil, bad("want field identifier type …")
			}
			t, err := plan.ParseTypeRef(parts[1])
			if err != nil {
				return nil, bad("%v", err)
			}
			fd := &Field{FieldSchema: plan.FieldSchema{Identifier: parts[0], Type: t}, Decl: d}
			for _, p := range parts[2:] {
				switch {
				case p == "nullable":
					fd.Nullable = true
				case p == "ref":
					fd.Ref = true
				case p == "tracked":
					fd.Tracked = true
				case strings.HasPrefix(p, "go="):
					fd.GoName = p[3:]
				default:
					return nil, bad("unknown %q", p)
				}
			}
			typ.Fields = append(typ.Fields, fd)
		default:
			return nil, bad("unknown line %q", text)
		}
	}
	return f, sc.Err()
}

// Options are the per-type settings a lock keeps: the mode and whether
// peers track references.
type Options struct {
	Mode     string
	Tracking bool
}

// Build makes the lock of the current declarations of one directory's
// packages. prev carries the options of types already locked (by package
// path and name); a type not in it is compatible without tracking, unless
// sameSchema or tracking names it (by Go name, or path and name). values
// holds the constants of the enums, by package path and name.
func Build(pkgs []*model.Package, plans map[*model.StructDecl]*plan.Struct, prev map[string]Options, sameSchema, tracking map[string]bool, values map[string][]EnumValue) *File {
	byPath := map[string]*Package{}
	f := &File{}
	for _, mp := range pkgs {
		p := byPath[mp.Path]
		if p == nil {
			p = &Package{Path: mp.Path}
			byPath[mp.Path] = p
			f.Packages = append(f.Packages, p)
		}
		for _, file := range mp.Files {
			for _, e := range file.Enums {
				t := &Type{Name: e.Name, Enum: true, Reg: e.Reg.String(), Base: e.Base.String(), Mode: ModeCompatible, Pos: e.Pos}
				seen := map[string]bool{}
				for _, v := range values[mp.Path+"."+e.Name] {
					if !seen[v.Name] {
						seen[v.Name] = true
						t.Values = append(t.Values, v)
					}
				}
				sort.SliceStable(t.Values, func(i, j int) bool {
					a, b := t.Values[i], t.Values[j]
					if a.Value != b.Value {
						return a.Value < b.Value
					}
					return a.Name < b.Name
				})
				p.Types = append(p.Types, t)
			}
			for _, u := range file.Unions {
				t := &Type{Name: u.Name, Union: true, Reg: u.Reg.String(), Mode: ModeCompatible, Pos: u.Pos}
				for _, c := range u.Cases {
					var ref plan.TypeRef
					if w, err := plan.WireOf(c.Type, model.Tag{ID: -1}); err == nil {
						ref = plan.TypeRefOf(w)
					}
					t.Cases = append(t.Cases, UnionCase{ID: c.ID, Type: ref, Go: GoType(mp.Path, c.Type)})
				}
				p.Types = append(p.Types, t)
			}
			for _, s := range file.Structs {
				ps := plans[s]
				if ps == nil {
					continue
				}
				name := s.GoName() // an instantiation by its alias
				t := &Type{Name: name, Reg: s.Reg.String(), Hash: ps.SchemaHash, Mode: ModeCompatible, Pos: s.Pos}
				if ps.OfficialGoHash != ps.SchemaHash {
					t.GoHash = ps.OfficialGoHash
				}
				if o, ok := prev[mp.Path+"."+name]; ok {
					t.Mode, t.Tracking = o.Mode, o.Tracking
				}
				if sameSchema[name] || sameSchema[mp.Path+"."+name] {
					t.Mode = ModeSameSchema
				}
				if tracking[name] || tracking[mp.Path+"."+name] {
					t.Tracking = true
				}
				for _, pf := range ps.Fields {
					t.Fields = append(t.Fields, &Field{FieldSchema: plan.FieldSchemaOf(pf), GoName: pf.GoName,
						Decl: Decl(mp.Path, s, pf.Field), Pos: pf.Pos})
				}
				p.Types = append(p.Types, t)
			}
		}
	}
	sort.Slice(f.Packages, func(i, j int) bool { return f.Packages[i].Path < f.Packages[j].Path })
	for _, p := range f.Packages {
		sort.Slice(p.Types, func(i, j int) bool { return p.Types[i].Name < p.Types[j].Name })
	}
	return f
}

// Options returns the options of a lock's types, keyed by package path and
// name, for Build to keep.
func (f *File) Options() map[string]Options {
	m := map[string]Options{}
	for _, p := range f.Packages {
		for _, t := range p.Types {
			m[p.Path+"."+t.Name] = Options{Mode: t.Mode, Tracking: t.Tracking}
		}
	}
	return m
}

// Decl is a field's Go declaration as written: name, type and struct tag.
func Decl(pkgPath string, s *model.StructDecl, f *model.Field) string {
	d := f.GoName + " " + GoType(pkgPath, f.Type)
	for _, sf := range s.Shape {
		if sf.Name == f.GoName {
			if sf.Tag != "" {
				d += " `" + sf.Tag + "`"
			}
			return d
		}
	}
	// No shape (hand-built declarations): spell the parsed tag.
	var parts []string
	if f.Tag.ID >= 0 {
		parts = append(parts, "id="+strconv.Itoa(f.Tag.ID))
	}
	if f.Tag.Nullable {
		parts = append(parts, "nullable")
	}
	if f.Tag.Ref {
		parts = append(parts, "ref")
	}
	if f.Tag.Encoding != "" {
		parts = append(parts, "encoding="+f.Tag.Encoding)
	}
	if f.Tag.Hint != nil {
		parts = append(parts, "type="+f.Tag.Hint.Original)
	}
	if len(parts) > 0 {
		d += " `fory:\"" + strings.Join(parts, ",") + "\"`"
	}
	return d
}

// GoType spells a model type as Go source, package-qualified outside pkgPath.
func GoType(pkgPath string, t *model.Type) string {
	if t == nil {
		return "?"
	}
	switch t.Kind {
	case model.Pointer:
		return "*" + GoType(pkgPath, t.Elem)
	case model.Slice:
		if t.Named == nil {
			return "[]" + GoType(pkgPath, t.Elem)
		}
	case model.Array:
		if t.Named == nil {
			return fmt.Sprintf("[%d]%s", t.Len, GoType(pkgPath, t.Elem))
		}
	case model.Map:
		if t.Named == nil {
			return "map[" + GoType(pkgPath, t.Key) + "]" + GoType(pkgPath, t.Elem)
		}
	case model.Set:
		return "serializer.Set[" + GoType(pkgPath, t.Elem) + "]"
	case model.Optional:
		return "serializer.Optional[" + GoType(pkgPath, t.Elem) + "]"
	}
	if t.Named != nil {
		name := t.Named.Name
		if t.Named.PkgPath != pkgPath && t.Named.PkgName != "" {
			name = t.Named.PkgName + "." + name
		}
		if len(t.Named.TypeArgs) > 0 {
			args := make([]string, len(t.Named.TypeArgs))
			for i, a := range t.Named.TypeArgs {
				args[i] = GoType(pkgPath, a)
			}
			name += "[" + strings.Join(args, ", ") + "]"
		}
		return name
	}
	return t.Kind.String()
}
