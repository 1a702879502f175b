package e2e_test

import (
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e/hostile"
	"github.com/forygen/forygen/serializer"
)

// encoding is one e2e message with the Fory that reads it.
type encoding struct {
	name string
	f    *serializer.Fory
	r    root
	data []byte
}

// goName is the DecodeError.Type of a root's decodes ("e2e.Scalars").
func goName(r root) string {
	t := reflect.TypeOf(r.fresh()).Elem()
	return t.PkgPath()[len(t.PkgPath())-len(pkgBase(t.PkgPath())):] + "." + t.Name()
}

func pkgBase(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// allEncodings returns, for both modes and every root, the encodings of
// the full value, its one-entry-map variant and the zero value.
func allEncodings(t testing.TB) []encoding {
	var out []encoding
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			for _, v := range []struct {
				name string
				v    any
			}{{"full", r.value()}, {"det", deterministic(r)}, {"zero", r.fresh()}} {
				data, err := f.Serialize(v.v)
				require.NoError(t, err)
				out = append(out, encoding{m.name + "/" + r.name + "/" + v.name, f, r, data})
			}
		}
	}
	return out
}

func decoderFor(t testing.TB, e encoding) *hostile.Decoder {
	want := e.r.fresh()
	require.NoError(t, e.f.Deserialize(e.data, want))
	return &hostile.Decoder{
		F: e.f, New: e.r.fresh, TypeName: goName(e.r),
		Want: want, Equal: func(a, b any) bool { return reflect.DeepEqual(a, b) },
	}
}

// TestSweepE2E: every proper prefix of every e2e encoding is an
// ErrMalformed error and the same Fory then decodes the full input; every
// single-byte mutation of an encoding of at most 256 bytes decodes or fails
// with the error contract, without a panic or a hang. FORYGEN_SWEEP_ALL=1
// tries all 255 other byte values at every offset instead of ten.
func TestSweepE2E(t *testing.T) {
	all := os.Getenv("FORYGEN_SWEEP_ALL") == "1"
	var total hostile.SweepStats
	swept := 0
	for _, e := range allEncodings(t) {
		t.Run(e.name, func(t *testing.T) {
			st := decoderFor(t, e).Sweep(t, e.name, e.data, all)
			require.Equal(t, len(e.data), st.Prefixes)
			if len(e.data) <= hostile.MaxMutationInput {
				swept++
				require.Positive(t, st.Mutations)
			}
			total.Add(st)
		})
	}
	require.Positive(t, swept, "no encoding is small enough for the mutation sweep")
	t.Logf("%d prefixes, %d mutations (%d accepted) over %d mutation-swept encodings; errors by sentinel: %v",
		total.Prefixes, total.Mutations, total.Accepted, swept, total.Sentinels)
}
