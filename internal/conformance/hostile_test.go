package conformance_test

import (
	"os"
	"reflect"
	"testing"

	"github.com/forygen/forygen/internal/e2e/hostile"
	"github.com/forygen/forygen/serializer"
)

// TestHostileFixtureSweep runs the hostile-input sweeps (issue 6, item 1)
// over every golden fixture in both modes, with the case table's types:
// every proper prefix fails with ErrMalformed and the same Fory then decodes
// the full fixture to the same value; every single-byte mutation of a
// fixture of at most 256 bytes decodes or fails with the error contract,
// without a panic or a hang. FORYGEN_SWEEP_ALL=1 tries every byte value.
func TestHostileFixtureSweep(t *testing.T) {
	dir, m := loadManifest(t)
	all := os.Getenv("FORYGEN_SWEEP_ALL") == "1"
	var total hostile.SweepStats
	files, mutated := 0, 0
	for _, mode := range []string{modeConsistent, modeCompatible} {
		f := serializer.New(serializer.WithCompatible(mode == modeCompatible))
		for _, c := range m.Cases {
			ms, ok := c.Modes[mode]
			if !ok || ms.File == "" {
				continue
			}
			ct, ok := caseTable[c.Name]
			if !ok {
				t.Fatalf("case %q has no caseTable entry", c.Name)
			}
			newTarget := ct.root
			if c.Reader != nil {
				newTarget = ct.reader
			}
			t.Run(mode+"/"+c.Name, func(t *testing.T) {
				data := readFixture(t, dir, ms)
				want := newTarget()
				if err := f.Deserialize(data, want); err != nil {
					t.Fatalf("the fixture does not decode: %v", err)
				}
				typ := reflect.TypeOf(want).Elem()
				d := &hostile.Decoder{
					F: f, New: newTarget, TypeName: pkgBase(typ.PkgPath()) + "." + typ.Name(),
					Want: want, Equal: func(a, b any) bool { return reflect.DeepEqual(a, b) },
				}
				st := d.Sweep(t, mode+"/"+c.Name, data, all)
				if st.Prefixes != len(data) {
					t.Fatalf("%d prefixes swept, want %d", st.Prefixes, len(data))
				}
				files++
				if len(data) <= hostile.MaxMutationInput {
					mutated++
				}
				total.Add(st)
			})
		}
	}
	if files == 0 {
		t.Fatal("no fixture file was swept")
	}
	t.Logf("%d fixture files: %d prefixes; %d files mutation-swept: %d mutations (%d accepted); errors by sentinel: %v",
		files, total.Prefixes, mutated, total.Mutations, total.Accepted, total.Sentinels)
}

func pkgBase(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
