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

const (
	serialize   = "serialize"
	deserialize = "deserialize"
)

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

func newCells(fxs []codecs.Fixture, names []string, sizes map[string]map[string]int) (map[key]*cell, error) {
	cells := map[key]*cell{}
	for _, f := range fxs {
		for _, dir := range []string{serialize, deserialize} {
			for _, name := range names {
				c, err := f.New(name)
				if err != nil {
					return nil, err
				}
				ce := &cell{fixture: f.Name, codec: name, direction: dir, size: sizes[f.Name][name], c: c}
				if dir == deserialize {
					data, err := c.Marshal()
					if err != nil {
						return nil, err
					}
					ce.data = bytes.Clone(data)
				}
				cells[key{f.Name, dir, name}] = ce
			}
		}
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
		for _, dir := range []string{serialize, deserialize} {
			for i := range names {
				name := names[(i+round)%len(names)]
				if err := cells[key{f.Name, dir, name}].measure(clk); err != nil {
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
