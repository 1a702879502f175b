package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// File is a parsed IDL file: the grammar of docs/compiler/schema-idl.md in
// apache/fory (foryc's FDL frontend at c8bf233, compiler/fory_compiler/
// frontend/fdl/parser.py): package, options, imports, enums, messages with
// nested types and reserved ranges, unions and services. Write emits the
// data part only; forygen idl (gen/internal/idl) reads all of it.
type File struct {
	Package      string
	PackageAlias string // `package a.b alias c;`
	Options      map[string]string
	OptionPos    map[string]Pos
	Imports      []string // the imported files' paths, as written
	ImportPos    []Pos
	Enums        []*Enum
	Messages     []*Message
	Unions       []*Union
	Services     []*Service
}

// Pos is a position in an IDL file, 1-based.
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Union is a parsed union: its cases are fields without modifiers.
type Union struct {
	Name    string
	ID      int  // 0 when the union has no [id=…] (or [id=0]: see HasID)
	HasID   bool // an [id=…] option was given
	Options map[string]string
	Cases   []*Field
	Line    int
	Col     int
}

// Enum is a parsed enum.
type Enum struct {
	Name     string
	ID       int // 0 when the enum has no [id=…]
	HasID    bool
	Options  map[string]string
	Values   []ParsedValue
	Reserved []Reserved
	Line     int
	Col      int
}

// ParsedValue is one enum value.
type ParsedValue struct {
	Name  string
	Value int64
	Pos   Pos
}

// Message is a parsed message, with the types nested in it.
type Message struct {
	Name     string
	ID       int // 0 when the message has no [id=…]
	HasID    bool
	Options  map[string]string
	Fields   []*Field
	Messages []*Message
	Enums    []*Enum
	Unions   []*Union
	Reserved []Reserved
	Line     int
	Col      int
}

// Reserved is one item of a reserved statement: a number range (To is
// From for a single number, -1 for `max`) or a name.
type Reserved struct {
	From, To int64
	Name     string
	Pos      Pos
}

// Field is a parsed message field or union case.
type Field struct {
	Name       string
	Number     int
	Optional   bool
	Ref        bool
	RefOptions map[string]string // ref(weak=true, thread_safe=false)
	Type       *Type
	Options    map[string]string // [deprecated=true, …]
	Line       int
	Col        int
	OptPos     Pos // where `optional` was written, when it was
}

// Pos is where the field starts.
func (f *Field) Pos() Pos { return Pos{f.Line, f.Col} }

// Service is a parsed service.
type Service struct {
	Name    string
	Methods []*Method
	Line    int
	Col     int
}

// Method is one rpc of a service.
type Method struct {
	Name                         string
	Request, Response            string
	ClientStream, ServerStream   bool
	Pos, RequestPos, ResponsePos Pos
}

// Type is a parsed field type.
type Type struct {
	Kind       string // "scalar", "named", "list", "array", "map"
	Name       string // scalar or named type
	Encoding   string // "fixed", "varint", "tagged" on a scalar
	Optional   bool   // a list element or map value marked optional
	Ref        bool   // a list element or map value marked ref
	RefOptions map[string]string
	Elem       *Type // list, array element; map value
	Key        *Type // map key
	Pos        Pos
}

func (t *Type) String() string {
	pre := ""
	if t.Optional {
		pre += "optional "
	}
	if t.Ref {
		pre += "ref "
	}
	switch t.Kind {
	case "list":
		return pre + "list<" + t.Elem.String() + ">"
	case "array":
		return pre + "array<" + t.Elem.String() + ">"
	case "map":
		return pre + "map<" + t.Key.String() + ", " + t.Elem.String() + ">"
	}
	if t.Encoding != "" {
		return pre + t.Encoding + " " + t.Name
	}
	return pre + t.Name
}

var scalarNames = map[string]bool{"bool": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "float16": true, "bfloat16": true,
	"float32": true, "float64": true, "string": true, "bytes": true, "date": true, "timestamp": true,
	"duration": true, "decimal": true, "any": true}

type token struct {
	kind string // "ident", "int", "string", "punct", "eof"
	text string
	line int
	col  int
}

func tokenize(src string) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			adv(1)
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				adv(1)
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("%d:%d: unterminated comment", line, col)
			}
			adv(end + 4)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			toks = append(toks, token{"ident", src[i:j], line, col})
			adv(j - i)
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			toks = append(toks, token{"int", src[i:j], line, col})
			adv(j - i)
		case c == '"' || c == '\'':
			end := strings.IndexAny(src[i+1:], string(c)+"\n")
			if end < 0 || src[i+1+end] != c {
				return nil, fmt.Errorf("%d:%d: unterminated string", line, col)
			}
			toks = append(toks, token{"string", src[i+1 : i+1+end], line, col})
			adv(end + 2)
		case strings.IndexByte("{}[]()<>;,=.", c) >= 0:
			toks = append(toks, token{"punct", string(c), line, col})
			adv(1)
		default:
			return nil, fmt.Errorf("%d:%d: unexpected character %q", line, col, c)
		}
	}
	return append(toks, token{"eof", "", line, col}), nil
}

type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != "eof" {
		p.pos++
	}
	return t
}

// at reports whether the next token is the punctuation or keyword text.
func (p *parser) at(text string) bool {
	t := p.peek()
	return t.kind != "string" && t.text == text
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return fmt.Errorf("%d:%d: %s", t.line, t.col, fmt.Sprintf(format, args...))
}

func tokPos(t token) Pos { return Pos{t.line, t.col} }

func (p *parser) expect(text string) error {
	t := p.next()
	if t.text != text || t.kind == "string" {
		if t.kind == "eof" {
			return p.errorf(t, "want %q, got the end of the file", text)
		}
		return p.errorf(t, "want %q, got %q", text, t.text)
	}
	return nil
}

// ident reads an identifier that is not a keyword.
func (p *parser) ident(what string) (string, error) {
	t := p.next()
	if t.kind != "ident" || keywords[t.text] {
		return "", p.errorf(t, "want %s, got %q", what, t.text)
	}
	return t.text, nil
}

func (p *parser) integer() (int64, error) {
	t := p.next()
	if t.kind != "int" {
		return 0, p.errorf(t, "want an integer, got %q", t.text)
	}
	n, err := strconv.ParseInt(t.text, 10, 64)
	if err != nil {
		return 0, p.errorf(t, "integer %s out of range", t.text)
	}
	return n, nil
}

// qualified reads IDENT ('.' IDENT)*.
func (p *parser) qualified(what string) (string, error) {
	name, err := p.ident(what)
	if err != nil {
		return "", err
	}
	for p.at(".") {
		p.next()
		part, err := p.ident(what)
		if err != nil {
			return "", err
		}
		name += "." + part
	}
	return name, nil
}

// optionValue reads 'true' | 'false' | IDENTIFIER | INTEGER | STRING.
func (p *parser) optionValue() (string, error) {
	t := p.next()
	switch t.kind {
	case "ident", "int", "string":
		return t.text, nil
	}
	return "", p.errorf(t, "want an option value, got %q", t.text)
}

// Parse reads an IDL file.
func Parse(src string) (*File, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	f := &File{Options: map[string]string{}, OptionPos: map[string]Pos{}}
	for p.peek().kind != "eof" {
		t := p.next()
		if t.kind == "string" {
			return nil, p.errorf(t, "unexpected string %q", t.text)
		}
		switch t.text {
		case "package":
			if f.Package != "" {
				return nil, p.errorf(t, "duplicate package declaration")
			}
			name, err := p.qualified("a package name")
			if err != nil {
				return nil, err
			}
			f.Package = name
			if p.peek().kind == "ident" && p.peek().text == "alias" {
				p.next()
				if f.PackageAlias, err = p.qualified("a package alias"); err != nil {
					return nil, err
				}
			}
			if err := p.expect(";"); err != nil {
				return nil, err
			}
		case "import":
			// `import public` and `import weak` are protobuf's; foryc
			// refuses them, and so does this parser (the keyword is not a
			// string).
			path := p.next()
			if path.kind != "string" {
				return nil, p.errorf(path, "want the imported file's path as a string, got %q (foryc refuses import public and import weak)", path.text)
			}
			f.Imports = append(f.Imports, path.text)
			f.ImportPos = append(f.ImportPos, tokPos(t))
			if err := p.expect(";"); err != nil {
				return nil, err
			}
		case "option":
			name, err := p.qualified("an option name")
			if err != nil {
				return nil, err
			}
			if err := p.expect("="); err != nil {
				return nil, err
			}
			v, err := p.optionValue()
			if err != nil {
				return nil, err
			}
			f.Options[name] = v
			f.OptionPos[name] = tokPos(t)
			if err := p.expect(";"); err != nil {
				return nil, err
			}
		case "enum":
			e, err := p.enum(t)
			if err != nil {
				return nil, err
			}
			f.Enums = append(f.Enums, e)
		case "message":
			m, err := p.message(t)
			if err != nil {
				return nil, err
			}
			f.Messages = append(f.Messages, m)
		case "union":
			u, err := p.union(t)
			if err != nil {
				return nil, err
			}
			f.Unions = append(f.Unions, u)
		case "service":
			s, err := p.service(t)
			if err != nil {
				return nil, err
			}
			f.Services = append(f.Services, s)
		default:
			return nil, p.errorf(t, "unexpected %q: want package, option, import, enum, message, union or service", t.text)
		}
	}
	return f, nil
}

// typeOptions reads optional type options: [id=100, alias="x", …]. The id
// must be a positive integer (zero allowed for unions, as foryc allows).
func (p *parser) typeOptions(allowZeroID bool) (map[string]string, int, bool, error) {
	opts := map[string]string{}
	if !p.at("[") {
		return opts, 0, false, nil
	}
	p.next()
	id, hasID := 0, false
	for {
		name, err := p.ident("a type option")
		if err != nil {
			return nil, 0, false, err
		}
		if err := p.expect("="); err != nil {
			return nil, 0, false, err
		}
		vt := p.peek()
		v, err := p.optionValue()
		if err != nil {
			return nil, 0, false, err
		}
		if name == "id" {
			n, err := strconv.ParseUint(v, 10, 32)
			if err != nil || vt.kind != "int" || n == 0 && !allowZeroID {
				return nil, 0, false, p.errorf(vt, "type option id must be a positive integer below 2^32, got %q", v)
			}
			id, hasID = int(n), true
		}
		opts[name] = v
		if p.at(",") {
			p.next()
			continue
		}
		return opts, id, hasID, p.expect("]")
	}
}

// reserved reads a reserved statement after its keyword.
func (p *parser) reserved() ([]Reserved, error) {
	var out []Reserved
	for {
		t := p.peek()
		if t.kind == "string" {
			p.next()
			out = append(out, Reserved{Name: t.text, From: -1, To: -1, Pos: tokPos(t)})
		} else {
			from, err := p.integer()
			if err != nil {
				return nil, err
			}
			r := Reserved{From: from, To: from, Pos: tokPos(t)}
			if p.at("to") {
				p.next()
				if p.at("max") {
					p.next()
					r.To = -1
				} else if r.To, err = p.integer(); err != nil {
					return nil, err
				}
			}
			out = append(out, r)
		}
		if p.at(",") {
			p.next()
			continue
		}
		return out, p.expect(";")
	}
}

func (p *parser) enum(start token) (*Enum, error) {
	name, err := p.ident("an enum name")
	if err != nil {
		return nil, err
	}
	e := &Enum{Name: name, Line: start.line, Col: start.col}
	if e.Options, e.ID, e.HasID, err = p.typeOptions(false); err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	for !p.at("}") {
		if p.peek().kind == "eof" {
			return nil, p.expect("}")
		}
		if p.at("reserved") {
			p.next()
			r, err := p.reserved()
			if err != nil {
				return nil, err
			}
			e.Reserved = append(e.Reserved, r...)
			continue
		}
		vt := p.peek()
		vn, err := p.ident("an enum value name")
		if err != nil {
			return nil, err
		}
		if err := p.expect("="); err != nil {
			return nil, err
		}
		v, err := p.integer()
		if err != nil {
			return nil, err
		}
		if seen[v] {
			return nil, p.errorf(vt, "enum %s: value %d used twice (the IDL has no aliases)", name, v)
		}
		seen[v] = true
		if p.at("[") { // value options, ignored as foryc ignores them
			if _, err := p.fieldOptions(); err != nil {
				return nil, err
			}
		}
		e.Values = append(e.Values, ParsedValue{vn, v, tokPos(vt)})
		if err := p.expect(";"); err != nil {
			return nil, err
		}
	}
	p.next()
	return e, nil
}

func (p *parser) message(start token) (*Message, error) {
	name, err := p.ident("a message name")
	if err != nil {
		return nil, err
	}
	m := &Message{Name: name, Line: start.line, Col: start.col}
	if m.Options, m.ID, m.HasID, err = p.typeOptions(false); err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	numbers := map[int]bool{}
	for !p.at("}") {
		t := p.peek()
		switch {
		case t.kind == "eof":
			return nil, p.expect("}")
		case p.at("reserved"):
			p.next()
			r, err := p.reserved()
			if err != nil {
				return nil, err
			}
			m.Reserved = append(m.Reserved, r...)
			continue
		case p.at("option"):
			return nil, p.errorf(t, "option statements inside a message are not Fory IDL (use [name=value] after the message name)")
		case p.at("message"):
			p.next()
			n, err := p.message(t)
			if err != nil {
				return nil, err
			}
			m.Messages = append(m.Messages, n)
			continue
		case p.at("enum"):
			p.next()
			n, err := p.enum(t)
			if err != nil {
				return nil, err
			}
			m.Enums = append(m.Enums, n)
			continue
		case p.at("union"):
			p.next()
			n, err := p.union(t)
			if err != nil {
				return nil, err
			}
			m.Unions = append(m.Unions, n)
			continue
		}
		f, err := p.field(false)
		if err != nil {
			return nil, err
		}
		if numbers[f.Number] {
			return nil, fmt.Errorf("%d:%d: message %s: field number %d used twice", f.Line, f.Col, name, f.Number)
		}
		numbers[f.Number] = true
		m.Fields = append(m.Fields, f)
	}
	p.next()
	return m, nil
}

func (p *parser) union(start token) (*Union, error) {
	name, err := p.ident("a union name")
	if err != nil {
		return nil, err
	}
	u := &Union{Name: name, Line: start.line, Col: start.col}
	if u.Options, u.ID, u.HasID, err = p.typeOptions(true); err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	numbers := map[int]bool{}
	for !p.at("}") {
		t := p.peek()
		if t.kind == "eof" {
			return nil, p.expect("}")
		}
		if p.at("reserved") {
			p.next()
			if _, err := p.reserved(); err != nil {
				return nil, err
			}
			continue
		}
		if p.at("optional") || p.at("ref") {
			return nil, p.errorf(t, "union %s: cases take no optional or ref", name)
		}
		c, err := p.field(true)
		if err != nil {
			return nil, err
		}
		if c.Number < 0 {
			return nil, fmt.Errorf("%d:%d: union %s: case id %d is negative", c.Line, c.Col, name, c.Number)
		}
		if numbers[c.Number] {
			return nil, fmt.Errorf("%d:%d: union %s: case id %d used twice", c.Line, c.Col, name, c.Number)
		}
		numbers[c.Number] = true
		u.Cases = append(u.Cases, c)
	}
	p.next()
	return u, nil
}

func (p *parser) service(start token) (*Service, error) {
	name, err := p.ident("a service name")
	if err != nil {
		return nil, err
	}
	s := &Service{Name: name, Line: start.line, Col: start.col}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	for !p.at("}") {
		t := p.next()
		switch {
		case t.kind == "eof":
			return nil, p.errorf(t, "want \"}\", got the end of the file")
		case t.text == "option" && t.kind == "ident":
			if _, err := p.qualified("an option name"); err != nil {
				return nil, err
			}
			if err := p.expect("="); err != nil {
				return nil, err
			}
			if _, err := p.optionValue(); err != nil {
				return nil, err
			}
			if err := p.expect(";"); err != nil {
				return nil, err
			}
		case t.text == "rpc" && t.kind == "ident":
			m := &Method{Pos: tokPos(t)}
			if m.Name, err = p.ident("a method name"); err != nil {
				return nil, err
			}
			side := func(stream *bool, name *string, pos *Pos) error {
				if err := p.expect("("); err != nil {
					return err
				}
				if p.at("stream") {
					p.next()
					*stream = true
				}
				*pos = tokPos(p.peek())
				var err error
				if *name, err = p.qualified("a message or union type"); err != nil {
					return err
				}
				return p.expect(")")
			}
			if err := side(&m.ClientStream, &m.Request, &m.RequestPos); err != nil {
				return nil, err
			}
			if err := p.expect("returns"); err != nil {
				return nil, err
			}
			if err := side(&m.ServerStream, &m.Response, &m.ResponsePos); err != nil {
				return nil, err
			}
			if p.at("{") { // method options, ignored
				p.next()
				for !p.at("}") {
					if p.peek().kind == "eof" {
						return nil, p.expect("}")
					}
					p.next()
				}
				p.next()
			} else if err := p.expect(";"); err != nil {
				return nil, err
			}
			s.Methods = append(s.Methods, m)
		default:
			return nil, p.errorf(t, "want rpc or option in service %s, got %q", name, t.text)
		}
	}
	p.next()
	return s, nil
}

// refOptions reads ref(weak=true, thread_safe=false) after `ref`.
func (p *parser) refOptions() (map[string]string, error) {
	if !p.at("(") {
		return nil, nil
	}
	p.next()
	opts := map[string]string{}
	for {
		t := p.next()
		if t.kind != "ident" {
			return nil, p.errorf(t, "want a ref option, got %q", t.text)
		}
		if err := p.expect("="); err != nil {
			return nil, err
		}
		v, err := p.optionValue()
		if err != nil {
			return nil, err
		}
		opts[t.text] = v
		if p.at(",") {
			p.next()
			continue
		}
		return opts, p.expect(")")
	}
}

// fieldOptions reads [name=value, …]; option names may be keywords (ref,
// optional) as foryc allows.
func (p *parser) fieldOptions() (map[string]string, error) {
	p.next()
	opts := map[string]string{}
	for {
		t := p.next()
		if t.kind != "ident" {
			return nil, p.errorf(t, "want a field option, got %q", t.text)
		}
		if err := p.expect("="); err != nil {
			return nil, err
		}
		v, err := p.optionValue()
		if err != nil {
			return nil, err
		}
		opts[t.text] = v
		if p.at(",") {
			p.next()
			continue
		}
		return opts, p.expect("]")
	}
}

// field reads a message field (or, with unionCase, a union case):
// [modifiers] type name = number [options] ;. `repeated T` is list<T>; an
// optional or ref after repeated applies to the elements.
func (p *parser) field(unionCase bool) (*Field, error) {
	start := p.peek()
	f := &Field{Line: start.line, Col: start.col}
	repeated := false
	var elemOpt, elemRef bool
	var elemRefOpts map[string]string
	for {
		t := p.peek()
		switch {
		case p.at("optional") && !unionCase:
			p.next()
			if repeated {
				elemOpt = true
			} else {
				f.Optional, f.OptPos = true, tokPos(t)
			}
			continue
		case p.at("ref") && !unionCase:
			p.next()
			opts, err := p.refOptions()
			if err != nil {
				return nil, err
			}
			if repeated {
				elemRef, elemRefOpts = true, opts
			} else {
				f.Ref, f.RefOptions = true, opts
			}
			continue
		case p.at("repeated"):
			if repeated {
				return nil, p.errorf(t, "repeated given twice")
			}
			p.next()
			repeated = true
			continue
		}
		break
	}
	var err error
	if f.Type, err = p.typ(); err != nil {
		return nil, err
	}
	if repeated {
		f.Type.Optional, f.Type.Ref, f.Type.RefOptions = elemOpt, elemRef, elemRefOpts
		f.Type = &Type{Kind: "list", Elem: f.Type, Pos: Pos{start.line, start.col}}
	}
	nt := p.next()
	// foryc takes `to` as a field name (its lexer makes it a keyword).
	if nt.kind != "ident" || keywords[nt.text] && nt.text != "to" {
		return nil, p.errorf(nt, "want a field name, got %q", nt.text)
	}
	f.Name = nt.text
	if err := p.expect("="); err != nil {
		return nil, err
	}
	n, err := p.integer()
	if err != nil {
		return nil, err
	}
	if n < -1<<31 || n >= 1<<31 {
		return nil, p.errorf(nt, "field number %d out of range", n)
	}
	f.Number = int(n)
	if p.at("[") {
		if f.Options, err = p.fieldOptions(); err != nil {
			return nil, err
		}
		if f.Options["ref"] == "true" {
			switch f.Type.Kind {
			case "list":
				f.Type.Elem.Ref = true
			case "map":
				f.Type.Elem.Ref = true
			default:
				f.Ref = true
			}
		}
		if f.Options["nullable"] == "true" {
			f.Optional = true
		}
	}
	return f, p.expect(";")
}

func (p *parser) typ() (*Type, error) {
	t := p.next()
	pos := tokPos(t)
	switch t.text {
	case "list", "array":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		var opt, ref bool
		var refOpts map[string]string
		for t.text == "list" && (p.at("optional") || p.at("ref")) {
			if p.next().text == "optional" {
				opt = true
			} else {
				ref = true
				var err error
				if refOpts, err = p.refOptions(); err != nil {
					return nil, err
				}
			}
		}
		if t.text == "array" && (p.at("optional") || p.at("ref")) {
			return nil, p.errorf(p.peek(), "array elements take no optional or ref")
		}
		elem, err := p.typ()
		if err != nil {
			return nil, err
		}
		elem.Optional, elem.Ref, elem.RefOptions = opt, ref, refOpts
		arrayElems := map[string]bool{"bool": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint8": true,
			"uint16": true, "uint32": true, "uint64": true, "float16": true, "bfloat16": true, "float32": true, "float64": true}
		if t.text == "array" && (elem.Kind != "scalar" || !arrayElems[elem.Name] || elem.Encoding != "") {
			return nil, p.errorf(t, "array<%s>: array elements are bool and number scalars", elem)
		}
		return &Type{Kind: t.text, Elem: elem, Pos: pos}, p.expect(">")
	case "map":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		if p.at("ref") || p.at("optional") {
			return nil, p.errorf(p.peek(), "map keys take no optional or ref")
		}
		key, err := p.typ()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		var opt, ref bool
		var refOpts map[string]string
		for p.at("optional") || p.at("ref") {
			if p.next().text == "optional" {
				opt = true
			} else {
				ref = true
				if refOpts, err = p.refOptions(); err != nil {
					return nil, err
				}
			}
		}
		val, err := p.typ()
		if err != nil {
			return nil, err
		}
		val.Optional, val.Ref, val.RefOptions = opt, ref, refOpts
		return &Type{Kind: "map", Key: key, Elem: val, Pos: pos}, p.expect(">")
	case "fixed", "varint", "tagged":
		n := p.next()
		ok := map[string]bool{"int32": t.text != "tagged", "uint32": t.text != "tagged", "int64": true, "uint64": true}
		if !ok[n.text] {
			return nil, p.errorf(n, "%s applies to int32, int64, uint32 and uint64 (tagged to the 64-bit ones)", t.text)
		}
		return &Type{Kind: "scalar", Name: n.text, Encoding: t.text, Pos: pos}, nil
	}
	if t.kind != "ident" || keywords[t.text] {
		if t.kind == "eof" {
			return nil, p.errorf(t, "want a type, got the end of the file")
		}
		return nil, p.errorf(t, "want a type, got %q", t.text)
	}
	if scalarNames[t.text] {
		return &Type{Kind: "scalar", Name: t.text, Pos: pos}, nil
	}
	if t.text == "set" && p.at("<") {
		return nil, p.errorf(t, "set<…> is not Fory IDL: its collections are list, array and map")
	}
	if t.text == "oneof" && p.peek().kind == "ident" {
		return nil, p.errorf(t, "oneof is protobuf's: Fory IDL declares a union (union Name { … }) and a field of it")
	}
	name := t.text
	for p.at(".") {
		p.next()
		part, err := p.ident("a type name")
		if err != nil {
			return nil, err
		}
		name += "." + part
	}
	return &Type{Kind: "named", Name: name, Pos: pos}, nil
}
