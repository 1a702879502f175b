package gen_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen"
)

// The carrier types and containers the README lists, each in every position
// it lists (issue 24 item 4): generated code for all of them compiles, is
// vet-clean, and round-trips a value with every field set, in both modes,
// with tracking off and on. What the README does not list and the
// generator cannot write is refused with a message (TestCombinationsRefused).

// comboElems are the element types: every scalar, string and []byte, an
// enum, named types, times, dates, decimals, 16-bit floats, a struct by
// value and by pointer, sets, maps, lists and any.
var comboElems = []struct{ name, typ string }{
	{"Bool", "bool"}, {"I8", "int8"}, {"I16", "int16"}, {"I32", "int32"}, {"I64", "int64"}, {"Int", "int"},
	{"U8", "uint8"}, {"U16", "uint16"}, {"U32", "uint32"}, {"U64", "uint64"}, {"Uint", "uint"},
	{"F32", "float32"}, {"F64", "float64"}, {"Str", "string"}, {"Bytes", "[]byte"},
	{"Enum", "Enum"}, {"NStr", "NStr"}, {"NInt", "NInt"},
	{"Time", "time.Time"}, {"Dur", "time.Duration"}, {"Date", "serializer.Date"}, {"Dec", "serializer.Decimal"},
	{"F16", "serializer.Float16"}, {"BF16", "serializer.BFloat16"},
	{"Inner", "Inner"}, {"PInner", "*Inner"},
	{"SetBool", "serializer.Set[bool]"}, {"SetI32", "serializer.Set[int32]"}, {"SetU64", "serializer.Set[uint64]"},
	{"SetF64", "serializer.Set[float64]"}, {"SetStr", "serializer.Set[string]"}, {"SetEnum", "serializer.Set[Enum]"},
	{"SetPInner", "serializer.Set[*Inner]"}, {"SetNStr", "serializer.Set[NStr]"}, {"SetI8", "serializer.Set[int8]"},
	{"MapSI", "map[string]int32"}, {"ListI32", "[]int32"}, {"ArrI32", "[2]int32"}, {"Any", "any"},
}

// comboOptionals are the elements an Optional holds: booleans, numbers,
// strings and enums, named or not.
var comboOptionals = []string{
	"bool", "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint",
	"float32", "float64", "string", "Enum", "NStr", "NInt", "serializer.Float16", "serializer.BFloat16",
}

// comboKeys are the map key types: bool, integers, strings and enums.
var comboKeys = []string{"bool", "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint", "string", "Enum", "NStr", "NInt"}

func comboSource() (string, []string) {
	var sb strings.Builder
	sb.WriteString(`package tm

import (
	"time"

	"github.com/forygen/forygen/serializer"
)

var _ time.Time

//fory:enum id=900
type Enum int32

const (
	EnumA Enum = 0
	EnumB Enum = 1
)

type NStr string

type NInt int64

//fory:generate id=901
type Inner struct{ V int32 }

// Pet is a union of an *Inner, a name and an age.
//
//fory:union id=902 1=*Inner 2=string 3=int32
type Pet struct {
	c uint32
	v any
}

func (u Pet) ForyUnionMarker() {}

func (u Pet) ForyUnionGet() (uint32, any) { return u.c, u.v }

func (u *Pet) ForyUnionSet(caseId uint32, value any) { u.c, u.v = caseId, value }

// Either numbers its cases from 0, as Java's Union2 does.
//
//fory:union id=903 0=string 1=int64
type Either struct {
	c uint32
	v any
}

func (u Either) ForyUnionMarker() {}

func (u Either) ForyUnionGet() (uint32, any) { return u.c, u.v }

func (u *Either) ForyUnionSet(caseId uint32, value any) { u.c, u.v = caseId, value }

`)
	var names []string
	id := 910
	decl := func(name string, fields []string) {
		fmt.Fprintf(&sb, "//fory:generate id=%d\ntype %s struct {\n", id, name)
		for _, f := range fields {
			sb.WriteString("\t" + f + "\n")
		}
		sb.WriteString("}\n\n")
		names = append(names, name)
		id++
	}
	for _, e := range comboElems {
		fields := []string{"F " + e.typ}
		if e.typ != "any" && !strings.HasPrefix(e.typ, "*") {
			fields = append(fields, "P *"+e.typ, "N *"+e.typ+" `fory:\"nullable\"`")
		}
		fields = append(fields, "L []"+e.typ, "A [2]"+e.typ, "M map[string]"+e.typ,
			"LL [][]"+e.typ, "LA [][2]"+e.typ, "AL [2][]"+e.typ, "AA [2][2]"+e.typ, "ML map[string][]"+e.typ, "MA map[string][2]"+e.typ)
		decl("C"+e.name, fields)
	}
	var opts []string
	for i, o := range comboOptionals {
		opts = append(opts, fmt.Sprintf("O%d serializer.Optional[%s]", i, o), fmt.Sprintf("T%d serializer.Optional[%s] `fory:\"nullable\"`", i, o))
	}
	decl("COptional", opts)
	var keys []string
	for i, k := range comboKeys {
		keys = append(keys, fmt.Sprintf("K%d map[%s]string", i, k), fmt.Sprintf("S%d map[%s]*Inner", i, k))
	}
	decl("CKeys", keys)
	decl("CUnion", []string{"U Pet", "N Pet `fory:\"nullable\"`", "L []Pet", "A [2]Pet", "E Either", "EL []Either"})
	decl("CNullableAny", []string{"A any `fory:\"nullable\"`", "L []any `fory:\"nullable\"`", "M map[string]any `fory:\"nullable\"`"})
	return sb.String(), names
}

// comboTest fills every field of each struct (a one-element slice, a
// one-entry map, a new pointer, int32(7) in an any; Optionals, unions and
// times stay zero, as reflect cannot set them) and checks that it encodes,
// decodes and encodes to the same bytes in both modes, tracking off and on.
const comboTest = `package tm

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/forygen/forygen/serializer"
)

func fill(v reflect.Value) {
	switch v.Type() {
	case reflect.TypeOf(Pet{}):
		v.Set(reflect.ValueOf(Pet{c: 2, v: "s"}))
		return
	case reflect.TypeOf(Either{}):
		v.Set(reflect.ValueOf(Either{c: 0, v: "zero"}))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.String:
		v.SetString("s")
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i))
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		if v.Type().Elem().Size() > 0 {
			fill(e)
		}
		v.SetMapIndex(k, e)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Interface:
		v.Set(reflect.ValueOf(int32(7)))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}

func check(t *testing.T, name string, newT func() serializer.Message) {
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			for _, full := range []bool{false, true} {
				in := newT()
				if full {
					fill(reflect.ValueOf(in).Elem())
					if o, ok := in.(*COptional); ok {
						fillOptional(o)
					}
				}
				data, err := f.Serialize(in)
				if !full && name == "CUnion" {
					// A union's zero value holds no case: refused, not written.
					if !errors.Is(err, serializer.ErrInvalidValue) {
						t.Fatalf("zero CUnion: %v, want ErrInvalidValue", err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s compatible=%v track=%v full=%v: %v", name, compatible, track, full, err)
				}
				out := newT()
				if err := f.Deserialize(data, out); err != nil {
					t.Fatalf("%s compatible=%v track=%v full=%v: decoding: %v", name, compatible, track, full, err)
				}
				if u, ok := out.(*CUnion); ok && full && (u.E != Either{c: 0, v: "zero"} || len(u.EL) != 1 || u.EL[0] != u.E) {
					t.Fatalf("case 0 of Either reads back as %#v, %#v", u.E, u.EL)
				}
				again, err := f.Serialize(out)
				if err != nil || !bytes.Equal(data, again) {
					t.Fatalf("%s compatible=%v track=%v full=%v: decoded value writes % x, %v; want % x", name, compatible, track, full, again, err, data)
				}
			}
		}
	}
}
`

// longSuite skips a suite that builds many generated packages (about 80 s
// of the README's test command on two cores) unless FORYGEN_LONG=1, which
// .ci/run sets: the everyday test run stays within minutes (issue 27).
func longSuite(t *testing.T) {
	t.Helper()
	if os.Getenv("FORYGEN_LONG") != "1" {
		t.Skip("long suite: FORYGEN_LONG=1 runs it (.ci/run sets it)")
	}
}

func TestCombinationsCompile(t *testing.T) {
	longSuite(t)
	src, names := comboSource()
	var test strings.Builder
	test.WriteString(comboTest)
	test.WriteString("\nfunc TestCombinations(t *testing.T) {\n")
	for _, n := range names {
		fmt.Fprintf(&test, "\tcheck(t, %q, func() serializer.Message { return new(%s) })\n", n, n)
	}
	test.WriteString("}\n\nfunc fillOptional(x *COptional) {\n")
	for i, o := range comboOptionals {
		v := o + "(1)"
		switch o {
		case "bool":
			v = "true"
		case "string", "NStr":
			v = o + `("s")`
		}
		fmt.Fprintf(&test, "\tx.O%d, x.T%d = serializer.Some(%s), serializer.Some(%s)\n", i, i, v, v)
	}
	test.WriteString("}\n")
	dir := tempModule(t, map[string]string{"types.go": src, "types_test.go": test.String()})
	var stderr bytes.Buffer
	require.NoError(t, gen.Run(gen.Config{Dir: dir, Stderr: &stderr}), stderr.String())
	goIn(t, dir, nil, "vet", "./...")
	goIn(t, dir, nil, "test", "-count=1", "./...")
}

// A union case id is a number from 0 (the specification's 0..N), given once.
func TestUnionCaseIDs(t *testing.T) {
	union := func(cases string) string {
		return "package tm\n\n//fory:union id=902 " + cases + "\ntype U struct {\n\tc uint32\n\tv any\n}\n\nfunc (u U) ForyUnionMarker() {}\n\n" +
			"func (u U) ForyUnionGet() (uint32, any) { return u.c, u.v }\n\nfunc (u *U) ForyUnionSet(caseId uint32, value any) { u.c, u.v = caseId, value }\n"
	}
	for cases, msg := range map[string]string{
		"0=string 1=int64":  "",
		"x=string":          `U: union case "x=string": want N=GoType with a case id N from 0`,
		"-1=string":         `U: union case "-1=string": want N=GoType with a case id N from 0`,
		"0=string 0=int64":  "U: union case id 0 appears twice",
		"4294967296=string": `want N=GoType with a case id N from 0`,
	} {
		t.Run(cases, func(t *testing.T) {
			dir := tempModule(t, map[string]string{"types.go": union(cases)})
			var stderr bytes.Buffer
			err := gen.Run(gen.Config{Dir: dir, Stderr: &stderr})
			if msg == "" {
				require.NoError(t, err, stderr.String())
				return
			}
			require.True(t, errors.Is(err, gen.ErrGeneration), "err = %v", err)
			require.Contains(t, stderr.String(), msg)
		})
	}
}

// What the generator cannot write is refused with a message naming the
// field, never generated code that does not compile.
func TestCombinationsRefused(t *testing.T) {
	longSuite(t)
	for _, c := range []struct{ field, msg string }{
		{"[]serializer.Optional[int32]", "serializer.Optional is supported as a field, not as a list, array or set element or a map value; use a pointer to its value (*T)"},
		{"[2]serializer.Optional[Enum]", "serializer.Optional is supported as a field, not as a list"},
		{"map[string]serializer.Optional[string]", "serializer.Optional is supported as a field, not as a list"},
		{"*serializer.Optional[int32]", "a pointer to serializer.Optional is not supported"},
		{"serializer.Set[serializer.Optional[int32]]", "serializer.Set elements must be booleans, numbers, strings, enums or struct pointers"},
		{"*any", "a pointer to any is not supported"},
		{"map[any]string", "map key type any is not supported (bool, integer, string, enum, struct and array keys are)"},
		{"map[int32]any", "a map with any values needs string keys (map[string]any)"},
		{"serializer.Optional[any]", "serializer.Optional holds booleans, numbers, strings or enums, not any"},
		{"serializer.Optional[Inner]", "serializer.Optional holds booleans, numbers, strings or enums"},
		{"serializer.Set[Inner]", "serializer.Set elements must be booleans, numbers, strings, enums or struct pointers"},
		{"serializer.Set[serializer.Float16]", "serializer.Set elements must be booleans, numbers, strings, enums or struct pointers, not serializer.Float16"},
		{"serializer.Set[any]", "serializer.Set elements must be booleans, numbers, strings, enums or struct pointers"},
		{"map[string]Pet", "a union as a map key or value is not supported"},
	} {
		t.Run(c.field, func(t *testing.T) {
			src := "package tm\n\nimport \"github.com/forygen/forygen/serializer\"\n\nvar _ serializer.Date\n\n//fory:enum id=900\ntype Enum int32\n\n" +
				"//fory:union id=902 2=string\ntype Pet struct {\n\tc uint32\n\tv any\n}\n\nfunc (u Pet) ForyUnionMarker() {}\n\nfunc (u Pet) ForyUnionGet() (uint32, any) { return u.c, u.v }\n\nfunc (u *Pet) ForyUnionSet(caseId uint32, value any) { u.c, u.v = caseId, value }\n\n" +
				"//fory:generate id=903\ntype Inner struct{ V int32 }\n\n//fory:generate id=901\ntype C struct {\n\tX " + c.field + "\n}\n"
			dir := tempModule(t, map[string]string{"types.go": src})
			var stderr bytes.Buffer
			err := gen.Run(gen.Config{Dir: dir, Stderr: &stderr})
			require.True(t, errors.Is(err, gen.ErrGeneration), "err = %v\n%s", err, stderr.String())
			require.Contains(t, stderr.String(), "C.X: ")
			require.Contains(t, stderr.String(), c.msg)
		})
	}
}
