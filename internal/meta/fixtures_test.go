package meta

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixturesDir returns the golden fixture directory (internal/testdata, part
// of the repository: a missing directory is a failure, never a skip).
func fixturesDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "testdata", "xlang-fixtures")
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatalf("xlang fixtures not found at %s: %v", dir, err)
	}
	return dir
}

type foundTypeDef struct {
	file string
	off  int
	td   *TypeDef
}

// scanTypeDefs finds every TypeDef in a message by trying ParseTypeDef at
// every offset. A false positive would need a 52-bit hash collision on top of
// a structurally valid body, so every hit is a real TypeDef; nested TypeDefs
// are found because nothing is skipped.
func scanTypeDefs(file string, data []byte) []foundTypeDef {
	var out []foundTypeDef
	for i := 0; i+headerLen < len(data); i++ {
		td, _, err := ParseTypeDef(data[i:], DefaultLimits)
		if err == nil {
			out = append(out, foundTypeDef{file, i, td})
		}
	}
	return out
}

type manifest struct {
	Cases []struct {
		Name     string `json:"name"`
		RootType string `json:"root_type"`
		Modes    map[string]struct {
			File    string `json:"file"`
			Structs map[string]struct {
				FieldOrder []struct {
					Name     string `json:"name"`
					TagID    *int   `json:"tag_id"`
					TypeID   int    `json:"type_id"`
					Nullable bool   `json:"nullable"`
				} `json:"field_order"`
				Fingerprint string `json:"fingerprint"`
				SchemaHash  int32  `json:"schema_hash_int32"`
			} `json:"structs"`
		} `json:"modes"`
	} `json:"cases"`
}

func loadManifest(t *testing.T, dir string) *manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	var m manifest
	require.NoError(t, json.Unmarshal(raw, &m))
	require.NotEmpty(t, m.Cases)
	return &m
}

// TestFixtureTypeDefsRoundTrip parses every TypeDef in every compatible
// fixture and checks that EncodeTypeDef of the parsed model reproduces the
// bytes official Go wrote, byte for byte.
func TestFixtureTypeDefsRoundTrip(t *testing.T) {
	dir := fixturesDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "compatible", "*.bin"))
	require.NoError(t, err)
	require.NotEmpty(t, files)

	total, distinct := 0, map[string]bool{}
	sawWide, sawLongName, sawManyFields := false, false, false
	for _, path := range files {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		name := filepath.Base(path)

		// Every fixture root is a struct: 01 ff 1c|1e 00 <TypeDef>.
		require.GreaterOrEqual(t, len(data), 4+headerLen, name)
		require.Contains(t, []byte{0x1c, 0x1e}, data[2], name)
		require.Equal(t, byte(0), data[3], name)
		_, _, err = ParseTypeDef(data[4:], DefaultLimits)
		require.NoError(t, err, "%s: root TypeDef", name)

		found := scanTypeDefs(name, data)
		require.NotEmpty(t, found, name)
		for _, f := range found {
			total++
			distinct[hex.EncodeToString(f.td.Encoded)] = true
			// Official Go's bytes are its long-name form; ours, the
			// spec's, parse to the same TypeDef (§14.1).
			got := encodeTypeDef(f.td, true)
			if !assert.Equal(t, hex.EncodeToString(f.td.Encoded), hex.EncodeToString(got),
				"%s@%d: encodeTypeDef(ParseTypeDef(x), Go form) != x", name, f.off) {
				continue
			}
			back, _, err := ParseTypeDef(EncodeTypeDef(f.td), DefaultLimits)
			require.NoError(t, err, "%s@%d: the spec form", name, f.off)
			assert.Equal(t, wire(f.td), wire(back), "%s@%d: the spec form", name, f.off)
			if len(f.td.Encoded) > headerLen+255 {
				sawWide = true
			}
			if len(f.td.Fields) >= metaSmallFields {
				sawManyFields = true
			}
			for _, fd := range f.td.Fields {
				if fd.TagID < 0 && len(EncodeMetaString(fd.Name, FieldName).Bytes) >= fieldSizeEscape {
					sawLongName = true
				}
			}
		}
	}
	t.Logf("verified %d TypeDef occurrences (%d distinct) in %d compatible fixture files", total, len(distinct), len(files))
	assert.GreaterOrEqual(t, total, 48, "expected dozens of TypeDefs")
	assert.True(t, sawWide, "no TypeDef with a body of 255+ bytes (fixture wide)")
	assert.True(t, sawManyFields, "no TypeDef with 31+ fields (fixture wide)")
	assert.True(t, sawLongName, "no field name of 15+ encoded bytes (fixture wide)")
}

// TestFixtureKnownTypeDefCounts pins how many TypeDefs a few messages hold, so
// the offset scan cannot silently miss or invent some.
func TestFixtureKnownTypeDefCounts(t *testing.T) {
	dir := fixturesDir(t)
	for name, want := range map[string][]int{
		"media_content_id.bin":  {0x04, 0x15, 0xbf}, // §13.4: MediaContent, Media, Image
		"nested_ptr_set.bin":    {0x04, 0x1b},       // Outer, Inner (§11.2)
		"numeric_struct_id.bin": {0x04},
		"wide.bin":              {0x04},
	} {
		data, err := os.ReadFile(filepath.Join(dir, "compatible", name))
		require.NoError(t, err)
		var offs []int
		for _, f := range scanTypeDefs(name, data) {
			offs = append(offs, f.off)
		}
		assert.Equal(t, want, offs, name)
	}
	// §13.4: #0 MediaContentList, #1 MediaContent, #2 Media, #3 Image, then
	// only references.
	data, err := os.ReadFile(filepath.Join(dir, "compatible", "media_content_list_id.bin"))
	require.NoError(t, err)
	assert.Len(t, scanTypeDefs("media_content_list_id.bin", data), 4)
}

// TestFixtureRootFieldsMatchManifest compares the parsed root TypeDef with the
// manifest's independent description of the written field order.
func TestFixtureRootFieldsMatchManifest(t *testing.T) {
	dir := fixturesDir(t)
	m := loadManifest(t, dir)
	checked := 0
	for _, c := range m.Cases {
		mode, ok := c.Modes["compatible"]
		if !ok || mode.File == "" {
			continue
		}
		st, ok := mode.Structs[c.RootType]
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, mode.File))
		require.NoError(t, err)
		td, _, err := ParseTypeDef(data[4:], DefaultLimits)
		require.NoError(t, err, c.Name)
		require.Len(t, td.Fields, len(st.FieldOrder), c.Name)
		for i, want := range st.FieldOrder {
			got := td.Fields[i]
			if want.TagID != nil {
				assert.Equal(t, *want.TagID, got.TagID, "%s field %d", c.Name, i)
			} else {
				assert.Equal(t, -1, got.TagID, "%s field %d", c.Name, i)
				assert.Equal(t, want.Name, got.Name, "%s field %d", c.Name, i)
			}
			assert.Equal(t, want.TypeID, int(got.Type.TypeID), "%s field %d (%s) type", c.Name, i, want.Name)
			assert.Equal(t, want.Nullable, got.Nullable, "%s field %d (%s) nullable", c.Name, i, want.Name)
		}
		checked++
	}
	t.Logf("root TypeDef field lists checked against the manifest: %d", checked)
	assert.Greater(t, checked, 40)
}

// TestFixtureSchemaHashes checks SchemaHash against every fingerprint in the
// manifest (the pinned table in murmur_test.go runs without the fixtures).
func TestFixtureSchemaHashes(t *testing.T) {
	dir := fixturesDir(t)
	m := loadManifest(t, dir)
	seen := map[string]bool{}
	for _, c := range m.Cases {
		for _, mode := range c.Modes {
			for typ, st := range mode.Structs {
				if st.Fingerprint == "" || seen[st.Fingerprint] {
					continue
				}
				seen[st.Fingerprint] = true
				assert.Equal(t, st.SchemaHash, SchemaHash(st.Fingerprint), "%s %s", c.Name, typ)
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("distinct fingerprints checked: %d", len(keys))
	assert.GreaterOrEqual(t, len(keys), 20)
}

// TestDumpFixtureTypeDefs prints every distinct TypeDef (go test -v -run Dump).
func TestDumpFixtureTypeDefs(t *testing.T) {
	if !testing.Verbose() || os.Getenv("FORYGEN_DUMP_TYPEDEFS") == "" {
		t.Skip("set FORYGEN_DUMP_TYPEDEFS=1 and -v to print the fixture TypeDefs")
	}
	dir := fixturesDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "compatible", "*.bin"))
	seen := map[string]bool{}
	for _, path := range files {
		data, _ := os.ReadFile(path)
		for _, f := range scanTypeDefs(filepath.Base(path), data) {
			h := hex.EncodeToString(f.td.Encoded)
			if seen[h] {
				continue
			}
			seen[h] = true
			var sb strings.Builder
			for _, fd := range f.td.Fields {
				sb.WriteString(fieldLabel(&fd) + " ")
			}
			t.Logf("%s@%#x kind=%d id=%d ns=%q name=%q fields=[%s]\n  %s", f.file, f.off, f.td.Kind,
				f.td.UserID, f.td.Namespace, f.td.TypeName, sb.String(), h)
		}
	}
}
