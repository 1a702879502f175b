// Package idl tests the Go that `forygen idl` writes from Fory IDL against
// the bytes foryc's Go output writes with official Fory Go: the packages
// demo, common, user and greeter are compiled from testdata's restatements
// of apache/fory's compiler/examples, idlall from testdata/everything.fdl,
// a schema with every construct forygen idl reads. Each golden case is
// written and read back byte for byte in the four settings of compatible
// mode and reference tracking (foryc's generated Go uses compatible mode
// with tracking).
package idl

import (
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/forygen/forygen/internal/conformance/idl/common"
	"github.com/forygen/forygen/internal/conformance/idl/demo"
	"github.com/forygen/forygen/internal/conformance/idl/greeter"
	"github.com/forygen/forygen/internal/conformance/idl/idlall"
	"github.com/forygen/forygen/internal/conformance/idl/user"
	"github.com/forygen/forygen/serializer"
)

type golden struct {
	Value      string `json:"value"`
	Compatible bool   `json:"compatible"`
	TrackRef   bool   `json:"track_ref"`
	Hex        string `json:"hex"`
}

func goldens(t *testing.T) []golden {
	raw, err := os.ReadFile("testdata/official.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []golden }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) != 72 {
		t.Fatalf("%d golden cases, want 72", len(doc.Cases))
	}
	return doc.Cases
}

func str(s string) *string { return &s }

// codec writes and reads one value of a generated type.
type codec struct {
	value func() any // a fresh value as the golden file holds it
	write func(f *serializer.Fory, v any) ([]byte, error)
	read  func(f *serializer.Fory, data []byte) (any, error)
}

func of[T any, P serializer.Generated[T]](value func() *T) codec {
	return codec{
		value: func() any { return value() },
		write: func(f *serializer.Fory, v any) ([]byte, error) { return serializer.MarshalAppend[T, P](f, nil, v.(*T)) },
		read: func(f *serializer.Fory, data []byte) (any, error) {
			var out T
			err := serializer.Unmarshal[T, P](f, data, &out)
			return &out, err
		},
	}
}

// root is the codec of a type written through Fory.Serialize (unions).
func root[T any](value func() *T) codec {
	return codec{
		value: func() any { return value() },
		write: func(f *serializer.Fory, v any) ([]byte, error) { return f.Serialize(v) },
		read: func(f *serializer.Fory, data []byte) (any, error) {
			out := new(T)
			return out, f.Deserialize(data, out)
		},
	}
}

func everything() *idlall.Everything {
	leaf := &idlall.Leaf{Label: "shared", Weight: 7}
	return &idlall.Everything{
		B: true, I8: -8, I16: -1600, I32: -320000, I64: -64000000000,
		U8: 200, U16: 60000, U32: 4000000000, U64: 18000000000000000000,
		Fi32: -5, Fi64: 1 << 40, Fu32: 7, Fu64: 1 << 63,
		Ti64: -1 << 35, Tu64: 1 << 33, Vi64: 123456789,
		F32: 1.5, F64: -2.25, F16: serializer.Float16FromFloat32(0.5), Bf16: serializer.BFloat16FromFloat32(-3),
		S: "héllo", Data: []byte{1, 2, 3},
		D:     serializer.Date{Year: 2024, Month: time.February, Day: 29},
		Ts:    time.Unix(1700000000, 123456000).UTC(),
		Dur:   90 * time.Second,
		Dec:   serializer.NewDecimal(big.NewInt(-12345), 2),
		Os:    serializer.Some("opt"),
		Oi32:  serializer.None[int32](),
		Level: idlall.LevelHigh, Mood: idlall.MoodSad,
		Leaf:   &idlall.Leaf{Label: "own", Weight: 1},
		Shared: leaf, SharedAgain: leaf,
		Names: []string{"a", "b"}, Nums: []int64{1, -2, 3},
		Maybe:     []*string{str("x"), nil, str("z")},
		Fixeds:    []int32{1, -1},
		Leaves:    []idlall.Leaf{{Label: "l1", Weight: 1}, {Label: "l2", Weight: 2}},
		RefLeaves: []*idlall.Leaf{leaf, leaf},
		Arr:       []int32{10, 20, 30},
		Counts:    map[string]int32{"one": 1},
		ById:      map[int32]idlall.Leaf{5: {Label: "five", Weight: 5}},
		Counters:  map[string]uint64{"hits": 1 << 40},
		OptList:   []string{"o"},
		Choice:    idlall.LeafChoice(&idlall.Leaf{Label: "chosen", Weight: 9}),
		Anything:  "any string",
		Inner:     &idlall.Everything_Inner{Note: "inner", Kind: idlall.Everything_Inner_KindB},
		Kind:      idlall.Everything_Inner_KindA,
		To:        51,
	}
}

func theUser() *user.User {
	return &user.User{Id: "u1", Name: "Ada", HomeAddress: &common.Address{Street: "1 Main", City: "Springfield", State: "IL", Country: "US"},
		Contact: &common.Contact{Phone: serializer.Some("555")}, Status: common.StatusActive}
}

var codecs = map[string]codec{
	"demo.Item":      of(func() *demo.Item { return &demo.Item{Name: "hammer"} }),
	"demo.Dog":       of(func() *demo.Dog { return &demo.Dog{Name: serializer.Some("Rex"), Age: 3} }),
	"demo.DogNoName": of(func() *demo.Dog { return &demo.Dog{Age: 1} }),
	"demo.Cat": of(func() *demo.Cat {
		return &demo.Cat{Friend: &demo.Dog{Name: serializer.Some("Rex"), Age: 3}, Name: serializer.Some("Tom"), Tags: []string{"a", "b"}, Scores: map[string]int32{"x": 1}, Lives: 9}
	}),
	"demo.SensorData": of(func() *demo.SensorData {
		return &demo.SensorData{SensorId: "s1", Readings: []int32{1, 2, 3}, Temperatures: []float64{20.5, 21}, Timestamps: []int64{1700000000000}, Flags: []bool{true, false}}
	}),
	"demo.Config": of(func() *demo.Config { return &demo.Config{Key: "k", Value: "v"} }),
	"common.Address": of(func() *common.Address {
		return &common.Address{Street: "1 Main", City: "Springfield", State: "IL", Country: "US", PostalCode: serializer.Some("62701")}
	}),
	"common.Contact":       of(func() *common.Contact { return &common.Contact{Email: serializer.Some("a@b.c")} }),
	"greeter.HelloRequest": of(func() *greeter.HelloRequest { return &greeter.HelloRequest{Name: "world"} }),
	"greeter.HelloReply":   of(func() *greeter.HelloReply { return &greeter.HelloReply{Reply: "hello world"} }),
	"user.User":            of(theUser),
	"user.UserPreferences": of(func() *user.UserPreferences {
		return &user.UserPreferences{User: theUser(), Language: "en", Timezone: "UTC", NotificationsEnabled: true}
	}),
	// Unions as roots (TYPED_UNION), as official Go writes f.Serialize(&u).
	"idlall.ChoiceLeaf": root(func() *idlall.Choice { c := idlall.LeafChoice(&idlall.Leaf{Label: "root", Weight: 2}); return &c }),
	"idlall.ChoiceText": root(func() *idlall.Choice { c := idlall.TextChoice("root"); return &c }),
	"idlall.Leaf":       of(func() *idlall.Leaf { return &idlall.Leaf{Label: "leaf", Weight: -3} }),
	"idlall.Inner": of(func() *idlall.Everything_Inner {
		return &idlall.Everything_Inner{Note: "n", Kind: idlall.Everything_Inner_KindB}
	}),
	"idlall.Everything": of(everything),
	"idlall.Everything2": of(func() *idlall.Everything {
		return &idlall.Everything{D: serializer.Date{Year: 1970, Month: time.January, Day: 1},
			Choice: idlall.NumChoice(-4), OptChoice: idlall.TextChoice("text"), Anything: int64(5),
			Maybe: []*string{}, RefLeaves: []*idlall.Leaf{}}
	}),
}

// fory is the Fory of a golden case: its mode and tracking, in official
// Go's same-schema form (which flags a tracked struct's value fields).
func fory(g golden) *serializer.Fory {
	return serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
}

func name(g golden) string {
	n := g.Value
	if g.Compatible {
		n += "/compatible"
	} else {
		n += "/same-schema"
	}
	if g.TrackRef {
		n += "/tracked"
	}
	return n
}

// optionalUnionTracked: with tracking, official Go tracks the *Choice of a
// present `optional Choice` field (flag 00, a new object); forygen's
// nullable union is a value, flagged ff. That one byte is the only
// difference, and each side reads the other's.
func optionalUnionTracked(g golden) bool { return g.Value == "idlall.Everything2" && g.TrackRef }

// TestIDLGolden: forygen writes official Go's bytes for every golden case
// and reads them back, writing the same bytes again.
func TestIDLGolden(t *testing.T) {
	for _, g := range goldens(t) {
		c, ok := codecs[g.Value]
		if !ok {
			t.Fatalf("no value %s", g.Value)
		}
		want, err := hex.DecodeString(g.Hex)
		if err != nil {
			t.Fatal(err)
		}
		f := fory(g)
		got, err := c.write(f, c.value())
		if err != nil {
			t.Errorf("%s: write: %v", name(g), err)
			continue
		}
		if optionalUnionTracked(g) {
			checkOneFlag(t, name(g), got, want)
		} else if string(got) != string(want) {
			t.Errorf("%s: forygen writes\n%x\nofficial Go wrote\n%x", name(g), got, want)
		}
		back, err := c.read(f, want)
		if err != nil {
			t.Errorf("%s: read: %v", name(g), err)
			continue
		}
		again, err := c.write(f, back)
		if err != nil {
			t.Errorf("%s: write what was read: %v", name(g), err)
			continue
		}
		if string(again) != string(got) {
			t.Errorf("%s: what forygen read from official Go's bytes writes\n%x\nnot\n%x", name(g), again, got)
		}
	}
}

func checkOneFlag(t *testing.T, name string, got, want []byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d bytes, official Go wrote %d", name, len(got), len(want))
		return
	}
	var diffs []int
	for i := range got {
		if got[i] != want[i] {
			diffs = append(diffs, i)
		}
	}
	if len(diffs) != 1 || want[diffs[0]] != 0x00 || got[diffs[0]] != 0xff {
		t.Errorf("%s: want exactly one flag ff where official Go wrote 00 (its tracked *Choice); differences at %v\n got %x\nwant %x", name, diffs, got, want)
	}
}
