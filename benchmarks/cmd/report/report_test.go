package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunSmall runs the whole report on a small matrix with a tiny benchtime
// and checks the table rows, the ratio columns and both chart formats.
func TestRunSmall(t *testing.T) {
	dir := t.TempDir()
	for i, chart := range []string{filepath.Join(dir, "r.png"), filepath.Join(dir, "sub", "r.svg")} {
		clk := []string{defaultClock(), "wall"}[i]
		var out, progress bytes.Buffer
		err := run(&out, &progress, config{fixtures: "NumericStruct,MediaContent", codecs: "forygen,protobuf,msgp", rounds: 2, benchtime: time.Millisecond, chart: chart, clock: clk})
		require.NoError(t, err)
		table := out.String()
		rows := 0
		for _, line := range strings.Split(table, "\n") {
			if strings.HasPrefix(line, "| NumericStruct |") || strings.HasPrefix(line, "| MediaContent |") {
				rows++
				cols := strings.Split(strings.Trim(line, "|"), "|")
				require.Len(t, cols, 10, line)
				if strings.TrimSpace(cols[2]) == deserializeEvolved {
					assert.Equal(t, "–", strings.TrimSpace(cols[8]), "no protobuf evolved cell: %s", line)
				} else {
					assert.NotEqual(t, "–", strings.TrimSpace(cols[8]), "ratio to protobuf: %s", line)
				}
				assert.Equal(t, "–", strings.TrimSpace(cols[9]), "vtprotobuf not selected: %s", line)
			}
		}
		// 2 fixtures × 3 codecs × 3 directions, and forygen's evolved
		// MediaContent cell.
		assert.Equal(t, 2*3*3+1, rows, table)
		assert.Contains(t, table, "| NumericStruct | forygen | serialize |")
		assert.Contains(t, table, "| MediaContent | msgp | deserialize |")
		assert.Contains(t, table, "| MediaContent | msgp | deserialize fresh |")
		assert.Contains(t, table, "| NumericStruct | protobuf | deserialize fresh |")
		assert.Contains(t, table, "| MediaContent | forygen | deserialize evolved |")
		assert.NotContains(t, table, "| NumericStruct | forygen | deserialize evolved |")
		assert.NotContains(t, table, "| MediaContent | msgp | deserialize evolved |")
		assert.Contains(t, table, "| NumericStruct | protobuf | serialize | ")
		assert.Contains(t, table, "Chart: ")
		assert.Contains(t, progress.String(), "round 2/2")
		st, err := os.Stat(chart)
		require.NoError(t, err)
		assert.Greater(t, st.Size(), int64(10_000))
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	var out, progress bytes.Buffer
	chart := filepath.Join(t.TempDir(), "r.png")
	good := config{fixtures: "all", codecs: "all", rounds: 1, benchtime: time.Millisecond, chart: chart, clock: "wall"}
	bad := func(change func(*config)) error {
		c := good
		change(&c)
		return run(&out, &progress, c)
	}
	assert.ErrorContains(t, bad(func(c *config) { c.fixtures = "Nope" }), `unknown fixture "Nope"`)
	assert.ErrorContains(t, bad(func(c *config) { c.codecs = "protobuf,json" }), `unknown codec "json"`)
	assert.ErrorContains(t, bad(func(c *config) { c.rounds = 0 }), "-rounds")
	assert.ErrorContains(t, bad(func(c *config) { c.benchtime = 0 }), "-benchtime")
	assert.ErrorContains(t, bad(func(c *config) { c.chart = filepath.Join(t.TempDir(), "r.jpg") }), ".png or .svg")
	assert.ErrorContains(t, bad(func(c *config) { c.clock = "tsc" }), "want thread or wall")
	_, err := os.Stat(chart)
	assert.True(t, os.IsNotExist(err), "no chart after a rejected run")
}

func TestMedian(t *testing.T) {
	assert.Equal(t, 3.0, median([]float64{5, 1, 3}))
	assert.Equal(t, 2.5, median([]float64{4, 1, 2, 3}))
}

func TestLabels(t *testing.T) {
	assert.Equal(t, "10 ns", nsLabel(10))
	assert.Equal(t, "1 µs", nsLabel(1000))
	assert.Equal(t, "100 µs", nsLabel(1e5))
	assert.Equal(t, "87", shortNs(87.2))
	assert.Equal(t, "1.5k", shortNs(1490))
	assert.Equal(t, "46k", shortNs(45958))
	assert.Equal(t, "0", formatCount(0.04))
	assert.Equal(t, "0.1", formatCount(0.1))
	assert.Equal(t, "161", formatCount(161))
}
