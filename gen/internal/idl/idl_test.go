package idl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compile writes files (name → text) to a temporary directory and compiles
// the first.
func compile(t *testing.T, files map[string]string, first string) (string, []Output, []error) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Compile(Config{Files: []string{filepath.Join(dir, first)}})
}

// TestIDLErrors: what forygen cannot express, or foryc refuses, is an
// error at the IDL's file:line:col.
func TestIDLErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      string // "line:col: message part"
	}{
		{"optional message field (compiler/examples/user.fdl)", "package p;\nmessage A [id=1] { string s = 1; }\nmessage B [id=2] {\n    optional A a = 1;\n}\n",
			"4:5: forygen idl: B.a: message fields are always optional; remove the optional modifier"},
		{"unknown type", "package p;\nmessage B [id=2] {\n    Missing m = 1;\n}\n", "3:5: forygen idl: B.m: unknown type Missing"},
		{"ref on a scalar", "package p;\nmessage B [id=2] {\n    ref string s = 1;\n}\n", "3:5: forygen idl: B.s: ref is only valid for message/union types"},
		{"ref on an enum", "package p;\nenum E [id=1] { X = 0; }\nmessage B [id=2] {\n    ref E e = 1;\n}\n", "4:5: forygen idl: B.e: ref is only valid for message/union types, not enums"},
		{"ref on a list", "package p;\nmessage B [id=2] {\n    ref list<string> s = 1;\n}\n", "3:5: forygen idl: B.s: ref is not allowed on list/map fields"},
		{"optional any", "package p;\nmessage B [id=2] {\n    optional any a = 1;\n}\n", "3:5: forygen idl: B.a: optional or nullable any is not supported"},
		{"nested collection", "package p;\nmessage B [id=2] {\n    list<list<int32>> l = 1;\n}\n", "3:10: forygen idl: B.l: nested list/map types are not allowed"},
		{"float map key", "package p;\nmessage B [id=2] {\n    map<float64, int32> m = 1;\n}\n", "3:9: forygen idl: B.m: map keys do not support"},
		{"enum union case", "package p;\nenum E [id=1] { X = 0; }\nunion U [id=2] {\n    E e = 1;\n}\n", "4:5: forygen idl: union U: case e is an enum E"},
		{"list union case", "package p;\nunion U [id=2] {\n    list<int32> l = 1;\n}\n", "3:5: forygen idl: union U: case l is a list"},
		{"union id 0", "package p;\nunion U [id=0] {\n    string s = 1;\n}\n", "2:1: forygen idl: union U [id=0]"},
		{"reserved number", "package p;\nmessage B [id=2] {\n    reserved 2, 5 to 7;\n    int32 a = 1;\n    int32 b = 6;\n}\n", "5:5: forygen idl: B: b uses number 6, which is reserved (at 3:17)"},
		{"reserved name", "package p;\nenum E [id=1] {\n    reserved \"OLD\";\n    OLD = 0;\n}\n", "4:5: forygen idl: E: OLD is reserved"},
		{"weak ref", "package p;\nmessage N [id=2] {\n    ref(weak=true) N parent = 1;\n}\n", "3:5: forygen idl: N.parent: ref(weak=true)"},
		{"duplicate id", "package p;\nmessage A [id=2] { }\nmessage B [id=2] { }\n", "3:1: forygen idl: type id 2 used by A and B"},
		{"Go name clash", "package p;\nmessage A_B [id=1] { }\nmessage A [id=2] {\n    message B { }\n}\n", "4:5: forygen idl: Go type name A_B is taken by A_B too"},
		{"field number", "package p;\nmessage A [id=1] {\n    int32 a = 0;\n}\n", "3:5: forygen idl: A.a: field number 0"},
		{"rpc of an enum", "package p;\nenum E [id=1] { X = 0; }\nmessage A [id=2] { }\nservice S {\n    rpc Get (A) returns (E);\n}\n", "5:26: forygen idl: service S: rpc Get: E is an enum"},
		{"rpc of an unknown type", "package p;\nservice S {\n    rpc Get (Nope) returns (Nope);\n}\n", "3:14: forygen idl: service S: rpc Get: unknown type Nope"},
		{"syntax", "package p;\nmessage A [id=1] {\n    int32 a = 1\n}\n", "4:1: forygen idl: want \";\", got \"}\""},
		{"set", "package p;\nmessage A [id=1] {\n    set<int32> s = 1;\n}\n", "3:5: forygen idl: set<…> is not Fory IDL"},
		{"oneof", "package p;\nmessage A [id=1] {\n    oneof pick {\n        int32 a = 1;\n    }\n}\n", "3:5: forygen idl: oneof is protobuf's"},
		{"import public", "package p;\nimport public \"x.fdl\";\n", "2:8: forygen idl: want the imported file's path"},
		{"missing import", "package p;\nimport \"nope.fdl\";\n", "2:1: forygen idl: import \"nope.fdl\": no such file"},
		{"field named as a generated method", "package p;\nmessage A [id=1] {\n    string fory_type = 1;\n}\n", "3:5: forygen idl: A: field fory_type is Go field ForyType, the name of a method"},
		{"union constructor named as a type", "package p;\nmessage Leaf [id=1] { }\nmessage LeafChoice [id=2] { }\nunion Choice [id=3] {\n    Leaf leaf = 1;\n}\n", "5:5: forygen idl: the constructor of case leaf of union Choice is Go identifier LeafChoice, which the declaration at 3:1 has too"},
		{"explicit id out of range", "package p;\nmessage A [id=4294967296] { }\n", "2:15: forygen idl: type option id must be a positive integer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, errs := compile(t, map[string]string{"a.fdl": c.src}, "a.fdl")
			var all []string
			for _, e := range errs {
				all = append(all, e.Error())
			}
			for _, e := range all {
				i := strings.Index(e, "a.fdl:")
				if i >= 0 && strings.HasPrefix(e[i+len("a.fdl:"):], c.want) {
					return
				}
			}
			t.Errorf("errors\n%s\nwant one at a.fdl:%s", strings.Join(all, "\n"), c.want)
		})
	}
}

// TestAutoIDs: ids of types without [id=…] are foryc's (murmur3 x86_32 of
// the qualified name), as foryc's Go output declares them; ids given
// explicitly are kept; enable_auto_type_id = false registers by name.
func TestAutoIDs(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"package demo;\nmessage Config { string key = 1; }\n", "//fory:generate id=116441401\ntype Config struct"},
		{"package demo.greeter;\nmessage HelloRequest { string name = 1; }\n", "//fory:generate id=2896282523\ntype HelloRequest struct"},
		{"package demo.greeter;\nmessage HelloReply { string reply = 1; }\n", "//fory:generate id=4165738224\ntype HelloReply struct"},
		{"package idlall;\nenum Mood { HAPPY = 0; }\n", "//fory:enum id=2198248927\ntype Mood int32"},
		{"package idlall;\nunion Flip { bool flag = 0; }\n", "//fory:union id=411966525 0=bool\ntype Flip struct"},
		{"package idlall;\nmessage Everything [id=303] {\n message Inner { enum Kind { KIND_A = 0; } }\n}\n", "//fory:enum id=3641194228\ntype Everything_Inner_Kind int32"},
		{"package idlall;\nmessage Everything [id=303] {\n message Inner { string note = 1; }\n}\n", "//fory:generate id=1162354994\ntype Everything_Inner struct"},
		{"package p;\noption enable_auto_type_id = false;\nmessage A { message B { } }\n", "//fory:generate name=p.A.B\ntype A_B struct"},
		{"package p alias q;\nmessage A { }\n", "//fory:generate id=" + itoa(murmur3([]byte("q.A"))) + "\n"},
		{"package p;\nmessage A [alias=\"x.Y\"] { }\n", "//fory:generate id=" + itoa(murmur3([]byte("x.Y"))) + "\n"},
		{"package p;\nmessage A [id=7, evolving=false] { }\n", "//fory:generate id=7 evolving=false\n"},
		{"package p;\noption go_nested_type_style = \"camelcase\";\nmessage A [id=1] { message B [id=2] { } }\n", "type AB struct"},
	} {
		_, outs, errs := compile(t, map[string]string{"a.fdl": c.src}, "a.fdl")
		if len(errs) > 0 {
			t.Errorf("%q: %v", c.src, errs)
			continue
		}
		if got := string(outs[0].Content); !strings.Contains(got, c.want) {
			t.Errorf("%q: no %q in\n%s", c.src, c.want, got)
		}
	}
}

func itoa(n uint32) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}

// TestNames: foryc's Go names (to_pascal_case, strip_enum_prefix).
func TestNames(t *testing.T) {
	for in, want := range map[string]string{"sensor_id": "SensorId", "HTTP_CODE": "HttpCode", "UNKNOWN": "Unknown",
		"userId": "UserId", "to": "To", "to_": "To", "a1_b2": "A1B2", "ID": "Id"} {
		if got := pascal(in); got != want {
			t.Errorf("pascal(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range [][3]string{{"DeviceTier", "DEVICE_TIER_UNKNOWN", "UNKNOWN"}, {"DeviceTier", "DEVICE_TIER_1", "DEVICE_TIER_1"},
		{"Color", "GREEN", "GREEN"}, {"HTTPStatus", "HTTP_STATUS_OK", "OK"}} {
		if got := stripEnumPrefix(c[0], c[1]); got != c[2] {
			t.Errorf("stripEnumPrefix(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	if got := murmur3([]byte("demo.Config")); got != 116441401 {
		t.Errorf("murmur3(demo.Config) = %d", got)
	}
}

// TestImports: a type of an imported file is named by its Go package, from
// the imported file's go_package.
func TestImports(t *testing.T) {
	files := map[string]string{
		"common.fdl": "package common;\noption go_package = \"example.com/m/common\";\nmessage Address [id=1] { string city = 1; }\nenum Status [id=2] { OK = 0; }\n",
		"user.fdl":   "package user;\nimport \"common.fdl\";\nmessage User [id=3] {\n    Address home = 1;\n    common.Status status = 2;\n}\n",
		"bare.fdl":   "package bare;\nmessage Thing [id=9] { }\n",
		"uses.fdl":   "package uses;\nimport \"bare.fdl\";\nmessage U [id=10] {\n    Thing t = 1;\n}\n",
	}
	_, outs, errs := compile(t, files, "user.fdl")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := string(outs[0].Content)
	for _, want := range []string{"\"example.com/m/common\"", "Home   *common.Address `fory:\"id=1,nullable\"`", "Status common.Status   `fory:\"id=2\"`"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	_, _, errs = compile(t, files, "uses.fdl")
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "has no go_package option") {
		t.Errorf("errors %v, want one about bare.fdl's go_package", errs)
	}
}

// TestOneRun: files given together make one Go package, and a type of one
// is named unqualified in another that imports it.
func TestOneRun(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.fdl": "package p;\nmessage A [id=1] { string s = 1; }\n",
		"b.fdl": "package p.b;\noption go_package = \";p\";\nimport \"a.fdl\";\nmessage B [id=2] {\n    A a = 1;\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg, outs, errs := Compile(Config{Files: []string{filepath.Join(dir, "a.fdl"), filepath.Join(dir, "b.fdl")}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if pkg != "p" || len(outs) != 2 || outs[0].Name != "p.go" || outs[1].Name != "p_b.go" {
		t.Fatalf("package %s, files %v", pkg, outs)
	}
	if got := string(outs[1].Content); !strings.Contains(got, "A *A `fory:\"id=1,nullable\"`") {
		t.Errorf("B's field A is not *A:\n%s", got)
	}
}

// TestGRPCOnePackage: two files of a run with services share the
// package's codec, declared once.
func TestGRPCOnePackage(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.fdl": "package p;\nmessage A [id=1] { }\nservice SA {\n    rpc Get (A) returns (A);\n}\n",
		"b.fdl": "package p.b;\noption go_package = \";p\";\nmessage B [id=2] { }\nservice SB {\n    rpc Watch (B) returns (stream B);\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, outs, errs := Compile(Config{Files: []string{filepath.Join(dir, "a.fdl"), filepath.Join(dir, "b.fdl")}, GRPC: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	n := 0
	for _, o := range outs {
		n += strings.Count(string(o.Content), "var ForyCodec =")
		if strings.HasSuffix(o.Name, "_grpc.go") && !strings.Contains(string(o.Content), "func RegisterS") {
			t.Errorf("%s has no server registration", o.Name)
		}
	}
	if len(outs) != 4 || n != 1 {
		t.Errorf("%d files, ForyCodec declared %d times", len(outs), n)
	}
}
