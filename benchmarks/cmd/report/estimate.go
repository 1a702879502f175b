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
// (README.md) with both clocks, -benchtime 10ms to 200ms, 1 to 9 rounds, the
// whole matrix and parts of it. On that shared virtual machine the same run
// can take 10 % more or less from one minute to the next: even the thread
// clock counts the time the hypervisor gives the virtual CPU to someone else,
// so the calibrated count of a cell can take from 0.8 to 1.5 × -benchtime in
// one round or another.
const (
	// checkPerPair is codecs.Verify and the cells' setup per fixture and
	// codec (about 5 ms for all 36, before Verify also decoded into new
	// values and checked the evolved readers; still a few ms).
	checkPerPair = 200 * time.Microsecond
	// calibrationRun is the fixed cost of one calibration run (locking the
	// thread, reading the clock) on top of the loop; a cell makes about 10.
	calibrationRun = 20 * time.Microsecond
	// wallShare is a measurement's wall time per -benchtime with -clock
	// wall: the count calibration found runs for about -benchtime (0.9 to
	// 1.07 × over whole runs).
	wallShare = 1.0
	// threadShare is a measurement's wall time per -benchtime with -clock
	// thread on a quiet machine (1.04 to 1.24 × over whole runs; 1.16 for
	// the default run). The thread clock does not count the GC's
	// stop-the-world pauses, nor its workers' time when they take the
	// measuring thread's CPU (there are two), and loops that allocate run
	// longer with the heap and GC cycles of the rounds than in the short
	// calibration runs.
	threadShare = 1.16
	// calibrationWallPerThread is calibration's wall time per thread CPU
	// time on a quiet machine (1.02 to 1.04); refineRounds takes more than
	// that as other load on the machine.
	calibrationWallPerThread = 1.03
	// measureFixed is what each measurement costs besides its timed loop:
	// runtime.GC (a full collection) and two runtime.ReadMemStats.
	measureFixed = 1500 * time.Microsecond
	// reportFixed is summarizing, the table and drawing the chart (0.15
	// to 0.45 s).
	reportFixed = 250 * time.Millisecond
)

// calibrationShare is a cell's calibration time per -benchtime: calibrate
// grows n fourfold until a run takes at least benchtime/10, so the last run
// takes benchtime/10 × 4^u for some u in [0, 1), and all runs before it add
// a third of that (1/4 + 1/16 + …). With u uniform (cells whose cost per
// operation is spread over orders of magnitude), the expected total is
// 4/3 × benchtime/10 × (4-1)/ln 4 = 0.4/ln 4 × benchtime ≈ 0.29 × benchtime
// (0.26 to 0.34 × measured for the whole matrix).
const calibrationShare = 0.4 / (2 * math.Ln2)

// estimateRun is the expected wall time of a run on pairs fixture × codec
// pairs measured in cells cells (cellKeys: serialize, deserialize and
// deserialize fresh for every pair, and the evolved cells) with the given
// rounds, benchtime and clock (thread: -clock thread), on a machine like the
// development machine with little other load. On a loaded machine the thread
// clock keeps the numbers honest but the run takes longer; run then refines
// the rounds' estimate from how long calibration took (refineRounds).
func estimateRun(pairs, cells, rounds int, benchtime time.Duration, thread bool) runCost {
	bt := float64(benchtime)
	return runCost{
		check:       time.Duration(pairs) * checkPerPair,
		calibration: time.Duration(float64(cells) * (calibrationShare*bt + 10*float64(calibrationRun))),
		rounds:      time.Duration(rounds*cells) * measurement(bt, quietShare(thread)),
		report:      reportFixed,
	}
}

// quietShare is a measurement's wall time per -benchtime on a quiet machine.
func quietShare(thread bool) float64 {
	if thread {
		return threadShare
	}
	return wallShare
}

// measurement is the wall time of one measurement of one cell.
func measurement(benchtime, share float64) time.Duration {
	return time.Duration(benchtime*share) + measureFixed
}

// refineRounds re-estimates the rounds once calibration is done: calibration
// took calWall of wall time while the cells' clock counted calClock. With
// -clock thread, a ratio above a quiet machine's calibrationWallPerThread is
// other load taking CPU time from the measuring thread, which will stretch
// the rounds too, but load on the development machine came and went within
// a minute: in four runs with calibration ratios from 1.13 to 1.93, counting
// a third of the excess (refineWeight) put the rounds' estimate within -3 %
// to +18 % of their time, where counting all of it overshot by up to 60 %
// (and counting none fell short by up to 21 %). With -clock wall the ratio
// stays about 1 whatever the load (calibration then counts the load in the
// cells' cost, and the rounds run for about -benchtime each). The estimate
// never goes below estimateRun's. It also returns the ratio.
func refineRounds(cells, rounds int, benchtime, calWall, calClock time.Duration, thread bool) (left time.Duration, ratio float64) {
	ratio = 1
	if calClock > 0 {
		ratio = float64(calWall) / float64(calClock)
	}
	quiet := 1.0
	if thread {
		quiet = calibrationWallPerThread
	}
	share := quietShare(thread) * (1 + refineWeight*math.Max(0, ratio/quiet-1))
	return time.Duration(rounds*cells) * measurement(float64(benchtime), share), ratio
}

// refineWeight is the part of calibration's excess wall time per clock time
// that refineRounds expects the rounds to see as well.
const refineWeight = 1.0 / 3

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
