package anynull

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/specform"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer"
)

const fixtures = "../../testdata/xlang-fixtures-3"

type goldenCase struct {
	Name  string          `json:"name"`
	Group int             `json:"group"`
	Value json.RawMessage `json:"value"`
	Modes map[string]struct {
		File string `json:"file"`
	} `json:"modes"`
}

func manifestCases(t *testing.T) map[string]goldenCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtures, "manifest.json"))
	require.NoError(t, err)
	var m struct {
		Cases []goldenCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	out := map[string]goldenCase{}
	for _, c := range m.Cases {
		if c.Group == 3 {
			out[c.Name] = c
		}
	}
	return out
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

// anyCase is one fixture: the value official Go wrote and a fresh target.
type anyCase struct {
	name   string
	track  bool
	value  func() serializer.Message
	target func() serializer.Message
}

func alone() serializer.Message { return &AnyAlone{} }

func withStruct() serializer.Message {
	return &AnyWithStruct{ID: 11, Thing: &Leaf{Name: "in-any", N: 6}, Text: "hello", Name: "after"}
}

func mixed() serializer.Message {
	return &AnyMixed{Flag: true, B: int64(1) << 40, C: false, D: []int32{1, 2}, Plain: int32(-1), List: []string{"z"}}
}

func anyCases() []anyCase {
	var out []anyCase
	for _, track := range []bool{false, true} {
		suffix := "_trackoff"
		if track {
			suffix = "_trackon"
		}
		out = append(out,
			anyCase{"any_nullable_alone" + suffix, track, alone, func() serializer.Message { return new(AnyAlone) }},
			anyCase{"any_nullable_struct" + suffix, track, withStruct, func() serializer.Message { return new(AnyWithStruct) }},
			anyCase{"any_nullable_mixed" + suffix, track, mixed, func() serializer.Message { return new(AnyMixed) }},
		)
	}
	return out
}

// specForm is official Go's message as forygen writes it: in compatible
// mode, every any field of the root TypeDef declared nullable
// (docs/format.md §14.18). Same-schema messages carry no TypeDef.
func specForm(t *testing.T, data []byte, compatible bool) []byte {
	t.Helper()
	if !compatible {
		return data
	}
	out, err := specform.AnyNullable(data)
	require.NoError(t, err)
	return out
}

// The golden files: forygen writes official Go's bytes (with every any
// field declared nullable in the TypeDef, where official declares an
// untagged one not nullable), one flag per any value, and reads both
// official's bytes and its own to the value, in both modes, with tracking
// off and on.
func TestAnyNullableGolden(t *testing.T) {
	manifest := manifestCases(t)
	require.Len(t, manifest, len(anyCases()), "every group-3 case has a Go value here")
	for _, tc := range anyCases() {
		mc, ok := manifest[tc.name]
		require.True(t, ok, tc.name)
		require.JSONEq(t, string(mc.Value), manifestJSON(t, tc.value()), tc.name)
		for _, m := range modes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(tc.track), serializer.WithOfficialGoForm(true))
				require.Equal(t, m.dir+"/"+tc.name+".bin", mc.Modes[m.dir].File)
				data, err := os.ReadFile(filepath.Join(fixtures, m.dir, tc.name+".bin"))
				require.NoError(t, err)
				want := specForm(t, data, m.compatible)
				out, err := f.Serialize(tc.value())
				require.NoError(t, err)
				require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(out))
				for _, in := range [][]byte{data, out} {
					got := tc.target()
					require.NoError(t, f.Deserialize(in, got))
					require.Equal(t, tc.value(), got)
				}
				// Every proper prefix is an error, never a panic.
				for _, in := range [][]byte{data, out} {
					for i := range in {
						require.Error(t, f.Deserialize(in[:i], tc.target()), "prefix of %d bytes", i)
					}
				}
			})
		}
	}
}

// The manifest's own TypeDef bytes differ from forygen's exactly where an
// untagged any field is declared: AnyMixed.Plain.
func TestOfficialAnyDeclaration(t *testing.T) {
	for _, name := range []string{"any_nullable_mixed_trackoff", "any_nullable_mixed_trackon"} {
		data, err := os.ReadFile(filepath.Join(fixtures, "compatible", name+".bin"))
		require.NoError(t, err)
		td, _, err := meta.ParseTypeDef(data[4:], meta.DefaultLimits)
		require.NoError(t, err)
		var notNullable []string
		for _, fd := range td.Fields {
			if fd.Type.TypeID == 0 && !fd.Nullable {
				notNullable = append(notNullable, fd.Name)
			}
		}
		require.Equal(t, []string{"plain"}, notNullable, name)
		require.NotEqual(t, data, specForm(t, data, true))
	}
}

// manifestJSON is v as the manifest spells it: an any field holding V is
// {"$go_type": T, "$value": V} (this package's qualifier dropped), a nil
// one null.
func manifestJSON(t *testing.T, v any) string {
	t.Helper()
	rv := reflect.ValueOf(v).Elem()
	out := map[string]any{}
	for i := 0; i < rv.NumField(); i++ {
		fv := rv.Field(i)
		val := fv.Interface()
		if fv.Kind() == reflect.Interface && !fv.IsNil() {
			val = map[string]any{"$go_type": strings.ReplaceAll(fmt.Sprintf("%T", val), "anynull.", ""), "$value": val}
		}
		out[rv.Type().Field(i).Name] = val
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

// A typed nil next to elements of another type in a []any (issue 24 item
// 5): Serialize writes it as null, never panics, in both modes with
// tracking off and on, and the value reads back with a nil there.
func TestAnyListTypedNilSerialize(t *testing.T) {
	for _, m := range modes {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(track), serializer.WithOfficialGoForm(true))
			for _, l := range [][]any{{uint8(0), []any(nil)}, {[]any(nil), uint8(0)}, {"x", (*Leaf)(nil), "y"}, {int32(1), map[string]any(nil)}} {
				data, err := f.Serialize(&AnyMixed{A: l, Plain: l})
				require.NoError(t, err, "%#v", l)
				got := new(AnyMixed)
				require.NoError(t, f.Deserialize(data, got), "%#v", l)
				// The typed nils read back as nil.
				want := make([]any, len(l))
				for i, v := range l {
					switch v.(type) {
					case uint8, int32, string:
						want[i] = v
					}
				}
				require.Equal(t, want, got.A, "%#v", l)
				require.Equal(t, want, got.Plain, "%#v", l)
			}
			// As the root (not a generated type): an error, not a panic.
			_, err := f.Serialize([]any{uint8(0), []any(nil)})
			require.Error(t, err)
		}
	}
}
