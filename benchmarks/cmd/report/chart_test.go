package main

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
)

// chartCells are made-up measurements of 2 fixtures × 3 codecs × 2
// directions over 3 rounds: cell number i has ns/op 100i, 60i and 180i in
// its three rounds (median 100i, min 60i, max 180i), i allocs/op (2i in the
// second direction) and an encoded size of 10i bytes. msgp has no
// MediaContent deserialize cell, as if it had not been measured.
func chartCells() (map[key]*cell, []string, []string) {
	fxNames := []string{"NumericStruct", "MediaContent"}
	names := []string{codecs.Forygen, codecs.Protobuf, codecs.Msgp}
	cells := map[key]*cell{}
	i := 0
	for _, fx := range fxNames {
		for _, name := range names {
			i++
			for d, dir := range []string{serialize, deserialize} {
				if fx == "MediaContent" && name == codecs.Msgp && dir == deserialize {
					continue
				}
				x := float64(i)
				allocs := x * float64(d+1)
				cells[key{fx, dir, name}] = &cell{
					fixture: fx, codec: name, direction: dir, size: 10 * i,
					samples: []sample{
						{nsPerOp: 100 * x, allocsPerOp: allocs, bytesPerOp: 8 * allocs},
						{nsPerOp: 60 * x, allocsPerOp: allocs, bytesPerOp: 8 * allocs},
						{nsPerOp: 180 * x, allocsPerOp: allocs + 1, bytesPerOp: 8 * allocs},
					},
				}
			}
		}
	}
	return cells, fxNames, names
}

// TestTimeBars: each ns/op bar is the median of the rounds and its error bar
// spans the rounds' min and max; bars come as [codec][fixture].
func TestTimeBars(t *testing.T) {
	cells, fxNames, names := chartCells()
	results := summarize(cells)
	for _, dir := range []string{serialize, deserialize} {
		bars := timeBars(results, fxNames, names, dir)
		require.Len(t, bars, len(names))
		for ci, row := range bars {
			require.Len(t, row, len(fxNames))
			for fi, b := range row {
				assert.Equal(t, names[ci], b.codec)
				assert.Equal(t, fxNames[fi], b.fixture)
				if fxNames[fi] == "MediaContent" && names[ci] == codecs.Msgp && dir == deserialize {
					assert.False(t, b.present, "unmeasured cell")
					continue
				}
				x := float64(fi*len(names) + ci + 1)
				assert.True(t, b.present)
				assert.Equal(t, 100*x, b.value, "median")
				assert.Equal(t, 60*x, b.lo, "min over the rounds")
				assert.Equal(t, 180*x, b.hi, "max over the rounds")
			}
		}
	}
}

// TestSecondPanelBars: the size plot has one bar per fixture × codec with
// the encoded size (also where only one direction was measured), and the
// allocs/op plots one per fixture × codec with the rounds' median, without
// error bars.
func TestSecondPanelBars(t *testing.T) {
	cells, fxNames, names := chartCells()
	results := summarize(cells)
	sizes := sizeBars(results, fxNames, names)
	require.Len(t, sizes, len(names))
	n := 0
	for ci, row := range sizes {
		require.Len(t, row, len(fxNames))
		for fi, b := range row {
			i := fi*len(names) + ci + 1
			assert.True(t, b.present, "%s/%s", b.fixture, b.codec)
			assert.Equal(t, float64(10*i), b.value, "%s/%s bytes", b.fixture, b.codec)
			assert.Equal(t, b.value, b.lo)
			assert.Equal(t, b.value, b.hi)
			n++
		}
	}
	assert.Equal(t, len(fxNames)*len(names), n, "one size bar per fixture × codec")

	for d, dir := range []string{serialize, deserialize} {
		allocs := allocBars(results, fxNames, names, dir)
		require.Len(t, allocs, len(names))
		for ci, row := range allocs {
			require.Len(t, row, len(fxNames))
			for fi, b := range row {
				if !b.present {
					assert.Equal(t, deserialize, dir)
					assert.Equal(t, codecs.Msgp, b.codec)
					continue
				}
				x := float64(fi*len(names) + ci + 1)
				assert.Equal(t, x*float64(d+1), b.value, "%s/%s/%s median allocs/op", b.fixture, dir, b.codec)
				assert.Equal(t, b.value, b.lo, "no error bar")
				assert.Equal(t, b.value, b.hi, "no error bar")
			}
		}
	}
}

func TestScales(t *testing.T) {
	s := logScale(35, 28000, nsLabel)
	assert.InDelta(t, math.Log10(3.5), s.pos(35), 1e-12, "0 is 10 ns")
	assert.InDelta(t, math.Log10(2800)+0.45, s.top, 1e-12)
	var labels []string
	for _, tk := range s.ticks.Ticks(0, s.top) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"10 ns", "100 ns", "1 µs", "10 µs"}, labels)

	c := countScale(407)
	assert.Equal(t, 0.0, c.pos(0))
	assert.InDelta(t, 1.0, c.pos(9), 1e-12)
	labels = nil
	for _, tk := range c.ticks.Ticks(0, c.top) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"0", "1", "10", "100", "1000"}, labels)
	assert.Equal(t, "48 B", bytesLabel(48))
	assert.Equal(t, "10 kB", bytesLabel(1e4))
}

// TestWriteChart draws the made-up results into a PNG of the chart's size.
func TestWriteChart(t *testing.T) {
	cells, fxNames, names := chartCells()
	var fxs []codecs.Fixture
	for _, f := range codecs.Fixtures() {
		for _, n := range fxNames {
			if f.Name == n {
				fxs = append(fxs, f)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "c.png")
	require.NoError(t, writeChart(path, summarize(cells), fxs, names, "wall"))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	require.NoError(t, err)
	px := func(l vg.Length) int { return int(math.Round(float64(l/vg.Inch) * chartDPI)) }
	assert.Equal(t, px(chartW), cfg.Width)
	assert.Equal(t, px(chartH), cfg.Height)
}
