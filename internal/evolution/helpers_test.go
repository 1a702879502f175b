package evolution_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/forygen/forygen/serializer"
)

// This file holds the reflection helpers of the evolution tests: a filler
// that gives every field a deterministic non-zero value, and a projection
// that says what a reader with another schema must decode (docs/format.md §11.4):
// matched fields converted to the reader's type, fields the writer does not
// have left zero. The helpers know nothing about the wire; they model the
// rules, so the generated readers are checked against an independent model.

var (
	timeType     = reflect.TypeOf(time.Time{})
	durationType = reflect.TypeOf(time.Duration(0))
	dateType     = reflect.TypeOf(serializer.Date{})
)

// filler fills values. In nils mode, pointer fields and nullable-tagged
// containers are left nil; lists of pointers get a nil element and maps of
// pointers a nil value in both modes.
type filler struct {
	seed int
	nils bool
}

func (f *filler) next() int { f.seed++; return f.seed }

// fill sets every field of the struct that p points to.
func (f *filler) fill(p any) {
	f.value(reflect.ValueOf(p).Elem(), "")
}

func (f *filler) value(v reflect.Value, tag string) {
	t := v.Type()
	nullable := strings.Contains(tag, "nullable")
	switch {
	case t == timeType:
		n := f.next()
		v.Set(reflect.ValueOf(time.Unix(1700000000+int64(n)*86401, int64(n)*1000+7)))
		return
	case t == durationType:
		n := f.next()
		v.SetInt(int64(-(90*time.Second + time.Duration(n)*time.Millisecond + 5)))
		return
	case t == dateType:
		n := f.next()
		v.Set(reflect.ValueOf(serializer.Date{Year: 1900 + n%200, Month: time.Month(1 + n%12), Day: 1 + n%28}))
		return
	case t.Name() == "Color":
		v.SetInt(int64(1 + f.next()%2))
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		// Extremes, so varints take their longest forms; alternate signs.
		n, bits := f.next(), t.Bits()
		lo, hi := int64(-1)<<(bits-1), int64(uint64(1)<<(bits-1)-1)
		if n%2 == 0 {
			v.SetInt(lo + int64(n%7))
		} else {
			v.SetInt(hi - int64(n%7))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, bits := f.next(), t.Bits()
		v.SetUint(uint64(math.MaxUint64)>>(64-bits) - uint64(n%7))
	case reflect.Float32:
		v.SetFloat(float64(float32(-1.25) * float32(f.next())))
	case reflect.Float64:
		v.SetFloat(0.1 * float64(f.next()))
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d-héllo-世界", f.next()))
	case reflect.Pointer:
		if f.nils && tag != "elem" {
			return
		}
		p := reflect.New(t.Elem())
		f.value(p.Elem(), "")
		v.Set(p)
	case reflect.Slice:
		if f.nils && nullable {
			return
		}
		n := 3
		if t.Elem().Kind() == reflect.Uint8 {
			n = 5
		}
		s := reflect.MakeSlice(t, n, n)
		for i := 0; i < n; i++ {
			if t.Elem().Kind() == reflect.Pointer && i == 1 {
				continue // a null element (list header has_null)
			}
			f.value(s.Index(i), "elem")
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.value(v.Index(i), "elem")
		}
	case reflect.Map:
		if f.nils && nullable {
			return
		}
		m := reflect.MakeMap(t)
		for i := 0; i < 2; i++ {
			k := reflect.New(t.Key()).Elem()
			if t.Key().Kind() == reflect.Bool {
				k.SetBool(i == 0)
			} else {
				f.value(k, "elem")
			}
			val := reflect.New(t.Elem()).Elem()
			if !(t.Elem().Kind() == reflect.Pointer && i == 1) { // a null value (its own chunk, §8.4)
				f.value(val, "elem")
			}
			m.SetMapIndex(k, val)
		}
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f.value(v.Field(i), t.Field(i).Tag.Get("fory"))
		}
	default:
		panic("fill: unhandled " + t.String())
	}
}

// renames pairs Go field names that match by tag id across the two sides
// (v1 OldName/Count, v2 NewName/Total).
var renames = map[string]string{"NewName": "OldName", "OldName": "NewName", "Total": "Count", "Count": "Total"}

// srcField finds the field of src that dst field name matches.
func srcField(src reflect.Value, name string) (reflect.Value, bool) {
	if f := src.FieldByName(name); f.IsValid() {
		return f, true
	}
	if other, ok := renames[name]; ok {
		if f := src.FieldByName(other); f.IsValid() {
			return f, true
		}
	}
	return reflect.Value{}, false
}

// project returns what a reader of type t decodes from a value src written
// by the other side: fields matched by name (or tag id), converted; pointer
// ↔ value by dereferencing or allocating (nil → zero); fields the writer
// lacks are zero. nullable says whether src is written behind a null flag:
// a nil slice or map that is not is written as empty and read back empty
// (docs/format.md §14.15).
func project(t reflect.Type, src reflect.Value, nullable bool) reflect.Value {
	out := reflect.New(t).Elem()
	switch {
	case t == timeType || t == dateType:
		out.Set(src)
	case t.Kind() == reflect.Pointer && src.Kind() == reflect.Pointer:
		if !src.IsNil() {
			p := reflect.New(t.Elem())
			p.Elem().Set(project(t.Elem(), src.Elem(), false))
			out.Set(p)
		}
	case t.Kind() == reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(project(t.Elem(), src, nullable))
		out.Set(p)
	case src.Kind() == reflect.Pointer:
		if !src.IsNil() {
			out.Set(project(t, src.Elem(), false))
		}
	case t.Kind() == reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if sf, ok := srcField(src, t.Field(i).Name); ok {
				tag, _ := src.Type().FieldByName(fieldName(src, sf))
				out.Field(i).Set(project(t.Field(i).Type, sf, strings.Contains(tag.Tag.Get("fory"), "nullable")))
			}
		}
	case t.Kind() == reflect.Slice:
		if src.Kind() != reflect.Array && src.IsNil() && nullable {
			break
		}
		s := reflect.MakeSlice(t, src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			s.Index(i).Set(project(t.Elem(), src.Index(i), false))
		}
		out.Set(s)
	case t.Kind() == reflect.Array:
		for i := 0; i < src.Len(); i++ {
			out.Index(i).Set(project(t.Elem(), src.Index(i), false))
		}
	case t.Kind() == reflect.Map:
		if src.IsNil() && nullable {
			break
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		it := src.MapRange()
		for it.Next() {
			m.SetMapIndex(project(t.Key(), it.Key(), false), project(t.Elem(), it.Value(), false))
		}
		out.Set(m)
	default:
		out.Set(src.Convert(t)) // numeric widening or narrowing, named types
	}
	return out
}

// fieldName returns the name of the field of struct s that f is.
func fieldName(s, f reflect.Value) string {
	for i := 0; i < s.NumField(); i++ {
		if s.Field(i).Addr().Pointer() == f.Addr().Pointer() && s.Field(i).Type() == f.Type() {
			return s.Type().Field(i).Name
		}
	}
	panic("fieldName: not a field")
}

// expect returns a pointer to what the reader type of dst decodes from src.
func expect(dst, src any) any {
	return project(reflect.TypeOf(dst).Elem(), reflect.ValueOf(src).Elem(), false).Addr().Interface()
}

// overlay sets the fields of dst that src also has to src's values
// (converted), recursively through structs, pointers and equal-length
// slices, and keeps dst's values for fields only dst has. It builds a value
// of the wide side whose shared fields fit the narrow side.
func overlay(dst, src reflect.Value) {
	t := dst.Type()
	switch {
	case t == src.Type():
		dst.Set(src)
	case t.Kind() == reflect.Struct && src.Kind() == reflect.Struct && t != timeType && t != dateType:
		for i := 0; i < t.NumField(); i++ {
			if sf, ok := srcField(src, t.Field(i).Name); ok {
				overlay(dst.Field(i), sf)
			}
		}
	case t.Kind() == reflect.Pointer && src.Kind() == reflect.Pointer && !dst.IsNil() && !src.IsNil():
		overlay(dst.Elem(), src.Elem())
	case t.Kind() == reflect.Pointer && !dst.IsNil() && src.Kind() != reflect.Pointer:
		overlay(dst.Elem(), src)
	case src.Kind() == reflect.Pointer && t.Kind() != reflect.Pointer && !src.IsNil():
		overlay(dst, src.Elem())
	case t.Kind() == reflect.Slice && src.Kind() == reflect.Slice && dst.Len() == src.Len() && !src.IsNil():
		for i := 0; i < dst.Len(); i++ {
			overlay(dst.Index(i), src.Index(i))
		}
	default:
		dst.Set(project(t, src, false))
	}
}

// requireFields compares want and got (pointers to structs of one type)
// field by field, then as a whole.
func requireFields(t *testing.T, want, got any, context string) {
	t.Helper()
	w, g := reflect.ValueOf(want).Elem(), reflect.ValueOf(got).Elem()
	ok := true
	for i := 0; i < w.NumField(); i++ {
		name := w.Type().Field(i).Name
		ok = assert.Equal(t, w.Field(i).Interface(), g.Field(i).Interface(), "%s: field %s", context, name) && ok
	}
	if !ok {
		t.FailNow()
	}
}

// nonZeroFields fails when a field of the struct p points to is zero: a
// fill that left a field empty would make a comparison vacuous.
func nonZeroFields(t *testing.T, p any, context string) {
	t.Helper()
	v := reflect.ValueOf(p).Elem()
	for i := 0; i < v.NumField(); i++ {
		assert.False(t, v.Field(i).IsZero(), "%s: field %s was not filled", context, v.Type().Field(i).Name)
	}
}
