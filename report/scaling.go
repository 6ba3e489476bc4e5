package report

import (
	"fmt"
	"maps"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// A Lead is what a comparison's page says first of a cell a change moved:
// its answer past the runner's cores in a line, and a picture of both
// arms' predictions with the points measured on them.
type Lead struct {
	Verdict compare.Verdict
	Cell    string
	Line    string
	Plot    *Plot
	// Held are the prediction beside what the runner measured, at each
	// thread count it measured either arm at: the model held to the run.
	Held []Held
}

// Held is a prediction at a thread count the runner measured beside the
// measurements, base's and head's time per call (0 where an arm kept no
// window).
type Held struct {
	Threads                      int
	BaseMeasured, HeadMeasured   float64
	BasePredicted, HeadPredicted float64
}

// Rows are a Held in words: each arm's and the change's measurement,
// prediction, and the prediction over the measurement.
func (h Held) Rows() [3][4]string {
	row := func(what string, predicted, measured float64, text func(float64) string) [4]string {
		r := [4]string{what, "—", text(predicted), "—"}
		if measured > 0 {
			r[1], r[3] = text(measured), fmt.Sprintf("×%.2f", predicted/measured)
		}
		return r
	}
	change := func(r float64) string { return predict.Percent(r) }
	var measured float64
	if h.BaseMeasured > 0 && h.HeadMeasured > 0 {
		measured = h.HeadMeasured / h.BaseMeasured
	}
	return [3][4]string{
		row("base", h.BasePredicted, h.BaseMeasured, nanos),
		row("head", h.HeadPredicted, h.HeadMeasured, nanos),
		row("head ÷ base", h.HeadPredicted/h.BasePredicted, measured, change),
	}
}

// nanos is a time per call as a table writes it.
func nanos(sec float64) string { return fmt.Sprintf("%.0f ns", 1e9*sec) }

// Measured are an arm's measured times per call, by thread count.
type Measured map[int]float64

// ScalingLead is the lead of a predicted cell: its verdict and line say
// the change at the prediction's last thread count and which witnesses
// decided the cell (decidedBy, such as "time at 2 threads"); the picture
// draws base and head from 1 thread on, each band shaded, the middles
// dashed, and base's and head's measured points on them.
func ScalingLead(p predict.Prediction, verdict compare.Verdict, decidedBy []string, base, head Measured, name string) (Lead, error) {
	cell := records.AtThreads(p.Name, 1)
	cell = cell[:len(cell)-len("/threads=1")]
	line := p.Reason()
	if len(decidedBy) > 0 {
		line += "; decided by " + joinWords(decidedBy)
	}
	pl := newPlot(fmt.Sprintf("%s: per call, predicted from 1 to %d threads", cellLabel(cell), p.At()),
		"threads (predicted: one core a thread; points: measured on this runner)", "µs per call")
	top := 0.0
	for side, b := range []struct {
		label string
		mid   []float64
		lo    []float64
		hi    []float64
		seen  Measured
	}{{"base", p.Base.Mid, p.Base.Low, p.Base.High, base}, {"head", p.Head.Mid, p.Head.Low, p.Head.High, head}} {
		col := palette[side]
		var mid, lo, hi plotter.XYs
		for i, n := range p.Threads {
			x := float64(n)
			mid = append(mid, plotter.XY{X: x, Y: 1e6 * b.mid[i]})
			lo = append(lo, plotter.XY{X: x, Y: 1e6 * min(b.lo[i], b.mid[i])})
			hi = append(hi, plotter.XY{X: x, Y: 1e6 * max(b.hi[i], b.mid[i])})
			top = max(top, 1e6*b.hi[i], 1e6*b.mid[i])
		}
		band, err := shadedBand(lo, hi, col, 0x30)
		if err != nil {
			return Lead{}, err
		}
		ml, err := plotter.NewLine(mid)
		if err != nil {
			return Lead{}, err
		}
		ml.Color, ml.Dashes, ml.Width = col, dashes[1+side], vg.Points(2)
		pl.Add(band, ml)
		pl.Legend.Add(b.label+": predicted, band shaded", ml, band)
		if len(b.seen) > 0 {
			var pts plotter.XYs
			for _, n := range slices.Sorted(maps.Keys(b.seen)) {
				pts = append(pts, plotter.XY{X: float64(n), Y: 1e6 * b.seen[n]})
				top = max(top, 1e6*b.seen[n])
			}
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return Lead{}, err
			}
			sc.Color, sc.Shape, sc.Radius = col, glyphs[side], vg.Points(4)
			pl.Add(sc)
			pl.Legend.Add(b.label+": measured", sc)
		}
	}
	pl.X.Min, pl.X.Max = 0.5, float64(p.At())+0.5
	pl.Y.Min, pl.Y.Max = 0, 1.1*top
	pl.X.Tick.Marker = integerTicks{}
	pl.Y.Tick.Marker = niceTicks{}
	return Lead{Verdict: verdict, Cell: cell, Line: line, Held: held(p, base, head),
		Plot: &Plot{Name: name, Caption: cellLabel(cell) + ": " + line, plot: pl}}, nil
}

// held are p's predictions at the thread counts base or head measured.
func held(p predict.Prediction, base, head Measured) []Held {
	var out []Held
	for i, n := range p.Threads {
		if base[n] > 0 || head[n] > 0 {
			out = append(out, Held{Threads: n, BaseMeasured: base[n], HeadMeasured: head[n], BasePredicted: p.Base.Mid[i], HeadPredicted: p.Head.Mid[i]})
		}
	}
	return out
}

// cellLabel is a cell's name without the benchmark's own prefix.
func cellLabel(cell string) string {
	for _, prefix := range []string{"Benchmark"} {
		if len(cell) > len(prefix) && cell[:len(prefix)] == prefix {
			return cell[len(prefix):]
		}
	}
	return cell
}

// joinWords joins a list as a sentence does: "a", "a and b", "a, b and c".
func joinWords(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	s := w[0]
	for _, x := range w[1 : len(w)-1] {
		s += ", " + x
	}
	return s + " and " + w[len(w)-1]
}
