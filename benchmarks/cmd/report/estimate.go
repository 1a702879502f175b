package main

import (
	"fmt"
	"math"
	"time"
)

// runCost is the wall time of the parts of a run, estimated or measured.
// It starts when the program does: a go run build (a second or less from a
// warm build cache; on a first run, module downloads and the build of the
// dependencies, most of a minute on the machine below) is over by then.
type runCost struct {
	check       time.Duration // codecs.Verify on every fixture, and setting up the cells
	calibration time.Duration // finding each cell's iteration count (also its warm-up)
	rounds      time.Duration // every round of every cell
	report      time.Duration // the table and the chart
}

func (c runCost) total() time.Duration { return c.check + c.calibration + c.rounds + c.report }

// The cost model, fitted to runs on the 2-core development machine
// (README.md) with -clock thread and -clock wall, -benchtime 20ms to 200ms,
// 1 to 5 rounds, the whole matrix and parts of it.
const (
	// checkPerPair is codecs.Verify and the cells' setup per fixture and
	// codec (about 4 ms for all 36).
	checkPerPair = 200 * time.Microsecond
	// calibrationRun is the fixed cost of one calibration run (locking the
	// thread, reading the clock) on top of the loop; a cell makes about 10.
	calibrationRun = 20 * time.Microsecond
	// measureClockShare is a measurement's clock time per -benchtime: a
	// measurement runs the count that calibration found, and runs that
	// allocate take longer with the heap (and GC cycles) of the rounds than
	// in the short calibration runs.
	measureClockShare = 1.03
	// wallPerClock is wall time per thread CPU time while the measuring
	// thread runs, on a quiet machine: GC stops the world and the runtime's
	// other threads share the CPUs. (With -clock wall it is 1 by definition;
	// the difference is then already in measureClockShare, so the same
	// factor serves both clocks within the model's accuracy.)
	wallPerClock = 1.03
	// measureFixed is what each measurement costs besides its timed loop:
	// runtime.GC (a full collection) and two runtime.ReadMemStats.
	measureFixed = 1500 * time.Microsecond
	// reportFixed is summarizing, the table and drawing the chart.
	reportFixed = 250 * time.Millisecond
)

// calibrationShare is a cell's calibration time per -benchtime: calibrate
// grows n fourfold until a run takes at least benchtime/10, so the last run
// takes benchtime/10 × 4^u for some u in [0, 1), and all runs before it add
// a third of that (1/4 + 1/16 + …). With u uniform (cells whose cost per
// operation is spread over orders of magnitude), the expected total is
// 4/3 × benchtime/10 × (4-1)/ln 4 = 0.4/ln 4 × benchtime ≈ 0.29 × benchtime.
const calibrationShare = 0.4 / (2 * math.Ln2)

// estimateRun is the expected wall time of a run on fixtures × codecs (each
// measured in both directions, so 2 × fixtures × codecs cells), with the
// given rounds and benchtime, on a machine like the development machine with
// little other load. On a loaded machine the thread clock keeps the numbers
// honest but the run takes longer; run then refines the rounds' estimate
// from how long calibration took (refineRounds).
func estimateRun(fixtures, codecs, rounds int, benchtime time.Duration) runCost {
	pairs := fixtures * codecs
	cells := 2 * pairs
	bt := float64(benchtime)
	return runCost{
		check:       time.Duration(pairs) * checkPerPair,
		calibration: time.Duration(float64(cells) * (calibrationShare*bt + 10*float64(calibrationRun))),
		rounds:      time.Duration(rounds*cells) * measurement(bt, wallPerClock),
		report:      reportFixed,
	}
}

// measurement is the wall time of one measurement of one cell when wall
// time runs at perClock times the measuring clock.
func measurement(benchtime, perClock float64) time.Duration {
	return time.Duration(benchtime*measureClockShare*perClock) + measureFixed
}

// refineRounds re-estimates the rounds once calibration is done: calibration
// took calWall of wall time while the cells' clock counted calClock, so the
// rounds will run at about calWall/calClock wall time per clock time too
// (much more than wallPerClock with -clock thread when other processes load
// the machine; about 1 with -clock wall, whatever the load). It never counts
// less than the quiet machine's wallPerClock. It also returns the ratio.
func refineRounds(cells, rounds int, benchtime, calWall, calClock time.Duration) (left time.Duration, ratio float64) {
	ratio = 1
	if calClock > 0 {
		ratio = float64(calWall) / float64(calClock)
	}
	return time.Duration(rounds*cells) * measurement(float64(benchtime), math.Max(wallPerClock, ratio)), ratio
}

// String lists the parts, as in "41s (correctness check 7ms, calibration
// 2.1s, rounds 39s, table and chart 250ms)".
func (c runCost) String() string {
	return fmt.Sprintf("%v (correctness check %v, calibration %v, rounds %v, table and chart %v)",
		roundDur(c.total()), roundDur(c.check), roundDur(c.calibration), roundDur(c.rounds), roundDur(c.report))
}

// roundDur rounds d to 2 or 3 significant digits for printing.
func roundDur(d time.Duration) time.Duration {
	switch {
	case d >= 100*time.Second:
		return d.Round(time.Second)
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(time.Millisecond)
	default:
		return d.Round(100 * time.Microsecond)
	}
}
