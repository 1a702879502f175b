package gen_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen"
	"github.com/forygen/forygen/gen/internal/changekind"
	"github.com/forygen/forygen/gen/internal/lock"
	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

// TestReaderAgreement ties what `forygen -check` says about a schema change
// (plan's verdict, from lock.Diff) to what the reader does (issue 28): every
// change kind of changekind.Cases is generated as two packages, the old
// schema and the changed one, and a program built from them writes a User
// with each and reads it with the other, through the generated code and
// the runtime. Per direction and per set of values it records whether the
// read failed, which fields lost their value (the value cannot be held on
// the other side, a null became a zero, or the field is not matched), and
// which read a value other than the one written although it could be held
// (a misread). Then:
//
//   - safe: every read succeeds and every value crosses exactly;
//   - lossy: reads of ordinary values succeed, and some value is lost or
//     fails its read (a value the other side cannot hold);
//   - breaking: a read of ordinary values fails, or misreads.
//
// Changes that do not show in a User message (enum constants, which are
// ordinals on the wire, an enum's registration, which a field does not
// carry, types added or removed) are checked to leave it crossing exactly;
// their verdict is about meaning or about other messages, which no reader
// can confirm.
func TestReaderAgreement(t *testing.T) {
	longSuite(t)
	cases := changekind.Cases()
	files := map[string]string{}
	var table strings.Builder
	verdicts := make([]plan.Verdict, len(cases))
	visible := make([]bool, len(cases))
	for k, c := range cases {
		old, cur := changekind.Base(), changekind.Base()
		c.Change(cur)
		verdicts[k] = verdictOf(t, old, cur, c.Same)
		visible[k] = !sameDecls(reachable(old), reachable(cur)) || c.Same["User"]
		offset := uint32(1000 * (k + 1))
		dir := fmt.Sprintf("k%02d", k)
		files[dir+"/v1/users.go"] = render(old, offset)
		files[dir+"/v2/users.go"] = render(cur, offset)
		oldPlan, curPlan := planUser(t, old), planUser(t, cur)
		fmt.Fprintf(&table, "\t{name: %q, compatible: %v, track: %v,\n", c.Name, !c.Same["User"], c.Same["tracking"])
		fmt.Fprintf(&table, "\t\tv1: func() any { return new(%sv1.User) }, v2: func() any { return new(%sv2.User) },\n", dir, dir)
		fmt.Fprintf(&table, "\t\tv1Levels: %sv1.Levels, v2Levels: %sv2.Levels,\n", dir, dir)
		fmt.Fprintf(&table, "\t\tmatch12: %#v, match21: %#v},\n", matchByIdentifier(oldPlan, curPlan), matchByIdentifier(curPlan, oldPlan))
	}
	var imports strings.Builder
	for k := range cases {
		fmt.Fprintf(&imports, "\tk%02dv1 \"example.com/tm/k%02d/v1\"\n\tk%02dv2 \"example.com/tm/k%02d/v2\"\n", k, k, k, k)
	}
	files["agree_test.go"] = strings.Replace(strings.Replace(agreementProgram, "\t// IMPORTS\n", imports.String(), 1), "\t// CASES\n", table.String(), 1)
	files["doc.go"] = "package tm\n"
	dir := tempModule(t, files)
	var v1s, v2s []string
	for k := range cases {
		v1s, v2s = append(v1s, fmt.Sprintf("./k%02d/v1", k)), append(v2s, fmt.Sprintf("./k%02d/v2", k))
	}
	for _, patterns := range [][]string{v1s, v2s} {
		var stderr strings.Builder
		require.NoError(t, gen.Run(gen.Config{Dir: dir, Patterns: patterns, Stderr: &stderr}), stderr.String())
	}
	out := filepath.Join(t.TempDir(), "outcomes.json")
	goIn(t, dir, []string{"AGREE_OUT=" + out}, "test", "-count=1", "-run", "TestAgree", ".")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var outcomes []outcome
	require.NoError(t, json.Unmarshal(data, &outcomes))
	byCase := map[string][]outcome{}
	for _, o := range outcomes {
		byCase[o.Case] = append(byCase[o.Case], o)
	}
	for k, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			os := byCase[c.Name]
			if len(os) < 4 {
				t.Fatalf("%d outcomes", len(os))
			}
			var fails, losses, misreads, typicalFails []string
			for _, o := range os {
				where := o.Dir + " " + o.Set
				if o.Err != "" {
					fails = append(fails, where+": "+o.Err)
					if o.Set != "extreme" {
						typicalFails = append(typicalFails, where+": "+o.Err)
					}
					continue
				}
				for _, f := range o.Loss {
					losses = append(losses, where+": "+f)
				}
				for _, f := range o.Misread {
					misreads = append(misreads, where+": "+f)
				}
				for _, f := range o.Stray {
					misreads = append(misreads, where+": "+f+" is not zero, but the writer has no such field")
				}
			}
			v := verdicts[k]
			t.Logf("plan: %s; reader: %d failed reads, %d lost values, %d misreads", v, len(fails), len(losses), len(misreads))
			for _, s := range append(append(append([]string(nil), fails...), losses...), misreads...) {
				t.Log("\t" + s)
			}
			switch {
			case !visible[k]:
				if len(fails)+len(losses)+len(misreads) != 0 {
					t.Errorf("the change is not in a User message, yet a User does not cross exactly")
				}
			case v == plan.Safe:
				if len(fails)+len(losses)+len(misreads) != 0 {
					t.Errorf("plan says safe; the reader fails, loses or misreads values")
				}
			case v == plan.Lossy:
				if len(typicalFails) != 0 || len(misreads) != 0 {
					t.Errorf("plan says lossy; the reader fails ordinary values or misreads")
				}
				if len(fails)+len(losses) == 0 {
					t.Errorf("plan says lossy; every value crossed exactly")
				}
			case v == plan.Breaking:
				if len(typicalFails)+len(misreads) == 0 {
					t.Errorf("plan says breaking; the reader reads ordinary values both ways")
				}
			}
		})
	}
}

// outcome is one read of the agreement program.
type outcome struct {
	Case, Dir, Set string
	Err            string   // the read failed
	Loss           []string // fields whose value the reader's type cannot hold, or that no field matches
	Misread        []string // fields read as another value than one they could hold
	Stray          []string // fields the writer lacks that are not zero
}

// verdictOf is the worst verdict of lock.Diff between the two schemas.
func verdictOf(t *testing.T, old, cur *changekind.Schema, same map[string]bool) plan.Verdict {
	oldLock, err := lock.Parse("fory.lock", lockOf(t, old, same).Marshal())
	require.NoError(t, err)
	v := plan.Safe
	for _, c := range lock.Diff(oldLock, lockOf(t, cur, nil)) {
		v = max(v, c.Verdict)
	}
	return v
}

func lockOf(t *testing.T, s *changekind.Schema, same map[string]bool) *lock.File {
	plans := map[*model.StructDecl]*plan.Struct{}
	for _, d := range s.Structs {
		p, errs := plan.PlanStruct(d)
		require.Empty(t, errs)
		plans[d] = p
	}
	values := map[string][]lock.EnumValue{}
	for _, e := range s.Enums {
		for _, c := range s.Consts[e.Name] {
			values[changekind.PkgPath+"."+e.Name] = append(values[changekind.PkgPath+"."+e.Name], lock.EnumValue{Name: c.Name, Value: c.Value, Pos: c.Pos})
		}
	}
	prev := map[string]lock.Options{}
	if same["tracking"] {
		for _, d := range s.Structs {
			prev[changekind.PkgPath+"."+d.Name] = lock.Options{Mode: lock.ModeCompatible, Tracking: true}
		}
	}
	pkg := &model.Package{Path: changekind.PkgPath, Name: "users", Files: []*model.File{{Path: "users.go", Structs: s.Structs, Enums: s.Enums, Unions: s.Unions}}}
	return lock.Build([]*model.Package{pkg}, plans, prev, same, nil, values)
}

func planUser(t *testing.T, s *changekind.Schema) *plan.Struct {
	p, errs := plan.PlanStruct(s.User())
	require.Empty(t, errs)
	return p
}

// matchByIdentifier maps each Go field of the reader's User to the writer's
// field of the same Fory identifier (docs/format.md §11.4).
func matchByIdentifier(reader, writer *plan.Struct) map[string]string {
	m := map[string]string{}
	for _, r := range reader.Fields {
		for _, w := range writer.Fields {
			if r.Identifier == w.Identifier {
				m[r.GoName] = w.GoName
			}
		}
	}
	return m
}

// reachable is the structs a User message holds: User and the structs its
// fields name.
func reachable(s *changekind.Schema) []*model.StructDecl {
	names := map[string]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil {
			return
		}
		if t.Kind == model.Struct {
			names[t.Named.Name] = true
		}
		walk(t.Elem)
		walk(t.Key)
	}
	for _, f := range s.User().Fields {
		walk(f.Type)
	}
	out := []*model.StructDecl{s.User()}
	for _, d := range s.Structs[1:] {
		if names[d.Name] {
			out = append(out, d)
		}
	}
	return out
}

// sameDecls reports whether two versions declare the same structs.
func sameDecls(a, b []*model.StructDecl) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Reg != b[i].Reg || len(a[i].Fields) != len(b[i].Fields) {
			return false
		}
		for j, f := range a[i].Fields {
			g := b[i].Fields[j]
			if f.GoName != g.GoName || goDecl(a[i], f) != goDecl(b[i], g) {
				return false
			}
		}
	}
	return true
}

func goDecl(s *model.StructDecl, f *model.Field) string {
	return f.GoName + " " + lock.GoType(changekind.PkgPath, f.Type) + " `" + tagText(f.Tag) + "`"
}

// render writes a schema as Go source with every registration id moved by
// offset, so that the versions of all cases can share one program.
func render(s *changekind.Schema, offset uint32) string {
	var sb strings.Builder
	sb.WriteString("package users\n\nimport \"github.com/forygen/forygen/serializer\"\n\nvar _ serializer.Date\n\n")
	reg := func(r model.Registration) string {
		if r.ByName {
			return "name=" + r.Namespace + "." + r.Name
		}
		return "id=" + strconv.Itoa(int(r.ID+offset))
	}
	for _, d := range s.Structs {
		fmt.Fprintf(&sb, "//fory:generate %s\ntype %s struct {\n", reg(d.Reg), d.Name)
		for _, f := range d.Fields {
			sb.WriteString("\t" + goDecl(d, f) + "\n")
		}
		sb.WriteString("}\n\n")
	}
	for _, e := range s.Enums {
		fmt.Fprintf(&sb, "//fory:enum %s\ntype %s %s\n\nconst (\n", reg(e.Reg), e.Name, e.Base)
		consts := append([]changekind.Const(nil), s.Consts[e.Name]...)
		sort.SliceStable(consts, func(i, j int) bool { return consts[i].Value < consts[j].Value })
		var ordinals []string
		seen := map[int64]bool{}
		for _, c := range consts {
			fmt.Fprintf(&sb, "\t%s %s = %d\n", c.Name, e.Name, c.Value)
			if !seen[c.Value] {
				seen[c.Value] = true
				ordinals = append(ordinals, c.Name)
			}
		}
		fmt.Fprintf(&sb, ")\n\n// Levels are the ordinals the constants name.\nvar Levels = []any{%s}\n\n", strings.Join(ordinals, ", "))
	}
	return sb.String()
}

// tagText spells a parsed tag, explicit `ref=false` and `nullable=false`
// included.
func tagText(tg model.Tag) string {
	var parts []string
	if tg.ID >= 0 {
		parts = append(parts, "id="+strconv.Itoa(tg.ID))
	}
	switch {
	case tg.Nullable:
		parts = append(parts, "nullable")
	case tg.NullableSet:
		parts = append(parts, "nullable=false")
	}
	switch {
	case tg.Ref:
		parts = append(parts, "ref")
	case tg.RefSet:
		parts = append(parts, "ref=false")
	}
	if tg.Encoding != "" {
		parts = append(parts, "encoding="+tg.Encoding)
	}
	if tg.Hint != nil {
		parts = append(parts, "type="+tg.Hint.Original)
	}
	if len(parts) == 0 {
		return ""
	}
	return `fory:"` + strings.Join(parts, ",") + `"`
}

// agreementProgram writes every case's User with one version and reads it
// with the other, and records what the reader did (type outcome).
const agreementProgram = `package tm

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/forygen/forygen/serializer"
	// IMPORTS
)

type agreeCase struct {
	name               string
	compatible, track  bool
	v1, v2             func() any
	v1Levels, v2Levels []any
	match12, match21   map[string]string // reader field → writer field
}

var cases = []agreeCase{
	// CASES
}

type outcome struct {
	Case, Dir, Set       string
	Err                  string
	Loss, Misread, Stray []string
}

func TestAgree(t *testing.T) {
	var out []outcome
	for _, c := range cases {
		// Same-schema peers also run in official Go's form, whose hash counts
		// what forygen's does not (docs/format.md §14.29).
		forms := []bool{false}
		if !c.compatible {
			forms = append(forms, true)
		}
		for _, goForm := range forms {
			f := serializer.New(serializer.WithCompatible(c.compatible), serializer.WithTrackRef(c.track), serializer.WithOfficialGoForm(goForm))
			for _, d := range []struct {
				name     string
				src, dst func() any
				levels   []any
				match    map[string]string
			}{{"old→new", c.v1, c.v2, c.v1Levels, c.match21}, {"new→old", c.v2, c.v1, c.v2Levels, c.match12}} {
				sets := []string{"typical", "extreme"}
				for i := range d.levels {
					sets = append(sets, fmt.Sprintf("level%d", i))
				}
				if c.track {
					sets = append(sets, "shared")
				}
				for _, set := range sets {
					src := d.src()
					fill(reflect.ValueOf(src).Elem(), set == "extreme")
					if set == "shared" {
						share(reflect.ValueOf(src).Elem())
					}
					if lv := reflect.ValueOf(src).Elem().FieldByName("Level"); lv.IsValid() {
						for i := range d.levels {
							if set == fmt.Sprintf("level%d", i) {
								lv.Set(reflect.ValueOf(d.levels[i]).Convert(lv.Type()))
							}
						}
					}
					o := outcome{Case: c.name, Dir: d.name, Set: set}
					if goForm {
						o.Set = "go-form " + set
					}
					data, err := f.Serialize(src.(serializer.Message))
					if err != nil {
						// The writer refuses a value its own field cannot
						// hold on the wire (an int declared 32-bit).
						o.Err = "writing: " + err.Error()
						out = append(out, o)
						continue
					}
					dst := d.dst()
					if err := f.Deserialize(data, dst.(serializer.Message)); err != nil {
						o.Err = err.Error()
					} else {
						compare(&o, reflect.ValueOf(src).Elem(), reflect.ValueOf(dst).Elem(), d.match)
					}
					out = append(out, o)
				}
			}
		}
	}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv("AGREE_OUT"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fill gives every field a value: small ones that every numeric type holds,
// present pointers and elements; or, extreme, the ends of each type's
// range, fractions, nil pointers and nil elements.
func fill(v reflect.Value, extreme bool) {
	n := 0
	var set func(v reflect.Value, depth int)
	set = func(v reflect.Value, depth int) {
		n++
		switch v.Kind() {
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if !extreme || v.Type().Name() == "Level" {
				v.SetInt(int64(1 + n%2))
			} else if n%2 == 0 {
				v.SetInt(-1 << (v.Type().Bits() - 1))
			} else {
				v.SetInt(1<<(v.Type().Bits()-1) - 1)
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if extreme {
				v.SetUint(math.MaxUint64 >> (64 - v.Type().Bits()))
			} else {
				v.SetUint(uint64(3 + n))
			}
		case reflect.Float32, reflect.Float64:
			if extreme {
				v.SetFloat(0.1) // not a float32, not an integer
			} else {
				v.SetFloat(float64(n) + 0.5)
			}
		case reflect.String:
			v.SetString(fmt.Sprintf("s%d", n))
		case reflect.Interface:
			v.Set(reflect.ValueOf(int64(n)))
		case reflect.Pointer:
			if extreme && depth == 0 {
				return
			}
			p := reflect.New(v.Type().Elem())
			set(p.Elem(), depth+1)
			v.Set(p)
		case reflect.Slice:
			s := reflect.MakeSlice(v.Type(), 2, 2)
			for i := 0; i < 2; i++ {
				if extreme && i == 0 && v.Type().Elem().Kind() == reflect.Pointer {
					continue // a nil element
				}
				set(s.Index(i), depth+1)
			}
			v.Set(s)
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			set(k, depth+1)
			set(e, depth+1)
			m.SetMapIndex(k, e)
			v.Set(m)
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					set(v.Field(i), depth+1)
				}
			}
		}
	}
	set(v, -1)
}

// share points every *Leaf of the User, in fields and in lists, at the one
// in its Leaf field: with reference tracking the later ones are written as
// back-references to it.
func share(u reflect.Value) {
	leaf := u.FieldByName("Leaf")
	for i := 0; i < u.NumField(); i++ {
		switch f := u.Field(i); {
		case f.Type() == leaf.Type():
			f.Set(leaf)
		case f.Kind() == reflect.Slice && f.Type().Elem() == leaf.Type():
			for j := 0; j < f.Len(); j++ {
				f.Index(j).Set(leaf)
			}
		}
	}
}

// compare records, for each field of the reader's User, whether it holds
// the value the writer's field of the same identifier had.
func compare(o *outcome, src, dst reflect.Value, match map[string]string) {
	for i := 0; i < dst.NumField(); i++ {
		name := dst.Type().Field(i).Name
		got := dst.Field(i)
		from, ok := match[name]
		if !ok {
			if !isZero(got) {
				o.Stray = append(o.Stray, name)
			}
			continue
		}
		want, exact := project(src.FieldByName(from), got.Type())
		switch {
		case !exact:
			o.Loss = append(o.Loss, fmt.Sprintf("%s (%v read as %v)", name, show(src.FieldByName(from)), show(got)))
		case !equal(want, got):
			o.Misread = append(o.Misread, fmt.Sprintf("%s: %v read as %v", name, show(want), show(got)))
		}
	}
	// A writer's field that no field of the reader matches is lost when
	// the reader has a field of the same Go name: the developer's one
	// field, whose identifier changed.
	for i := 0; i < src.NumField(); i++ {
		name, found := src.Type().Field(i).Name, false
		for _, from := range match {
			found = found || from == name
		}
		if _, same := dst.Type().FieldByName(name); !found && same {
			o.Loss = append(o.Loss, name+" (no field of the reader matches it)")
		}
	}
}

func show(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "nil"
		}
		return "&" + show(v.Elem())
	}
	if v.Kind() == reflect.Slice {
		s := "["
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				s += " "
			}
			s += show(v.Index(i))
		}
		return s + "]"
	}
	return fmt.Sprint(v.Interface())
}

func isZero(v reflect.Value) bool {
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		return true
	}
	return v.IsZero()
}

// project is the value a field of type t holds when it reads v exactly,
// and false when t cannot hold v.
func project(v reflect.Value, t reflect.Type) (reflect.Value, bool) {
	zero := reflect.New(t).Elem()
	switch {
	case v.Kind() == reflect.Pointer:
		if v.IsNil() {
			return zero, t.Kind() == reflect.Pointer
		}
		if t.Kind() != reflect.Pointer {
			return project(v.Elem(), t)
		}
		e, ok := project(v.Elem(), t.Elem())
		p := reflect.New(t.Elem())
		p.Elem().Set(e)
		return p, ok
	case t.Kind() == reflect.Pointer:
		e, ok := project(v, t.Elem())
		p := reflect.New(t.Elem())
		p.Elem().Set(e)
		return p, ok
	}
	if num(v.Kind()) && num(t.Kind()) {
		return number(v, t)
	}
	switch {
	case v.Kind() != t.Kind():
		return zero, false
	case v.Kind() == reflect.Slice:
		if v.IsNil() {
			return zero, true
		}
		s := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			e, ok := project(v.Index(i), t.Elem())
			if !ok {
				return zero, false
			}
			s.Index(i).Set(e)
		}
		return s, true
	case v.Kind() == reflect.Map:
		m := reflect.MakeMap(t)
		for _, k := range v.MapKeys() {
			pk, ok1 := project(k, t.Key())
			pv, ok2 := project(v.MapIndex(k), t.Elem())
			if !ok1 || !ok2 {
				return zero, false
			}
			m.SetMapIndex(pk, pv)
		}
		return m, true
	case v.Kind() == reflect.Struct:
		s := reflect.New(t).Elem()
		for i := 0; i < t.NumField(); i++ {
			if f := v.FieldByName(t.Field(i).Name); f.IsValid() {
				e, ok := project(f, t.Field(i).Type)
				if !ok {
					return zero, false
				}
				s.Field(i).Set(e)
			}
		}
		return s, true
	}
	return v.Convert(t), true
}

func num(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Float64 }

// number converts a number exactly, or reports that t cannot hold it.
func number(v reflect.Value, t reflect.Type) (reflect.Value, bool) {
	out := reflect.New(t).Elem()
	var f float64
	var exact bool
	switch {
	case v.CanInt():
		i := v.Int()
		switch {
		case out.CanInt():
			out.SetInt(i)
			return out, out.Int() == i
		case out.CanUint():
			out.SetUint(uint64(i))
			return out, i >= 0 && out.Uint() == uint64(i)
		}
		f, exact = float64(i), float64(i) < 1<<63 && int64(float64(i)) == i
	case v.CanUint():
		u := v.Uint()
		switch {
		case out.CanInt():
			out.SetInt(int64(u))
			return out, u <= math.MaxInt64 && out.Int() == int64(u)
		case out.CanUint():
			out.SetUint(u)
			return out, out.Uint() == u
		}
		f, exact = float64(u), float64(u) < 1<<64 && uint64(float64(u)) == u
	default:
		f, exact = v.Float(), true
		switch {
		case out.CanInt():
			out.SetInt(int64(f))
			return out, f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 && float64(out.Int()) == f
		case out.CanUint():
			out.SetUint(uint64(f))
			return out, f == math.Trunc(f) && f >= 0 && f < 1<<64 && float64(out.Uint()) == f
		}
	}
	out.SetFloat(f)
	return out, exact && out.Float() == f
}

// equal is reflect.DeepEqual with nil and empty slices and maps alike.
func equal(a, b reflect.Value) bool {
	if (a.Kind() == reflect.Slice || a.Kind() == reflect.Map) && a.Len() == 0 && b.Len() == 0 {
		return true
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
`
