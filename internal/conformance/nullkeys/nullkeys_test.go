package nullkeys

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func s(v string) *string { return &v }

var values = map[string]func() *PK{
	"one":     func() *PK { return &PK{M: map[*string]*string{s("k"): s("v")}, N: 1} },
	"nilkey":  func() *PK { return &PK{M: map[*string]*string{nil: s("v")}, N: 2} },
	"nilboth": func() *PK { return &PK{M: map[*string]*string{nil: nil}, N: 3} },
	"nilval":  func() *PK { return &PK{M: map[*string]*string{s("k"): nil}, N: 4} },
}

// flat is a map keyed by the keys' targets, "<nil>" for a nil key: pointer
// keys compare by address, so two decodes are compared through it.
func flat(m map[*string]*string) map[string]*string {
	out := map[string]*string{}
	for k, v := range m {
		key := "<nil>"
		if k != nil {
			key = *k
		}
		out[key] = v
	}
	return out
}

// TestNullKeysGolden: forygen writes official Go's bytes for a map with a
// nil key, a nil value and both, in both modes, and reads them back.
func TestNullKeysGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/official.json")
	require.NoError(t, err)
	var doc struct {
		Cases []map[string]string `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, len(values))
	for _, c := range doc.Cases {
		for _, mode := range []string{"schema-consistent", "compatible"} {
			t.Run(c["name"]+"/"+mode, func(t *testing.T) {
				f := serializer.New(serializer.WithCompatible(mode == "compatible"))
				want := values[c["name"]]()
				out, err := f.Serialize(want)
				require.NoError(t, err)
				require.Equal(t, c[mode], hex.EncodeToString(out))
				data, err := hex.DecodeString(c[mode])
				require.NoError(t, err)
				var got PK
				require.NoError(t, f.Deserialize(data, &got))
				require.Equal(t, want.N, got.N)
				require.Equal(t, flat(want.M), flat(got.M))
				for i := range data {
					require.Error(t, f.Deserialize(data[:i], new(PK)), "prefix of %d bytes", i)
				}
			})
		}
	}
}

// TestNullKeyChunks: several chunks, null entries between them.
func TestNullKeyChunks(t *testing.T) {
	in := &PK{M: map[*string]*string{nil: s("x"), s("a"): s("1"), s("b"): nil, s("c"): s("3")}, N: 9}
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible))
		out, err := f.Serialize(in)
		require.NoError(t, err)
		var got PK
		require.NoError(t, f.Deserialize(out, &got), "% x", out)
		require.Equal(t, flat(in.M), flat(got.M))
	}
}

// FuzzNullKeys: any input decodes into PK without a panic, and what decodes
// re-encodes to bytes that decode to the same map.
func FuzzNullKeys(f *testing.F) {
	raw, err := os.ReadFile("testdata/official.json")
	if err != nil {
		f.Fatal(err)
	}
	var doc struct {
		Cases []map[string]string `json:"cases"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		f.Fatal(err)
	}
	for _, c := range doc.Cases {
		for _, mode := range []string{"schema-consistent", "compatible"} {
			data, _ := hex.DecodeString(c[mode])
			f.Add(data, mode == "compatible")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, compatible bool) {
		fy := serializer.New(serializer.WithCompatible(compatible))
		var got PK
		if fy.Deserialize(data, &got) != nil {
			return
		}
		out, err := fy.Serialize(&got)
		if err != nil {
			t.Fatalf("re-encoding a decoded value: %v", err)
		}
		var back PK
		if err := fy.Deserialize(out, &back); err != nil {
			t.Fatalf("decoding our own bytes: %v (% x)", err, out)
		}
		if !reflect.DeepEqual(flat(got.M), flat(back.M)) || got.N != back.N {
			t.Fatalf("round trip differs: %v / %v", flat(got.M), flat(back.M))
		}
	})
}
