package main

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
)

// markdown renders the results: one row per fixture, direction and codec.
// The ratio columns divide the row's ns/op by protobuf's (vtprotobuf's) for
// the same fixture and direction: below 1 is faster than that codec. The
// evolved direction has forygen only, so its ratios are "–".
func markdown(results map[key]result, names []string, rounds int, benchtime time.Duration, clock, load string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Machine: %s  \n", machine())
	fmt.Fprintf(&sb, "Load average (1 min): %s  \n", load)
	fmt.Fprintf(&sb, "Median of %d interleaved rounds of about %v per cell, timed by the %s clock; spread = (max - min) / median over the rounds.\n\n", rounds, benchtime, clockDesc(clock))
	sb.WriteString("| fixture | codec | direction | ns/op | spread | allocs/op | B/op | bytes | vs protobuf | vs vtprotobuf |\n")
	sb.WriteString("|---|---|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, fx := range codecs.FixtureNames {
		for _, dir := range directions {
			for _, name := range names {
				r, ok := results[key{fx, dir, name}]
				if !ok {
					continue
				}
				fmt.Fprintf(&sb, "| %s | %s | %s | %s | %.0f%% | %s | %s | %d | %s | %s |\n",
					fx, name, dir, formatNs(r.nsPerOp), 100*(r.maxNs-r.minNs)/r.nsPerOp,
					formatCount(r.allocsPerOp), formatCount(r.bytesPerOp), r.size,
					ratio(results, r, codecs.Protobuf), ratio(results, r, codecs.VTProtobuf))
			}
		}
	}
	return sb.String()
}

func ratio(results map[key]result, r result, base string) string {
	b, ok := results[key{r.fixture, r.direction, base}]
	if !ok || b.nsPerOp <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", r.nsPerOp/b.nsPerOp)
}

func formatNs(ns float64) string {
	switch {
	case ns >= 1000:
		return fmt.Sprintf("%.0f", ns)
	case ns >= 100:
		return fmt.Sprintf("%.1f", ns)
	default:
		return fmt.Sprintf("%.2f", ns)
	}
}

// formatCount prints a per-op count: whole numbers as such, otherwise with
// one decimal (a GC or pool refill can make a count fractional).
func formatCount(x float64) string {
	if math.Abs(x-math.Round(x)) < 0.05 {
		return fmt.Sprintf("%.0f", math.Round(x))
	}
	return fmt.Sprintf("%.1f", x)
}

func clockDesc(clock string) string {
	if clock == "thread" {
		return "thread CPU-time"
	}
	return "wall"
}
