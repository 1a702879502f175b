// Package roots checks non-struct roots against the golden files of
// official Fory Go (internal/testdata/xlang-fixtures-2, section 3 and the
// two ref_root_* cases of section 1).
package roots

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

var fixtureDir = filepath.Join("..", "..", "testdata", "xlang-fixtures-2")

type bugCheck struct {
	WrittenEntries     int      `json:"written_entries"`
	EntryCountInHeader int      `json:"entry_count_in_header"`
	ChunkSizes         []int    `json:"chunk_sizes"`
	DistinctKeys       int      `json:"distinct_keys_in_file"`
	Duplicates         int      `json:"duplicate_entries_in_file"`
	KeysMissing        int      `json:"keys_missing_from_file"`
	DecodedEntries     int      `json:"decoded_entries"`
	MissingSample      []string `json:"missing_sample"`
}

type fixtureCase struct {
	Name              string          `json:"name"`
	Value             json.RawMessage `json:"value"`
	ByteDeterministic bool            `json:"byte_deterministic"`
	KnownOfficialBug  string          `json:"known_official_bug"` // what official Go does wrong
	Options           map[string]string
	Modes             map[string]struct {
		File     string    `json:"file"`
		Hex      string    `json:"hex"`
		BugCheck *bugCheck `json:"bug_check"`
	} `json:"modes"`
}

func loadCases(t *testing.T) map[string]*fixtureCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "manifest.json"))
	require.NoError(t, err)
	var m struct {
		Cases []*fixtureCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	out := map[string]*fixtureCase{}
	for _, c := range m.Cases {
		out[c.Name] = c
	}
	return out
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

// checkRoot decodes data into a T through both entry points, compares it
// with the manifest value, and re-encodes it: to the same bytes when the
// case is byte-deterministic, else to bytes that decode to the same value.
func checkRoot[T serializer.RootValue](t *testing.T, f *serializer.Fory, c *fixtureCase, data []byte) T {
	t.Helper()
	var want T
	require.NoError(t, json.Unmarshal(c.Value, &want))
	var got T
	require.NoError(t, serializer.UnmarshalValue(f, data, &got))
	var viaAny T
	require.NoError(t, f.Deserialize(data, &viaAny))
	require.Equal(t, got, viaAny)
	if c.KnownOfficialBug != "" {
		return got // the caller checks what the file really holds
	}
	require.Equal(t, want, got)
	ours, err := serializer.MarshalValue(f, got)
	require.NoError(t, err)
	viaSerialize, err := f.Serialize(got)
	require.NoError(t, err)
	if c.ByteDeterministic {
		require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(ours))
		require.Equal(t, ours, viaSerialize)
	} else {
		require.Len(t, ours, len(data), "same entries, another order")
	}
	var back T
	require.NoError(t, serializer.UnmarshalValue(f, ours, &back))
	require.Equal(t, want, back)
	return got
}

// Every non-struct root case decodes to the manifest value in both modes
// and re-encodes to the golden bytes (to the same value where the bytes
// follow Go's map order).
func TestRootGolden(t *testing.T) {
	cases := loadCases(t)
	run := map[string]func(*testing.T, *serializer.Fory, *fixtureCase, []byte){
		"root_int32_slice": func(t *testing.T, f *serializer.Fory, c *fixtureCase, d []byte) { checkRoot[[]int32](t, f, c, d) },
		"root_string_int64_map": func(t *testing.T, f *serializer.Fory, c *fixtureCase, d []byte) {
			checkRoot[map[string]int64](t, f, c, d)
		},
		"root_string": func(t *testing.T, f *serializer.Fory, c *fixtureCase, d []byte) { checkRoot[string](t, f, c, d) },
		"root_int64":  func(t *testing.T, f *serializer.Fory, c *fixtureCase, d []byte) { checkRoot[int64](t, f, c, d) },
		"big_map_root_int32_string": func(t *testing.T, f *serializer.Fory, c *fixtureCase, d []byte) {
			checkRoot[map[int32]string](t, f, c, d)
		},
		"ref_root_int32_slice": func(t *testing.T, f *serializer.Fory, c *fixtureCase, d []byte) { checkRoot[[]int32](t, f, c, d) },
		"ref_root_string":      func(t *testing.T, f *serializer.Fory, c *fixtureCase, d []byte) { checkRoot[string](t, f, c, d) },
	}
	passed := 0
	for name, fn := range run {
		c := cases[name]
		require.NotNil(t, c, name)
		for _, m := range modes {
			t.Run(name+"/"+m.dir, func(t *testing.T) {
				f := serializer.New(serializer.WithCompatible(m.compatible),
					serializer.WithTrackRef(name == "ref_root_int32_slice" || name == "ref_root_string"))
				data, err := os.ReadFile(filepath.Join(fixtureDir, c.Modes[m.dir].File))
				require.NoError(t, err)
				if h := c.Modes[m.dir].Hex; h != "" {
					require.Equal(t, h, hex.EncodeToString(data))
				}
				fn(t, f, c, data)
				passed++
			})
		}
	}
	require.Equal(t, 2*len(run), passed)
}

// With reference tracking off, a root slice has flag ff; with it on, 00
// (ref_root_int32_slice), while a root string keeps ff (ref_root_string):
// official Go tracks slices and maps, not strings. Readers take both
// flags whatever their own option.
func TestRootRefFlag(t *testing.T) {
	on := serializer.New(serializer.WithTrackRef(true))
	off := serializer.New()
	s := []int32{1, -1, 1048576}
	a, err := serializer.MarshalValue(on, s)
	require.NoError(t, err)
	require.Equal(t, "01002e0c01000000ffffffff00001000", hex.EncodeToString(a))
	b, err := serializer.MarshalValue(off, s)
	require.NoError(t, err)
	require.Equal(t, "01ff2e0c01000000ffffffff00001000", hex.EncodeToString(b))
	for _, f := range []*serializer.Fory{on, off} {
		for _, data := range [][]byte{a, b} {
			var got []int32
			require.NoError(t, serializer.UnmarshalValue(f, data, &got))
			require.Equal(t, s, got)
		}
	}
	m, err := serializer.MarshalValue(on, map[string]int64{"a": 1})
	require.NoError(t, err)
	require.Equal(t, byte(0x00), m[1], "a root map is tracked")
	str, err := serializer.MarshalValue(on, "tracked?")
	require.NoError(t, err)
	require.Equal(t, "01ff1522747261636b65643f", hex.EncodeToString(str))
	// A back-reference cannot be the root: nothing precedes it.
	var got []int32
	err = serializer.UnmarshalValue(off, []byte{0x01, 0xfe, 0x00}, &got)
	require.ErrorIs(t, err, serializer.ErrMalformed)
}

// mapEntry is one entry of a root map's chunks, key and value as text.
type mapEntry struct{ key, value string }

// walkRootMap reads the chunks of a root map message by hand (docs/format.md
// §8.4), independently of the library: the declared count, the chunk
// sizes and every entry in wire order. It knows the type ids of the big-map
// fixtures: VARINT32, VARINT64 and STRING.
func walkRootMap(t *testing.T, data []byte) (count int, chunks []int, entries []mapEntry) {
	t.Helper()
	r := buffer.NewReader(data)
	require.Equal(t, []byte{0x01, 0xff, 0x18}, []byte{r.ReadUint8(), r.ReadUint8(), r.ReadUint8()})
	count = int(r.ReadVarUint32())
	item := func(id byte) string {
		switch id {
		case 5:
			return strconv.Itoa(int(r.ReadVarInt32()))
		case 7:
			return strconv.FormatInt(r.ReadVarInt64(), 10)
		case 21:
			h := r.ReadVarUint64()
			require.Equal(t, uint64(2), h&3, "UTF-8")
			return string(r.ReadBytes(int(h >> 2)))
		}
		t.Fatalf("type id %d", id)
		return ""
	}
	for left := count; left > 0; {
		require.Equal(t, uint8(0), r.ReadUint8(), "chunk header: both sides undeclared")
		size := int(r.ReadUint8())
		require.True(t, size > 0 && size <= left && size <= 255, "chunk of %d with %d left", size, left)
		kid, vid := r.ReadUint8(), r.ReadUint8()
		for i := 0; i < size; i++ {
			k := item(kid)
			entries = append(entries, mapEntry{k, item(vid)})
		}
		chunks = append(chunks, size)
		left -= size
	}
	require.NoError(t, r.Err())
	require.Zero(t, r.Remaining(), "trailing bytes")
	return count, chunks, entries
}

func distinct(entries []mapEntry) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		if v, ok := out[e.key]; ok {
			if v != e.value {
				panic(fmt.Sprintf("key %s with values %s and %s", e.key, v, e.value))
			}
		}
		out[e.key] = e.value
	}
	return out
}

// asText renders a decoded map as walkRootMap renders entries.
func asText[K comparable, V any](m map[K]V) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[fmt.Sprint(k)] = fmt.Sprint(v)
	}
	return out
}

// runBigMap checks one big-map case in both modes. The file is decoded to
// what it holds: for official c8bf233's known bug (root map[int32]int32 and
// map[string]int64 over 255 entries) that is fewer distinct entries than
// the map had, each with its right value, exactly as bug_check counts them.
// forygen's own bytes for the manifest value hold each of the 300 entries
// once, in chunks of 255 and 45, and decode back to it.
func runBigMap[M serializer.RootValue](t *testing.T, c *fixtureCase, text func(M) map[string]string) {
	var want M
	require.NoError(t, json.Unmarshal(c.Value, &want))
	wantText := text(want)
	require.Len(t, wantText, 300)
	for _, m := range modes {
		t.Run(m.dir, func(t *testing.T) {
			f := serializer.New(serializer.WithCompatible(m.compatible))
			data, err := os.ReadFile(filepath.Join(fixtureDir, c.Modes[m.dir].File))
			require.NoError(t, err)
			var got M
			require.NoError(t, serializer.UnmarshalValue(f, data, &got))
			var viaAny M
			require.NoError(t, f.Deserialize(data, &viaAny))
			require.Equal(t, got, viaAny)

			bc := c.Modes[m.dir].BugCheck
			require.NotNil(t, bc)
			count, chunks, entries := walkRootMap(t, data)
			inFile := distinct(entries)
			require.Equal(t, bc.EntryCountInHeader, count)
			require.Equal(t, bc.ChunkSizes, chunks)
			require.Len(t, entries, bc.WrittenEntries, "entries in the chunks")
			require.Len(t, inFile, bc.DistinctKeys)
			require.Equal(t, bc.Duplicates, len(entries)-len(inFile))
			require.Equal(t, bc.KeysMissing, len(wantText)-len(inFile))
			for k, v := range inFile {
				require.Equal(t, wantText[k], v, "key %s holds its right value", k)
			}
			for _, k := range bc.MissingSample {
				_, ok := inFile[k]
				require.False(t, ok, "key %s is missing from the file", k)
			}
			// The decoded map is exactly what the file holds.
			gotText := text(got)
			require.Equal(t, inFile, gotText)
			require.Len(t, gotText, bc.DecodedEntries)
			if c.KnownOfficialBug != "" {
				require.Less(t, len(gotText), 300)
			} else {
				require.Equal(t, want, got)
			}

			// Decode, re-encode, decode again: the same map.
			again, err := serializer.MarshalValue(f, got)
			require.NoError(t, err)
			var got2 M
			require.NoError(t, serializer.UnmarshalValue(f, again, &got2))
			require.Equal(t, got, got2)

			// forygen's bytes for the full value: every entry exactly once,
			// chunks of at most 255.
			ours, err := f.Serialize(want)
			require.NoError(t, err)
			count, chunks, entries = walkRootMap(t, ours)
			require.Equal(t, 300, count)
			require.Equal(t, []int{255, 45}, chunks)
			require.Len(t, entries, 300)
			require.Equal(t, wantText, distinct(entries))
			var back M
			require.NoError(t, f.Deserialize(ours, &back))
			require.Equal(t, want, back)
		})
	}
}

func TestBigMapRoots(t *testing.T) {
	cases := loadCases(t)
	t.Run("big_map_root_int32_int32", func(t *testing.T) {
		runBigMap(t, cases["big_map_root_int32_int32"], asText[int32, int32])
	})
	t.Run("big_map_root_string_int64", func(t *testing.T) {
		runBigMap(t, cases["big_map_root_string_int64"], asText[string, int64])
	})
	t.Run("big_map_root_int32_string", func(t *testing.T) {
		runBigMap(t, cases["big_map_root_int32_string"], asText[int32, string])
	})
	require.NotEmpty(t, cases["big_map_root_int32_int32"].KnownOfficialBug)
	require.NotEmpty(t, cases["big_map_root_string_int64"].KnownOfficialBug)
	require.Empty(t, cases["big_map_root_int32_string"].KnownOfficialBug)
}
