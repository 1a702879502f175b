package lock

import (
	"strings"
	"testing"

	"github.com/forygen/forygen/gen/internal/changekind"
	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"
)

const pkgPath = changekind.PkgPath

var (
	prim      = changekind.Prim
	ptr       = changekind.Ptr
	structRef = changekind.StructRef
	idLeaf    = changekind.LeafReg
	idOther   = changekind.OtherReg
)

// base, enums and unions are the declarations of changekind.Base; enumVals
// holds the constants of the enums enums() returns (model.EnumDecl has
// none: load.EnumConstants finds them).
func base() []*model.StructDecl { return changekind.Base().Structs }

func unions() []*model.UnionDecl { return changekind.Base().Unions }

var enumVals = map[*model.EnumDecl][]EnumValue{}

func enums() []*model.EnumDecl {
	s := changekind.Base()
	for _, e := range s.Enums {
		enumVals[e] = enumValues(s.Consts[e.Name])
	}
	return s.Enums
}

func enumValues(cs []changekind.Const) []EnumValue {
	var vs []EnumValue
	for _, c := range cs {
		vs = append(vs, EnumValue{Name: c.Name, Value: c.Value, Pos: c.Pos})
	}
	return vs
}

func build(t testing.TB, structs []*model.StructDecl, es []*model.EnumDecl, same map[string]bool) *File {
	return buildU(t, structs, es, unions(), same)
}

func buildU(t testing.TB, structs []*model.StructDecl, es []*model.EnumDecl, us []*model.UnionDecl, same map[string]bool) *File {
	t.Helper()
	plans := map[*model.StructDecl]*plan.Struct{}
	for _, s := range structs {
		ps, errs := plan.PlanStruct(s)
		if len(errs) > 0 {
			t.Fatalf("plan %s: %v", s.Name, errs)
		}
		plans[s] = ps
	}
	pkg := &model.Package{Path: pkgPath, Name: "users", Files: []*model.File{{Path: "users.go", Structs: structs, Enums: es, Unions: us}}}
	values := map[string][]EnumValue{}
	for _, e := range es {
		values[pkgPath+"."+e.Name] = enumVals[e]
	}
	prev := map[string]Options{}
	if same["tracking"] {
		for _, s := range structs {
			prev[pkgPath+"."+s.Name] = Options{Mode: ModeCompatible, Tracking: true}
		}
	}
	return Build([]*model.Package{pkg}, plans, prev, same, nil, values)
}

// buildSchema is the lock of a changekind schema.
func buildSchema(t testing.TB, s *changekind.Schema, same map[string]bool) *File {
	for _, e := range s.Enums {
		enumVals[e] = enumValues(s.Consts[e.Name])
	}
	return buildU(t, s.Structs, s.Enums, s.Unions, same)
}

func TestChangeKinds(t *testing.T) {
	cases := changekind.Cases()
	if len(cases) < 20 {
		t.Fatalf("only %d change kinds", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			old := buildSchema(t, changekind.Base(), c.Same)
			// The old lock goes through its text form, as it does on disk.
			parsed, err := Parse("fory.lock", old.Marshal())
			if err != nil {
				t.Fatal(err)
			}
			s := changekind.Base()
			c.Change(s)
			cur := buildSchema(t, s, nil)
			changes := Diff(parsed, cur)
			want := c.NChanges
			if want == 0 {
				want = 1
			}
			if want < 0 {
				if len(changes) != 0 {
					t.Fatalf("want no change, got %v", changes)
				}
				return
			}
			if len(changes) != want {
				t.Fatalf("want %d changes, got %d: %v", want, len(changes), changes)
			}
			var hit *Change
			for i := range changes {
				if strings.Contains(changes[i].What, c.What) {
					hit = &changes[i]
				}
			}
			if hit == nil {
				t.Fatalf("no change says %q: %v", c.What, changes)
			}
			if hit.Verdict != c.Verdict {
				t.Fatalf("%q: verdict %s, want %s\n%s", hit.What, hit.Verdict, c.Verdict, hit)
			}
			t.Log("\n" + hit.String())
			if hit.Pos.File == "" || hit.Pos.Line == 0 {
				t.Fatalf("change without a position: %s", hit)
			}
			if hit.Verdict != plan.Safe && hit.OldPeer == "" && hit.NewPeer == "" {
				t.Fatalf("change does not say what peers see: %s", hit)
			}
		})
	}
}

func TestUnionChanges(t *testing.T) {
	old, err := Parse("fory.lock", build(t, base(), enums(), nil).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		cases   []model.UnionCase
		verdict plan.Verdict
		what    string
	}{
		{"case added", append(unions()[0].Cases, model.UnionCase{ID: 3, Type: prim(model.Int64)}), plan.Lossy, "case 3 added"},
		{"case removed", unions()[0].Cases[:1], plan.Lossy, "case 2 removed"},
		{"case type changed", []model.UnionCase{unions()[0].Cases[0], {ID: 2, Type: prim(model.Int32)}}, plan.Breaking, "case 2 type changed from string to int32"},
		{"case struct changed (both struct ids)", []model.UnionCase{{ID: 1, Type: ptr(structRef("Other", idOther))}, unions()[0].Cases[1]}, plan.Breaking, "case 1 type changed from *Leaf to *Other"},
		{"case pointer to value, same struct", []model.UnionCase{{ID: 1, Type: structRef("Leaf", idLeaf)}, unions()[0].Cases[1]}, plan.Safe, "case 1 Go type changed from *Leaf to Leaf, the same wire type"},
		{"case struct renamed, same registration", []model.UnionCase{{ID: 1, Type: ptr(structRef("Leaf2", idLeaf))}, unions()[0].Cases[1]}, plan.Safe, "case 1 Go type changed from *Leaf to *Leaf2"},
	} {
		us := unions()
		us[0].Cases = c.cases
		changes := Diff(old, buildU(t, base(), enums(), us, nil))
		if len(changes) != 1 || changes[0].Verdict != c.verdict || !strings.Contains(changes[0].What, c.what) {
			t.Errorf("%s: %v", c.name, changes)
			continue
		}
		t.Log("\n" + changes[0].String())
		if c.verdict == plan.Breaking && (changes[0].Old == "" || changes[0].New == "" || changes[0].OldPeer == "" || changes[0].NewPeer == "") {
			t.Errorf("%s: want both declarations and both peers: %s", c.name, changes[0])
		}
	}
	// The old and new declarations of a struct case changed to another struct.
	us := unions()
	us[0].Cases[0].Type = ptr(structRef("Other", idOther))
	changes := Diff(old, buildU(t, base(), enums(), us, nil))
	if len(changes) != 1 || changes[0].Old != "1=*Leaf (compatible_struct(id=11))" || changes[0].New != "1=*Other (compatible_struct(id=12))" {
		t.Errorf("struct case changed: %v", changes)
	}
	// A lock written before cases had Go types compares them by wire type.
	text := strings.ReplaceAll(string(build(t, base(), enums(), nil).Marshal()), " go=*Leaf", "")
	text = strings.ReplaceAll(text, " go=string", "")
	older, err := Parse("fory.lock", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if changes := Diff(older, build(t, base(), enums(), nil)); len(changes) != 0 {
		t.Errorf("a lock without case Go types differs from its declarations: %v", changes)
	}
	changes = Diff(older, buildU(t, base(), enums(), us, nil))
	if len(changes) != 1 || changes[0].Verdict != plan.Breaking || !strings.Contains(changes[0].What, "compatible_struct(id=11) to compatible_struct(id=12)") {
		t.Errorf("struct case changed, old lock: %v", changes)
	}
}

func TestLockText(t *testing.T) {
	text := string(build(t, base(), enums(), nil).Marshal())
	for _, want := range []string{
		"\nenum Level id=13 base=int32\n\tvalue Low = 0\n\tvalue Mid = 1\n\tvalue High = 2\n\tvalue Max = 2\n",
		"\nunion Pick id=15\n\tcase 1 compatible_struct(id=11) go=*Leaf\n\tcase 2 string go=string\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("lock lacks %q:\n%s", want, text)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f := build(t, base(), enums(), map[string]bool{"Leaf": true})
	text := f.Marshal()
	g, err := Parse("fory.lock", text)
	if err != nil {
		t.Fatal(err)
	}
	if string(g.Marshal()) != string(text) {
		t.Fatalf("round trip differs:\n%s\n---\n%s", text, g.Marshal())
	}
	if changes := Diff(g, f); len(changes) != 0 {
		t.Fatalf("a lock differs from its own declarations: %v", changes)
	}
	if g.Options()[pkgPath+".Leaf"].Mode != ModeSameSchema || g.Options()[pkgPath+".User"].Mode != ModeCompatible {
		t.Fatalf("modes not kept: %v", g.Options())
	}
	// A relock keeps the modes of the old lock.
	ss := base()
	h := Build([]*model.Package{{Path: pkgPath, Files: []*model.File{{Structs: ss}}}}, plansOf(t, ss), g.Options(), nil, map[string]bool{"Other": true}, nil)
	for _, ty := range h.Packages[0].Types {
		want := g.Options()[pkgPath+"."+ty.Name]
		want.Tracking = want.Tracking || ty.Name == "Other"
		if got := (Options{ty.Mode, ty.Tracking}); got != want {
			t.Errorf("%s: relocked as %+v, want %+v", ty.Name, got, want)
		}
	}
	if !strings.Contains(string(h.Marshal()), "struct Other id=12 mode=compatible tracking=on") {
		t.Errorf("tracking not written:\n%s", h.Marshal())
	}
}

func plansOf(t *testing.T, ss []*model.StructDecl) map[*model.StructDecl]*plan.Struct {
	m := map[*model.StructDecl]*plan.Struct{}
	for _, s := range ss {
		ps, errs := plan.PlanStruct(s)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		m[s] = ps
	}
	return m
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"struct A id=1\n",                                       // before package
		"package p\nstruct A\n",                                 // no registration
		"package p\nstruct A id=1 mode=loose\n",                 // unknown mode
		"package p\nstruct A id=1\n\tfield 1 int33 decl=\"\"\n", // unknown type
		"package p\nstruct A id=1\n\tfield 1 list<int32 decl=\"\"\n",
		"package p\nfield 1 int32 decl=\"\"\n",
		"package p\nwhat\n",
		"package p\nvalue A = 1\n",                           // value outside an enum
		"package p\nenum E id=1 base=int32\n\tvalue A 1\n",   // no =
		"package p\nenum E id=1 base=int32\n\tvalue A = x\n", // not a number
		"package p\nunion U id=1\n\tcase 1 string go=\n",     // empty Go type
		"package p\nunion U id=1\n\tcase 1 string str\n",     // unknown word
		// Types TypeRef.String never writes (issue 25 item 3: map and
		// map<string> panicked in the comparison, the others were
		// reported as breaking changes).
		"package p\nstruct A id=1\n\tfield 1 list decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 list<a,b,c> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 list<int32,int32> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 type255 decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 map decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 map<string> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 set<> decl=\"\"\n",
		"package p\nstruct A id=1\n\tfield 1 int32<int32> decl=\"\"\n",
		"package p\nunion U id=1\n\tcase 1 map<string> go=M\n",
	} {
		if _, err := Parse("fory.lock", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		} else if !strings.HasPrefix(err.Error(), "fory.lock:") {
			t.Errorf("%q: error %q does not name the line", bad, err)
		}
	}
}

// Every malformed type names its line: the lock is parsed before any
// comparison, so -check reports the line instead of panicking (issue 25
// item 3).
func TestParseBadTypesNameTheLine(t *testing.T) {
	for _, typ := range []string{"map", "map<string>", "list", "list<a,b,c>", "type255"} {
		text := "# comment\npackage p\nstruct A id=1\n\tfield a int32 go=A decl=\"\"\n\tfield b " + typ + " go=B decl=\"\"\n"
		_, err := Parse("dir/fory.lock", []byte(text))
		if err == nil || !strings.HasPrefix(err.Error(), "dir/fory.lock:5: ") {
			t.Errorf("%s: error %v, want one at dir/fory.lock:5", typ, err)
		}
	}
}

// FuzzParse: a lock file is user-edited input. Parse never panics; what it
// parses writes back to text that parses to the same lock, and compares
// with itself and with a lock of real declarations without a panic.
func FuzzParse(f *testing.F) {
	cur := buildU(f, base(), enums(), unions(), nil)
	text := cur.Marshal()
	f.Add(text)
	f.Add(buildU(f, base(), enums(), unions(), map[string]bool{"tracking": true, "Leaf": true}).Marshal())
	for _, line := range []string{"field 5 map<string> go=X decl=\"\"", "field 5 map go=X decl=\"\"", "field 5 list<a,b,c> decl=\"\"",
		"field id type255 decl=\"\"", "field id list<?&compatible_struct(id=5)> nullable ref tracked go=X decl=\"X []*T\""} {
		f.Add([]byte("package " + pkgPath + "\nstruct User id=10 mode=compatible hash=0x1\n\t" + line + "\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse("fory.lock", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fory.lock:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		out := g.Marshal()
		h, err := Parse("fory.lock", out)
		if err != nil {
			t.Fatalf("written lock does not parse: %v\n%s", err, out)
		}
		if again := h.Marshal(); string(again) != string(out) {
			t.Fatalf("round trip differs:\n%s\n---\n%s", out, again)
		}
		_ = Diff(g, h)
		_ = Diff(g, cur)
		_ = Diff(cur, g)
		_ = g.Options()
	})
}
