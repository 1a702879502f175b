// Command ratios reads go test -bench output of the interleaved runs (the
// benchmark binary run several times, every run appended to one file) and
// prints, per fixture and direction, the ratio of two codecs' ns/op as a
// markdown table:
//
//	go run ./cmd/ratios -pairs forygen/msgp,forygen/msgp-tuple,forygen/vtprotobuf,forygen-ref/forygen ns.txt
//
// Each cell's centre and interval are benchstat's: the median of the runs
// and the distribution-free 95 % confidence interval of the median (order
// statistics; for 10 runs the 2nd and 9th value). A ratio is given as the
// ratio of the medians and the interval [lo(a)/hi(b), hi(a)/lo(b)]; that
// interval contains 1 exactly when the two codecs' intervals overlap. The
// paired column divides a's ns/op by b's within each run (the runs are
// interleaved, so both saw the same moment of the machine) and gives the
// median and interval of those ratios.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// line matches Benchmark<Direction>/<Fixture>/<codec>-<procs> ... <ns> ns/op.
var line = regexp.MustCompile(`^Benchmark(\w+)/(\w+)/([\w-]+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

func main() {
	pairs := flag.String("pairs", "forygen/msgp,forygen/msgp-tuple,forygen/vtprotobuf,forygen-ref/forygen", "comma-separated a/b codec pairs")
	dirs := flag.String("directions", "Serialize,Deserialize,DeserializeFresh", "comma-separated directions, in table order")
	flag.Parse()
	// samples[direction/fixture][codec] are the ns/op of the runs, in file order.
	samples := map[string]map[string][]float64{}
	var fixtures []string
	seen := map[string]bool{}
	for _, path := range flag.Args() {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ratios:", err)
			os.Exit(1)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			m := line.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			ns, _ := strconv.ParseFloat(m[4], 64)
			k := m[1] + "/" + m[2]
			if samples[k] == nil {
				samples[k] = map[string][]float64{}
			}
			samples[k][m[3]] = append(samples[k][m[3]], ns)
			if !seen[m[2]] {
				seen[m[2]] = true
				fixtures = append(fixtures, m[2])
			}
		}
		f.Close()
	}
	ps := strings.Split(*pairs, ",")
	fmt.Print("| direction | fixture |")
	for _, p := range ps {
		fmt.Printf(" %s | paired |", p)
	}
	fmt.Print("\n|---|---|")
	for range ps {
		fmt.Print("--:|--:|")
	}
	fmt.Println()
	for _, d := range strings.Split(*dirs, ",") {
		for _, fx := range fixtures {
			cell := samples[d+"/"+fx]
			if cell == nil {
				continue
			}
			fmt.Printf("| %s | %s |", d, fx)
			for _, p := range ps {
				a, b, _ := strings.Cut(p, "/")
				xa, xb := cell[a], cell[b]
				if len(xa) == 0 || len(xb) == 0 {
					fmt.Print(" – | – |")
					continue
				}
				ma, la, ha := median(xa)
				mb, lb, hb := median(xb)
				fmt.Printf(" %s |", interval(ma/mb, la/hb, ha/lb))
				n := min(len(xa), len(xb))
				r := make([]float64, n)
				for i := range r {
					r[i] = xa[i] / xb[i]
				}
				fmt.Printf(" %s |", interval(median(r)))
			}
			fmt.Println()
		}
	}
}

// interval formats a ratio and its interval, in bold when the interval
// excludes 1.
func interval(c, lo, hi float64) string {
	s := fmt.Sprintf("%.2f (%.2f–%.2f)", c, lo, hi)
	if hi < 1 || lo > 1 {
		return "**" + s + "**"
	}
	return s
}

// median returns the median of x and the bounds of its distribution-free
// 95 % confidence interval, as benchstat computes them: the k-th smallest
// and k-th largest value for the largest k whose binomial coverage is at
// least 95 % (the whole range if no k has it).
func median(x []float64) (m, lo, hi float64) {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		m = s[n/2]
	} else {
		m = (s[n/2-1] + s[n/2]) / 2
	}
	k := 1
	for j := 2; j <= n/2; j++ {
		if 1-2*binomCDF(n, j-1) < 0.95 {
			break
		}
		k = j
	}
	return m, s[k-1], s[n-k]
}

// binomCDF is P(X <= k) for X ~ Binomial(n, 1/2).
func binomCDF(n, k int) float64 {
	p := 0.0
	for i := 0; i <= k; i++ {
		p += math.Exp(lgamma(n+1) - lgamma(i+1) - lgamma(n-i+1) - float64(n)*math.Ln2)
	}
	return p
}

func lgamma(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}
