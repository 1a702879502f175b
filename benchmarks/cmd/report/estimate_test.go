package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestEstimateRunDefault checks the estimate of the default run (all 6
// fixtures × 6 codecs = 72 cells, 5 rounds of 100ms, thread clock) part by
// part, and against what such runs took on the development machine.
func TestEstimateRunDefault(t *testing.T) {
	e := estimateRun(6, 6, 5, 100*time.Millisecond, true)
	ms := func(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
	// 36 fixture × codec pairs at 0.2 ms.
	assert.Equal(t, ms(7.2), e.check)
	// 72 cells × (0.4/ln 4 × 100 ms + 10 runs × 20 µs) = 72 × 29.054 ms.
	assert.InDelta(t, float64(ms(2091.9)), float64(e.calibration), float64(ms(0.5)))
	// 5 rounds × 72 cells × (100 ms × 1.04 × 1.07 + 1.5 ms) = 360 × 112.78 ms.
	assert.InDelta(t, float64(ms(40600.8)), float64(e.rounds), float64(ms(0.5)))
	assert.Equal(t, ms(250), e.report)
	assert.InDelta(t, float64(ms(42949.9)), float64(e.total()), float64(ms(1)))
	assert.Equal(t, "42.9s (correctness check 7.2ms, calibration 2.09s, rounds 40.6s, table and chart 250ms)", e.String())

	// Measured (`go run ./cmd/report`, 2-core development machine): 44.6 s
	// (check 5 ms, calibration 1.97 s, rounds 42.4 s, chart 0.23 s) and,
	// with -rounds 2, 18.2 s and 19.3 s for an estimate of 18.6 s. The old
	// estimate, rounds × cells × benchtime = 36 s, left out calibration, the
	// GC before every measurement and the measurements' overrun.
	assert.InEpsilon(t, 44.6, e.total().Seconds(), 0.1)
	assert.InEpsilon(t, 18.7, estimateRun(6, 6, 2, 100*time.Millisecond, true).total().Seconds(), 0.1)
	assert.Greater(t, e.total(), 5*72*100*time.Millisecond)
}

// TestEstimateRunScales: every part scales with what it depends on, and the
// wall clock's rounds do not pay the thread clock's wall-per-CPU factor.
func TestEstimateRunScales(t *testing.T) {
	base := estimateRun(2, 3, 4, 20*time.Millisecond, false)
	bt := float64(20 * time.Millisecond)
	// 6 pairs, 12 cells, 48 measurements.
	assert.Equal(t, 6*checkPerPair, base.check)
	assert.Equal(t, time.Duration(12*(calibrationShare*bt+10*float64(calibrationRun))), base.calibration)
	assert.Equal(t, 48*(time.Duration(bt*measureShare)+measureFixed), base.rounds)
	assert.Equal(t, reportFixed, base.report)

	twice := estimateRun(2, 3, 8, 20*time.Millisecond, false)
	assert.Equal(t, 2*base.rounds, twice.rounds, "rounds double")
	assert.Equal(t, base.calibration, twice.calibration, "calibration does not depend on rounds")

	thread := estimateRun(2, 3, 4, 20*time.Millisecond, true)
	assert.Equal(t, 48*(time.Duration(bt*measureShare*wallPerThread)+measureFixed), thread.rounds)
	assert.Equal(t, base.calibration, thread.calibration)
}

// TestRefineRounds: a calibration that ran at 1.5 s of wall time per s of
// clock (a loaded machine, thread clock) scales the rounds by 1.5; one that
// ran faster than a quiet machine does not lower the estimate.
func TestRefineRounds(t *testing.T) {
	bt := 100 * time.Millisecond
	left, ratio := refineRounds(72, 5, bt, 3*time.Second, 2*time.Second, true)
	assert.Equal(t, 1.5, ratio)
	loaded := 1.5
	assert.Equal(t, 360*(time.Duration(float64(bt)*measureShare*loaded)+measureFixed), left)

	left, ratio = refineRounds(72, 5, bt, 2*time.Second, 2*time.Second, true)
	assert.Equal(t, 1.0, ratio)
	assert.Equal(t, estimateRun(6, 6, 5, bt, true).rounds, left)

	left, _ = refineRounds(72, 5, bt, 2*time.Second, 2*time.Second, false)
	assert.Equal(t, estimateRun(6, 6, 5, bt, false).rounds, left)

	left, ratio = refineRounds(72, 5, bt, time.Second, 0, false)
	assert.Equal(t, 1.0, ratio)
	assert.Equal(t, estimateRun(6, 6, 5, bt, false).rounds, left)
}

func TestRoundDur(t *testing.T) {
	assert.Equal(t, "2m3s", roundDur(123456*time.Millisecond).String())
	assert.Equal(t, "42.2s", roundDur(42194*time.Millisecond).String())
	assert.Equal(t, "2.09s", roundDur(2091900*time.Microsecond).String())
	assert.Equal(t, "250ms", roundDur(250400*time.Microsecond).String())
	assert.Equal(t, "7.2ms", roundDur(7240*time.Microsecond).String())
}
