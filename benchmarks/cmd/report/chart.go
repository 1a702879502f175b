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
	codecs.Protobuf:          color.RGBA{R: 0x1f, G: 0x60, B: 0xb4, A: 0xff},
	codecs.ProtobufConvert:   color.RGBA{R: 0x9e, G: 0xc0, B: 0xe6, A: 0xff},
	codecs.VTProtobuf:        color.RGBA{R: 0x1b, G: 0x9e, B: 0x77, A: 0xff},
	codecs.Msgp:              color.RGBA{R: 0x75, G: 0x70, B: 0xb3, A: 0xff},
}

const (
	chartW   = 15 * vg.Inch
	chartH   = 10 * vg.Inch
	legendW  = 2.2 * vg.Inch
	titleH   = 0.7 * vg.Inch
	chartDPI = 100
)

// writeChart draws two panels, serialize above deserialize, each with one
// group of bars per fixture and one bar per codec. The fixtures span three
// orders of magnitude (about 50 ns to 50 µs), so the y axis is logarithmic:
// bars show log10(ns/op) above a common floor, with ticks labelled in ns and
// each bar labelled with its value.
func writeChart(path string, results map[key]result, fxs []codecs.Fixture, names []string, clock string) error {
	lo, hi := math.Inf(1), 0.0
	for _, r := range results {
		lo, hi = math.Min(lo, r.nsPerOp), math.Max(hi, r.nsPerOp)
	}
	if len(results) == 0 || lo <= 0 {
		return fmt.Errorf("no results to draw")
	}
	floorExp := math.Floor(math.Log10(lo))
	top := math.Log10(hi) - floorExp + 0.4 // room for the bar labels

	var fxNames []string
	for _, f := range fxs {
		fxNames = append(fxNames, f.Name)
	}
	var panels []*plot.Plot
	var legendBars []*plotter.BarChart
	for _, dir := range []string{serialize, deserialize} {
		p, bars, err := panel(dir, results, fxNames, names, floorExp, top)
		if err != nil {
			return err
		}
		panels = append(panels, p)
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

	// Title and subtitle.
	title := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, 18), Handler: plot.DefaultTextHandler, XAlign: draw.XCenter}
	sub := title
	sub.Font = font.From(plot.DefaultFont, 11)
	mid := dc.Min.X + (dc.Max.X-dc.Min.X)/2
	dc.FillText(title, vg.Point{X: mid, Y: dc.Max.Y - 0.35*vg.Inch}, "forygen vs protobuf, vtprotobuf and msgp on Fory's cross-language benchmark data")
	dc.FillText(sub, vg.Point{X: mid, Y: dc.Max.Y - 0.6*vg.Inch},
		fmt.Sprintf("ns/op (%s clock), lower is faster, log scale; median of %d interleaved rounds; %s", clock, roundsOf(results), machine()))

	body := draw.Crop(dc, 0, -legendW, 0, -titleH)
	half := (body.Max.Y - body.Min.Y) / 2
	gap := 0.15 * vg.Inch
	panels[0].Draw(draw.Crop(body, 0, 0, half+gap, 0))
	panels[1].Draw(draw.Crop(body, 0, 0, 0, -half-gap))

	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font = font.From(plot.DefaultFont, 13)
	l.ThumbnailWidth = 0.35 * vg.Inch
	l.Padding = 0.08 * vg.Inch
	for i, name := range names {
		l.Add(name, legendBars[i])
	}
	l.Draw(draw.Crop(dc, chartW-legendW+0.15*vg.Inch, 0, 0, -titleH-0.5*vg.Inch))

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

func panel(dir string, results map[key]result, fxNames, names []string, floorExp, top float64) (*plot.Plot, []*plotter.BarChart, error) {
	p := plot.New()
	p.Title.Text = strings.ToUpper(dir[:1]) + dir[1:]
	p.Title.TextStyle.Font.Size = 15
	p.Y.Label.Text = "ns/op (log scale)"
	p.Y.Label.TextStyle.Font.Size = 12
	p.Y.Tick.Label.Font.Size = 11
	p.X.Tick.Label.Font.Size = 12
	p.Y.Min, p.Y.Max = 0, top
	p.Y.Tick.Marker = logTicks{floorExp: floorExp}
	p.NominalX(fxNames...)
	p.X.Min, p.X.Max = -0.5, float64(len(fxNames))-0.5
	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal.Color = color.Gray{Y: 0xdd}
	p.Add(grid)

	// The groups take 84% of the space between fixtures.
	groupW := (chartW - legendW - 1.2*vg.Inch) / vg.Length(len(fxNames)) * 0.84
	barW := min(groupW/vg.Length(len(names)), 0.45*vg.Inch)
	var bars []*plotter.BarChart
	for i, name := range names {
		vals := make(plotter.Values, len(fxNames))
		var xys plotter.XYs
		var labels []string
		for j, fx := range fxNames {
			r, ok := results[key{fx, dir, name}]
			if !ok {
				continue
			}
			vals[j] = math.Log10(r.nsPerOp) - floorExp
			xys = append(xys, plotter.XY{X: float64(j), Y: vals[j]})
			labels = append(labels, shortNs(r.nsPerOp))
		}
		b, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return nil, nil, err
		}
		b.Color = codecColors[name]
		b.LineStyle.Width = 0
		b.Offset = barW * (vg.Length(i) - vg.Length(len(names)-1)/2)
		p.Add(b)
		bars = append(bars, b)

		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, nil, err
		}
		for k := range lb.TextStyle {
			lb.TextStyle[k].Font.Size = 9
			lb.TextStyle[k].Rotation = math.Pi / 2
			lb.TextStyle[k].XAlign = draw.XLeft
			lb.TextStyle[k].YAlign = draw.YCenter
		}
		lb.Offset = vg.Point{X: b.Offset, Y: 3}
		p.Add(lb)
	}
	return p, bars, nil
}

// logTicks labels a log10 axis whose 0 is 10^floorExp ns.
type logTicks struct{ floorExp float64 }

func (t logTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for k := math.Floor(min); k <= max; k++ {
		ticks = append(ticks, plot.Tick{Value: k, Label: nsLabel(math.Pow(10, k+t.floorExp))})
		for m := 2.0; m < 10; m++ {
			if v := k + math.Log10(m); v <= max {
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
