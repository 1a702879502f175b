package e2e_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/hostile"
	"github.com/forygen/forygen/internal/e2e/narrow"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/serializer"
)

// Mixed load (issue 17, item 1): one compatible and one same-schema Fory,
// shared by 16 goroutines that decode, for a bounded time, a mix of valid
// messages of every root type, truncated and randomly mutated ones,
// messages of another type and schema-evolution reads (narrow types read
// e2e messages, e2e types read narrow ones, and every root type is read
// under 24 schemas of its own, more than its schema cache holds). Every
// valid decode must give the expected value, every error must keep the
// documented contract, and afterwards the goroutine count is back at its
// baseline and both Forys still decode every input that decoded before
// (their schema caches are not poisoned by what failed or was evicted).

const (
	loadGoroutines = 16
	loadDuration   = 2 * time.Second
	loadMaxIters   = 20000 // per goroutine, in case the machine is fast
	loadStuck      = 60 * time.Second
)

// loadCase is one input with the Fory that decodes it, what it decodes
// into and, for a valid input, the value it must decode to.
type loadCase struct {
	name     string
	f        *serializer.Fory
	data     []byte
	fresh    func() any
	typeName string // DecodeError.Type of its decodes
	want     any    // nil: any outcome that keeps the error contract
	sentinel error  // non-nil: the input must fail with this sentinel
}

// loadCases builds the valid messages (both modes, every root, full and
// one-entry-map values), the messages of another type and the evolved
// reads. The valid ones double as the sources of truncations and
// mutations.
func loadCases(t *testing.T, compatible, consistent *serializer.Fory) (valid, foreign, evolved, flood []loadCase) {
	t.Helper()
	byMode := map[*serializer.Fory][]loadCase{}
	for _, f := range []*serializer.Fory{consistent, compatible} {
		mode := "consistent"
		if f == compatible {
			mode = "compatible"
		}
		for _, r := range roots() {
			for _, v := range []struct {
				name string
				v    any
			}{{"full", r.value()}, {"det", deterministic(r)}} {
				data, err := f.Serialize(v.v)
				require.NoError(t, err)
				c := loadCase{name: mode + "/" + r.name + "/" + v.name, f: f, data: data,
					fresh: r.fresh, typeName: goName(r), want: v.v}
				// The expectation itself: one decode before the load.
				got := r.fresh()
				require.NoError(t, f.Deserialize(data, got), c.name)
				require.True(t, reflect.DeepEqual(c.want, got), "%s decodes to %#v", c.name, got)
				valid = append(valid, c)
				byMode[f] = append(byMode[f], c)
			}
		}
	}
	// Another type: every message read as every other root type of the
	// same mode (a different registration), and each mode's messages read
	// by the other mode's Fory.
	for f, cs := range byMode {
		for _, c := range cs {
			for _, r := range roots() {
				if goName(r) == c.typeName {
					continue
				}
				foreign = append(foreign, loadCase{name: c.name + " as " + r.name, f: f, data: c.data,
					fresh: r.fresh, typeName: goName(r), sentinel: serializer.ErrSchemaMismatch})
			}
			g := compatible
			if f == compatible {
				g = consistent
			}
			foreign = append(foreign, loadCase{name: c.name + " in the other mode", f: g, data: c.data,
				fresh: c.fresh, typeName: c.typeName})
		}
	}
	// Evolved: e2e messages read by the narrow types, and narrow messages
	// read by the e2e types (the fields the writer lacks stay zero).
	ser := func(v any) []byte {
		data, err := compatible.Serialize(v)
		require.NoError(t, err)
		return data
	}
	maps, comp := fullMaps(), fullComposite()
	evolved = []loadCase{
		{name: "Scalars as narrow", data: ser(fullScalars()), fresh: func() any { return new(narrow.Scalars) },
			typeName: "narrow.Scalars", want: &narrow.Scalars{B: true, Tagd: 77}},
		{name: "Containers as narrow", data: ser(fullContainers()), fresh: func() any { return new(narrow.Containers) },
			typeName: "narrow.Containers", want: &narrow.Containers{S: fullContainers().S}},
		{name: "Maps as narrow", data: ser(maps), fresh: func() any { return new(narrow.Maps) },
			typeName: "narrow.Maps", want: &narrow.Maps{Structs: maps.Structs, Ptrs: maps.Ptrs}},
		{name: "Composite as narrow", data: ser(comp), fresh: func() any { return new(narrow.Composite) },
			typeName: "narrow.Composite", want: &narrow.Composite{Title: comp.Title, ByName: comp.ByName}},
		{name: "Node as narrow", data: ser(chain(6)), fresh: func() any { return new(narrow.Node) },
			typeName: "narrow.Node", want: &narrow.Node{Value: 1}},
		{name: "narrow Scalars as e2e", data: ser(&narrow.Scalars{B: true, Tagd: -9}), fresh: func() any { return new(e2e.Scalars) },
			typeName: "e2e.Scalars", want: &e2e.Scalars{B: true, Tagd: -9}},
		{name: "narrow Containers as e2e", data: ser(&narrow.Containers{S: "only"}), fresh: func() any { return new(e2e.Containers) },
			typeName: "e2e.Containers", want: &e2e.Containers{S: "only"}},
		{name: "narrow Maps as e2e", data: ser(&narrow.Maps{Structs: maps.Structs, Ptrs: maps.Ptrs}), fresh: func() any { return new(e2e.Maps) },
			typeName: "e2e.Maps", want: &e2e.Maps{Structs: maps.Structs, Ptrs: maps.Ptrs}},
		{name: "narrow Composite as e2e", data: ser(&narrow.Composite{Title: "t", ByName: comp.ByName}), fresh: func() any { return new(e2e.Composite) },
			typeName: "e2e.Composite", want: &e2e.Composite{Title: "t", ByName: comp.ByName}},
		{name: "narrow Node as e2e", data: ser(&narrow.Node{Value: 3}), fresh: func() any { return new(e2e.Node) },
			typeName: "e2e.Node", want: &e2e.Node{Value: 3}},
		{name: "Tag as Address", data: ser(&other.Tag{Key: "k"}), fresh: func() any { return new(other.Address) },
			typeName: "other.Address", sentinel: serializer.ErrSchemaMismatch},
	}
	for i := range evolved {
		evolved[i].f = compatible
	}
	// A flood of schemas: every root's full value under floodSchemas
	// schemas of its own, more than a type's schema cache holds, so the
	// caches evict and refill while other goroutines read through them.
	for _, r := range parsableRoots() {
		flood = append(flood, schemaFlood(t, compatible, r, floodSchemas)...)
	}
	return valid, foreign, evolved, flood
}

// floodSchemas is the number of distinct schemas per root type in the load.
const floodSchemas = 24

// schemaFlood returns n messages of r's full value, each under a schema of
// its own: the root TypeDef with one field no reader knows added, written
// by FuzzEvolvedTypeDefs's encoder (fuzz_evolved_test.go). The field is
// skipped, so each decodes to the full value.
func schemaFlood(t *testing.T, f *serializer.Fory, r root, n int) []loadCase {
	t.Helper()
	evInit(t)
	data, err := f.Serialize(r.value())
	require.NoError(t, err)
	seen := map[string]bool{}
	var out []loadCase
	for k := 0; len(out) < n; k++ {
		require.Less(t, k, 10*n, "%s: not enough distinct schemas", r.name)
		msg, root, occs, ok := evParse(slices.Clone(data))
		require.True(t, ok, r.name)
		m := &evMutator{root: root, occs: occs}
		// op 1 (add an unknown field), seeded by k, at a position and with a
		// nullability and identifier kind picked by k.
		m.apply([]byte{1, byte(k), byte(k >> 8), 0, byte(k * 7), byte(k), byte(k >> 1)})
		mutated, ok := evEmit(msg)
		require.True(t, ok, r.name)
		if seen[string(root.orig)] {
			continue
		}
		seen[string(root.orig)] = true
		c := loadCase{name: fmt.Sprintf("%s under flood schema %d", r.name, len(out)), f: f, data: mutated,
			fresh: r.fresh, typeName: goName(r), want: r.value()}
		require.NoError(t, decodeCase(c, c.name, c.data, true))
		out = append(out, c)
	}
	return out
}

// checkContract is hostile.CheckError without testing.TB (it runs on the
// load goroutines): err is a *DecodeError naming the root type, with an
// offset inside the input, wrapping exactly one sentinel, which it returns.
func checkContract(err error, data []byte, typeName string) (error, error) {
	var de *serializer.DecodeError
	if !errors.As(err, &de) {
		return nil, fmt.Errorf("error %v (%T) is not a *serializer.DecodeError", err, err)
	}
	if de.Type != typeName {
		return nil, fmt.Errorf("DecodeError.Type = %q, want %q (%v)", de.Type, typeName, err)
	}
	if de.Offset < 0 || de.Offset > len(data) {
		return nil, fmt.Errorf("DecodeError.Offset = %d outside the %d-byte input (%v)", de.Offset, len(data), err)
	}
	var found error
	for _, s := range hostile.Sentinels {
		if errors.Is(err, s) {
			if found != nil {
				return nil, fmt.Errorf("error %v wraps both %v and %v", err, found, s)
			}
			found = s
		}
	}
	if found == nil {
		return nil, fmt.Errorf("error %v wraps none of the sentinels", err)
	}
	return found, nil
}

// decodeCase decodes data as c says, turning a panic into an error, and
// checks the outcome; the error names the input so it can be replayed.
func decodeCase(c loadCase, what string, data []byte, strict bool) (err error) {
	in := make([]byte, len(data)) // exactly sized: no read past the end hides in spare capacity
	copy(in, data)
	v := c.fresh()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: decoding panicked: %v\n%s\ninput: %s", what, r, stack(), hex.EncodeToString(in))
		}
	}()
	derr := c.f.Deserialize(in, v)
	if derr == nil {
		switch {
		case c.sentinel != nil && strict:
			return fmt.Errorf("%s: decoded, want %v; input: %s", what, c.sentinel, hex.EncodeToString(in))
		case c.want != nil && strict && !reflect.DeepEqual(c.want, v):
			return fmt.Errorf("%s: decoded to %#v, want %#v", what, v, c.want)
		}
		// Whatever decodes must be writable again.
		if _, serr := c.f.Serialize(v); serr != nil {
			return fmt.Errorf("%s: decoded value does not re-encode: %v; input: %s", what, serr, hex.EncodeToString(in))
		}
		return nil
	}
	s, cerr := checkContract(derr, in, c.typeName)
	if cerr != nil {
		return fmt.Errorf("%s: %v; input: %s", what, cerr, hex.EncodeToString(in))
	}
	if strict && c.want != nil {
		return fmt.Errorf("%s: valid input failed: %v", what, derr)
	}
	if strict && c.sentinel != nil && s != c.sentinel {
		return fmt.Errorf("%s: failed with %v, want %v", what, derr, c.sentinel)
	}
	return nil
}

func stack() []byte {
	buf := make([]byte, 64<<10)
	return buf[:runtime.Stack(buf, false)]
}

// loadStats counts what the goroutines did, by kind of input.
type loadStats struct {
	valid, truncated, mutated, foreign, evolved atomic.Int64
}

func TestMixedLoad16(t *testing.T) {
	baseline := runtime.NumGoroutine()
	compatible := serializer.New()
	consistent := serializer.New(serializer.WithCompatible(false))
	valid, foreign, evolved, flood := loadCases(t, compatible, consistent)

	var (
		st      loadStats
		stop    atomic.Bool
		wg      sync.WaitGroup
		mu      sync.Mutex
		fails   []string
		started = time.Now()
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if len(fails) < 10 {
			fails = append(fails, err.Error())
		}
		stop.Store(true)
	}
	deadline := started.Add(loadDuration)
	for g := 0; g < loadGoroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(17, uint64(g)))
			mut := make([]byte, 0, 4096)
			for i := 0; i < loadMaxIters && !stop.Load(); i++ {
				if i%16 == 0 && time.Now().After(deadline) {
					return
				}
				var err error
				switch k := rng.IntN(100); {
				case k < 30: // valid
					c := valid[rng.IntN(len(valid))]
					err = decodeCase(c, c.name, c.data, true)
					st.valid.Add(1)
				case k < 45: // truncated: every proper prefix is malformed
					c := valid[rng.IntN(len(valid))]
					n := rng.IntN(len(c.data))
					tc := c
					tc.want, tc.sentinel = nil, serializer.ErrMalformed
					err = decodeCase(tc, fmt.Sprintf("%s cut to %d bytes", c.name, n), c.data[:n], true)
					st.truncated.Add(1)
				case k < 70: // mutated: 1..4 random bytes changed, maybe truncated too
					c := valid[rng.IntN(len(valid))]
					mut = append(mut[:0], c.data...)
					for j := rng.IntN(4); j >= 0; j-- {
						mut[rng.IntN(len(mut))] ^= byte(1 + rng.IntN(255))
					}
					if rng.IntN(8) == 0 {
						mut = mut[:rng.IntN(len(mut))]
					}
					mc := c
					mc.want = nil
					err = decodeCase(mc, c.name+" mutated", mut, false)
					st.mutated.Add(1)
				case k < 80: // another type or mode
					c := foreign[rng.IntN(len(foreign))]
					err = decodeCase(c, c.name, c.data, true)
					st.foreign.Add(1)
				default: // evolved schemas (narrow or flood), with some truncated
					c := evolved[rng.IntN(len(evolved))]
					if rng.IntN(2) == 0 {
						c = flood[rng.IntN(len(flood))]
					}
					if rng.IntN(4) == 0 {
						n := rng.IntN(len(c.data))
						tc := c
						// A prefix of a message that decodes is malformed; one
						// of a message that fails may fail for its own reason.
						tc.want, tc.sentinel = nil, serializer.ErrMalformed
						err = decodeCase(tc, fmt.Sprintf("%s cut to %d bytes", c.name, n), c.data[:n], c.sentinel == nil)
					} else {
						err = decodeCase(c, c.name, c.data, true)
					}
					st.evolved.Add(1)
				}
				if err != nil {
					fail(fmt.Errorf("goroutine %d, iteration %d: %w", g, i, err))
					return
				}
			}
		}(g)
	}

	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(loadDuration + loadStuck):
		stop.Store(true)
		buf := make([]byte, 1<<20)
		t.Fatalf("load goroutines still running %v after the deadline (a hang?):\n%s",
			loadStuck, buf[:runtime.Stack(buf, true)])
	}
	elapsed := time.Since(started)
	for _, f := range fails {
		t.Error(f)
	}
	t.Logf("%v: %d valid, %d truncated, %d mutated, %d foreign, %d evolved decodes",
		elapsed.Round(time.Millisecond), st.valid.Load(), st.truncated.Load(), st.mutated.Load(),
		st.foreign.Load(), st.evolved.Load())
	if t.Failed() {
		return
	}

	// The caches are not poisoned: every valid and evolved input still
	// decodes to its value, from this goroutine, in both Forys.
	for _, c := range valid {
		require.NoError(t, decodeCase(c, "after the load: "+c.name, c.data, true))
	}
	for _, c := range append(evolved, flood...) {
		require.NoError(t, decodeCase(c, "after the load: "+c.name, c.data, true))
	}

	// No goroutine outlives the load: the serializer starts none.
	settle := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(settle) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines after the load, %d before:\n%s", n, baseline, buf[:runtime.Stack(buf, true)])
	}
}
