package idl

import (
	"fmt"
	"strings"

	"github.com/forygen/forygen/gen/internal/schema"
)

// A field's Go type and tag are those foryc's Go generator writes
// (generate_field, generate_type, build_root_type_hint and their helpers in
// compiler/fory_compiler/generators/go.py), with forygen's carrier types
// for official Go's (serializer.Optional, Date, Decimal, Float16,
// BFloat16), and two spellings that keep official Go's bytes:
//
//   - `optional list<…>` and `optional map<…>` fields add `ref=false`:
//     official Go writes such a field's flag as the TypeDef says (not
//     tracked) also in a Fory that tracks references, where forygen's
//     default would track a nullable collection;
//   - `optional U` of a union U is the union value tagged nullable (foryc's
//     *U), since forygen's unions are nullable values, not pointers.

// scalarGo is foryc's PRIMITIVE_MAP in forygen's types.
func (w *writer) scalarGo(name string) string {
	switch name {
	case "float16":
		return w.ser() + ".Float16"
	case "bfloat16":
		return w.ser() + ".BFloat16"
	case "bytes":
		return "[]byte"
	case "date":
		return w.ser() + ".Date"
	case "timestamp":
		return w.use("time", "time") + ".Time"
	case "duration":
		return w.use("time", "time") + ".Duration"
	case "decimal":
		return w.ser() + ".Decimal"
	}
	return name
}

// resolved is a named type resolved in a field's lineage, or nil.
func (w *writer) resolved(t *schema.Type, lineage []*schema.Message) *decl {
	if t.Kind != "named" {
		return nil
	}
	return resolve(w.scope, t.Name, lineage)
}

// goType is foryc's generate_type.
func (w *writer) goType(t *schema.Type, nullable, ref bool, lineage []*schema.Message, useOption bool) string {
	switch t.Kind {
	case "scalar":
		if t.Name == "any" {
			return "any"
		}
		base := w.scalarGo(t.Name)
		if nullable && base != "[]byte" {
			if useOption && !ref && t.Name != "timestamp" && t.Name != "date" {
				return w.ser() + ".Optional[" + base + "]"
			}
			return "*" + base
		}
		return base
	case "named":
		d := w.resolved(t, lineage)
		if d == nil {
			return "any"
		}
		name := w.typeName(d)
		if nullable {
			if useOption && !ref && d.kind == "enum" {
				return w.ser() + ".Optional[" + name + "]"
			}
			return "*" + name
		}
		if ref {
			return "*" + name
		}
		return name
	case "list":
		return "[]" + w.goType(t.Elem, t.Elem.Optional, t.Elem.Ref, lineage, false)
	case "array":
		return "[]" + w.goType(t.Elem, false, false, lineage, false)
	case "map":
		return "map[" + w.goType(t.Key, false, false, lineage, true) + "]" + w.goType(t.Elem, t.Elem.Optional, t.Elem.Ref, lineage, false)
	}
	return "any"
}

// field checks one message field as foryc's validator does and returns its
// Go type and fory tag.
func (w *writer) field(d *decl, fd *schema.Field, lineage []*schema.Message) (string, string) {
	where := d.qual + "." + fd.Name
	t := fd.Type
	bad := func(pos schema.Pos, format string, args ...any) {
		w.errorf(pos, "%s: %s", where, fmt.Sprintf(format, args...))
	}
	// Named types, at any depth, must resolve.
	var check func(t *schema.Type, depth int, mapKey bool)
	check = func(t *schema.Type, depth int, mapKey bool) {
		switch t.Kind {
		case "named":
			r := w.resolved(t, lineage)
			if r == nil {
				bad(t.Pos, "unknown type %s", t.Name)
				return
			}
			if mapKey && r.kind != "enum" {
				bad(t.Pos, "map keys do not support any, binary, float, decimal, message, union, list, map, or array types")
			}
			if t.Ref && r.kind == "enum" {
				bad(t.Pos, "ref is only valid for message/union types, not enums")
			}
			if t.Ref && r.kind == "union" {
				bad(t.Pos, "ref %s: forygen does not track references to unions (a union is a value)", t.Name)
			}
		case "scalar":
			if mapKey {
				switch t.Name {
				case "any", "bytes", "float16", "bfloat16", "float32", "float64", "decimal":
					bad(t.Pos, "map keys do not support any, binary, float, decimal, message, union, list, map, or array types")
				}
			}
			if t.Name == "any" && t.Optional {
				bad(t.Pos, "optional or nullable any is not supported; use any instead")
			}
			if t.Ref {
				bad(t.Pos, "ref is only valid for message/union types")
			}
		case "list", "array", "map":
			if depth > 0 {
				bad(t.Pos, "nested list/map types are not allowed; only one collection layer is supported")
			}
			if mapKey {
				bad(t.Pos, "map keys do not support any, binary, float, decimal, message, union, list, map, or array types")
			}
			if t.Key != nil {
				check(t.Key, depth+1, true)
			}
			check(t.Elem, depth+1, false)
		}
		if len(t.RefOptions) > 0 {
			bad(t.Pos, "ref(%s): weak and thread-safety options are carriers of other languages; forygen's Go has plain pointers (write ref)", refOpts(t.RefOptions))
		}
	}
	check(t, 0, false)
	if len(fd.RefOptions) > 0 {
		bad(fd.Pos(), "ref(%s): weak and thread-safety options are carriers of other languages; forygen's Go has plain pointers (write ref)", refOpts(fd.RefOptions))
	}
	r := w.resolved(t, lineage)
	optional := fd.Optional
	if r != nil && r.kind == "message" {
		if fd.Optional {
			pos := fd.OptPos
			if pos.Line == 0 {
				pos = fd.Pos()
			}
			bad(pos, "message fields are always optional; remove the optional modifier (foryc refuses it)")
		}
		optional = true
	}
	isList, isMap := t.Kind == "list", t.Kind == "map"
	isAny := t.Kind == "scalar" && t.Name == "any"
	if isAny && fd.Optional {
		bad(fd.Pos(), "optional or nullable any is not supported; use any instead")
	}
	if fd.Ref {
		switch {
		case isAny:
			bad(fd.Pos(), "ref is not allowed on any fields")
		case isList || isMap || t.Kind == "array":
			bad(fd.Pos(), "ref is not allowed on list/map fields; use `list<ref T>` (or `repeated ref T`) for list elements or `map<..., ref T>` for map values")
		case t.Kind == "scalar":
			bad(fd.Pos(), "ref is only valid for message/union types")
		case r != nil && r.kind == "enum":
			bad(fd.Pos(), "ref is only valid for message/union types, not enums")
		case r != nil && r.kind == "union":
			bad(fd.Pos(), "ref %s: forygen does not track references to unions (a union is a value; use optional for a nullable one)", t.Name)
		}
	}
	var elemOpt, elemRef bool
	if isList || isMap {
		elemOpt, elemRef = t.Elem.Optional, t.Elem.Ref
	}
	// The Go type.
	goType := w.goType(t, optional, fd.Ref, lineage, true)
	union := r != nil && r.kind == "union"
	if union && optional {
		goType = w.typeName(r) // forygen's nullable union is the value
	}
	// The tag.
	tags := []string{fmt.Sprintf("id=%d", fd.Number)}
	var nullableTag *bool
	yes, no := true, false
	switch {
	case optional || isAny:
		nullableTag = &yes
	case fd.Ref || isList && (elemOpt || elemRef) || isMap && (elemOpt || elemRef):
		nullableTag = &no
	}
	if nullableTag != nil {
		if *nullableTag {
			tags = append(tags, "nullable")
		} else {
			tags = append(tags, "nullable=false")
		}
	}
	switch {
	case fd.Ref:
		tags = append(tags, "ref")
	case optional && (isList || isMap):
		tags = append(tags, "ref=false")
	}
	if t.Kind == "scalar" && (t.Encoding == "fixed" || t.Encoding == "tagged") {
		tags = append(tags, "encoding="+t.Encoding)
	}
	if t.Kind == "scalar" && t.Name == "bytes" {
		tags = append(tags, "type=bytes")
	} else if h := w.rootHint(t, lineage); h != "" {
		tags = append(tags, "type="+h)
	}
	return goType, strings.Join(tags, ",")
}

func refOpts(m map[string]string) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	sortStrings(parts)
	return strings.Join(parts, ", ")
}

// rootHint is foryc's build_root_type_hint.
func (w *writer) rootHint(t *schema.Type, lineage []*schema.Message) string {
	switch t.Kind {
	case "list":
		if e := w.nodeHint(t.Elem, t.Elem.Optional, t.Elem.Ref, lineage); e != "" {
			return render("list", []string{"element=" + e})
		}
	case "array":
		if t.Elem.Kind == "scalar" {
			return render("array", []string{"element=" + hintName(t.Elem.Name)})
		}
	case "map":
		var params []string
		if k := w.nodeHint(t.Key, false, false, lineage); k != "" {
			params = append(params, "key="+k)
		}
		if v := w.nodeHint(t.Elem, t.Elem.Optional, t.Elem.Ref, lineage); v != "" {
			params = append(params, "value="+v)
		}
		if len(params) > 0 {
			return render("map", params)
		}
	}
	return ""
}

// nodeHint is foryc's build_node_type_hint.
func (w *writer) nodeHint(t *schema.Type, nullable, ref bool, lineage []*schema.Message) string {
	switch t.Kind {
	case "list":
		params := w.modifiers(t, nullable, ref, lineage)
		if e := w.nodeHint(t.Elem, t.Elem.Optional, t.Elem.Ref, lineage); e != "" {
			params = append(params, "element="+e)
		}
		return render("list", params)
	case "array":
		params := w.modifiers(t, nullable, ref, lineage)
		if t.Elem.Kind == "scalar" {
			params = append(params, "element="+hintName(t.Elem.Name))
		}
		return render("array", params)
	case "map":
		params := w.modifiers(t, nullable, ref, lineage)
		if k := w.nodeHint(t.Key, false, false, lineage); k != "" {
			params = append(params, "key="+k)
		}
		if v := w.nodeHint(t.Elem, t.Elem.Optional, t.Elem.Ref, lineage); v != "" {
			params = append(params, "value="+v)
		}
		if len(params) > 0 {
			return render("map", params)
		}
		return ""
	case "scalar":
		params := w.modifiers(t, nullable, ref, lineage)
		if t.Name == "any" {
			if len(params) == 0 {
				return ""
			}
			return render("_", params)
		}
		if t.Encoding != "" {
			params = append(params, "encoding="+t.Encoding)
		}
		if len(params) == 0 {
			return ""
		}
		return render(hintName(t.Name), params)
	case "named":
		params := w.modifiers(t, nullable, ref, lineage)
		if len(params) == 0 {
			return ""
		}
		return render("_", params)
	}
	return ""
}

// modifiers is foryc's build_node_modifiers.
func (w *writer) modifiers(t *schema.Type, nullable, ref bool, lineage []*schema.Message) []string {
	var params []string
	inferred := nullable
	switch t.Kind {
	case "scalar":
		if t.Name == "any" || t.Name == "bytes" {
			inferred = true
		}
	case "named":
		inferred = nullable || ref
	case "list", "map":
		inferred = true
	}
	if nullable != inferred && !(t.Kind == "scalar" && t.Name == "bytes" && !nullable) {
		params = append(params, fmt.Sprintf("nullable=%v", nullable))
	}
	inferRef := false
	switch t.Kind {
	case "scalar":
		inferRef = t.Name == "any" || t.Name == "bytes"
	case "list", "map":
		inferRef = true
	case "named":
		if r := w.resolved(t, lineage); r != nil {
			inferRef = (nullable || ref) && (r.kind == "message" || r.kind == "union")
		}
	}
	if ref {
		params = append(params, "ref=true")
	} else if inferRef {
		params = append(params, "ref=false")
	}
	return params
}

// hintName is foryc's get_type_hint_name: the IDL scalar's name.
func hintName(name string) string { return name }

func render(name string, params []string) string {
	if len(params) == 0 {
		return name
	}
	return name + "(" + strings.Join(params, ",") + ")"
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
