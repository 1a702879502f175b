package hints

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/hints/ptrset"
	"github.com/forygen/forygen/serializer"
)

// manifestCase is what these tests read of a case of
// xlang-fixtures-3/manifest.json.
type manifestCase struct {
	Name              string          `json:"name"`
	Group             int             `json:"group"`
	Value             json.RawMessage `json:"value"`
	ByteDeterministic bool            `json:"byte_deterministic"`
	Options           map[string]string
	Modes             map[string]struct {
		File string `json:"file"`
		Hex  string `json:"hex"`
	} `json:"modes"`
}

func loadCases(t *testing.T) map[string]manifestCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-3", "manifest.json"))
	require.NoError(t, err)
	var m struct {
		Cases []manifestCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &m))
	out := map[string]manifestCase{}
	for _, c := range m.Cases {
		if c.Group == 2 {
			out[c.Name] = c
		}
	}
	return out
}

// hintCase says how a group-2 case is played: a fresh target, the Go value
// built from the manifest's JSON, and (for values whose Go equality is not
// their meaning: sets of pointers) a view to compare.
type hintCase struct {
	target func() serializer.Message
	value  func(raw json.RawMessage) (serializer.Message, error)
	view   func(serializer.Message) any
}

func fromJSON[T any, P interface {
	*T
	serializer.Message
}]() hintCase {
	return hintCase{
		target: func() serializer.Message { return P(new(T)) },
		value: func(raw json.RawMessage) (serializer.Message, error) {
			v := P(new(T))
			return v, json.Unmarshal(raw, v)
		},
	}
}

// The manifest writes a fory.Set whose element cannot be a JSON key as an
// array of its elements.
var ptrSetCase = hintCase{
	target: func() serializer.Message { return new(ptrset.PtrSet) },
	value: func(raw json.RawMessage) (serializer.Message, error) {
		var v struct{ Leaves []*ptrset.Leaf }
		err := json.Unmarshal(raw, &v)
		return &ptrset.PtrSet{Leaves: serializer.NewSet(v.Leaves...)}, err
	},
	view: func(m serializer.Message) any {
		var out []ptrset.Leaf
		for p := range m.(*ptrset.PtrSet).Leaves {
			out = append(out, *p)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	},
}

// A map whose key cannot be a JSON key is an array of [key, value] pairs.
var arrayKeysCase = hintCase{
	target: func() serializer.Message { return new(ArrayKeysPlain) },
	value: func(raw json.RawMessage) (serializer.Message, error) {
		var v struct{ ByPair [][2]json.RawMessage }
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		out := &ArrayKeysPlain{ByPair: map[[2]int32]string{}}
		for _, kv := range v.ByPair {
			var k [2]int32
			var s string
			if err := errors.Join(json.Unmarshal(kv[0], &k), json.Unmarshal(kv[1], &s)); err != nil {
				return nil, err
			}
			out.ByPair[k] = s
		}
		return out, nil
	},
}

// An optional.Optional[T] is null when unset, else its value.
var spellingsCase = hintCase{
	target: func() serializer.Message { return new(Spellings) },
	value: func(raw json.RawMessage) (serializer.Message, error) {
		var v struct {
			Upper           int64
			Yes, YesNil     *string
			Opt64, OptUnset *int64
			Opt32           *int32
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		opt := func(p *int64) serializer.Optional[int64] {
			if p == nil {
				return serializer.None[int64]()
			}
			return serializer.Some(*p)
		}
		out := &Spellings{Upper: v.Upper, Yes: v.Yes, YesNil: v.YesNil, Opt64: opt(v.Opt64), OptUnset: opt(v.OptUnset)}
		if v.Opt32 != nil {
			out.Opt32 = serializer.Some(*v.Opt32)
		}
		return out, nil
	},
}

var hintCases = map[string]hintCase{
	"hint_list_elements":         fromJSON[ListHints](),
	"hint_map_values":            fromJSON[MapValueHints](),
	"hint_map_keys":              fromJSON[MapKeyHints](),
	"hint_pointer_not_nullable":  fromJSON[NotNullPtrs](),
	"hint_set_element_ref_false": ptrSetCase,
	"hint_fixed_size_array":      fromJSON[GoArrays](),
	"hint_elements_not_nullable": fromJSON[EnumHints](),
	"array_map_key_untagged":     arrayKeysCase,
	"hint_spellings":             spellingsCase,
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

func view(tc hintCase, m serializer.Message) any {
	if tc.view != nil {
		return tc.view(m)
	}
	return m
}

// Every group-2 file of golden set 3 decodes, in both modes, to the value
// the manifest records; the value encodes to the file's bytes; and every
// prefix of the file is an error.
func TestHintsGolden(t *testing.T) {
	cases := loadCases(t)
	var names []string
	for name := range cases {
		names = append(names, name)
	}
	sort.Strings(names)
	require.Len(t, names, 2*len(hintCases), "group 2 cases: %v", names)
	played := 0
	for _, name := range names {
		c := cases[name]
		base, track := strings.TrimSuffix(name, "_trackon"), strings.HasSuffix(name, "_trackon")
		if !track {
			base = strings.TrimSuffix(name, "_trackoff")
		}
		tc, ok := hintCases[base]
		require.True(t, ok, "%s: no Go types", name)
		require.Contains(t, c.Options["compatible"], fmt.Sprintf("WithTrackRef(%v)", track), name)
		played++
		for _, m := range modes {
			where := name + "/" + m.dir
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-3", c.Modes[m.dir].File))
			require.NoError(t, err, where)
			if h := c.Modes[m.dir].Hex; h != "" {
				require.Equal(t, h, hex.EncodeToString(data), where)
			}
			want, err := tc.value(c.Value)
			require.NoError(t, err, where)
			f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(track), serializer.WithOfficialGoForm(true))
			got := tc.target()
			require.NoError(t, f.Deserialize(data, got), where)
			require.Equal(t, view(tc, want), view(tc, got), where)
			if c.ByteDeterministic {
				out, err := f.Serialize(want)
				require.NoError(t, err, where)
				require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out), where)
			}
			for n := 0; n < len(data); n++ {
				err := f.Deserialize(data[:n], tc.target())
				require.Error(t, err, "%s: prefix of %d bytes", where, n)
				var de *serializer.DecodeError
				require.True(t, errors.As(err, &de), "%s: prefix of %d bytes: %v", where, n, err)
			}
			// Changed bytes never panic, and whatever decodes writes again.
			rng := rand.New(rand.NewSource(int64(len(data))))
			for i := 0; i < 300; i++ {
				bad := append([]byte(nil), data...)
				bad[rng.Intn(len(bad))] = byte(rng.Intn(256))
				if v := tc.target(); f.Deserialize(bad, v) == nil {
					if _, err := f.Serialize(v); err != nil {
						require.ErrorIs(t, err, serializer.ErrInvalidValue, "%s: mutation %d", where, i)
					}
				}
			}
		}
	}
	require.Equal(t, len(names), played)
}

// A nil pointer tagged nullable=false has no null flag to say so: writing
// it is an error that names the field (official Go writes a zero struct).
// With ref (or with tracking on) the reference flag can say nil, and does.
func TestNotNullablePointerNil(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithOfficialGoForm(true))
		_, err := f.Serialize(&NotNullPtrs{Ref: &Leaf{Name: "r"}})
		require.ErrorIs(t, err, serializer.ErrInvalidValue, m.dir)
		var ee *serializer.EncodeError
		require.True(t, errors.As(err, &ee), m.dir)
		require.Equal(t, "Plain", ee.Path, m.dir)

		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(track), serializer.WithOfficialGoForm(true))
			in := &NotNullPtrs{Plain: &Leaf{Name: "p", N: 2}}
			if track {
				in = &NotNullPtrs{}
			}
			data, err := f.Serialize(in)
			require.NoError(t, err, "%s track=%v", m.dir, track)
			var back NotNullPtrs
			require.NoError(t, f.Deserialize(data, &back), "%s track=%v", m.dir, track)
			require.Equal(t, *in, back, "%s track=%v", m.dir, track)
		}
	}
}

// A message is read the way its writer wrote it, whatever the reader's
// WithTrackRef says: the root flag 0x00 of a tracked message switches the
// read into tracking, 0xff out of it. Every group-2 file decodes with the
// opposite option to the same value, and the tracked ones in compatible
// mode with a default serializer.New(), as a foryc-generated peer's
// message does.
func TestHintsGoldenEitherTracking(t *testing.T) {
	cases := loadCases(t)
	played := 0
	for name, c := range cases {
		track := strings.HasSuffix(name, "_trackon")
		base := strings.TrimSuffix(strings.TrimSuffix(name, "_trackon"), "_trackoff")
		tc := hintCases[base]
		for _, m := range modes {
			where := name + "/" + m.dir
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-3", c.Modes[m.dir].File))
			require.NoError(t, err, where)
			require.Equal(t, track, data[1] == 0x00, "%s: root flag %02x", where, data[1])
			want, err := tc.value(c.Value)
			require.NoError(t, err, where)
			readers := []*serializer.Fory{serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(!track), serializer.WithOfficialGoForm(true))}
			if m.compatible {
				readers = append(readers, serializer.New())
			}
			for _, f := range readers {
				got := tc.target()
				require.NoError(t, f.Deserialize(data, got), where)
				require.Equal(t, view(tc, want), view(tc, got), where)
				played++
			}
		}
	}
	require.Equal(t, 6*len(hintCases), played)
}
