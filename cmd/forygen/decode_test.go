package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeCommand builds forygen and runs `forygen decode` on golden
// files as a user does: a compatible message is walked to its last byte
// and exits 0; a cut one prints the tree so far, the offset and the
// reason, and exits 1.
func TestDecodeCommand(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "forygen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	golden := filepath.Join("..", "..", "internal", "testdata", "xlang-fixtures", "compatible", "nested_ptr_set.bin")
	run := func(stdin string, args ...string) (string, string, int) {
		cmd := exec.Command(bin, append([]string{"decode"}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	out, errs, code := run("", golden)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	for _, want := range []string{
		"0002  root: COMPATIBLE_STRUCT id=105 (TypeDef #0)\n",
		"field 1: 0x4e enc=ATLS size=3 nullable=1 track_ref=0: inner COMPATIBLE_STRUCT nullable\n",
		"x VARINT32 = 7\n",
		"inner COMPATIBLE_STRUCT: flag ff (present, not tracked)\n",
		"s STRING = \"hi\" (utf8, 2 bytes)\n",
		"end of message (",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// The same bytes as hex on stdin, cut before the last byte.
	data := strings.Fields(hexOf(t, golden))
	out, errs, code = run(strings.Join(data[:len(data)-1], " "), "-hex")
	if code != 1 || !strings.Contains(errs, "malformed at offset") || !strings.Contains(out, "error: ") {
		t.Fatalf("cut message: exit %d, stderr %q\n%s", code, errs, out)
	}
	// A same-schema struct stops at its body and says why, with exit 0.
	ss := filepath.Join("..", "..", "internal", "testdata", "xlang-fixtures", "schema-consistent", "nested_ptr_set.bin")
	out, errs, code = run("", ss)
	if code != 0 || !strings.Contains(out, "schema hash 0xab56d5b2 (-1420372558)") || !strings.Contains(errs, "run with -types") {
		t.Fatalf("same-schema: exit %d, stderr %q\n%s", code, errs, out)
	}
}

// TestDecodeCommandTypes walks a same-schema message with -types, by the
// schema hashes of the package's structs, and reports where a compatible
// message's TypeDef differs from the local struct.
func TestDecodeCommandTypes(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "forygen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	conf := filepath.Join("..", "..", "internal", "conformance")
	run := func(pkg, file string) string {
		cmd := exec.Command(bin, "decode", "-types", pkg, filepath.Join("..", "testdata", "xlang-fixtures", file))
		cmd.Dir = conf
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", file, err, out)
		}
		return string(out)
	}
	out := run("./benchid", "schema-consistent/media_content_id.bin")
	for _, want := range []string{
		"0004    fields of benchid.MediaContent (from -types)\n",
		"0008      fields of benchid.Media (from -types)\n",
		"0069      #12 STRING = \"Copyright (c) 2009, Scooby Dooby Doo\" (utf8, 36 bytes)\n",
		"end of message (310 bytes, same-schema mode)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	out = run("./evov1", "compatible/evolution_extra_fields_skipped.bin")
	if !strings.Contains(out, "-types: the TypeDef differs from evov1.PersonV1's:\n") ||
		!strings.Contains(out, "email: only the writer has it (email STRING); a reader skips it\n") {
		t.Errorf("no TypeDef difference reported:\n%s", out)
	}
}

func hexOf(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, c := range b {
		fmt.Fprintf(&sb, "%02x ", c)
	}
	return sb.String()
}
