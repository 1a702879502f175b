package load

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"
)

// ParseTag parses a `fory:"…"` tag value in the official Fory Go grammar:
// comma-separated items `id=N`, `-`, `ignore`, `nullable[=bool]`,
// `ref[=bool]`, `encoding=varint|fixed|tagged`, `type=<hint>`, where a hint
// may contain parenthesised, comma-separated arguments. skip reports `-` or
// `ignore`.
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
			b, err := strconv.ParseBool(val)
			if err != nil {
				return false, fmt.Errorf("%s=%q is not a boolean", key, val)
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
			switch val {
			case "varint", "fixed", "tagged":
				tag.Encoding = val
			default:
				return tag, false, fmt.Errorf("encoding=%q must be varint, fixed or tagged", val)
			}
		case "type":
			h, err := parseHint(val)
			if err != nil {
				return tag, false, err
			}
			tag.Hint = h
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

func parseHint(s string) (*model.Hint, error) {
	h := &model.Hint{Original: s}
	name, args, hasArgs := strings.Cut(s, "(")
	h.Name = strings.TrimSpace(name)
	if h.Name == "" {
		return nil, fmt.Errorf("type= needs a type name")
	}
	if !hasArgs {
		return h, nil
	}
	if !strings.HasSuffix(args, ")") {
		return nil, fmt.Errorf("type=%s: missing ')'", s)
	}
	seen := map[string]bool{}
	for _, a := range splitTop(strings.TrimSuffix(args, ")")) {
		k, v, ok := strings.Cut(strings.TrimSpace(a), "=")
		if !ok {
			return nil, fmt.Errorf("type=%s: argument %q is not key=value", s, a)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if seen[k] {
			return nil, fmt.Errorf("type=%s: argument %q appears more than once; keep one", s, k)
		}
		seen[k] = true
		switch k {
		case "element", "value":
			// `_(ref=…)`: the default type, tracked or not (official Go's
			// element hint); anything else names a type.
			if ref, ok, err := refOnlyHint(v); err != nil {
				return nil, fmt.Errorf("type=%s: %v", s, err)
			} else if ok {
				if h.Name != "list" && h.Name != "map" {
					return nil, fmt.Errorf("type=%s: a ref hint applies to list elements and map values only", s)
				}
				h.ElemRef = &ref
				continue
			}
			if k == "element" {
				h.Element = v
			} else {
				h.Value = v
			}
		case "key":
			h.Key = v
		default:
			// nullable=, ref=, encoding= inside a hint: accepted only as
			// official Go's defaults, which is what generated code writes.
			return nil, fmt.Errorf("type=%s: argument %q is not supported", s, k)
		}
	}
	return h, nil
}

// refOnlyHint parses `_(ref=bool)`; ok is false for any other hint.
func refOnlyHint(v string) (ref, ok bool, err error) {
	inner, found := strings.CutPrefix(v, "_(")
	if !found || !strings.HasSuffix(inner, ")") {
		return false, false, nil
	}
	k, val, _ := strings.Cut(strings.TrimSuffix(inner, ")"), "=")
	if strings.TrimSpace(k) != "ref" {
		return false, false, fmt.Errorf("%q: only ref= is supported inside _( )", v)
	}
	b, perr := strconv.ParseBool(strings.TrimSpace(val))
	if perr != nil {
		return false, false, fmt.Errorf("%q: ref=%q is not a boolean", v, val)
	}
	return b, true, nil
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
