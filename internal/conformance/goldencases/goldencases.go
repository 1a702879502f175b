// Package goldencases reads the golden messages official Fory Go wrote for
// a conformance package (testdata/official.json and the like): each case
// names the value, the options it was written with and its bytes.
package goldencases

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/forygen/forygen/serializer"
)

// Case is one golden message.
type Case struct {
	ByName     bool   `json:"by_name"`
	TrackRef   bool   `json:"track_ref"`
	Compatible bool   `json:"compatible"`
	Value      string `json:"value"`
	Hex        string `json:"hex"`
}

// Bytes is the message.
func (c Case) Bytes() []byte {
	b, err := hex.DecodeString(c.Hex)
	if err != nil {
		panic("goldencases: " + err.Error())
	}
	return b
}

// Fory is a Fory with the case's options, in official Go's form.
func (c Case) Fory() *serializer.Fory {
	return serializer.New(serializer.WithCompatible(c.Compatible), serializer.WithTrackRef(c.TrackRef), serializer.WithOfficialGoForm(true))
}

// Load reads the cases of path, failing t unless there are want of them
// (any number when want is negative).
func Load(t testing.TB, path string, want int) []Case {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []Case }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if want >= 0 && len(doc.Cases) != want {
		t.Fatalf("%s: %d cases, want %d", path, len(doc.Cases), want)
	}
	return doc.Cases
}

// Select returns the cases for which keep holds.
func Select(cs []Case, keep func(Case) bool) []Case {
	var out []Case
	for _, c := range cs {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}
