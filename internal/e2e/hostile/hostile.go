// Package hostile holds the checks that the hostile-input tests (issue 6)
// run on decoders: the error contract, and the truncation and single-byte
// mutation sweeps. The e2e and conformance tests share it.
package hostile

import (
	"errors"
	"fmt"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forygen/forygen/serializer"
)

// Sentinels are the documented decode error sentinels: every decode error
// wraps exactly one of them.
var Sentinels = []error{
	serializer.ErrMalformed,
	serializer.ErrSchemaMismatch,
	serializer.ErrLimit,
	serializer.ErrUnsupported,
}

// pathRE is what a DecodeError path looks like: field names (Go names, or
// remote snake_case names and #tag ids on the schema-evolution path, or a
// "First..Last" run of primitive fields) joined by dots, with [i] element
// indexes and ["name"] for a remote name that is not an identifier.
var pathRE = regexp.MustCompile(`^(` + pathName + `|` + pathIndex + `)([.]` + pathName + `|` + pathIndex + `)*$`)

const (
	pathName  = `[A-Za-z_#0-9]+(\.\.[A-Za-z_0-9]+)?`
	pathIndex = `\[([0-9]+|"([^"\\]|\\.)*")\]`
)

// CheckError checks the decode error contract on err, the error of decoding
// data into a value of the Go type typeName (its DecodeError.Type, e.g.
// "e2e.Node"): err is a *serializer.DecodeError naming that type, with an
// offset inside the input, a well-formed path, and exactly one sentinel.
// It returns the DecodeError and the sentinel.
func CheckError(t testing.TB, err error, data []byte, typeName string) (*serializer.DecodeError, error) {
	t.Helper()
	var de *serializer.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("decode error %v (%T) is not a *serializer.DecodeError", err, err)
	}
	if de.Type != typeName {
		t.Fatalf("DecodeError.Type = %q, want %q (%v)", de.Type, typeName, err)
	}
	if de.Offset < 0 || de.Offset > len(data) {
		t.Fatalf("DecodeError.Offset = %d outside the %d-byte input (%v)", de.Offset, len(data), err)
	}
	if de.Path != "" && !pathRE.MatchString(de.Path) {
		t.Fatalf("DecodeError.Path = %q is not a field path (%v)", de.Path, err)
	}
	var found error
	for _, s := range Sentinels {
		if errors.Is(err, s) {
			if found != nil {
				t.Fatalf("decode error %v wraps both %v and %v", err, found, s)
			}
			found = s
		}
	}
	if found == nil {
		t.Fatalf("decode error %v wraps none of the documented sentinels", err)
	}
	return de, found
}

// Decoder is what the sweeps decode with.
type Decoder struct {
	F        *serializer.Fory
	New      func() any // a new pointer to the root type
	TypeName string     // its DecodeError.Type
	// Equal compares a decoded value with the expected one; nil means
	// reflect-style equality is not checked (the full input must still
	// decode).
	Equal func(want, got any) bool
	// Want is the value the full input decodes to, for Equal.
	Want any
}

// Decode decodes a copy of data held in an exactly sized slice, so a read
// past the end cannot land in spare capacity.
func (d *Decoder) Decode(data []byte) (any, error) {
	in := make([]byte, len(data))
	copy(in, data)
	v := d.New()
	return v, d.F.Deserialize(in, v)
}

// checkFull decodes the full input and checks it gives the expected value:
// a failed decode must not leave the Fory in a bad state. The value is
// compared when compare is set (the comparison costs more than the decode
// on large inputs, so sweeps compare on a schedule).
func (d *Decoder) checkFull(t testing.TB, data []byte, compare bool, after func() string) {
	t.Helper()
	got, err := d.Decode(data)
	if err != nil {
		t.Fatalf("after %s, decoding the full input failed: %v", after(), err)
	}
	if compare && d.Equal != nil && !d.Equal(d.Want, got) {
		t.Fatalf("after %s, the full input decoded to another value", after())
	}
}

// compareEvery is how often (in prefixes) the sweep compares the full
// decode's value for inputs longer than 1 KiB; it always decodes it.
const compareEvery = 32

// watchdog panics, with a description of the input being decoded, when one
// decode takes longer than HangLimit: a hang is reported with the stack of
// the looping goroutine instead of waiting for the test timeout.
type watchdog struct {
	timer        *time.Timer
	what         string
	offset, byte atomic.Int64
}

// HangLimit is the time one decode of a small input may take before the
// sweep reports a hang. It is generous so that -race and -asan runs on a
// loaded machine do not trip it.
var HangLimit = 10 * time.Second

func newWatchdog(what string) *watchdog {
	w := &watchdog{what: what}
	w.timer = time.AfterFunc(HangLimit, func() {
		panic(fmt.Sprintf("hostile: decoding %s (offset %d, byte %#x) took longer than %v",
			w.what, w.offset.Load(), w.byte.Load(), HangLimit))
	})
	return w
}

func (w *watchdog) arm(offset int, b int) {
	w.offset.Store(int64(offset))
	w.byte.Store(int64(b))
	w.timer.Reset(HangLimit)
}

func (w *watchdog) stop() { w.timer.Stop() }

// SweepStats counts what a sweep did.
type SweepStats struct {
	Prefixes, Mutations, Accepted int
	Sentinels                     map[error]int
}

// Add adds o to s.
func (s *SweepStats) Add(o SweepStats) {
	s.Prefixes += o.Prefixes
	s.Mutations += o.Mutations
	s.Accepted += o.Accepted
	if s.Sentinels == nil {
		s.Sentinels = map[error]int{}
	}
	for k, v := range o.Sentinels {
		s.Sentinels[k] += v
	}
}

// MaxMutationInput is the largest input whose every byte is mutated.
const MaxMutationInput = 256

// Replacements returns the replacement bytes tried at an offset holding b.
// With all set it is every other byte value.
func Replacements(b byte, all bool) []byte {
	if all {
		out := make([]byte, 0, 255)
		for v := 0; v < 256; v++ {
			if byte(v) != b {
				out = append(out, byte(v))
			}
		}
		return out
	}
	cands := []byte{0x00, 0xff, b ^ 0x01, b ^ 0x80, b + 1, b - 1, 0x7f, 0x80, 0xfd, 0x0c}
	seen := map[byte]bool{b: true}
	out := cands[:0]
	for _, c := range cands {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// Sweep decodes every proper prefix of data (each must fail with
// ErrMalformed, and the same Fory must then decode the full input), and,
// when data has at most MaxMutationInput bytes, every single-byte mutation
// (it must decode or fail with the error contract; a decoded value must
// re-encode). what names the input in failures.
func (d *Decoder) Sweep(t testing.TB, what string, data []byte, allBytes bool) SweepStats {
	t.Helper()
	st := SweepStats{Sentinels: map[error]int{}}
	wd := newWatchdog(what)
	defer wd.stop()
	d.checkFull(t, data, true, func() string { return "nothing" })
	for n := 0; n < len(data); n++ {
		wd.arm(n, -1)
		_, err := d.Decode(data[:n])
		if err == nil {
			t.Fatalf("%s: the %d-byte prefix of %d bytes decoded without error", what, n, len(data))
		}
		_, s := CheckError(t, err, data[:n], d.TypeName)
		if s != serializer.ErrMalformed {
			t.Fatalf("%s: the %d-byte prefix failed with %v, want ErrMalformed", what, n, err)
		}
		st.Prefixes++
		st.Sentinels[s]++
		d.checkFull(t, data, len(data) <= 1024 || n%compareEvery == 0 || n == len(data)-1,
			func() string { return fmt.Sprintf("%s: the %d-byte prefix", what, n) })
	}
	if len(data) > MaxMutationInput {
		return st
	}
	mut := make([]byte, len(data))
	for off := range data {
		for _, b := range Replacements(data[off], allBytes) {
			copy(mut, data)
			mut[off] = b
			wd.arm(off, int(b))
			v, err := d.Decode(mut)
			st.Mutations++
			if err != nil {
				_, s := CheckError(t, err, mut, d.TypeName)
				st.Sentinels[s]++
				continue
			}
			st.Accepted++
			// An accepted value must be writable again.
			if _, err := d.F.Serialize(v); err != nil {
				t.Fatalf("%s: byte %d set to %#x decoded, but the value does not re-encode: %v", what, off, b, err)
			}
		}
		d.checkFull(t, data, true, func() string { return fmt.Sprintf("%s: mutations at offset %d", what, off) })
	}
	return st
}
