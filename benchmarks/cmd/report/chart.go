package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// codecColors groups the codec families by hue: forygen orange, protobuf-go
// blue, vtprotobuf green, msgp purple.
var codecColors = map[string]color.Color{
	codecs.Forygen:           color.RGBA{R: 0xd9, G: 0x5f, B: 0x02, A: 0xff},
	codecs.ForygenConsistent: color.RGBA{R: 0xfd, G: 0xae, B: 0x6b, A: 0xff},
	codecs.ForygenRef:        color.RGBA{R: 0xa6, G: 0x36, B: 0x03, A: 0xff},
	codecs.Protobuf:          color.RGBA{R: 0x1f, G: 0x60, B: 0xb4, A: 0xff},
	codecs.ProtobufConvert:   color.RGBA{R: 0x9e, G: 0xc0, B: 0xe6, A: 0xff},
	codecs.VTProtobuf:        color.RGBA{R: 0x1b, G: 0x9e, B: 0x77, A: 0xff},
	codecs.Msgp:              color.RGBA{R: 0x75, G: 0x70, B: 0xb3, A: 0xff},
	codecs.MsgpTuple:         color.RGBA{R: 0xbc, G: 0xb9, B: 0xe0, A: 0xff},
}

// The chart's layout, from the top: the title block, the first panel (ns/op,
// serialize above deserialize, with the legend on its right), the second
// panel's heading, then the second panel (encoded size across the whole
// width; allocs/op, serialize left and deserialize right).
const (
	chartW    = 15 * vg.Inch
	chartH    = 18.4 * vg.Inch
	legendW   = 2.4 * vg.Inch
	titleH    = 0.95 * vg.Inch
	timeH     = 4.3 * vg.Inch // each of the two ns/op plots
	headingH  = 0.55 * vg.Inch
	sizeH     = 3.8 * vg.Inch
	chartDPI  = 100
	labelSize = 9 // bar labels, in points
)

// whiskerStyle draws the error bars: dark enough to show on the light bars,
// and inside the dark ones where a whisker goes below the bar's top.
var whiskerStyle = draw.LineStyle{Color: color.Gray{Y: 0x22}, Width: vg.Points(1.1)}

// bar is one bar of the chart: the value of one fixture × codec cell and the
// bounds of its error bar. lo == hi == value where the chart draws no error
// bar; present is false where the cell was not measured (the bar is left
// out).
type bar struct {
	fixture, codec string
	value, lo, hi  float64
	present        bool
}

// collect returns the bars of one plot as [codec][fixture], in the order of
// names and fxNames, taking each cell's numbers from metric.
func collect(results map[key]result, fxNames, names []string, dir string, metric func(result) (value, lo, hi float64)) [][]bar {
	out := make([][]bar, len(names))
	for i, name := range names {
		out[i] = make([]bar, len(fxNames))
		for j, fx := range fxNames {
			b := bar{fixture: fx, codec: name}
			if r, ok := results[key{fx, dir, name}]; ok {
				b.value, b.lo, b.hi = metric(r)
				b.present = true
			}
			out[i][j] = b
		}
	}
	return out
}

// timeBars are the bars of an ns/op plot: the median over the rounds, with
// an error bar from the fastest to the slowest round (min–max, the range the
// table's spread column divides by the median; with 5 or so rounds a 95 %
// interval would rest on an assumed distribution rather than on the data).
func timeBars(results map[key]result, fxNames, names []string, dir string) [][]bar {
	return collect(results, fxNames, names, dir, func(r result) (float64, float64, float64) {
		return r.nsPerOp, r.minNs, r.maxNs
	})
}

// sizeBars are the bars of the encoded-size plot: bytes per message, which
// is the same in both directions (and has no spread).
func sizeBars(results map[key]result, fxNames, names []string) [][]bar {
	out := collect(results, fxNames, names, serialize, func(r result) (float64, float64, float64) {
		s := float64(r.size)
		return s, s, s
	})
	for i, row := range collect(results, fxNames, names, deserialize, func(r result) (float64, float64, float64) {
		s := float64(r.size)
		return s, s, s
	}) {
		for j, b := range row {
			if !out[i][j].present {
				out[i][j] = b
			}
		}
	}
	return out
}

// allocBars are the bars of an allocs/op plot: the median over the rounds.
// No error bars: allocation counts are (nearly) the same in every round, and
// the rounds' medians are what the table shows.
func allocBars(results map[key]result, fxNames, names []string, dir string) [][]bar {
	return collect(results, fxNames, names, dir, func(r result) (float64, float64, float64) {
		return r.allocsPerOp, r.allocsPerOp, r.allocsPerOp
	})
}

// axisScale maps a plot's values to positions on its y axis and labels them.
type axisScale struct {
	pos   func(float64) float64
	ticks plot.Ticker
	top   float64 // y axis maximum, with room for the bar labels
}

// logScale is a log10 axis from 10^floorExp (position 0) to a little above
// hi, for values that span orders of magnitude (ns/op, bytes).
func logScale(lo, hi float64, label func(float64) string) axisScale {
	floorExp := math.Floor(math.Log10(lo))
	return axisScale{
		pos:   func(v float64) float64 { return math.Log10(v) - floorExp },
		ticks: logTicks{floorExp: floorExp, label: label},
		top:   math.Log10(hi) - floorExp + 0.45,
	}
}

// countScale is a log10(1+x) axis for allocation counts: it starts at 0
// (which a log axis cannot show) and still separates 1 from 400.
func countScale(hi float64) axisScale {
	return axisScale{
		pos:   func(v float64) float64 { return math.Log10(1 + math.Max(v, 0)) },
		ticks: countTicks{},
		top:   math.Max(math.Log10(1+hi), 1) + 0.45,
	}
}

// barPlot is one plot: a group of bars per fixture, one bar per codec, each
// labelled with label(value) above its error bar.
type barPlot struct {
	title, yLabel string
	bars          [][]bar // [codec][fixture]
	fxLabels      []string
	names         []string
	scale         axisScale
	label         func(float64) string
	width         vg.Length // the width the plot is drawn in, for the bar width
}

func (bp barPlot) build() (*plot.Plot, []*plotter.BarChart, error) {
	p := plot.New()
	p.Title.Text = bp.title
	p.Title.TextStyle.Font.Size = 15
	p.Y.Label.Text = bp.yLabel
	p.Y.Label.TextStyle.Font.Size = 12
	p.Y.Tick.Label.Font.Size = 11
	p.X.Tick.Label.Font.Size = 12
	if bp.width < chartW/2+vg.Inch {
		p.X.Tick.Label.Font.Size = 11
	}
	p.NominalX(bp.fxLabels...)
	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal.Color = color.Gray{Y: 0xdd}
	p.Add(grid)

	// The groups take 84% of the space between fixtures (the y axis and its
	// labels take about 1.2 inches).
	nfx, nc := len(bp.fxLabels), len(bp.names)
	groupW := (bp.width - 1.2*vg.Inch) / vg.Length(nfx) * 0.84
	barW := min(groupW/vg.Length(nc), 0.45*vg.Inch)
	var charts []*plotter.BarChart
	for i, name := range bp.names {
		vals := make(plotter.Values, nfx)
		w := &whiskers{offset: barW * (vg.Length(i) - vg.Length(nc-1)/2), capW: min(barW*0.6, 0.12*vg.Inch), style: whiskerStyle}
		var xys plotter.XYs
		var labels []string
		for j, b := range bp.bars[i] {
			if !b.present {
				continue
			}
			vals[j] = bp.scale.pos(b.value)
			top := vals[j]
			if b.hi > b.lo {
				w.x = append(w.x, float64(j))
				w.lo = append(w.lo, bp.scale.pos(b.lo))
				w.hi = append(w.hi, bp.scale.pos(b.hi))
				top = math.Max(top, bp.scale.pos(b.hi))
			}
			xys = append(xys, plotter.XY{X: float64(j), Y: top})
			labels = append(labels, bp.label(b.value))
		}
		bc, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return nil, nil, err
		}
		bc.Color = codecColors[name]
		bc.LineStyle.Width = 0
		bc.Offset = w.offset
		p.Add(bc)
		charts = append(charts, bc)
		if len(w.x) > 0 {
			p.Add(w)
		}
		if len(labels) == 0 {
			continue
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, nil, err
		}
		for k := range lb.TextStyle {
			lb.TextStyle[k].Font.Size = labelSize
			lb.TextStyle[k].Rotation = math.Pi / 2
			lb.TextStyle[k].XAlign = draw.XLeft
			lb.TextStyle[k].YAlign = draw.YCenter
		}
		lb.Offset = vg.Point{X: w.offset, Y: 3}
		p.Add(lb)
	}
	// After the plotters, which widen the ranges to their data.
	p.Y.Min, p.Y.Max = 0, bp.scale.top
	p.Y.Tick.Marker = bp.scale.ticks
	p.X.Min, p.X.Max = -0.5, float64(nfx)-0.5
	return p, charts, nil
}

// writeChart draws the two panels from the serialize and deserialize (reuse)
// cells; the fresh and evolved cells are in the table only (two more ns/op
// plots would not fit the page readably). The first panel has ns/op,
// serialize above deserialize, with one group of bars per fixture and one
// bar per codec; each bar is the median over the rounds and its error bar
// runs from the fastest to the slowest round (min–max). The fixtures span three orders of
// magnitude (about 20 ns to 30 µs), so the y axis is logarithmic, with ticks
// labelled in ns and each bar labelled with its median. The second panel has
// the encoded size in bytes per message (log scale) and allocs/op for each
// direction (medians over the rounds, on a log(1+x) scale so that 0 shows).
func writeChart(path string, results map[key]result, fxs []codecs.Fixture, names []string, clock string) error {
	if len(results) == 0 || len(names) == 0 {
		return fmt.Errorf("no results to draw")
	}
	lo, hi := math.Inf(1), 0.0
	sizeLo, sizeHi, allocHi := math.Inf(1), 0.0, 0.0
	for _, r := range results {
		if r.direction != serialize && r.direction != deserialize {
			continue // the chart has the serialize and (reuse) deserialize cells only
		}
		lo, hi = math.Min(lo, r.minNs), math.Max(hi, r.maxNs)
		sizeLo, sizeHi = math.Min(sizeLo, float64(r.size)), math.Max(sizeHi, float64(r.size))
		allocHi = math.Max(allocHi, r.allocsPerOp)
	}
	if lo <= 0 || sizeLo <= 0 {
		return fmt.Errorf("no results to draw")
	}
	var fxNames, fxShort []string
	for _, f := range fxs {
		fxNames = append(fxNames, f.Name)
		fxShort = append(fxShort, strings.Replace(f.Name, "List", "\nList", 1))
	}
	rounds := roundsOf(results)
	timeScale := logScale(lo, hi, nsLabel)
	sizeScale := logScale(sizeLo, sizeHi, bytesLabel)
	allocScale := countScale(allocHi)
	bodyW := chartW - legendW
	plots := []barPlot{
		{title: "Serialize: ns/op", yLabel: "ns/op (log scale)", bars: timeBars(results, fxNames, names, serialize), fxLabels: fxNames, names: names, scale: timeScale, label: shortNs, width: bodyW},
		{title: "Deserialize: ns/op", yLabel: "ns/op (log scale)", bars: timeBars(results, fxNames, names, deserialize), fxLabels: fxNames, names: names, scale: timeScale, label: shortNs, width: bodyW},
		{title: "Encoded size: bytes per message", yLabel: "bytes (log scale)", bars: sizeBars(results, fxNames, names), fxLabels: fxNames, names: names, scale: sizeScale, label: func(v float64) string { return fmt.Sprintf("%.0f", v) }, width: chartW},
		{title: "Serialize: allocs/op", yLabel: "allocs/op (log(1+x) scale)", bars: allocBars(results, fxNames, names, serialize), fxLabels: fxShort, names: names, scale: allocScale, label: formatCount, width: chartW / 2},
		{title: "Deserialize: allocs/op", yLabel: "allocs/op (log(1+x) scale)", bars: allocBars(results, fxNames, names, deserialize), fxLabels: fxShort, names: names, scale: allocScale, label: formatCount, width: chartW / 2},
	}
	var built []*plot.Plot
	var legendBars []*plotter.BarChart
	for _, bp := range plots {
		p, bars, err := bp.build()
		if err != nil {
			return err
		}
		built = append(built, p)
		legendBars = bars
	}

	var (
		canvas vg.CanvasWriterTo
		dc     draw.Canvas
	)
	if strings.ToLower(filepath.Ext(path)) == ".svg" {
		c := vgsvg.New(chartW, chartH)
		canvas, dc = c, draw.New(c)
	} else {
		c := vgimg.NewWith(vgimg.UseWH(chartW, chartH), vgimg.UseDPI(chartDPI), vgimg.UseBackgroundColor(color.White))
		canvas, dc = vgimg.PngCanvas{Canvas: c}, draw.New(c)
	}

	// Title and subtitles.
	title := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, 18), Handler: plot.DefaultTextHandler, XAlign: draw.XCenter}
	sub := title
	sub.Font = font.From(plot.DefaultFont, 11)
	mid := dc.Min.X + (dc.Max.X-dc.Min.X)/2
	y := dc.Max.Y
	dc.FillText(title, vg.Point{X: mid, Y: y - 0.35*vg.Inch}, "forygen vs protobuf, vtprotobuf and msgp on Fory's cross-language benchmark data")
	dc.FillText(sub, vg.Point{X: mid, Y: y - 0.6*vg.Inch},
		fmt.Sprintf("ns/op (%s clock), lower is faster, log scale: bar = median of %d interleaved rounds, error bar = min–max over those rounds", clock, rounds))
	dc.FillText(sub, vg.Point{X: mid, Y: y - 0.8*vg.Inch}, machine())
	y -= titleH

	// First panel, legend on its right.
	gap := 0.1 * vg.Inch
	built[0].Draw(region(dc, dc.Min.X, dc.Min.X+bodyW, y-timeH, y))
	y -= timeH + gap
	built[1].Draw(region(dc, dc.Min.X, dc.Min.X+bodyW, y-timeH, y))
	y -= timeH

	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font = font.From(plot.DefaultFont, 13)
	l.ThumbnailWidth = 0.35 * vg.Inch
	l.Padding = 0.08 * vg.Inch
	for i, name := range names {
		l.Add(name, legendBars[i])
	}
	l.Add("")
	l.Add("median of the rounds", &plotter.BarChart{Color: color.Gray{Y: 0xaa}})
	l.Add(fmt.Sprintf("min–max of %d rounds", rounds), &whiskers{capW: 0.12 * vg.Inch, style: whiskerStyle})
	l.Draw(region(dc, dc.Min.X+bodyW+0.15*vg.Inch, dc.Max.X, dc.Min.Y, dc.Max.Y-titleH-0.5*vg.Inch))

	// Second panel: heading and separator, size across the whole width,
	// allocs below it.
	sep := draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: vg.Points(1)}
	dc.StrokeLine2(sep, dc.Min.X+0.3*vg.Inch, y-0.08*vg.Inch, dc.Max.X-0.3*vg.Inch, y-0.08*vg.Inch)
	head := title
	head.Font = font.From(plot.DefaultFont, 16)
	dc.FillText(head, vg.Point{X: mid, Y: y - 0.38*vg.Inch}, "Encoded size and allocations (same codec colours; allocs/op are medians of the rounds)")
	y -= headingH
	built[2].Draw(region(dc, dc.Min.X, dc.Max.X, y-sizeH, y))
	y -= sizeH + gap
	built[3].Draw(region(dc, dc.Min.X, mid, dc.Min.Y, y))
	built[4].Draw(region(dc, mid, dc.Max.X, dc.Min.Y, y))

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// region is the part of dc between x0 and x1 and between y0 and y1.
func region(dc draw.Canvas, x0, x1, y0, y1 vg.Length) draw.Canvas {
	return draw.Crop(dc, x0-dc.Min.X, x1-dc.Max.X, y0-dc.Min.Y, y1-dc.Max.Y)
}

// whiskers draws error bars at data x positions shifted by offset on the
// canvas (as plotter.BarChart.Offset shifts a bar): a vertical line from lo
// to hi (axis positions) with a cap at each end. plotter.YErrorBars has no
// such offset, so it could not sit on the grouped bars.
type whiskers struct {
	x, lo, hi []float64
	offset    vg.Length
	capW      vg.Length
	style     draw.LineStyle
}

func (w *whiskers) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range w.x {
		x := trX(w.x[i]) + w.offset
		y0, y1 := trY(w.lo[i]), trY(w.hi[i])
		w.draw(&c, x, y0, y1)
	}
}

func (w *whiskers) draw(c *draw.Canvas, x, y0, y1 vg.Length) {
	c.StrokeLine2(w.style, x, y0, x, y1)
	c.StrokeLine2(w.style, x-w.capW/2, y0, x+w.capW/2, y0)
	c.StrokeLine2(w.style, x-w.capW/2, y1, x+w.capW/2, y1)
}

// Thumbnail draws the legend entry: one whisker.
func (w *whiskers) Thumbnail(c *draw.Canvas) {
	w.draw(c, (c.Min.X+c.Max.X)/2, c.Min.Y, c.Max.Y)
}

// logTicks labels a log10 axis whose 0 is 10^floorExp.
type logTicks struct {
	floorExp float64
	label    func(float64) string
}

func (t logTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for k := math.Floor(min); k <= max; k++ {
		ticks = append(ticks, plot.Tick{Value: k, Label: t.label(math.Pow(10, k+t.floorExp))})
		for m := 2.0; m < 10; m++ {
			if v := k + math.Log10(m); v <= max {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// countTicks labels a log10(1+x) axis: 0, 1, 10, 100, ... with minor ticks
// between.
type countTicks struct{}

func (countTicks) Ticks(min, max float64) []plot.Tick {
	ticks := []plot.Tick{{Value: 0, Label: "0"}}
	for d := 1.0; math.Log10(1+d) <= max; d *= 10 {
		ticks = append(ticks, plot.Tick{Value: math.Log10(1 + d), Label: fmt.Sprintf("%g", d)})
		for m := 2.0; m < 10; m++ {
			if v := math.Log10(1 + m*d); v <= max {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

func nsLabel(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%g µs", ns/1e3)
	default:
		return fmt.Sprintf("%g ns", ns)
	}
}

func bytesLabel(b float64) string {
	switch {
	case b >= 1e6:
		return fmt.Sprintf("%g MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%g kB", b/1e3)
	default:
		return fmt.Sprintf("%g B", b)
	}
}

// shortNs is a bar label: 3 significant digits, k for thousands.
func shortNs(ns float64) string {
	switch {
	case ns >= 1e4:
		return fmt.Sprintf("%.0fk", ns/1e3)
	case ns >= 1e3:
		return fmt.Sprintf("%.1fk", ns/1e3)
	default:
		return fmt.Sprintf("%.0f", ns)
	}
}

func roundsOf(results map[key]result) int {
	for _, r := range results {
		return r.rounds
	}
	return 0
}
