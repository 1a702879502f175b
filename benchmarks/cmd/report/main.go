// Command report checks and measures every codec on every fixture and writes
// a markdown table (stdout) and a chart (PNG or SVG, by the -chart
// extension).
//
//	cd benchmarks && go run ./cmd/report
//	go run ./cmd/report -fixtures Sample,MediaContent -codecs forygen,vtprotobuf -rounds 7 -benchtime 500ms -clock wall -chart out/x.svg
//
// It first runs codecs.Verify on every selected fixture (round trips through
// reused buffers and targets, identical decoded values across codecs) and
// stops if anything is wrong. The directions are serialize, deserialize
// (into a reused target), deserialize fresh (into a new value each time) and,
// for forygen on MediaContent and MediaContentList, deserialize evolved (a
// reader with a later schema; package fixtures/evolved). It then measures in
// interleaved rounds: each round measures every (fixture, direction, codec)
// cell once, for about -benchtime, with the codec order rotated from round to
// round, so slow drift of the machine (other processes, thermal state)
// spreads over all codecs instead of favouring whichever ran in a quiet
// moment. The chart shows serialize and deserialize (reuse) only; the table
// has every direction. Each cell reports the
// median of its rounds. Progress goes to stderr: first the estimated run time
// (estimateRun: the correctness check, calibration, every round of every
// cell and the chart, from the moment the program starts; a go run build
// comes before that), a refined estimate once calibration has shown how fast
// the machine is running, and at the end the time each part took beside its
// estimate.
//
// By default (on Linux) ns/op is the CPU time of the measuring OS thread
// (-clock thread), not elapsed time: on a machine shared with other work,
// elapsed time charges their CPU use to whichever codec happened to run beside
// it, and interleaving alone cannot remove that when the load never stops.
// -clock wall gives elapsed time, as go test -bench reports it. Neither clock
// counts the garbage collector's background workers on other threads; the
// allocs/op and B/op columns show what each codec leaves for them.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
)

func main() {
	fixtureList := flag.String("fixtures", "all", "comma-separated fixtures to run: "+strings.Join(codecs.FixtureNames, ","))
	codecList := flag.String("codecs", "all", "comma-separated codecs to run: "+strings.Join(codecs.Names, ","))
	rounds := flag.Int("rounds", 5, "interleaved rounds; each cell reports the median of its rounds (at least 1; 5 or more for publishable numbers)")
	benchtime := flag.Duration("benchtime", 100*time.Millisecond, "target duration of one measurement of one cell in one round")
	chart := flag.String("chart", filepath.Join("out", "report.png"), "chart output path; .png or .svg")
	clockName := flag.String("clock", defaultClock(), "what ns/op measures: thread (CPU time of the measuring thread; Linux only) or wall (elapsed time, as go test -bench)")
	flag.Parse()
	cfg := config{fixtures: *fixtureList, codecs: *codecList, rounds: *rounds, benchtime: *benchtime, chart: *chart, clock: *clockName}
	if err := run(os.Stdout, os.Stderr, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// config holds the command line.
type config struct {
	fixtures, codecs string
	rounds           int
	benchtime        time.Duration
	chart            string
	clock            string
}

// defaultClock is thread where the thread CPU clock works: on a machine
// shared with other work it keeps their CPU use out of the numbers, while
// elapsed time would charge it to whichever codec ran beside it.
func defaultClock() string {
	if _, ok := threadCPUTime(); ok {
		return "thread"
	}
	return "wall"
}

// run writes the table and the chart's path to out and progress to progress.
func run(out, progress io.Writer, cfg config) error {
	fixtureList, codecList, rounds, benchtime, chartPath := cfg.fixtures, cfg.codecs, cfg.rounds, cfg.benchtime, cfg.chart
	var clk clock
	switch cfg.clock {
	case "wall":
	case "thread":
		if _, ok := threadCPUTime(); !ok {
			return fmt.Errorf("-clock thread is not available on this system; use -clock wall")
		}
		clk.thread = true
	default:
		return fmt.Errorf("-clock %q: want thread or wall", cfg.clock)
	}
	if rounds < 1 {
		return fmt.Errorf("-rounds must be at least 1")
	}
	if benchtime <= 0 {
		return fmt.Errorf("-benchtime must be positive")
	}
	ext := strings.ToLower(filepath.Ext(chartPath))
	if ext != ".png" && ext != ".svg" {
		return fmt.Errorf("-chart %q: the extension must be .png or .svg", chartPath)
	}
	fxs, names, err := codecs.Select(fixtureList, codecList)
	if err != nil {
		return err
	}
	start := time.Now()
	loadStart := loadAvg()
	est := estimateRun(len(fxs)*len(names), len(cellKeys(fxs, names)), rounds, benchtime, clk.thread)
	fmt.Fprintf(progress, "estimated run time: %v\n", est)

	var took runCost
	fmt.Fprintf(progress, "checking correctness of %d codecs on %d fixtures...\n", len(names), len(fxs))
	sizes := map[string]map[string]int{}
	for _, f := range fxs {
		s, err := codecs.Verify(f, names)
		if err != nil {
			return fmt.Errorf("correctness check failed, nothing measured: %w", err)
		}
		sizes[f.Name] = s
	}

	cells, err := newCells(fxs, names, sizes)
	if err != nil {
		return err
	}
	took.check = time.Since(start)

	fmt.Fprintf(progress, "calibrating %d cells...\n", len(cells))
	t := time.Now()
	var calClock time.Duration
	for _, c := range cells {
		if err := c.calibrate(clk, benchtime); err != nil {
			return err
		}
		calClock += c.calClock
	}
	took.calibration = time.Since(t)
	left, ratio := refineRounds(len(cells), rounds, benchtime, took.calibration, calClock, clk.thread)
	fmt.Fprintf(progress, "measuring %d rounds x %d cells x ~%v (about %v more; calibration took %.2f s of wall time per s of %s clock)...\n",
		rounds, len(cells), benchtime, roundDur(left+est.report), ratio, cfg.clock)
	t = time.Now()
	for r := 0; r < rounds; r++ {
		if err := measureRound(progress, clk, cells, fxs, names, r, rounds, start); err != nil {
			return err
		}
	}
	took.rounds = time.Since(t)

	t = time.Now()
	results := summarize(cells)
	fmt.Fprint(out, markdown(results, names, rounds, benchtime, cfg.clock, loadStart+" at the start, "+loadAvg()+" at the end"))

	if dir := filepath.Dir(chartPath); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := writeChart(chartPath, results, fxs, names, clockDesc(cfg.clock)); err != nil {
		return fmt.Errorf("writing chart: %w", err)
	}
	abs, err := filepath.Abs(chartPath)
	if err != nil {
		abs = chartPath
	}
	fmt.Fprintf(out, "\nChart: %s\n", abs)
	took.report = time.Since(t)
	fmt.Fprintf(progress, "done in %v\n  estimated %v\n", took, est)
	return nil
}

// loadAvg is the 1-minute load average (Linux), which says how much other
// work shared the machine during the run.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(data)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// machine describes where the numbers come from.
func machine() string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d logical CPUs (GOMAXPROCS %d), %s %s/%s",
		cpu, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
