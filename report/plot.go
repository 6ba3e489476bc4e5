package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perfrun/perfrun/records"
)

// Plot is one picture, ready to save as SVG or PNG.
type Plot struct {
	Name    string // file-name stem, e.g. issuer_certs-1024_hit-1-latency
	Caption string // what it shows, for reports
	plot    *plot.Plot
	// legendInside keeps the legend in the data area (the forest plot
	// gives it a row of its own); legendUnder draws it in a row under the
	// data (a history's long lines); every other plot draws it beside the
	// data.
	legendInside, legendUnder bool
}

// face is the sans-serif face every plot is set in, as the pages around
// them are: set on each plot's own text styles (newFigure), never on
// gonum's global default, which a program embedding perfrun may use.
var face = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newFigure is plot.New with every text of the plot in face, its sizes
// gonum's.
func newFigure() *plot.Plot {
	p := plot.New()
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Legend.TextStyle.Font} {
		f.Typeface, f.Variant = face.Typeface, face.Variant
	}
	return p
}

// Size of every plot: wide enough for a legend of four designs on two
// machines beside the data.
const (
	plotWidth  = 9 * vg.Inch
	plotHeight = 5.5 * vg.Inch
)

// Encode renders the plot in a format named by its extension: "svg" or "png".
// A legend drawn under the data that would take more than a quarter of
// the picture makes it taller instead, so the data keeps its height.
func (p *Plot) Encode(format string) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(plotWidth, plotHeight, format)
	if err != nil {
		return nil, err
	}
	if extra := p.legendUnderHeight(draw.New(c)); extra > plotHeight/4 {
		if c, err = draw.NewFormattedCanvas(plotWidth, plotHeight+extra, format); err != nil {
			return nil, err
		}
	}
	p.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// draw draws the plot on dc, its legend in a framed column to the right
// of the data, so it never sits on a line and the y axis needs no room
// above the data for it.
func (p *Plot) draw(dc draw.Canvas) {
	// A margin above the title, one at the right for the last tick's
	// label and one at the left for the longest row label: none touches
	// the picture's edge.
	dc = draw.Crop(dc, vg.Points(6), -vg.Points(6), 0, -vg.Points(6))
	leg := p.plot.Legend
	width := leg.Rectangle(dc).Size().X
	if p.legendInside || width == 0 {
		p.plot.Draw(dc)
		return
	}
	pad := vg.Points(10)
	if p.legendUnder || width > 0.4*dc.Size().X {
		// Too wide to stand beside the data (long names, several
		// machines): a row under it, so the data keeps the width.
		p.drawLegendUnder(dc, width, pad)
		return
	}
	p.plot.Legend = plot.NewLegend() // drawn beside, not inside
	p.plot.Draw(draw.Crop(dc, 0, -(width + 2*pad), 0, 0))
	p.plot.Legend = leg
	top := p.plot.Title.TextStyle.Rectangle(p.plot.Title.Text).Size().Y + p.plot.Title.Padding + pad
	drawFramed(dc, leg, draw.Crop(dc, dc.Size().X-width-pad, -pad/2, 0, -top), pad)
}

// legendUnderHeight is the height of the plot's legend where draw puts it
// under the data, 0 where it goes elsewhere.
func (p *Plot) legendUnderHeight(dc draw.Canvas) vg.Length {
	size := p.plot.Legend.Rectangle(dc).Size()
	if p.legendInside || size.X == 0 || !p.legendUnder && size.X <= 0.4*dc.Size().X {
		return 0
	}
	return size.Y
}

// drawFramed draws leg at the top left of area in a light frame.
func drawFramed(dc draw.Canvas, leg plot.Legend, area draw.Canvas, pad vg.Length) {
	leg.Left, leg.Top, leg.XOffs, leg.YOffs = true, true, 0, 0
	box := leg.Rectangle(area)
	frame := vg.Rectangle{Min: vg.Point{X: box.Min.X - pad/2, Y: box.Min.Y - pad/2}, Max: vg.Point{X: box.Max.X + pad/2, Y: box.Max.Y + pad/2}}
	dc.SetColor(color.Gray{Y: 190})
	dc.SetLineWidth(vg.Points(0.6))
	dc.SetLineDash(nil, 0)
	dc.Stroke(frame.Path())
	leg.Draw(area)
}

// drawLegendUnder draws the plot with its legend in a framed row under
// the data.
func (p *Plot) drawLegendUnder(dc draw.Canvas, width, pad vg.Length) {
	leg := p.plot.Legend
	height := leg.Rectangle(dc).Size().Y
	p.plot.Legend = plot.NewLegend()
	p.plot.Draw(draw.Crop(dc, 0, 0, height+3*pad, 0))
	p.plot.Legend = leg
	// The row is as wide as the legend: gonum places a legend's box
	// and its entries from opposite sides of a wider canvas.
	drawFramed(dc, leg, draw.Crop(dc, pad, -(dc.Size().X-pad-width), pad, -(dc.Size().Y-height-2.5*pad)), pad)
}

// PlotOptions say how to draw.
type PlotOptions struct {
	// Cores marks where threads start to time-slice.
	Cores int
	// Impls fixes each implementation's colour by its place in this list
	// (the registry's order), so a design has one colour in every plot;
	// implementations not listed follow in order of appearance.
	Impls []string
	// ByLabel names lines by each set's label instead of its machine: old
	// and new of a comparison, side by side.
	ByLabel bool
}

// hasUnit says some cell of the sets has values in unit.
func hasUnit(sets []*records.Set, unit string) bool {
	for _, s := range sets {
		for _, c := range s.Cells() {
			if len(c.Values[unit]) > 0 {
				return true
			}
		}
	}
	return false
}

// Plots draws every picture the sets support: per workload and parameters,
// latency, throughput and speedup against threads; and for load, ns/add
// against n on log-log axes. Several sets (several machines) draw one line
// per implementation and machine: colour by implementation, dashes by
// machine.
func Plots(sets []*records.Set, o PlotOptions) ([]*Plot, error) {
	d := &drawing{PlotOptions: o}
	var out []*Plot
	// Latency in the per-thread tables' unit, the time one worker spends per
	// call (ns/call); results without it (plain go test -bench) in ns/op.
	latency, unitName, title := records.Tidy(records.NsPerCall), "ns/call", "time one worker spends per call"
	if !hasUnit(sets, latency) {
		latency, unitName, title = records.Tidy(records.NsPerOp), "ns/op", "wall time per operation"
	}
	spread := " (median; 95% interval where 6+ rounds were kept)"
	if allPredicted(sets) {
		title, spread = "predicted, one core a thread", " (the model's middle; shaded: its band)"
	}
	bands := newBandFigures(sets, o.ByLabel)
	for _, f := range figures(sets, latency, "threads", o.ByLabel, nil) {
		if len(f.xs) < 2 {
			continue
		}
		p, err := d.linePlot(f, 1e9, title, unitName+spread)
		if err != nil {
			return nil, err
		}
		if err := d.addBands(p, f, bands, 1e9); err != nil {
			return nil, err
		}
		out = append(out, &Plot{Name: records.FileStem(f.group) + "-latency", Caption: f.group + ": " + unitName + " against threads (lower is better)", plot: p})
	}
	for _, f := range figures(sets, records.OpsPerSec, "threads", o.ByLabel, nil) {
		if len(f.xs) < 2 {
			continue
		}
		thr, err := d.linePlot(f, 1e-6, "aggregate throughput", "million ops/s (median; 95% interval where 6+ rounds were kept)")
		if err != nil {
			return nil, err
		}
		out = append(out, &Plot{Name: records.FileStem(f.group) + "-throughput",
			Caption: f.group + ": aggregate throughput against threads (higher is better)", plot: thr})
		sp, err := d.speedupPlot(f)
		if err != nil {
			return nil, err
		}
		out = append(out, &Plot{Name: records.FileStem(f.group) + "-speedup",
			Caption: f.group + ": throughput relative to one thread, with the ideal line", plot: sp})
	}
	oneThread := func(c *records.Cell) bool { return c.Threads == 1 }
	for _, f := range figures(sets, records.Tidy(records.NsPerAdd), "n", o.ByLabel, oneThread) {
		if len(f.xs) < 2 {
			continue
		}
		lp, err := d.loadPlot(f)
		if err != nil {
			return nil, err
		}
		out = append(out, &Plot{Name: records.FileStem(f.group) + "-nsperadd",
			Caption: f.group + ": ns/add against store size, log-log (lower is better)", plot: lp})
	}
	return out, nil
}

// palette is Okabe and Ito's colour-blind-safe palette, darkest first
// (its yellow left out: it vanishes on white).
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// dashes tell machines apart: solid, dashed, dotted, dash-dot.
var dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(1.5), vg.Points(2.5)}, {vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}}

// glyphs add a second cue besides colour.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}}

type drawing struct {
	PlotOptions
	seen     []string // implementations not in Impls, in order of appearance
	machines []string
}

func (d *drawing) implIndex(impl string) int {
	if i := slices.Index(d.Impls, impl); i >= 0 {
		return i
	}
	i := slices.Index(d.seen, impl)
	if i < 0 {
		d.seen = append(d.seen, impl)
		i = len(d.seen) - 1
	}
	return len(d.Impls) + i
}

func (d *drawing) machineIndex(m string) int {
	i := slices.Index(d.machines, m)
	if i < 0 {
		d.machines = append(d.machines, m)
		i = len(d.machines) - 1
	}
	return i
}

func newPlot(title, x, y string) *plot.Plot {
	p := newFigure()
	p.Title.Text = title
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.YOffs = -vg.Points(4)
	p.Add(plotter.NewGrid())
	return p
}

// point is one x with its centre and the lengths of its error bar below
// and above.
type point struct{ x, y, low, high float64 }

// addSeries draws one line per series with points and vertical error bars,
// in the series' own colour, glyph and dashes. A series' points, line and
// error bars are dodged sideways together by dodge(i, k, x), so bars at one
// x do not hide each other and each stays on its point.
func (d *drawing) addSeries(p *plot.Plot, f *figure, value func(s series, x float64) (point, bool), dodge func(i, k int, x float64) float64) error {
	for i, s := range f.series {
		runs := runsOf(f.xs, func(x float64) (point, bool) { return value(s, x) })
		pts := slices.Concat(runs...)
		if len(pts) == 0 {
			continue
		}
		var bars errPoints // only where there is an interval to draw
		for _, pt := range pts {
			x := dodge(i, len(f.series), pt.x)
			if pt.low > 0 || pt.high > 0 {
				bars.XYs = append(bars.XYs, plotter.XY{X: x, Y: pt.y})
				bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{pt.low, pt.high})
			}
		}
		ci, mi := d.implIndex(s.impl), d.machineIndex(s.machine)
		col := palette[ci%len(palette)]
		var line *plotter.Line
		var points *plotter.Scatter
		for _, r := range runs {
			xys := make(plotter.XYs, len(r))
			for j, pt := range r {
				xys[j] = plotter.XY{X: dodge(i, len(f.series), pt.x), Y: pt.y}
			}
			l, sc, err := plotter.NewLinePoints(xys)
			if err != nil {
				return err
			}
			l.Color, l.Width, l.Dashes = col, vg.Points(1.6), dashes[mi%len(dashes)]
			sc.Color, sc.Shape, sc.Radius = col, glyphs[ci%len(glyphs)], vg.Points(3)
			p.Add(l, sc)
			line, points = l, sc
		}
		if len(bars.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return err
			}
			eb.Color, eb.Width = col, vg.Points(1)
			p.Add(eb)
		}
		p.Legend.Add(s.String(), line, points)
	}
	return nil
}

// runsOf are the values at gives at xs, in runs of neighbouring xs that
// all have one: a line drawn through each run never bridges an x that
// lacks a value (set aside, or not measured).
func runsOf[T any](xs []float64, at func(x float64) (T, bool)) [][]T {
	var runs [][]T
	open := false
	for _, x := range xs {
		v, ok := at(x)
		if !ok {
			open = false
			continue
		}
		if !open {
			runs, open = append(runs, nil), true
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], v)
	}
	return runs
}

// errPoints are points with vertical error bars only.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// medianCI returns the median of v and how far its 95% confidence
// interval reaches below and above it — the centre and interval the
// reports' tables show (records.Summarize). With too few rounds for an
// interval, no bar (0, 0).
func medianCI(v []float64) (m, below, above float64) {
	s := records.Summarize(v)
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return s.Median, 0, 0
	}
	return s.Median, s.Median - s.Lo, s.Hi - s.Median
}

// linearDodge spreads k series' bars over a fifth of a thread step.
func linearDodge(i, k int, x float64) float64 {
	if k < 2 {
		return x
	}
	return x + 0.2*(float64(i)/float64(k-1)-0.5)
}

func (d *drawing) linePlot(f *figure, scale float64, what, yLabel string) (*plot.Plot, error) {
	p := newPlot(f.group+": "+what, threadsLabel(f.xs, d.Cores), yLabel)
	err := d.addSeries(p, f, func(s series, x float64) (point, bool) {
		v := f.vals[s][x]
		if len(v) == 0 {
			return point{}, false
		}
		m, below, above := medianCI(v)
		return point{x, m * scale, below * scale, above * scale}, true
	}, linearDodge)
	if err != nil {
		return nil, err
	}
	lowest := p.Y.Min // the data's, error bars included, before the axis is set
	finishThreads(p, f, d.Cores)
	if d.ByLabel {
		// Two revisions side by side differ by a few percent: an axis from
		// zero would draw them as one line. Said on the axis.
		zoom(p, lowest)
	}
	return p, nil
}

// zoom starts a plot's y axis a little below lo, its lowest point, rather
// than at zero, and says so in the axis label.
func zoom(p *plot.Plot, lo float64) {
	if lo <= 0 || lo >= p.Y.Max {
		return
	}
	p.Y.Min = max(0, lo-0.1*(p.Y.Max-lo))
	if p.Y.Min > 0 { // a spread as wide as the lowest point starts at zero after all: nothing to say
		p.Y.Label.Text += " (axis not from zero)"
	}
}

func (d *drawing) speedupPlot(f *figure) (*plot.Plot, error) {
	p := newPlot(f.group+": speedup over one thread", threadsLabel(f.xs, d.Cores), "throughput / 1-thread throughput")
	err := d.addSeries(p, f, func(s series, x float64) (point, bool) {
		one, v := f.vals[s][1], f.vals[s][x]
		if len(one) == 0 || len(v) == 0 {
			return point{}, false
		}
		m1, _, _ := medianCI(one)
		m, below, above := medianCI(v)
		if m1 <= 0 {
			return point{}, false
		}
		return point{x, m / m1, below / m1, above / m1}, true
	}, linearDodge)
	if err != nil {
		return nil, err
	}
	// A design without its 1-thread cell has no speedup to draw: said in
	// the legend, not left out without a word.
	for _, s := range f.series {
		if len(f.vals[s][1]) == 0 && len(f.vals[s]) > 0 {
			p.Legend.Add(s.String() + ": no speedup, no 1-thread value (set aside or not measured)")
		}
	}
	// Ideal: linear up to the cores, flat beyond (threads only time-slice),
	// its corner at the cores whether or not a point sits there.
	var ideal plotter.XYs
	cores := float64(max(d.Cores, 1))
	xs := slices.Clone(f.xs)
	if len(xs) > 0 && xs[0] < cores && cores < xs[len(xs)-1] && !slices.Contains(xs, cores) {
		xs = append(xs, cores)
		slices.Sort(xs)
	}
	for _, x := range xs {
		ideal = append(ideal, plotter.XY{X: x, Y: min(x, cores)})
	}
	l, err := plotter.NewLine(ideal)
	if err != nil {
		return nil, err
	}
	l.Color = color.Gray{Y: 110}
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	p.Legend.Add("ideal", l)
	if err := d.machineLines(p, f); err != nil {
		return nil, err
	}
	finishThreads(p, f, d.Cores)
	return p, nil
}

// machineLines draw what the machine delivered, p(n) from the control
// cells, beside the ideal: one line per machine, dashed as its series.
func (d *drawing) machineLines(p *plot.Plot, f *figure) error {
	var machines []string
	for m := range f.par {
		machines = append(machines, m)
	}
	slices.Sort(machines)
	for _, m := range machines {
		runs := runsOf(f.xs, func(x float64) (plotter.XY, bool) {
			v, ok := f.par[m][int(x)]
			return plotter.XY{X: x, Y: v}, ok
		})
		var first *plotter.Line
		for _, r := range runs {
			if len(r) < 2 {
				continue
			}
			l, err := plotter.NewLine(plotter.XYs(r))
			if err != nil {
				return err
			}
			l.Color = color.Black
			l.Width = vg.Points(1.5)
			l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
			if m != "" {
				l.Dashes = dashes[d.machineIndex(m)%len(dashes)]
			}
			p.Add(l)
			if first == nil {
				first = l
			}
		}
		if first == nil {
			continue
		}
		label := "machine (control)"
		if m != "" {
			label += " @ " + m
		}
		p.Legend.Add(label, first)
	}
	return nil
}

// finishThreads sets the axes of a plot against threads: y from 0 with a
// little room above the data (the legend is beside it), ticks on every thread count (or a
// readable subset) and enough labelled y ticks, the oversubscribed part
// shaded.
func finishThreads(p *plot.Plot, f *figure, cores int) {
	p.Y.Min = 0
	p.Y.Max *= 1.05
	if n := len(f.xs); n > 0 { // a thread count set aside whole still has its place
		p.X.Min, p.X.Max = min(p.X.Min, f.xs[0]), max(p.X.Max, f.xs[n-1])
	}
	p.X.Min, p.X.Max = p.X.Min-0.3, p.X.Max+0.3
	if len(f.aside) > 0 {
		p.X.Label.Text += "\nno point, every sample set aside: " + gapsText(f.aside)
	}
	shadeOversubscribed(p, f.xs, cores)
	p.X.Tick.Marker = integerTicks{}
	p.Y.Tick.Marker = niceTicks{}
}

func (d *drawing) loadPlot(f *figure) (*plot.Plot, error) {
	p := newPlot(f.group+": cost of one Add against store size", "objects in the store (n, log scale)",
		"ns/add (log; median, 95% interval)")
	err := d.addSeries(p, f, func(s series, x float64) (point, bool) {
		v := f.vals[s][x]
		if len(v) == 0 || x <= 0 {
			return point{}, false
		}
		m, below, above := medianCI(v)
		if m-below <= 0 {
			return point{}, false // a log axis cannot show values <= 0
		}
		return point{x, 1e9 * m, 1e9 * below, 1e9 * above}, true
	}, func(i, k int, x float64) float64 {
		if k < 2 {
			return x
		}
		return x * math.Pow(1.04, float64(i)-float64(k-1)/2)
	})
	if err != nil {
		return nil, err
	}
	var xs []float64
	for _, x := range f.xs {
		if x > 0 {
			xs = append(xs, x)
		}
	}
	if len(xs) < 2 {
		return nil, fmt.Errorf("%s: fewer than two positive sizes n to plot", f.group)
	}
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = valueTicks(xs), plot.LogTicks{Prec: -1}
	p.X.Min, p.X.Max = xs[0]/1.5, xs[len(xs)-1]*1.5
	// The legend is beside the data: no room above it on the log axis.
	return p, nil
}

// allPredicted says whether every cell of sets is a prediction (perfrun
// predict's), not a measurement.
func allPredicted(sets []*records.Set) bool {
	n := 0
	for _, s := range sets {
		for _, c := range s.Cells() {
			if !predicted(c) {
				return false
			}
			n++
		}
	}
	return n > 0
}

func threadsLabel(xs []float64, cores int) string {
	if cores > 0 && len(xs) > 0 && xs[len(xs)-1] > float64(cores) {
		return fmt.Sprintf("threads (shaded: more threads than the %d cores, time-sliced, never gated)", cores)
	}
	if cores == 0 {
		return "threads"
	}
	return fmt.Sprintf("threads (%d cores)", cores)
}

// plain formats a tick value without exponents or trailing zeros.
func plain(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// gapsText names the cells set aside whole, line by line in the order of
// their lines: "hashmap at 2 threads, sorted at 1 and 2 threads".
func gapsText(gaps []gap) string {
	var order []series
	at := make(map[series][]float64)
	for _, g := range gaps {
		if at[g.s] == nil {
			order = append(order, g.s)
		}
		at[g.s] = append(at[g.s], g.x)
	}
	parts := make([]string, len(order))
	for i, s := range order {
		xs := slices.Sorted(slices.Values(at[s]))
		words := make([]string, len(xs))
		for k, x := range xs {
			words[k] = plain(x)
		}
		unit := " threads"
		if len(xs) == 1 && xs[0] == 1 {
			unit = " thread"
		}
		parts[i] = s.String() + " at " + joinWords(words) + unit
	}
	return strings.Join(parts, ", ")
}

// valueTicks labels exactly the measured x values (store sizes).
type valueTicks []float64

func (v valueTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for _, x := range v {
		t = append(t, plot.Tick{Value: x, Label: plain(x)})
	}
	return t
}

// integerTicks labels integer x values, for thread counts: every one up to
// 16 of them, else a step that keeps about ten labels.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Ceil(min), math.Floor(max)
	if !(hi >= lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	step := 1.0
	if n := hi - lo + 1; n > 16 {
		step = niceStep((hi - lo) / 10)
		lo = math.Ceil(lo/step) * step
	}
	var t []plot.Tick
	for x := lo; x <= hi && len(t) < 64; x += step {
		t = append(t, plot.Tick{Value: x, Label: plain(x)})
	}
	return t
}

// niceTicks labels a linear axis at 1, 2, 2.5 or 5 times a power of ten,
// about eight labels, with minor ticks between.
type niceTicks struct{}

func (niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return nil
	}
	step := niceStep((max - min) / 8)
	var t []plot.Tick
	for x := math.Ceil(min/step) * step; x <= max+step*1e-9 && len(t) < 64; x += step {
		v := math.Round(x/step) * step
		if v == 0 {
			v = 0 // not -0, which would be labelled "-0"
		}
		t = append(t, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
		if minor := v + step/2; minor < max {
			t = append(t, plot.Tick{Value: minor})
		}
	}
	return t
}

// niceStep rounds a raw step up to 1, 2, 2.5 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// shade fills the oversubscribed part of the plot.
type shade struct{ from float64 }

func (s shade) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x0, x1 := trX(max(s.from, p.X.Min)), trX(p.X.Max)
	y0, y1 := trY(p.Y.Min), trY(p.Y.Max)
	if x1 <= x0 {
		return
	}
	poly := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	c.FillPolygon(color.NRGBA{R: 120, G: 120, B: 120, A: 30}, c.ClipPolygonXY(poly))
}

func shadeOversubscribed(p *plot.Plot, xs []float64, cores int) {
	if cores > 0 && len(xs) > 0 && xs[len(xs)-1] > float64(cores) {
		p.Add(shade{from: float64(cores) + 0.5})
	}
}

// SavePlots renders every plot as SVG and PNG and hands each file to
// write (the caller's safe writer) as dir/NAME.svg and dir/NAME.png; it
// returns the file names written. All are rendered before any is written,
// so a plot that fails to render leaves the folder as it was.
func SavePlots(dir string, plots []*Plot, write func(path string, data []byte) error) ([]string, error) {
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, p := range plots {
		for _, ext := range []string{"svg", "png"} {
			data, err := p.Encode(ext)
			if err != nil {
				return nil, fmt.Errorf("plot %s: %w", p.Name, err)
			}
			files = append(files, file{filepath.Join(dir, p.Name+"."+ext), data})
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		if err := write(f.name, f.data); err != nil {
			return names, err
		}
		names = append(names, f.name)
	}
	return names, nil
}
