package main

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sort"
	"time"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
)

// The directions, in the order the table lists them. deserialize decodes
// into one reused target (BenchmarkDeserialize), deserializeFresh into a new
// zero value each time (BenchmarkDeserializeFresh), deserializeEvolved is
// forygen reading its own bytes with a later schema, into a reused target
// (BenchmarkDeserializeEvolved; MediaContent and MediaContentList only).
const (
	serialize          = "serialize"
	deserialize        = "deserialize"
	deserializeFresh   = "deserialize fresh"
	deserializeEvolved = "deserialize evolved"
)

var directions = []string{serialize, deserialize, deserializeFresh, deserializeEvolved}

// cell is one (fixture, codec, direction) measurement series.
type cell struct {
	fixture, codec, direction string
	size                      int
	c                         codecs.Codec
	data                      []byte        // input of deserialize cells
	n                         int           // iterations per measurement
	calClock                  time.Duration // clock time of all calibration runs
	samples                   []sample
}

type sample struct {
	nsPerOp, allocsPerOp, bytesPerOp float64
}

// cellKeys lists the cells of a run in measuring order: per fixture, every
// direction and codec, the evolved direction only for forygen on fixtures
// with an evolved reader.
func cellKeys(fxs []codecs.Fixture, names []string) []key {
	var keys []key
	for _, f := range fxs {
		for _, dir := range directions {
			for _, name := range names {
				if dir == deserializeEvolved && (name != codecs.Forygen || f.NewEvolved == nil) {
					continue
				}
				keys = append(keys, key{f.Name, dir, name})
			}
		}
	}
	return keys
}

func newCells(fxs []codecs.Fixture, names []string, sizes map[string]map[string]int) (map[key]*cell, error) {
	byName := map[string]codecs.Fixture{}
	for _, f := range fxs {
		byName[f.Name] = f
	}
	cells := map[key]*cell{}
	for _, k := range cellKeys(fxs, names) {
		f := byName[k.fixture]
		var c codecs.Codec
		if k.direction == deserializeEvolved {
			c = f.NewEvolved()
		} else {
			var err error
			if c, err = f.New(k.codec); err != nil {
				return nil, err
			}
		}
		ce := &cell{fixture: k.fixture, codec: k.codec, direction: k.direction, size: sizes[k.fixture][k.codec], c: c}
		if k.direction != serialize {
			data, err := c.Marshal()
			if err != nil {
				return nil, err
			}
			ce.data = bytes.Clone(data)
		}
		cells[k] = ce
	}
	return cells, nil
}

type key struct{ fixture, direction, codec string }

// loop runs the cell's operation n times. The loops are the same as the go
// test benchmarks' (bench_test.go).
func (ce *cell) loop(n int) error {
	c := ce.c
	if ce.direction == serialize {
		for i := 0; i < n; i++ {
			if _, err := c.Marshal(); err != nil {
				return err
			}
		}
		return nil
	}
	data := ce.data
	if ce.direction == deserializeFresh {
		for i := 0; i < n; i++ {
			if err := c.UnmarshalFresh(data); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if err := c.Unmarshal(data); err != nil {
			return err
		}
	}
	return nil
}

// clock measures elapsed time for one cell run: wall time, or the CPU time
// of the measuring thread.
type clock struct{ thread bool }

func (c clock) now() time.Duration {
	if c.thread {
		d, _ := threadCPUTime()
		return d
	}
	return time.Duration(time.Now().UnixNano())
}

// timed runs the cell's loop n times on a locked OS thread (so a thread
// clock sees only this goroutine) and returns the elapsed time.
func (ce *cell) timed(clk clock, n int) (time.Duration, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := clk.now()
	err := ce.loop(n)
	d := clk.now() - t0
	if err != nil {
		return 0, fmt.Errorf("%s/%s/%s: %w", ce.fixture, ce.direction, ce.codec, err)
	}
	return d, nil
}

// calibrate finds the iteration count that takes about benchtime, growing n
// fourfold until one run takes at least a tenth of it (which also warms
// caches, the branch predictors and the allocator). The last run takes
// between a tenth and four tenths of benchtime and the ones before it a third
// of the last at most, which is what estimateRun counts on.
func (ce *cell) calibrate(clk clock, benchtime time.Duration) error {
	n := 1
	for {
		d, err := ce.timed(clk, n)
		if err != nil {
			return err
		}
		ce.calClock += d
		if d >= benchtime/10 || n >= 1<<30 {
			per := float64(d) / float64(n)
			if per <= 0 {
				per = 1
			}
			ce.n = max(1, int(float64(benchtime)/per))
			return nil
		}
		n *= 4
	}
}

// measure takes one sample: a GC first (as testing.B does) so garbage from
// the previous cell is not charged to this one, then n timed iterations,
// with allocation counts from runtime.MemStats read outside the timed part.
func (ce *cell) measure(clk clock) error {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	d, err := ce.timed(clk, ce.n)
	runtime.ReadMemStats(&m1)
	if err != nil {
		return err
	}
	n := float64(ce.n)
	ce.samples = append(ce.samples, sample{
		nsPerOp:     float64(d.Nanoseconds()) / n,
		allocsPerOp: float64(m1.Mallocs-m0.Mallocs) / n,
		bytesPerOp:  float64(m1.TotalAlloc-m0.TotalAlloc) / n,
	})
	return nil
}

// measureRound measures every cell once. Fixtures and directions keep their
// order; the codec order rotates with the round.
func measureRound(progress io.Writer, clk clock, cells map[key]*cell, fxs []codecs.Fixture, names []string, round, rounds int, start time.Time) error {
	for _, f := range fxs {
		for _, dir := range directions {
			for i := range names {
				name := names[(i+round)%len(names)]
				ce, ok := cells[key{f.Name, dir, name}]
				if !ok {
					continue // no evolved cell for this codec or fixture
				}
				if err := ce.measure(clk); err != nil {
					return err
				}
			}
		}
		fmt.Fprintf(progress, "  round %d/%d  %-18s done  (%v elapsed)\n", round+1, rounds, f.Name, time.Since(start).Round(time.Second))
	}
	return nil
}

// result is one cell's summary.
type result struct {
	key
	size                    int
	nsPerOp                 float64 // median over rounds
	minNs, maxNs            float64
	allocsPerOp, bytesPerOp float64 // medians
	rounds                  int
}

func summarize(cells map[key]*cell) map[key]result {
	out := map[key]result{}
	for k, c := range cells {
		ns := make([]float64, len(c.samples))
		allocs := make([]float64, len(c.samples))
		bs := make([]float64, len(c.samples))
		for i, s := range c.samples {
			ns[i], allocs[i], bs[i] = s.nsPerOp, s.allocsPerOp, s.bytesPerOp
		}
		r := result{key: k, size: c.size, rounds: len(ns)}
		r.nsPerOp = median(ns)
		r.minNs, r.maxNs = ns[0], ns[len(ns)-1] // median sorted ns
		r.allocsPerOp = median(allocs)
		r.bytesPerOp = median(bs)
		out[k] = r
	}
	return out
}

// median sorts xs in place and returns its median.
func median(xs []float64) float64 {
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
