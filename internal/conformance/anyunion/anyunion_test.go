package anyunion

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/specform"
	"github.com/forygen/forygen/serializer"
)

func golden(t *testing.T, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

func pet(id PetCase, v any) Pet { var p Pet; p.ForyUnionSet(uint32(id), v); return p }

func token(id TokenCase, v any) Token { var p Token; p.ForyUnionSet(uint32(id), v); return p }

// The any and union fixtures: forygen writes official Go's bytes from the
// manifest value, and decodes official's bytes to it (an any field holding
// a struct decodes as a pointer, and so does a []any element or a map
// value, where official Go gives a value: docs/format.md §14).
func TestAnyUnionGolden(t *testing.T) {
	inner := func(id int32, tag string) AnyInner { return AnyInner{ID: id, Tag: tag} }
	ptr := func(id int32, tag string) *AnyInner { v := inner(id, tag); return &v }
	cases := []struct {
		name          string
		value, want   serializer.Message
		target        func() serializer.Message
		deterministic bool
	}{
		{"any_fields",
			&AnyHolder{Ptr: ptr(1, "ptr"), Value: inner(2, "value"), Str: "text", I32: int32(-7), I64: int64(1099511627776), Flag: true, F64: 2.5, Ints: []int32{1, 2, 3}},
			&AnyHolder{Ptr: ptr(1, "ptr"), Value: ptr(2, "value"), Str: "text", I32: int32(-7), I64: int64(1099511627776), Flag: true, F64: 2.5, Ints: []int32{1, 2, 3}},
			func() serializer.Message { return new(AnyHolder) }, true},
		{"any_list",
			&AnyList{Items: []any{int32(1), "two", nil, ptr(3, "three"), inner(4, "four"), int64(5), true}},
			&AnyList{Items: []any{int32(1), "two", nil, ptr(3, "three"), ptr(4, "four"), int64(5), true}},
			func() serializer.Message { return new(AnyList) }, true},
		{"any_map",
			&AnyMap{Entries: map[string]any{"nil": nil, "num": int32(5), "ptr": ptr(5, "five"), "str": "x"}},
			&AnyMap{Entries: map[string]any{"nil": nil, "num": int32(5), "ptr": ptr(5, "five"), "str": "x"}},
			func() serializer.Message { return new(AnyMap) }, false},
		{"union_field_struct",
			&PetOwner{Name: "Ann", Pet: pet(PetCaseDog, &Dog{Name: "Rex", Age: 3})},
			&PetOwner{Name: "Ann", Pet: pet(PetCaseDog, &Dog{Name: "Rex", Age: 3})},
			func() serializer.Message { return new(PetOwner) }, true},
		{"union_field_string",
			&PetOwner{Name: "Bo", Pet: pet(PetCaseName, "Whiskers")},
			&PetOwner{Name: "Bo", Pet: pet(PetCaseName, "Whiskers")},
			func() serializer.Message { return new(PetOwner) }, true},
		{"union_field_int32",
			&PetOwner{Name: "Cy", Pet: pet(PetCaseAge, int32(-7))},
			&PetOwner{Name: "Cy", Pet: pet(PetCaseAge, int32(-7))},
			func() serializer.Message { return new(PetOwner) }, true},
		{"union_root_id",
			ptrTo(pet(PetCaseDog, &Dog{Name: "Max", Age: 11})),
			ptrTo(pet(PetCaseDog, &Dog{Name: "Max", Age: 11})),
			func() serializer.Message { return new(Pet) }, true},
		{"union_root_named",
			ptrToToken(token(TokenCaseNumber, int64(-1234567890123))),
			ptrToToken(token(TokenCaseNumber, int64(-1234567890123))),
			func() serializer.Message { return new(Token) }, true},
	}
	for _, tc := range cases {
		for _, m := range modes {
			t.Run(tc.name+"/"+m.dir, func(t *testing.T) {
				f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithOfficialGoForm(true))
				data := golden(t, m.dir, tc.name)
				got := tc.target()
				require.NoError(t, f.Deserialize(data, got))
				require.Equal(t, tc.want, got)
				out, err := f.Serialize(tc.value)
				require.NoError(t, err)
				if tc.deterministic {
					want := data
					if tc.name == "any_fields" && m.compatible {
						// forygen declares the any fields nullable (docs/format.md §14.18).
						want, err = specform.AnyNullable(data)
						require.NoError(t, err)
					}
					require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(out))
				}
				back := tc.target()
				require.NoError(t, f.Deserialize(out, back))
				require.Equal(t, tc.want, back)
				for n := 0; n < len(data); n++ {
					require.Error(t, f.Deserialize(data[:n], tc.target()), "prefix of %d bytes", n)
				}
			})
		}
	}
}

func ptrTo(p Pet) *Pet { return &p }

func ptrToToken(p Token) *Token { return &p }

// A union holding a value its cases do not declare is refused when written
// and when read, naming the union.
func TestUnionCaseChecks(t *testing.T) {
	f := serializer.New()
	_, err := f.Serialize(&PetOwner{Pet: pet(PetCaseName, int32(3))})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	require.Contains(t, err.Error(), "anyunion.Pet")
	_, err = f.Serialize(&PetOwner{Pet: pet(9, "x")})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	// union_field_string with its case id 2 turned into 3 (an int32 case):
	// the string is not what case 3 holds.
	data := append([]byte(nil), golden(t, "schema-consistent", "union_field_string")...)
	i := len(data) - len("Whiskers") - 4
	require.Equal(t, byte(0x02), data[i], "case id")
	data[i] = 0x03
	err = serializer.New(serializer.WithCompatible(false)).Deserialize(data, new(PetOwner))
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
	require.Contains(t, err.Error(), "no case 3 holding a string")
	data[i] = 0x07
	require.ErrorIs(t, serializer.New(serializer.WithCompatible(false)).Deserialize(data, new(PetOwner)), serializer.ErrSchemaMismatch)
}

// FuzzAnyUnion decodes arbitrary input into each type: no panic, and what
// decodes writes again.
func FuzzAnyUnion(f *testing.F) {
	for _, m := range modes {
		for _, n := range []string{"any_fields", "any_list", "any_map", "union_field_struct", "union_root_id", "union_root_named"} {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", m.dir, n+".bin"))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(m.compatible, data)
		}
	}
	targets := []func() serializer.Message{
		func() serializer.Message { return new(AnyHolder) }, func() serializer.Message { return new(AnyList) },
		func() serializer.Message { return new(AnyMap) }, func() serializer.Message { return new(PetOwner) },
		func() serializer.Message { return new(Pet) }, func() serializer.Message { return new(Token) },
	}
	f.Fuzz(func(t *testing.T, compatible bool, data []byte) {
		fy := serializer.New(serializer.WithCompatible(compatible))
		for _, nt := range targets {
			v := nt()
			if fy.Deserialize(data, v) == nil {
				_, _ = fy.Serialize(v)
			}
		}
	})
}

// TestUnsetUnion: an unset union field is null where the field is
// nullable, in every mode, and reads back unset; where it is not, the
// error names the union and both remedies.
func TestUnsetUnion(t *testing.T) {
	var set Pet
	set.ForyUnionSet(2, "rex")
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			in := MaybePet{Must: set}
			data, err := f.Serialize(&in)
			require.NoError(t, err)
			var got MaybePet
			got.Pet.ForyUnionSet(3, int32(1)) // a stale case must not survive
			require.NoError(t, f.Deserialize(data, &got), "% x", data)
			id, v := got.Pet.ForyUnionGet()
			require.Equal(t, uint32(0), id)
			require.Nil(t, v)
			id, v = got.Must.ForyUnionGet()
			require.Equal(t, uint32(2), id)
			require.Equal(t, "rex", v)

			in = MaybePet{Pet: set, Must: set}
			data, err = f.Serialize(&in)
			require.NoError(t, err)
			require.NoError(t, f.Deserialize(data, &got))
			require.Equal(t, in, got)

			_, err = f.Serialize(&MaybePet{Pet: set})
			require.ErrorIs(t, err, serializer.ErrInvalidValue)
			require.Contains(t, err.Error(), "anyunion.Pet is unset")
			require.Contains(t, err.Error(), "nullable")
		}
	}
}
