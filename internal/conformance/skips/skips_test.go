package skips

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
	"github.com/forygen/forygen/serializer/foryimpl"
)

var fixtureDir = filepath.Join("..", "..", "testdata", "xlang-fixtures-2")

// values returns the manifest value of every case, field by field.
func values(t *testing.T) map[string]map[string]json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "manifest.json"))
	require.NoError(t, err)
	var m struct {
		Cases []struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	out := map[string]map[string]json.RawMessage{}
	for _, c := range m.Cases {
		var fields map[string]json.RawMessage
		if json.Unmarshal(c.Value, &fields) == nil {
			out[c.Name] = fields
		}
	}
	return out
}

func field[T any](t *testing.T, v map[string]json.RawMessage, name string) T {
	t.Helper()
	var out T
	require.Contains(t, v, name)
	require.NoError(t, json.Unmarshal(v[name], &out))
	return out
}

func set[T comparable](xs ...T) serializer.Set[T] {
	s := serializer.Set[T]{}
	for _, x := range xs {
		s[x] = struct{}{}
	}
	return s
}

// The compatible-mode golden files of official Go, read into local structs
// that lack the fields of the kinds forygen does not generate (unions, any)
// or most of the others: the reader skips the missing fields' values with
// the TypeDef alone and decodes the rest to the manifest's value. Every
// prefix of every file is an error.
func TestSkipGoldenFields(t *testing.T) {
	vals := values(t)
	f := serializer.New()
	type check struct {
		file   string
		target func() any
		want   func(v map[string]json.RawMessage) any
	}
	checks := []check{
		{"union_field_struct", func() any { return new(PetOwner) }, func(v map[string]json.RawMessage) any {
			return &PetOwner{Name: field[string](t, v, "Name")}
		}},
		{"union_field_string", func() any { return new(PetOwner) }, func(v map[string]json.RawMessage) any {
			return &PetOwner{Name: field[string](t, v, "Name")}
		}},
		{"union_field_int32", func() any { return new(PetOwner) }, func(v map[string]json.RawMessage) any {
			return &PetOwner{Name: field[string](t, v, "Name")}
		}},
		{"any_fields", func() any { return &AnyHolder{Extra: 9} }, func(map[string]json.RawMessage) any { return &AnyHolder{} }},
		{"any_list", func() any { return &AnyList{Extra: 9} }, func(map[string]json.RawMessage) any { return &AnyList{} }},
		{"any_map", func() any { return &AnyMap{Extra: 9} }, func(map[string]json.RawMessage) any { return &AnyMap{} }},
		{"set_fields", func() any { return new(SetHolder) }, func(map[string]json.RawMessage) any {
			return &SetHolder{Ints: set[int32](42)}
		}},
		{"set_fields_multi", func() any { return new(SetMulti) }, func(map[string]json.RawMessage) any {
			return &SetMulti{Codes: set[int32](-2, 1, 300)}
		}},
		{"float16_bfloat16", func() any { return new(HalfFloats) }, func(v map[string]json.RawMessage) any {
			return &HalfFloats{F16: field[serializer.Float16](t, v, "F16"), BF16Neg: field[serializer.BFloat16](t, v, "BF16Neg")}
		}},
		{"optional_fields", func() any { return new(Optionals) }, func(v map[string]json.RawMessage) any {
			return &Optionals{Str: serializer.Some(field[string](t, v, "Str"))}
		}},
		{"big_maps_struct_fields", func() any { return new(BigMaps) }, func(v map[string]json.RawMessage) any {
			return &BigMaps{I32ToStr: field[map[int32]string](t, v, "I32ToStr")}
		}},
	}
	before := foryimpl.EvolvedReadCount()
	for _, c := range checks {
		data, err := os.ReadFile(filepath.Join(fixtureDir, "compatible", c.file+".bin"))
		require.NoError(t, err)
		v, ok := vals[c.file]
		require.True(t, ok, c.file)
		got := c.target()
		require.NoError(t, f.Deserialize(data, got), c.file)
		require.Equal(t, c.want(v), got, c.file)
		for i := 0; i < len(data); i++ {
			err := f.Deserialize(data[:i], c.target())
			var de *serializer.DecodeError
			require.True(t, errors.As(err, &de), "%s cut at %d: %v", c.file, i, err)
		}
	}
	require.GreaterOrEqual(t, foryimpl.EvolvedReadCount()-before, uint64(len(checks)), "every file took the field-matching path")

	// Decimals: the kept field is compared by value.
	data, err := os.ReadFile(filepath.Join(fixtureDir, "compatible", "decimal_fields.bin"))
	require.NoError(t, err)
	var d Decimals
	require.NoError(t, f.Deserialize(data, &d))
	require.Equal(t, "123.45", d.Price.String())
	require.Equal(t, int32(2), d.Price.Scale)
}

// In same-schema mode there is nothing to skip by: a struct whose fields
// differ has another schema hash, and the message is refused.
func TestSkipNeedsCompatibleMode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "schema-consistent", "union_field_int32.bin"))
	require.NoError(t, err)
	err = serializer.New(serializer.WithCompatible(false)).Deserialize(data, new(PetOwner))
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
}
