package main

import (
	"testing"
	"time"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEstimateRunDefault checks the estimate of a run of all 6 fixtures × 6
// codecs in two directions (72 cells, the default run before the fresh and
// evolved cells; 5 rounds of 100ms, thread clock) part by part, and against
// what such runs took on the development machine.
func TestEstimateRunDefault(t *testing.T) {
	e := estimateRun(36, 72, 5, 100*time.Millisecond, true)
	ms := func(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
	// 36 fixture × codec pairs at 0.2 ms.
	assert.Equal(t, ms(7.2), e.check)
	// 72 cells × (0.4/ln 4 × 100 ms + 10 runs × 20 µs) = 72 × 29.054 ms.
	assert.InDelta(t, float64(ms(2091.9)), float64(e.calibration), float64(ms(0.5)))
	// 5 rounds × 72 cells × (1.16 × 100 ms + 1.5 ms) = 360 × 117.5 ms.
	assert.InDelta(t, float64(ms(42300)), float64(e.rounds), float64(ms(0.5)))
	assert.Equal(t, ms(250), e.report)
	assert.InDelta(t, float64(ms(44649.1)), float64(e.total()), float64(ms(1)))
	assert.Equal(t, "44.6s (correctness check 7.2ms, calibration 2.09s, rounds 42.3s, table and chart 250ms)", e.String())

	// Measured on the development machine (the time the program printed;
	// go run added 0.1 to 0.5 s with a warm build cache):
	//   go run ./cmd/report              44.6 s and 47.7 s; 52.1 s with
	//                                    other load (calibration ratio 1.70)
	//   go run ./cmd/report -clock wall  35.3 s and 36.1 s (estimate 38.9 s)
	//   ... -rounds 2                    17.3 s to 19.3 s (estimate 19.3 s)
	// The old estimate, rounds × cells × benchtime = 36 s, left out
	// calibration, the GC before every measurement and the wall time the
	// thread clock does not count.
	assert.InEpsilon(t, 46.2, e.total().Seconds(), 0.1)
	assert.InEpsilon(t, 35.7, estimateRun(36, 72, 5, 100*time.Millisecond, false).total().Seconds(), 0.1)
	assert.InEpsilon(t, 18.3, estimateRun(36, 72, 2, 100*time.Millisecond, true).total().Seconds(), 0.1)
	assert.Greater(t, e.total(), 5*72*100*time.Millisecond)
}

// TestEstimateRunFullMatrix: the default run now has 170 cells (serialize,
// deserialize and deserialize fresh for all 56 pairs of 7 fixtures and 8
// codecs, and forygen's two evolved cells); the estimate scales with the
// cells.
func TestEstimateRunFullMatrix(t *testing.T) {
	fxs, names, err := codecs.Select("all", "all")
	require.NoError(t, err)
	cells := len(cellKeys(fxs, names))
	assert.Equal(t, 3*56+2, cells)
	e := estimateRun(len(fxs)*len(names), cells, 5, 100*time.Millisecond, true)
	ms := func(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
	assert.Equal(t, ms(11.2), e.check)
	// 170 cells × 29.054 ms; 5 rounds × 170 cells × 117.5 ms.
	assert.InDelta(t, float64(ms(4939.2)), float64(e.calibration), float64(ms(1)))
	assert.InDelta(t, float64(ms(99875)), float64(e.rounds), float64(ms(1)))
	assert.Equal(t, "1m45s (correctness check 11ms, calibration 4.94s, rounds 1m39.9s, table and chart 250ms)", e.String())
	// Measured on the development machine, with other work running (load
	// average 2.4 at the start, 3.7 at the end; calibration ratio 1.19):
	// go run ./cmd/report took 62.8 s (calibration 4.07 s, rounds 58.4 s).
	// Without forygen there is no evolved cell.
	_, noForygen, err := codecs.Select("all", "protobuf,msgp")
	require.NoError(t, err)
	assert.Len(t, cellKeys(fxs, noForygen), 3*7*2)
}

// TestEstimateRunScales: every part scales with what it depends on, and the
// wall clock's rounds do not pay the thread clock's extra wall time.
func TestEstimateRunScales(t *testing.T) {
	base := estimateRun(6, 12, 4, 20*time.Millisecond, false)
	bt := float64(20 * time.Millisecond)
	// 6 pairs, 12 cells, 48 measurements.
	assert.Equal(t, 6*checkPerPair, base.check)
	assert.Equal(t, time.Duration(12*(calibrationShare*bt+10*float64(calibrationRun))), base.calibration)
	assert.Equal(t, 48*(time.Duration(bt*wallShare)+measureFixed), base.rounds)
	assert.Equal(t, reportFixed, base.report)

	twice := estimateRun(6, 12, 8, 20*time.Millisecond, false)
	assert.Equal(t, 2*base.rounds, twice.rounds, "rounds double")
	assert.Equal(t, base.calibration, twice.calibration, "calibration does not depend on rounds")

	thread := estimateRun(6, 12, 4, 20*time.Millisecond, true)
	assert.Equal(t, 48*(time.Duration(bt*threadShare)+measureFixed), thread.rounds)
	assert.Equal(t, base.calibration, thread.calibration)
	assert.Greater(t, thread.rounds, base.rounds)
}

// TestRefineRounds: with the thread clock, a calibration that ran at 1.5 s
// of wall time per s of clock (a loaded machine) stretches the rounds by a
// third of 1.5/1.03 - 1; one that ran as on a quiet machine or faster keeps
// estimateRun's rounds. With the wall clock a ratio of 1 or less changes
// nothing.
func TestRefineRounds(t *testing.T) {
	bt := 100 * time.Millisecond
	left, ratio := refineRounds(72, 5, bt, 3*time.Second, 2*time.Second, true)
	assert.Equal(t, 1.5, ratio)
	share := threadShare * (1 + (ratio/calibrationWallPerThread-1)/3)
	assert.Equal(t, 360*(time.Duration(float64(bt)*share)+measureFixed), left)
	assert.InDelta(t, 48.65, left.Seconds(), 0.01) // 360 × (1.16 × 1.152 × 100 + 1.5) ms

	// The loaded default run in TestEstimateRunDefault: calibration at 1.70,
	// the rounds took 48.6 s; this says 51.4 s (all of the excess: 70 s).
	left, _ = refineRounds(72, 5, bt, 1700*time.Millisecond, time.Second, true)
	assert.InEpsilon(t, 48.6, left.Seconds(), 0.1)

	left, ratio = refineRounds(72, 5, bt, 2*time.Second, 2*time.Second, true)
	assert.Equal(t, 1.0, ratio)
	assert.Equal(t, estimateRun(36, 72, 5, bt, true).rounds, left)

	left, _ = refineRounds(72, 5, bt, 1990*time.Millisecond, 2*time.Second, false)
	assert.Equal(t, estimateRun(36, 72, 5, bt, false).rounds, left)

	left, ratio = refineRounds(72, 5, bt, time.Second, 0, false)
	assert.Equal(t, 1.0, ratio)
	assert.Equal(t, estimateRun(36, 72, 5, bt, false).rounds, left)
}

func TestRoundDur(t *testing.T) {
	assert.Equal(t, "2m3s", roundDur(123456*time.Millisecond).String())
	assert.Equal(t, "44.6s", roundDur(44649*time.Millisecond).String())
	assert.Equal(t, "2.09s", roundDur(2091900*time.Microsecond).String())
	assert.Equal(t, "250ms", roundDur(250400*time.Microsecond).String())
	assert.Equal(t, "7.2ms", roundDur(7240*time.Microsecond).String())
}
