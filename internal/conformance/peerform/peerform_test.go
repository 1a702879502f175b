package peerform

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

type peerCase struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Compatible bool   `json:"compatible"`
	Track      bool   `json:"track"`
	ReadOnly   bool   `json:"read_only"`
	Hex        string `json:"hex"`
	// ForygenHex is Hex with fory-js's LATIN1 strings as UTF-8, which
	// forygen writes (peers.json "strings"); empty when Hex has no string.
	ForygenHex string `json:"forygen_hex"`
	// OfficialGoSame is set where official Go writes these bytes too.
	OfficialGoSame bool   `json:"official_go_same"`
	Note           string `json:"note"`
}

func k(v int32) *int32 { return &v }

// values are the values fory-js wrote (peers.json's notes), as forygen
// decodes them: a number in an any is the int32 fory-js wrote (VARINT32).
var values = map[string]func() any{
	"holder_leaf":              func() any { return &Holder{Label: "h", Next: &Leaf{Name: "x", N: 1}} },
	"any_holder":               func() any { return &AnyHolder{Value: int32(7)} },
	"outer_tracked":            func() any { return &Outer{Inner: Leaf{Name: "a", N: 2}, Count: 3} },
	"outer_tracked_compatible": func() any { return &Outer{Inner: Leaf{Name: "a", N: 2}, Count: 3} },
	"arrays_tracked":           func() any { return &Arrays{Ints: []int32{1, 2, 3}, Longs: []int64{4}} },
	"node_tracked": func() any {
		return &Node{Name: "r", Children: []Node{{Name: "c", Children: []Node{}}}}
	},
	"bin_tracked":              func() any { return &Bin{Data: []byte{1, 2}, Count: 5} },
	"bin_tracked_compatible":   func() any { return &Bin{Data: []byte{1, 2}, Count: 5} },
	"mixed_tracked":            func() any { return &Mixed{Inner: Leaf{Name: "a", N: 2}, List: []int32{1}, M: map[string]int32{"k": 1}} },
	"mixed_tracked_compatible": func() any { return &Mixed{Inner: Leaf{Name: "a", N: 2}, List: []int32{1}, M: map[string]int32{"k": 1}} },
	"nullables_set":            func() any { return &Nullables{Next: &Leaf{Name: "a", N: 2}, K: k(3), Arr: []int32{1}} },
	"nullables_nil":            func() any { return &Nullables{} },
	"colored_tracked":          func() any { return &Colored{E: 1, N: 3} },
}

func loadCases(t *testing.T) []peerCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/peers.json")
	require.NoError(t, err)
	var doc struct {
		Cases []peerCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, len(values), "every case has a value and every value a case")
	return doc.Cases
}

// officialReadable reports whether forygen's default form reads official
// Go's bytes of the case: everything but a tracked same-schema enum, dense
// array or binary, which the bytes cannot tell apart (WithOfficialGoForm).
func officialReadable(c peerCase) bool {
	if !c.Track || c.Compatible {
		return true
	}
	switch c.Type {
	case "Arrays", "Bin", "Colored":
		return false
	}
	return true
}

// TestPeerBytes: forygen's default form writes what fory-js writes, byte
// for byte, and reads it; official Go's form, which the golden sets check
// byte for byte, differs exactly here, and both forms read it back.
func TestPeerBytes(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			mk, ok := values[c.Name]
			require.True(t, ok, "no value for %s", c.Name)
			data, err := hex.DecodeString(c.Hex)
			require.NoError(t, err)
			peers := serializer.New(serializer.WithCompatible(c.Compatible), serializer.WithTrackRef(c.Track))
			official := serializer.New(serializer.WithCompatible(c.Compatible), serializer.WithTrackRef(c.Track), serializer.WithOfficialGoForm(true))

			want := mk()
			got := reflect.New(reflect.TypeOf(want).Elem()).Interface()
			require.NoError(t, peers.Deserialize(data, got), "reading fory-js's bytes")
			require.Equal(t, want, got)

			expect := c.Hex
			if c.ForygenHex != "" {
				expect = c.ForygenHex
				fy, err := hex.DecodeString(c.ForygenHex)
				require.NoError(t, err)
				got = reflect.New(reflect.TypeOf(want).Elem()).Interface()
				require.NoError(t, peers.Deserialize(fy, got))
				require.Equal(t, want, got)
			}
			if !c.ReadOnly {
				out, err := peers.Serialize(want)
				require.NoError(t, err)
				require.Equal(t, expect, hex.EncodeToString(out), "forygen's default form writes fory-js's bytes")
			}

			off, err := official.Serialize(want)
			require.NoError(t, err)
			if !c.Compatible && !c.ReadOnly && !c.OfficialGoSame {
				require.NotEqual(t, expect, hex.EncodeToString(off), "official Go's form differs from the others here (%s)", c.Note)
			}
			got = reflect.New(reflect.TypeOf(want).Elem()).Interface()
			require.NoError(t, official.Deserialize(off, got))
			require.Equal(t, want, got)
			if officialReadable(c) {
				got = reflect.New(reflect.TypeOf(want).Elem()).Interface()
				require.NoError(t, peers.Deserialize(off, got), "the default form reads official Go's: % x", off)
				require.Equal(t, want, got)
			}
		})
	}
}

// FuzzPeerForm: any input decodes into every peerform type, in both forms,
// without a panic (the flag before a struct value is guessed from the
// bytes: ReadStructValueFlag), and what decodes round-trips.
func FuzzPeerForm(f *testing.F) {
	raw, err := os.ReadFile("testdata/peers.json")
	if err != nil {
		f.Fatal(err)
	}
	var doc struct {
		Cases []peerCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		f.Fatal(err)
	}
	for _, c := range doc.Cases {
		data, _ := hex.DecodeString(c.Hex)
		f.Add(data, c.Compatible, c.Track, false)
	}
	targets := []func() any{
		func() any { return new(Holder) }, func() any { return new(AnyHolder) }, func() any { return new(Outer) },
		func() any { return new(Arrays) }, func() any { return new(Node) }, func() any { return new(Bin) },
		func() any { return new(Mixed) }, func() any { return new(Nullables) }, func() any { return new(Colored) },
	}
	f.Fuzz(func(t *testing.T, data []byte, compatible, track, official bool) {
		fy := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track), serializer.WithOfficialGoForm(official))
		for _, mk := range targets {
			v := mk()
			if fy.Deserialize(data, v) != nil {
				continue
			}
			out, err := fy.Serialize(v)
			if err != nil {
				t.Fatalf("re-encoding a decoded %T: %v", v, err)
			}
			back := mk()
			if err := fy.Deserialize(out, back); err != nil {
				t.Fatalf("decoding our own %T: %v (% x)", v, err, out)
			}
		}
	})
}
