package conformance_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forygen/forygen/internal/conformance/benchid"
	"github.com/forygen/forygen/internal/conformance/benchlongns"
	"github.com/forygen/forygen/internal/conformance/benchname"
	"github.com/forygen/forygen/internal/conformance/benchnons"
	"github.com/forygen/forygen/internal/conformance/bytefields"
	"github.com/forygen/forygen/internal/conformance/deepid"
	"github.com/forygen/forygen/internal/conformance/deepname"
	"github.com/forygen/forygen/internal/conformance/enums"
	"github.com/forygen/forygen/internal/conformance/enumsname"
	"github.com/forygen/forygen/internal/conformance/evonum"
	"github.com/forygen/forygen/internal/conformance/evov1"
	"github.com/forygen/forygen/internal/conformance/evov2"
	"github.com/forygen/forygen/internal/conformance/intenc"
	"github.com/forygen/forygen/internal/conformance/maps"
	"github.com/forygen/forygen/internal/conformance/mixed"
	"github.com/forygen/forygen/internal/conformance/namerules"
	"github.com/forygen/forygen/internal/conformance/nested"
	"github.com/forygen/forygen/internal/conformance/nullable"
	"github.com/forygen/forygen/internal/conformance/prims"
	"github.com/forygen/forygen/internal/conformance/ptrs"
	"github.com/forygen/forygen/internal/conformance/slices"
	"github.com/forygen/forygen/internal/conformance/strs"
	"github.com/forygen/forygen/internal/conformance/structlists"
	"github.com/forygen/forygen/internal/conformance/times"
	"github.com/forygen/forygen/internal/conformance/wide"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer"
)

// Mode names, as used in manifest.json.
const (
	modeConsistent = "schema-consistent"
	modeCompatible = "compatible"
)

// caseTypes says which Go types play a manifest case.
type caseTypes struct {
	// root returns a new pointer to the case's root_type (the writer).
	root func() any
	// reader returns a new pointer to reader.root_type, for cases with a reader
	// section (schema evolution): the file is decoded with this type.
	reader func() any
	// fixDecoded adjusts the case's value into the value a decoder must produce
	// (see the case's notes); the bytes are still written from the unmodified value.
	fixDecoded func(v any)
}

func ptr[T any]() any { return new(T) }

// caseTable maps every manifest case to its Go types. Cases whose declarations
// and registrations are identical share a package; types with the same name but
// another declaration or registration live in another package.
var caseTable = map[string]caseTypes{
	// Benchmark types registered by id (benchmark_test.go ids 1..10).
	"numeric_struct_id":      {root: ptr[benchid.NumericStruct]},
	"sample_id":              {root: ptr[benchid.Sample]},
	"media_content_id":       {root: ptr[benchid.MediaContent]},
	"numeric_struct_list_id": {root: ptr[benchid.NumericStructList]},
	"sample_list_id":         {root: ptr[benchid.SampleList]},
	"media_content_list_id":  {root: ptr[benchid.MediaContentList]},
	// The same types registered by name in namespace "bench".
	"numeric_struct_name":      {root: ptr[benchname.NumericStruct]},
	"sample_name":              {root: ptr[benchname.Sample]},
	"media_content_name":       {root: ptr[benchname.MediaContent]},
	"numeric_struct_list_name": {root: ptr[benchname.NumericStructList]},
	"sample_list_name":         {root: ptr[benchname.SampleList]},
	"media_content_list_name":  {root: ptr[benchname.MediaContentList]},
	// NumericStruct by name without a namespace, and with a long (> 16 bytes) one.
	"numeric_struct_name_no_namespace":   {root: ptr[benchnons.NumericStruct]},
	"numeric_struct_name_long_namespace": {root: ptr[benchlongns.NumericStruct]},
	// Edge cases (ids 100..119, enums and by-name types in namespace "edge").
	"all_prims_zero":             {root: ptr[prims.AllPrims]},
	"all_prims_min":              {root: ptr[prims.AllPrims]},
	"all_prims_max":              {root: ptr[prims.AllPrims]},
	"strings":                    {root: ptr[strs.Strings]},
	"strings_non_utf8_wire":      {root: ptr[strs.Strings]},
	"slices_nil":                 {root: ptr[slices.Slices]},
	"slices_empty":               {root: ptr[slices.Slices]},
	"slices_values":              {root: ptr[slices.Slices]},
	"nullable_containers_nil":    {root: ptr[nullable.NullableContainers]},
	"nullable_containers_values": {root: ptr[nullable.NullableContainers]},
	"maps_nil":                   {root: ptr[maps.Maps]},
	"maps_empty":                 {root: ptr[maps.Maps]},
	"maps_single":                {root: ptr[maps.Maps]},
	"maps_multi":                 {root: ptr[maps.Maps]},
	"nested_ptr_nil":             {root: ptr[nested.Outer]},
	"nested_ptr_set":             {root: ptr[nested.Outer]},
	"enum_fields":                {root: ptr[enums.EnumHolder]},
	"enum_ptr_nil":               {root: ptr[enums.EnumHolder]},
	"enum_fields_name":           {root: ptr[enumsname.EnumHolder]},
	"deep_nested_id":             {root: ptr[deepid.Level1]},
	"deep_nested_name":           {root: ptr[deepname.Level1]},
	"times":                      {root: ptr[times.Times]},
	"int_encodings_small":        {root: ptr[intenc.IntEncodings]},
	"int_encodings_large":        {root: ptr[intenc.IntEncodings]},
	"ptrs_nil":                   {root: ptr[ptrs.Ptrs]},
	"ptrs_set":                   {root: ptr[ptrs.Ptrs]},
	"bytes":                      {root: ptr[bytefields.Bytes]},
	"struct_lists":               {root: ptr[structlists.StructLists]},
	"name_rules": {
		root: ptr[namerules.NameRules],
		// Skipped is tagged fory:"-": it is not written, so it decodes as 0.
		fixDecoded: func(v any) { v.(*namerules.NameRules).Skipped = 0 },
	},
	"wide":  {root: ptr[wide.Wide]},
	"mixed": {root: ptr[mixed.Mixed]},
	// Schema evolution: written with root, read with reader.
	"evolution_extra_fields_skipped":     {root: ptr[evov2.PersonV2], reader: ptr[evov1.PersonV1]},
	"evolution_missing_fields_defaulted": {root: ptr[evov1.PersonV1], reader: ptr[evov2.PersonV2]},
	"evolution_numeric_struct_v2":        {root: ptr[benchid.NumericStruct], reader: ptr[evonum.NumericStructV2]},
}

// ---------------------------------------------------------------------------
// The manifest (see its "conventions" field).

type manifest struct {
	Conventions []string       `json:"conventions"`
	Cases       []manifestCase `json:"cases"`
}

type manifestCase struct {
	Name              string              `json:"name"`
	Description       string              `json:"description"`
	RootType          string              `json:"root_type"`
	GoTypes           string              `json:"go_types"`
	Registrations     []registration      `json:"registrations"`
	Value             json.RawMessage     `json:"value"`
	Reader            *readerSpec         `json:"reader"`
	ByteDeterministic bool                `json:"byte_deterministic"`
	Notes             []string            `json:"notes"`
	Modes             map[string]modeSpec `json:"modes"`
}

type readerSpec struct {
	RootType      string          `json:"root_type"`
	Description   string          `json:"description"`
	GoTypes       string          `json:"go_types"`
	Registrations []registration  `json:"registrations"`
	ExpectedValue json.RawMessage `json:"expected_value"`
}

type registration struct {
	GoType    string  `json:"go_type"`
	Kind      string  `json:"kind"` // "struct" or "enum"
	ID        *int    `json:"id"`
	Namespace *string `json:"namespace"`
	TypeName  string  `json:"type_name"`
	Call      string  `json:"call"`
}

type modeSpec struct {
	File      string     `json:"file"`
	Size      int        `json:"size"`
	SHA256    string     `json:"sha256"`
	Hex       string     `json:"hex"`
	Origin    string     `json:"origin"`
	Rejected  string     `json:"rejected"`
	RoundTrip *roundTrip `json:"round_trip"`
}

type roundTrip struct {
	Decoded                 bool  `json:"decoded"`
	ExactDeepEqual          bool  `json:"exact_deep_equal"`
	EqualAfterNormalization bool  `json:"equal_after_normalization"`
	ReencodeIdenticalBytes  *bool `json:"reencode_identical_bytes"`
}

// fixturesDir returns the golden fixture directory (internal/testdata, part
// of the repository: a missing directory is a failure, never a skip).
func fixturesDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "testdata", "xlang-fixtures")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("xlang fixtures not found at %s: %v", dir, err)
	}
	return dir
}

// loadManifest finds the fixtures and parses manifest.json.
func loadManifest(t *testing.T) (string, *manifest) {
	t.Helper()
	dir := fixturesDir(t)
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("reading manifest: %v", err)
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("parsing %s: %v", filepath.Join(dir, "manifest.json"), err)
	}
	if len(m.Cases) == 0 {
		t.Fatalf("%s lists no cases", filepath.Join(dir, "manifest.json"))
	}
	return dir, &m
}

// ---------------------------------------------------------------------------
// Tests.

// The golden files are official Go's bytes: forygen writes them byte for
// byte in official Go's form; its default form, the other languages'
// (peerConsistent), reads them as well (README, "Differences from official
// Fory Go"; docs/format.md §14.29).
func TestXlangSchemaConsistent(t *testing.T) {
	runMode(t, modeConsistent, serializer.New(serializer.WithCompatible(false), serializer.WithOfficialGoForm(true)))
}

var peerConsistent = serializer.New(serializer.WithCompatible(false))

func TestXlangCompatible(t *testing.T) {
	runMode(t, modeCompatible, serializer.New()) // compatible is the default
}

// TestXlangCaseTable checks that caseTable and the manifest list the same cases
// and that each entry's types have the manifest's root (and reader) type names.
func TestXlangCaseTable(t *testing.T) {
	_, m := loadManifest(t)
	seen := map[string]bool{}
	for _, c := range m.Cases {
		if seen[c.Name] {
			t.Errorf("manifest lists case %q twice", c.Name)
		}
		seen[c.Name] = true
		ct, ok := caseTable[c.Name]
		if !ok {
			t.Errorf("manifest case %q has no entry in caseTable (xlang_test.go)", c.Name)
			continue
		}
		checkTypeNames(t, c, ct)
	}
	for name := range caseTable {
		if !seen[name] {
			t.Errorf("caseTable entry %q is not a manifest case", name)
		}
	}
}

func checkTypeNames(t *testing.T, c manifestCase, ct caseTypes) {
	t.Helper()
	if ct.root == nil {
		t.Errorf("%s: caseTable entry has no root factory", c.Name)
		return
	}
	if got := typeName(ct.root()); got != c.RootType {
		t.Errorf("%s: root factory makes *%s, manifest root_type is %s", c.Name, got, c.RootType)
	}
	switch {
	case c.Reader != nil && ct.reader == nil:
		t.Errorf("%s: the case has a reader (%s) but caseTable has no reader factory", c.Name, c.Reader.RootType)
	case c.Reader == nil && ct.reader != nil:
		t.Errorf("%s: caseTable has a reader factory but the case has no reader section", c.Name)
	case c.Reader != nil:
		if got := typeName(ct.reader()); got != c.Reader.RootType {
			t.Errorf("%s: reader factory makes *%s, manifest reader.root_type is %s", c.Name, got, c.Reader.RootType)
		}
	}
}

func typeName(p any) string {
	t := reflect.TypeOf(p)
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Sprintf("<not a pointer: %T>", p)
	}
	return t.Elem().Name()
}

// runMode runs every manifest case as a subtest with f and prints one summary
// line.
func runMode(t *testing.T, mode string, f *serializer.Fory) {
	dir, m := loadManifest(t)
	passed, failed := 0, 0
	for _, c := range m.Cases {
		ran := false // false when go test -run filters the subtest out
		ok := t.Run(c.Name, func(t *testing.T) {
			ran = true
			runCase(t, f, dir, mode, c)
		})
		switch {
		case !ran:
		case ok:
			passed++
		default:
			failed++
		}
	}
	line := fmt.Sprintf("xlang %s: %d passed, %d failed", mode, passed, failed)
	t.Log(line)
	fmt.Printf("%s\n", line)
}

func runCase(t *testing.T, f *serializer.Fory, dir, mode string, c manifestCase) {
	ct, ok := caseTable[c.Name]
	if !ok {
		t.Fatalf("manifest case %q has no entry in caseTable (xlang_test.go): declare its go_types under conformance/ and add it", c.Name)
	}
	checkTypeNames(t, c, ct)
	if t.Failed() {
		t.FailNow()
	}
	ms, ok := c.Modes[mode]
	if !ok {
		t.Fatalf("manifest has no %q entry for this case", mode)
	}

	// The value the official library serialized (a pointer to the root type).
	written := ct.root()
	if err := json.Unmarshal(c.Value, written); err != nil {
		t.Fatalf("decoding the case's JSON value into %T: %v", written, err)
	}

	if ms.Rejected != "" {
		checkRejected(t, f, c, ct, written, ms.Rejected)
		return
	}
	if ms.File == "" {
		t.Fatalf("mode %q has neither a file nor a rejection", mode)
	}
	data := readFixture(t, dir, ms)
	exact := ms.RoundTrip != nil && ms.RoundTrip.ExactDeepEqual
	// Bytes are compared when official Fory Go wrote the file and its bytes do
	// not depend on map iteration order. Hand-built files (strings_non_utf8_wire:
	// LATIN1/UTF16 payloads official Go never writes) are for readers only.
	compareBytes := c.ByteDeterministic && strings.HasPrefix(ms.Origin, "official")

	// 1. Decode the golden bytes and compare with the expected value.
	newTarget, expectedJSON, fix := ct.root, c.Value, ct.fixDecoded
	if c.Reader != nil {
		newTarget, expectedJSON, fix = ct.reader, c.Reader.ExpectedValue, nil
	}
	want := newTarget()
	if err := json.Unmarshal(expectedJSON, want); err != nil {
		t.Fatalf("decoding the expected JSON value into %T: %v", want, err)
	}
	if fix != nil {
		fix(want)
	}
	got := newTarget()
	decoded := false
	if err := f.Deserialize(data, got); err != nil {
		t.Errorf("Deserialize(%s) into %T: %v", ms.File, got, err)
	} else {
		decoded = true
		if diffs := diffValues(want, got, !exact); len(diffs) > 0 {
			t.Errorf("Deserialize(%s) into %T: decoded value differs from the expected value (%s comparison):\n  %s",
				ms.File, got, comparisonName(exact), strings.Join(diffs, "\n  "))
		}
	}

	// 1b. In same-schema mode the default form reads official Go's bytes
	// too (official Go's schema hash of a pointer or any field), and its
	// own bytes round-trip.
	if mode == modeConsistent && decoded {
		got2 := newTarget()
		if err := peerConsistent.Deserialize(data, got2); err != nil {
			t.Errorf("default form: Deserialize(%s) into %T: %v", ms.File, got2, err)
		} else if diffs := diffValues(got, got2, false); len(diffs) > 0 {
			t.Errorf("default form: Deserialize(%s) differs from official Go's form:\n  %s", ms.File, strings.Join(diffs, "\n  "))
		}
		if c.Reader == nil {
			own, err := peerConsistent.Serialize(written)
			back := newTarget()
			if err == nil {
				err = peerConsistent.Deserialize(own, back)
			}
			if err != nil {
				t.Errorf("default form: round trip of %T: %v", written, err)
			}
		}
	}

	// 2. Serialize the written value and compare bytes. For evolution cases the
	// file was written from the root (writer) type, so that is what we write.
	// Where official Go writes a long field name its own way, we write the
	// specification's (docs/format.md §14.1): the expected bytes are the
	// golden file with its TypeDefs in the spec's form.
	data = specTypeDefs(data)
	out, err := f.Serialize(written)
	switch {
	case err != nil:
		t.Errorf("Serialize(%T): %v", written, err)
	case compareBytes:
		if !bytes.Equal(out, data) {
			t.Errorf("Serialize(%T) differs from %s:\n%s", written, ms.File, hexDiff(data, out))
		}
	default:
		// No golden bytes to match (map order, hand-built file): our own bytes
		// must decode back to the value.
		back, wantBack := ct.root(), ct.root()
		if err := json.Unmarshal(c.Value, wantBack); err != nil {
			t.Fatalf("decoding the case's JSON value: %v", err)
		}
		if ct.fixDecoded != nil {
			ct.fixDecoded(wantBack)
		}
		if err := f.Deserialize(out, back); err != nil {
			t.Errorf("Deserialize(Serialize(%T)): %v\n  bytes: %x", written, err, out)
		} else if diffs := diffValues(wantBack, back, !exact); len(diffs) > 0 {
			t.Errorf("Deserialize(Serialize(%T)) differs from the value:\n  %s", written, strings.Join(diffs, "\n  "))
		}
	}

	// 3. Re-encoding the decoded value reproduces the file when it did for the
	// official library (reencode_identical_bytes), e.g. nil slices decoded as empty.
	if decoded && c.Reader == nil && compareBytes && ms.RoundTrip != nil &&
		ms.RoundTrip.ReencodeIdenticalBytes != nil && *ms.RoundTrip.ReencodeIdenticalBytes {
		re, err := f.Serialize(got)
		switch {
		case err != nil:
			t.Errorf("Serialize(decoded %T): %v", got, err)
		case !bytes.Equal(re, data):
			t.Errorf("re-encoding the decoded value differs from %s:\n%s", ms.File, hexDiff(data, re))
		}
	}
}

// checkRejected handles a mode the official library refused. For evolution
// cases in same-schema mode there is no file: the official reader refused a
// message written with the other schema. We write the root type with f and
// require that reading it as the reader type fails with a schema mismatch.
func checkRejected(t *testing.T, f *serializer.Fory, c manifestCase, ct caseTypes, written any, official string) {
	t.Helper()
	if c.Reader == nil {
		if _, err := f.Serialize(written); err == nil {
			t.Errorf("official Fory rejected this case (%s) but Serialize(%T) succeeded", official, written)
		}
		return
	}
	data, err := f.Serialize(written)
	if err != nil {
		t.Fatalf("Serialize(%T): %v", written, err)
	}
	target := ct.reader()
	err = f.Deserialize(data, target)
	switch {
	case err == nil:
		t.Errorf("reading a %s message as %T succeeded; official Fory rejects it: %s", c.RootType, target, official)
	case errors.Is(err, serializer.ErrNotGenerated):
		t.Errorf("Deserialize into %T: %v (is its generated code missing?)", target, err)
	case !errors.Is(err, serializer.ErrSchemaMismatch):
		t.Errorf("reading a %s message as %T: got error %v, want one wrapping ErrSchemaMismatch (official: %s)",
			c.RootType, target, err, official)
	default:
		t.Logf("rejected as expected: %v (official: %s)", err, official)
	}
}

// readFixture reads a golden file and checks it against the manifest.
func readFixture(t *testing.T, dir string, ms modeSpec) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ms.File)))
	if err != nil {
		t.Fatalf("reading fixture: %v", err)
	}
	if len(data) != ms.Size {
		t.Fatalf("fixture %s has %d bytes, manifest says %d", ms.File, len(data), ms.Size)
	}
	if sum := sha256.Sum256(data); ms.SHA256 != "" && hex.EncodeToString(sum[:]) != ms.SHA256 {
		t.Fatalf("fixture %s: sha256 %x does not match the manifest (%s)", ms.File, sum, ms.SHA256)
	}
	if ms.Hex != "" && hex.EncodeToString(data) != ms.Hex {
		t.Fatalf("fixture %s does not match the manifest's hex", ms.File)
	}
	return data
}

// specTypeDefs returns data with every TypeDef in it re-encoded in the
// specification's long-field-name form (docs/format.md §14.1), or data
// itself when no TypeDef changes. TypeDefs are found by parsing at every
// offset: a false match would need a body whose 52-bit hash matches.
func specTypeDefs(data []byte) []byte {
	var out []byte
	last := 0
	for off := 0; off+8 <= len(data); off++ {
		td, n, err := meta.ParseTypeDef(data[off:], meta.DefaultLimits)
		if err != nil {
			continue
		}
		if spec := meta.EncodeTypeDef(td); !bytes.Equal(spec, data[off:off+n]) {
			out = append(append(out, data[last:off]...), spec...)
			last = off + n
		}
		off += n - 1
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}
