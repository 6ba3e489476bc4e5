package report

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"github.com/montanaflynn/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perfrun/perfrun/harness/compare"
)

// Plot is one picture, ready to save as SVG or PNG.
type Plot struct {
	Name    string // file-name stem, e.g. issuer_certs-1024_hit-1-latency
	Caption string // what it shows, for reports
	plot    *plot.Plot
}

// Size of every plot.
const (
	plotWidth  = 7 * vg.Inch
	plotHeight = 4.5 * vg.Inch
)

// Encode renders the plot in a format named by its extension: "svg" or "png".
func (p *Plot) Encode(format string) ([]byte, error) {
	w, err := p.plot.WriterTo(plotWidth, plotHeight, format)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Plots draws every picture the results support: per workload and
// parameters, latency, throughput and speedup against threads; and for
// load, ns/add against n on log-log axes. cores marks the oversubscribed
// region.
func Plots(s *compare.Set, cores int) ([]*Plot, error) {
	var out []*Plot
	for _, f := range figures(s, "ns/op", "threads", nil) {
		if len(f.xs) < 2 && !isLoad(f) {
			continue
		}
		if len(f.xs) >= 2 {
			lat, err := linePlot(f, func(v float64) float64 { return v }, "latency per operation",
				"ns/op (mean ± sd over rounds)", cores)
			if err != nil {
				return nil, err
			}
			out = append(out, &Plot{fileName(f.group) + "-latency",
				f.group + ": ns/op against threads (lower is better)", lat})
		}
	}
	for _, f := range figures(s, "ops/s", "threads", nil) {
		if len(f.xs) < 2 {
			continue
		}
		thr, err := linePlot(f, func(v float64) float64 { return v / 1e6 }, "aggregate throughput",
			"million ops/s (mean ± sd over rounds)", cores)
		if err != nil {
			return nil, err
		}
		out = append(out, &Plot{fileName(f.group) + "-throughput",
			f.group + ": aggregate throughput against threads (higher is better)", thr})
		sp, err := speedupPlot(f, cores)
		if err != nil {
			return nil, err
		}
		out = append(out, &Plot{fileName(f.group) + "-speedup",
			f.group + ": throughput relative to one thread, with the ideal line", sp})
	}
	oneThread := func(k map[string]string) bool { return k["threads"] == "1" }
	for _, f := range figures(s, "ns/add", "n", oneThread) {
		if len(f.xs) < 2 {
			continue
		}
		lp, err := loadPlot(f)
		if err != nil {
			return nil, err
		}
		out = append(out, &Plot{fileName(f.group) + "-nsperadd",
			f.group + ": ns/add against store size, log-log (lower is better)", lp})
	}
	return out, nil
}

func isLoad(f *figure) bool { return len(f.group) >= 4 && f.group[:4] == "Load" }

// meanSD returns the mean and sample standard deviation of v (0 for one
// value).
func meanSD(v []float64) (float64, float64) {
	m, _ := stats.Mean(v)
	sd, err := stats.StandardDeviationSample(v)
	if err != nil || sd != sd {
		sd = 0
	}
	return m, sd
}

// errPoints are points with vertical error bars only.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.YOffs = -vg.Points(4)
	p.Add(plotter.NewGrid())
	return p
}

// addLines adds one line with error bars per implementation; one call each
// to AddLinePoints and AddErrorBars so the colours match.
func addLines(p *plot.Plot, f *figure, value func(impl string, x float64) (float64, float64, bool)) error {
	var lines, bars []any
	for _, im := range f.impls {
		var pts errPoints
		for _, x := range f.xs {
			m, sd, ok := value(im, x)
			if !ok {
				continue
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: m})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{sd, sd})
		}
		if len(pts.XYs) == 0 {
			continue
		}
		lines = append(lines, im, pts.XYs)
		bars = append(bars, pts)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	return plotutil.AddErrorBars(p, bars...)
}

func linePlot(f *figure, scale func(float64) float64, what, yLabel string, cores int) (*plot.Plot, error) {
	p := newPlot(f.group+": "+what, threadsLabel(f.xs, cores), yLabel)
	err := addLines(p, f, func(im string, x float64) (float64, float64, bool) {
		v := f.vals[im][x]
		if len(v) == 0 {
			return 0, 0, false
		}
		m, sd := meanSD(v)
		return scale(m), scale(sd), true
	})
	if err != nil {
		return nil, err
	}
	p.Y.Min = 0
	legendRoom(p)
	shadeOversubscribed(p, f.xs, cores)
	p.X.Tick.Marker = integerTicks{}
	return p, nil
}

// legendRoom raises the top of a linear y axis so the legend, in the top
// left corner, sits above the data instead of on it.
func legendRoom(p *plot.Plot) {
	p.Y.Max *= 1.45
}

func speedupPlot(f *figure, cores int) (*plot.Plot, error) {
	p := newPlot(f.group+": speedup over one thread", threadsLabel(f.xs, cores), "throughput / 1-thread throughput")
	err := addLines(p, f, func(im string, x float64) (float64, float64, bool) {
		one, v := f.vals[im][1], f.vals[im][x]
		if len(one) == 0 || len(v) == 0 {
			return 0, 0, false
		}
		m1, _ := meanSD(one)
		m, sd := meanSD(v)
		return m / m1, sd / m1, true
	})
	if err != nil {
		return nil, err
	}
	// Ideal: linear up to the cores, flat beyond (threads only time-slice).
	var ideal plotter.XYs
	for _, x := range f.xs {
		ideal = append(ideal, plotter.XY{X: x, Y: min(x, float64(max(cores, 1)))})
	}
	l, err := plotter.NewLine(ideal)
	if err != nil {
		return nil, err
	}
	l.Color = color.Gray{Y: 90}
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	p.Legend.Add("ideal", l)
	p.Y.Min = 0
	legendRoom(p)
	shadeOversubscribed(p, f.xs, cores)
	p.X.Tick.Marker = integerTicks{}
	return p, nil
}

func loadPlot(f *figure) (*plot.Plot, error) {
	p := newPlot(f.group+": cost of one Add against store size", "objects in the store (n, log scale)", "ns/add (log scale, mean ± sd)")
	err := addLines(p, f, func(im string, x float64) (float64, float64, bool) {
		v := f.vals[im][x]
		if len(v) == 0 {
			return 0, 0, false
		}
		m, sd := meanSD(v)
		return m, min(sd, m*0.999), m > 0 // a log axis cannot show values <= 0
	})
	if err != nil {
		return nil, err
	}
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = valueTicks(f.xs), plot.LogTicks{Prec: -1}
	p.Y.Max *= 6 // legend room on a log axis
	return p, nil
}

func threadsLabel(xs []float64, cores int) string {
	if cores > 0 && len(xs) > 0 && xs[len(xs)-1] > float64(cores) {
		return fmt.Sprintf("threads (shaded: more threads than the %d cores, time-sliced, never gated)", cores)
	}
	return fmt.Sprintf("threads (%d cores)", cores)
}

// valueTicks labels exactly the measured x values (store sizes).
type valueTicks []float64

func (v valueTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for _, x := range v {
		t = append(t, plot.Tick{Value: x, Label: fmt.Sprint(x)})
	}
	return t
}

// integerTicks labels every integer x, for thread counts.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	step := 1.0
	if max-min > 20 {
		step = 2
	}
	for x := float64(int(min)); x <= max; x += step {
		if x >= min {
			t = append(t, plot.Tick{Value: x, Label: fmt.Sprint(x)})
		}
	}
	return t
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
	c.FillPolygon(color.NRGBA{R: 220, G: 80, B: 60, A: 28}, c.ClipPolygonXY(poly))
}

func shadeOversubscribed(p *plot.Plot, xs []float64, cores int) {
	if cores > 0 && len(xs) > 0 && xs[len(xs)-1] > float64(cores) {
		p.Add(shade{from: float64(cores) + 0.5})
	}
}

// SavePlots writes every plot as SVG and PNG into dir and returns the
// file names written.
func SavePlots(dir string, plots []*Plot) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, p := range plots {
		for _, ext := range []string{"svg", "png"} {
			data, err := p.Encode(ext)
			if err != nil {
				return nil, fmt.Errorf("plot %s: %v", p.Name, err)
			}
			name := filepath.Join(dir, p.Name+"."+ext)
			if err := os.WriteFile(name, data, 0o644); err != nil {
				return nil, err
			}
			files = append(files, name)
		}
	}
	return files, nil
}
