package dump

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// golden is one .bin file of the golden sets with the root type the tree
// must name.
type golden struct {
	set, name, mode, path string
	root                  string // expected "root: …" text
	officialBug           bool   // known_official_bug: the bytes contradict their own TypeDef
}

var fixtureSets = []string{"xlang-fixtures", "xlang-fixtures-2", "xlang-fixtures-3"}

func goldenFiles(t testing.TB) []golden {
	t.Helper()
	var out []golden
	for _, set := range fixtureSets {
		dir := filepath.Join("..", "..", "..", "internal", "testdata", set)
		raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Cases []struct {
				Name          string
				RootType      string `json:"root_type"`
				KnownBug      any    `json:"known_official_bug"`
				Registrations []struct {
					GoType    string `json:"go_type"`
					Kind      string
					ID        *int
					Namespace string
					TypeName  string `json:"type_name"`
				}
				Modes map[string]struct{ File string }
			}
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range m.Cases {
			for mode, mf := range c.Modes {
				if mf.File == "" {
					continue
				}
				g := golden{set: set, name: c.Name, mode: mode, path: filepath.Join(dir, mf.File), officialBug: c.KnownBug != nil}
				g.root = rootName(c.RootType, mode == "compatible")
				for _, r := range c.Registrations {
					if r.GoType != c.RootType {
						continue
					}
					reg := ""
					if r.ID != nil {
						reg = fmt.Sprintf("id=%d", *r.ID)
					} else {
						reg = qualified(r.Namespace, r.TypeName)
					}
					switch {
					case r.Kind == "union" && r.ID != nil:
						g.root = "TYPED_UNION " + reg
					case r.Kind == "union":
						g.root = "NAMED_UNION " + reg
						if mode == "compatible" {
							g.root += " (TypeDef #0)"
						}
					case mode == "compatible" && r.ID != nil:
						g.root = "COMPATIBLE_STRUCT " + reg + " (TypeDef #0)"
					case mode == "compatible":
						g.root = "NAMED_COMPATIBLE_STRUCT " + reg + " (TypeDef #0)"
					case r.ID != nil:
						g.root = "STRUCT " + reg
					default:
						g.root = "NAMED_STRUCT " + reg
					}
				}
				if g.root == "" {
					t.Fatalf("%s/%s: no expected root for %q", set, c.Name, c.RootType)
				}
				out = append(out, g)
			}
		}
	}
	return out
}

// rootName is the type id official Go writes for a non-struct root
// (docs/format.md §12.2).
func rootName(goType string, _ bool) string {
	switch {
	case goType == "string":
		return "STRING"
	case goType == "int64":
		return "VARINT64"
	case goType == "[]int32":
		return "INT32_ARRAY"
	case strings.HasPrefix(goType, "map["):
		return "MAP"
	}
	return ""
}

// TestGoldenFiles runs every golden file through the decoder: the tree
// names the root type the manifest registers, compatible messages are
// walked to their last byte, same-schema struct messages stop at the first
// struct body and say why, and nothing is malformed but the two files that
// keep official Go's bfloat16 pointer bug (§14.26).
func TestGoldenFiles(t *testing.T) {
	files := goldenFiles(t)
	if len(files) < 260 {
		t.Fatalf("found %d golden files; the manifests list more than 260", len(files))
	}
	complete := 0
	for _, g := range files {
		data, err := os.ReadFile(g.path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		res, err := Decode(&out, data, Options{})
		tree := out.String()
		if !strings.Contains(tree, "  root: "+g.root+"\n") {
			t.Errorf("%s: the tree does not name the root %q:\n%s", g.path, g.root, head(tree, 12))
			continue
		}
		var me *Error
		switch {
		case g.officialBug && strings.Contains(g.name, "bfloat16") && g.mode == "compatible":
			if !errors.As(err, &me) || !strings.Contains(tree, "error: ") {
				t.Errorf("%s: official Go's bfloat16 pointer without its flag decoded as valid (err %v)", g.path, err)
			}
		case err != nil:
			t.Errorf("%s: %v\n%s", g.path, err, tail(tree, 8))
		case res.Complete:
			complete++
			if !strings.Contains(tree, fmt.Sprintf("end of message (%d bytes", len(data))) {
				t.Errorf("%s: complete without the end line", g.path)
			}
		case g.mode == "compatible" && !strings.Contains(res.Stopped, "§14.11"):
			t.Errorf("%s: compatible message not walked to the end: %s\n%s", g.path, res.Stopped, tail(tree, 8))
		case !strings.Contains(tree, "not decoded: "):
			t.Errorf("%s: stopped without saying why", g.path)
		}
		if res.Mode.String() != map[string]string{"compatible": "compatible", "schema-consistent": "same-schema"}[g.mode] &&
			g.root != "STRING" && g.root != "VARINT64" && g.root != "INT32_ARRAY" && g.root != "MAP" && !strings.HasSuffix(g.root, "_UNION demo.Token") && !strings.HasPrefix(g.root, "TYPED_UNION") {
			t.Errorf("%s: mode %s inferred", g.path, res.Mode)
		}
	}
	if complete < 135 {
		t.Errorf("only %d of %d golden files decoded completely", complete, len(files))
	}
}

func head(s string, n int) string {
	l := strings.SplitAfter(s, "\n")
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "")
}

func tail(s string, n int) string {
	l := strings.SplitAfter(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "")
}

// TestTruncatedGolden cuts every compatible golden file of the first set
// up to 1 KiB at every offset: each prefix is malformed at or before its
// end, and the reason is printed.
func TestTruncatedGolden(t *testing.T) {
	for _, g := range goldenFiles(t) {
		if g.set != "xlang-fixtures" || g.mode != "compatible" {
			continue
		}
		data, _ := os.ReadFile(g.path)
		if len(data) > 1024 {
			continue
		}
		for n := 0; n < len(data); n++ {
			var out bytes.Buffer
			res, err := Decode(&out, data[:n], Options{})
			var me *Error
			if res.Stopped != "" {
				continue // a bare struct map value (§14.11) before the cut
			}
			if !errors.As(err, &me) || me.Offset > n {
				t.Fatalf("%s cut at %d: err %v (res %+v)", g.path, n, err, res)
			}
			if !strings.Contains(out.String(), "error: ") {
				t.Fatalf("%s cut at %d: the tree does not show the error", g.path, n)
			}
		}
	}
}

func decodeHex(t *testing.T, h string, opt Options) (string, Result, error) {
	t.Helper()
	b, err := parseHex(h)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res, err := Decode(&out, b, opt)
	return out.String(), res, err
}

// TestMalformed checks that a broken message names the offset and the
// reason, after the tree of what came before.
func TestMalformed(t *testing.T) {
	cases := []struct {
		name, hex string
		off       int
		reason    string
	}{
		{"empty", "", 0, "empty input"},
		{"not xlang", "00 ff 15 02", 0, "xlang bit"},
		{"reserved header bits", "05 ff", 0, "reserved bits"},
		{"bad flag", "01 7f", 1, "flag byte 0x7f"},
		{"back-reference to nothing", "01 fe 03", 1, "reference to object #3, but only 0"},
		{"unknown type id", "01 ff 99", 2, "unknown type id 153"},
		{"list count beyond the input", "01 ff 16 ff ff 03", 3, "element count 65535 exceeds the 0 bytes left"},
		{"list header reserved bits", "01 ff 16 01 f8", 4, "reserved bits 4-7"},
		{"declared element without a type", "01 ff 16 01 0c 02", 4, "declares the element type"},
		{"string beyond the input", "01 ff 15 f2 01 61", 3, "string of 60 bytes exceeds the 1 bytes left"},
		{"string encoding 3", "01 ff 15 07 61", 3, "encoding 3"},
		{"utf16 odd length", "01 ff 15 05 61", 3, "odd byte length"},
		{"trailing bytes", "01 ff 05 02 aa bb", 4, "2 trailing bytes"},
		{"map chunk larger than the map", "01 ff 18 01 00 02 15 15 02 02", 5, "chunk of 2 entries with 1 entries left"},
		{"map chunk reserved bits", "01 ff 18 01 c0", 4, "reserved bits 6-7"},
		{"shared TypeDef out of order", "01 ff 1c 02", 3, "numbered #1, but 0 TypeDefs precede it"},
		{"shared TypeDef reference to nothing", "01 ff 1c 01", 3, "reference to TypeDef #0, but only 0"},
		{"TypeDef with a bad hash", "01 ff 1c 00 1a 50 ae 72 ee 1e 8c 4c cc 01 c4 05 c8 05 cc 05 d0 05 d4 05 d8 05 dc 05 e0 05 e4 05 e8 05 ec 05 f0 05", 4, "TypeDef #0"},
		{"truncated varint", "01 ff 05 80", 3, "truncated"},
		{"dense array not a multiple", "01 ff 2e 03 00 00 00", 3, "not a multiple of the 4-byte element"},
		{"compatible struct in same-schema mode", "01 ff 1c 00", 2, "the writer used compatible mode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := Options{}
			if strings.Contains(c.name, "same-schema") {
				opt.Mode = SameSchema
			}
			tree, _, err := decodeHex(t, c.hex, opt)
			var me *Error
			if !errors.As(err, &me) {
				t.Fatalf("err %v, want *Error\n%s", err, tree)
			}
			if me.Offset != c.off || !strings.Contains(me.Reason, c.reason) {
				t.Errorf("got offset %d %q, want offset %d and %q", me.Offset, me.Reason, c.off, c.reason)
			}
			if !strings.Contains(tree, "error: "+me.Reason) {
				t.Errorf("the tree does not end with the error:\n%s", tree)
			}
		})
	}
}

// TestBitByBit checks the decoded headers of hand-made messages: a root
// list of nullable strings, a root map with a null value chunk, and a
// tracked back-reference.
func TestBitByBit(t *testing.T) {
	tree, res, err := decodeHex(t, "01 ff 16 03 0a 15 ff 06 61 fd ff 02", Options{})
	if err != nil || !res.Complete {
		t.Fatalf("%v %+v\n%s", err, res, tree)
	}
	for _, want := range []string{
		"0004    elements header 0x0a: track_ref=0 has_null=1 declared=0 same_type=1",
		"0005    element type 0x15 STRING",
		"0006    [0]: flag ff (present, not tracked) = \"a\" (utf8, 1 bytes)",
		"0009    [1]: flag fd (null)",
	} {
		if !strings.Contains(tree, want+"\n") {
			t.Errorf("missing %q in\n%s", want, tree)
		}
	}
	// map[string]*string{"k": nil, "a": "b"}: a null-value chunk, then a
	// chunk with both types in it.
	tree, res, err = decodeHex(t, "01 ff 18 02 10 15 06 6b 00 01 15 15 06 61 06 62", Options{})
	if err != nil || !res.Complete {
		t.Fatalf("%v %+v\n%s", err, res, tree)
	}
	for _, want := range []string{
		"0004    chunk header 0x10: key track_ref=0 null=0 declared=0; value track_ref=0 null=1 declared=0: one entry, no size",
		"0008    chunk header 0x00: key track_ref=0 null=0 declared=0; value track_ref=0 null=0 declared=0",
		"000a      key type 0x15 STRING",
		"000e      [1] value = \"b\" (utf8, 1 bytes)",
	} {
		if !strings.Contains(tree, want+"\n") {
			t.Errorf("missing %q in\n%s", want, tree)
		}
	}
}

// TestCLIHexAndExit runs Main as the subcommand does: hex input from
// stdin, exit 1 and the offset on stderr for a malformed message.
func TestCLIHexAndExit(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"-hex"}, strings.NewReader("0x01, 0xff, 0x07, 0x03\n"), &out, &errb, nil)
	if code != 0 || !strings.Contains(out.String(), "0003    VARINT64 = -2\n") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	code = Main([]string{"-hex", "-"}, strings.NewReader("01 ff 16 09"), &out, &errb, nil)
	if code != 1 || !strings.Contains(errb.String(), "malformed at offset 0x0003 (3): element count 9 exceeds the 0 bytes left") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	code = Main([]string{"-compatible", "-auto"}, strings.NewReader(""), io.Discard, &errb, nil)
	if code != 2 {
		t.Fatalf("conflicting modes: exit %d", code)
	}
}

// FuzzDecode feeds the decoder arbitrary bytes, seeded with every golden
// file: it never panics, and a message it calls complete re-decodes the
// same way.
func FuzzDecode(f *testing.F) {
	for _, g := range goldenFiles(f) {
		data, err := os.ReadFile(g.path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opt := Options{Mode: Mode(mode % 3)}
		res, err := Decode(io.Discard, data, opt)
		var me *Error
		if err != nil && !errors.As(err, &me) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if err != nil && (me.Offset < 0 || me.Offset > len(data)) {
			t.Fatalf("error offset %d outside the %d-byte input", me.Offset, len(data))
		}
		if err == nil && !res.Complete && res.Stopped == "" {
			t.Fatalf("neither complete, stopped nor an error")
		}
	})
}
