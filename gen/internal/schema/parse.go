package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// File is a parsed IDL file: the part of the grammar (docs/compiler/schema-idl.md
// in apache/fory) that describes data. Services, nested types and field
// options are refused: Write never emits them.
type File struct {
	Package  string
	Options  map[string]string
	Imports  []string // the imported files' paths, as written
	Enums    []*Enum
	Messages []*Message
	Unions   []*Union
}

// Union is a parsed union: its cases are fields without modifiers.
type Union struct {
	Name  string
	ID    int // 0 when the union has no [id=…]
	Cases []*Field
	Line  int
}

// Enum is a parsed enum.
type Enum struct {
	Name   string
	ID     int // 0 when the enum has no [id=…]
	Values []ParsedValue
	Line   int
}

// ParsedValue is one enum value.
type ParsedValue struct {
	Name  string
	Value int64
}

// Message is a parsed message.
type Message struct {
	Name   string
	ID     int // 0 when the message has no [id=…]
	Fields []*Field
	Line   int
}

// Field is a parsed message field.
type Field struct {
	Name     string
	Number   int
	Optional bool
	Ref      bool
	Type     *Type
	Line     int
}

// Type is a parsed field type.
type Type struct {
	Kind     string // "scalar", "named", "list", "array", "map"
	Name     string // scalar or named type
	Encoding string // "fixed", "varint", "tagged" on a scalar
	Optional bool   // a list element or map value marked optional
	Ref      bool   // a list element or map value marked ref
	Elem     *Type  // list, array element; map value
	Key      *Type  // map key
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

func (p *parser) errorf(t token, format string, args ...any) error {
	return fmt.Errorf("%d:%d: %s", t.line, t.col, fmt.Sprintf(format, args...))
}

func (p *parser) expect(text string) error {
	t := p.next()
	if t.text != text || t.kind == "string" {
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
	return strconv.ParseInt(t.text, 10, 64)
}

// Parse reads an IDL file.
func Parse(src string) (*File, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	f := &File{Options: map[string]string{}}
	for p.peek().kind != "eof" {
		t := p.next()
		switch t.text {
		case "package":
			if f.Package != "" {
				return nil, p.errorf(t, "duplicate package declaration")
			}
			name, err := p.ident("a package name")
			if err != nil {
				return nil, err
			}
			for p.peek().text == "." {
				p.next()
				part, err := p.ident("a package name")
				if err != nil {
					return nil, err
				}
				name += "." + part
			}
			f.Package = name
			if err := p.expect(";"); err != nil {
				return nil, err
			}
		case "import":
			// `import public` and `import weak` are protobuf's; foryc
			// refuses them, and so does this parser (the keyword is not a
			// string).
			path := p.next()
			if path.kind != "string" {
				return nil, p.errorf(path, "want the imported file's path as a string, got %q", path.text)
			}
			f.Imports = append(f.Imports, path.text)
			if err := p.expect(";"); err != nil {
				return nil, err
			}
		case "option":
			name, err := p.ident("an option name")
			if err != nil {
				return nil, err
			}
			if err := p.expect("="); err != nil {
				return nil, err
			}
			f.Options[name] = p.next().text
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
			m, err := p.message(t)
			if err != nil {
				return nil, err
			}
			for _, c := range m.Fields {
				if c.Optional || c.Ref {
					return nil, fmt.Errorf("%d: union %s: cases take no optional or ref", c.Line, m.Name)
				}
			}
			f.Unions = append(f.Unions, &Union{Name: m.Name, ID: m.ID, Cases: m.Fields, Line: m.Line})
		default:
			return nil, p.errorf(t, "unexpected %q (services are not read)", t.text)
		}
	}
	return f, nil
}

// typeID reads optional type options and returns the id among them.
func (p *parser) typeID() (int, error) {
	if p.peek().text != "[" {
		return 0, nil
	}
	p.next()
	id := 0
	for {
		name, err := p.ident("a type option")
		if err != nil {
			return 0, err
		}
		if err := p.expect("="); err != nil {
			return 0, err
		}
		v := p.next()
		if name == "id" {
			n, err := strconv.Atoi(v.text)
			if err != nil || n <= 0 {
				return 0, p.errorf(v, "type option id must be a positive integer, got %q", v.text)
			}
			id = n
		} else {
			return 0, p.errorf(v, "unknown type option %q", name)
		}
		if p.peek().text == "," {
			p.next()
			continue
		}
		return id, p.expect("]")
	}
}

func (p *parser) enum(start token) (*Enum, error) {
	name, err := p.ident("an enum name")
	if err != nil {
		return nil, err
	}
	e := &Enum{Name: name, Line: start.line}
	if e.ID, err = p.typeID(); err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	for p.peek().text != "}" {
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
			return nil, p.errorf(p.peek(), "enum %s: value %d used twice (the IDL has no aliases)", name, v)
		}
		seen[v] = true
		e.Values = append(e.Values, ParsedValue{vn, v})
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
	m := &Message{Name: name, Line: start.line}
	if m.ID, err = p.typeID(); err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	numbers := map[int]bool{}
	for p.peek().text != "}" {
		f := &Field{Line: p.peek().line}
		for {
			switch p.peek().text {
			case "optional":
				f.Optional = true
				p.next()
				continue
			case "ref":
				f.Ref = true
				p.next()
				continue
			}
			break
		}
		if f.Type, err = p.typ(); err != nil {
			return nil, err
		}
		if f.Name, err = p.ident("a field name"); err != nil {
			return nil, err
		}
		if err := p.expect("="); err != nil {
			return nil, err
		}
		n, err := p.integer()
		if err != nil {
			return nil, err
		}
		f.Number = int(n)
		if numbers[f.Number] {
			return nil, fmt.Errorf("%d: message %s: field number %d used twice", f.Line, name, f.Number)
		}
		numbers[f.Number] = true
		if err := p.expect(";"); err != nil {
			return nil, err
		}
		m.Fields = append(m.Fields, f)
	}
	p.next()
	return m, nil
}

func (p *parser) typ() (*Type, error) {
	t := p.next()
	switch t.text {
	case "list", "array":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		var opt, ref bool
		for t.text == "list" && (p.peek().text == "optional" || p.peek().text == "ref") {
			if p.next().text == "optional" {
				opt = true
			} else {
				ref = true
			}
		}
		elem, err := p.typ()
		if err != nil {
			return nil, err
		}
		elem.Optional, elem.Ref = opt, ref
		arrayElems := map[string]bool{"bool": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint8": true,
			"uint16": true, "uint32": true, "uint64": true, "float16": true, "bfloat16": true, "float32": true, "float64": true}
		if t.text == "array" && (elem.Kind != "scalar" || !arrayElems[elem.Name] || elem.Encoding != "") {
			return nil, p.errorf(t, "array<%s>: array elements are bool and number scalars", elem)
		}
		return &Type{Kind: t.text, Elem: elem}, p.expect(">")
	case "map":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		key, err := p.typ()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		var opt, ref bool
		for p.peek().text == "optional" || p.peek().text == "ref" {
			if p.next().text == "optional" {
				opt = true
			} else {
				ref = true
			}
		}
		val, err := p.typ()
		if err != nil {
			return nil, err
		}
		val.Optional, val.Ref = opt, ref
		return &Type{Kind: "map", Key: key, Elem: val}, p.expect(">")
	case "fixed", "varint", "tagged":
		n := p.next()
		ok := map[string]bool{"int32": t.text != "tagged", "uint32": t.text != "tagged", "int64": true, "uint64": true}
		if !ok[n.text] {
			return nil, p.errorf(n, "%s applies to int32, int64, uint32 and uint64 (tagged to the 64-bit ones)", t.text)
		}
		return &Type{Kind: "scalar", Name: n.text, Encoding: t.text}, nil
	}
	if t.kind != "ident" || keywords[t.text] {
		return nil, p.errorf(t, "want a type, got %q", t.text)
	}
	if scalarNames[t.text] {
		return &Type{Kind: "scalar", Name: t.text}, nil
	}
	name := t.text
	for p.peek().text == "." {
		p.next()
		part, err := p.ident("a type name")
		if err != nil {
			return nil, err
		}
		name += "." + part
	}
	return &Type{Kind: "named", Name: name}, nil
}
