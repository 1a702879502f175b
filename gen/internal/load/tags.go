package load

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"
)

// ParseTag parses a `fory:"…"` tag value in the official Fory Go grammar:
// comma-separated items `id=N`, `-`, `ignore`, `nullable[=bool]`,
// `ref[=bool]`, `encoding=varint|fixed|tagged`, `type=<hint>` (parseHint).
// As in official Go, booleans are true/false, yes/no or 1/0 in any case and
// encodings are case-insensitive. skip reports `-` or `ignore`.
func ParseTag(s string) (tag model.Tag, skip bool, err error) {
	tag.ID = -1
	if strings.TrimSpace(s) == "-" {
		return tag, true, nil
	}
	seen := map[string]bool{}
	for _, item := range splitTop(s) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, val, hasVal := strings.Cut(item, "=")
		key = strings.TrimSpace(key)
		val = strings.TrimSpace(val)
		if seen[key] {
			return tag, false, fmt.Errorf("key %q appears more than once; keep one", key)
		}
		seen[key] = true
		boolVal := func() (bool, error) {
			if !hasVal {
				return true, nil
			}
			b, ok := parseBool(val)
			if !ok {
				return false, fmt.Errorf("%s=%q is not a boolean (true, false, yes, no, 1 or 0)", key, val)
			}
			return b, nil
		}
		switch key {
		case "-", "ignore":
			b, err := boolVal()
			if err != nil {
				return tag, false, err
			}
			// Keep reading: a skipped field's tag must still be well formed,
			// as official Fory Go checks it.
			skip = b
		case "id":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n > MaxFieldID {
				return tag, false, fmt.Errorf("id=%q must be an integer from 0 to %d (field ids are below 2^29)", val, MaxFieldID)
			}
			tag.ID = n
		case "nullable":
			b, err := boolVal()
			if err != nil {
				return tag, false, err
			}
			tag.Nullable, tag.NullableSet = b, true
		case "ref":
			b, err := boolVal()
			if err != nil {
				return tag, false, err
			}
			tag.Ref, tag.RefSet = b, true
		case "encoding":
			e, err := parseEncoding(val)
			if err != nil {
				return tag, false, err
			}
			tag.Encoding = e
		case "type":
			h, err := parseHint(val)
			if err != nil {
				return tag, false, err
			}
			tag.Hint = h
		case "marshal":
			// forygen's own key (official Go has no marshaler adapter):
			// README "Types you don't own".
			if val != "text" && val != "binary" {
				return tag, false, fmt.Errorf("marshal=%q must be text (MarshalText/UnmarshalText, written as a string) or binary (MarshalBinary/UnmarshalBinary, written as bytes)", val)
			}
			tag.Marshal = val
		default:
			return tag, false, fmt.Errorf("unknown fory tag key %q", key)
		}
	}
	if skip {
		return tag, true, nil
	}
	if tag.Encoding != "" && tag.Hint != nil {
		return tag, false, fmt.Errorf("encoding and type cannot be combined on one field")
	}
	if tag.Marshal != "" && (tag.Encoding != "" || tag.Hint != nil || tag.RefSet && tag.Ref) {
		return tag, false, fmt.Errorf("marshal=%s decides the encoding itself: remove encoding=, type= and ref", tag.Marshal)
	}
	return tag, false, nil
}

// splitTop splits on commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// hintScalars are the scalar names a hint node may use (official Fory Go's
// list); `bytes` is also the BINARY hint of a []byte field.
var hintScalars = map[string]bool{}

// hintScalarNames are hintScalars in the order errors list them.
var hintScalarNames = []string{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
	"float16", "bfloat16", "float32", "float64", "string", "bytes", "timestamp", "date", "duration", "decimal"}

func init() {
	for _, n := range hintScalarNames {
		hintScalars[n] = true
	}
}

// parseBool reads a boolean tag value as official Fory Go does: true, 1 or
// yes, false, 0 or no, in any case.
func parseBool(v string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes":
		return true, true
	case "false", "0", "no":
		return false, true
	}
	return false, false
}

// parseEncoding lower-cases and checks an encoding= value.
func parseEncoding(v string) (string, error) {
	switch e := strings.ToLower(strings.TrimSpace(v)); e {
	case "varint", "fixed", "tagged":
		return e, nil
	}
	return "", fmt.Errorf("encoding=%q must be varint, fixed or tagged", v)
}

// parseHint parses a type hint: a node `name` or `name(arg=…, …)`, where an
// argument is nullable=, ref=, encoding= or a nested node as element=,
// key= or value=.
func parseHint(s string) (*model.Hint, error) {
	p := &hintParser{s: s}
	h, err := p.node()
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = fmt.Errorf("unexpected %q after the hint", p.s[p.i:])
		}
	}
	if err != nil {
		return nil, fmt.Errorf("type=%s: %v", strings.TrimSpace(s), err)
	}
	return h, nil
}

type hintParser struct {
	s string
	i int
}

func (p *hintParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *hintParser) ident() string {
	p.space()
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func (p *hintParser) peek() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *hintParser) node() (*model.Hint, error) {
	p.space()
	start := p.i
	name := p.ident()
	switch {
	case name == "":
		return nil, fmt.Errorf("a type name is missing")
	case name == "_", name == "list", name == "array", name == "set", name == "map", hintScalars[name]:
	default:
		return nil, fmt.Errorf("unknown type name %q (want _, list, array, set, map or a scalar: %s)", name, strings.Join(hintScalarNames, ", "))
	}
	h := &model.Hint{Name: name}
	defer func() { h.Original = strings.TrimSpace(p.s[start:p.i]) }()
	if p.peek() != '(' {
		return h, nil
	}
	p.i++
	if p.peek() == ')' {
		p.i++
		return h, nil
	}
	seen := map[string]bool{}
	for {
		key := p.ident()
		if key == "" {
			return nil, fmt.Errorf("an argument name is missing in %s(…)", name)
		}
		if seen[key] {
			return nil, fmt.Errorf("argument %q appears more than once in %s(…); keep one", key, name)
		}
		seen[key] = true
		if p.peek() != '=' {
			return nil, fmt.Errorf("argument %q of %s(…) needs =value", key, name)
		}
		p.i++
		switch key {
		case "nullable", "ref":
			v := p.ident()
			b, ok := parseBool(v)
			if !ok {
				return nil, fmt.Errorf("%s=%q is not a boolean", key, v)
			}
			if key == "nullable" {
				h.Nullable = &b
			} else {
				h.Ref = &b
			}
		case "encoding":
			e, err := parseEncoding(p.ident())
			if err != nil {
				return nil, err
			}
			h.Encoding = e
		case "element", "key", "value":
			child, err := p.node()
			if err != nil {
				return nil, err
			}
			switch key {
			case "element":
				h.Element = child
			case "key":
				h.Key = child
			default:
				h.Value = child
			}
		default:
			return nil, fmt.Errorf("unknown argument %q in %s(…) (want element, key, value, nullable, ref or encoding)", key, name)
		}
		switch p.peek() {
		case ',':
			p.i++
		case ')':
			p.i++
			return h, nil
		default:
			return nil, fmt.Errorf("want ',' or ')' after argument %q of %s(…)", key, name)
		}
	}
}

// ParseDirective parses the arguments of `//fory:generate` or `//fory:enum`:
// `id=N` or `name=[ns.]Type`.
func ParseDirective(args string) (model.Registration, error) {
	var reg model.Registration
	fields := strings.Fields(args)
	if len(fields) != 1 {
		return reg, fmt.Errorf("want exactly one of id=N or name=ns.Type, got %q", args)
	}
	k, v, ok := strings.Cut(fields[0], "=")
	if !ok || v == "" {
		return reg, fmt.Errorf("want id=N or name=ns.Type, got %q", fields[0])
	}
	switch k {
	case "id":
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return reg, fmt.Errorf("id=%q must be an unsigned 32-bit integer", v)
		}
		reg.ID = uint32(n)
	case "name":
		reg.ByName = true
		if i := strings.LastIndex(v, "."); i >= 0 {
			reg.Namespace, reg.Name = v[:i], v[i+1:]
		} else {
			reg.Name = v
		}
		if reg.Name == "" {
			return reg, fmt.Errorf("name=%q has an empty type name", v)
		}
	default:
		return reg, fmt.Errorf("want id=N or name=ns.Type, got %q", fields[0])
	}
	return reg, nil
}
