package report

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// HeldPlot draws each predicted design's per(n)/per(1) beside the
// published curve it is held against (perfrun predict -against): the
// published one solid, the prediction dashed with its band shaded, one
// colour a pair. The band's top is cut at the picture's, which fits the
// curves: a band edge of sleeping hand-offs would flatten every curve.
func HeldPlot(held []predict.Held, name string) (*Plot, error) {
	type pair struct{ cell, published string }
	var pairs []pair
	rows := make(map[pair][]predict.Held)
	top := 1.0
	for _, h := range held {
		k := pair{h.Cell, h.Published}
		if _, ok := rows[k]; !ok {
			pairs = append(pairs, k)
		}
		rows[k] = append(rows[k], h)
		top = max(top, h.Predicted, h.Table)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("nothing held against a published table")
	}
	top *= 1.3
	p := newPlot("per(n)/per(1): predicted from 1-thread lock profiles, beside published",
		"threads (the prediction: one core a thread)", "time per call over one thread's")
	cut := false
	var tables []string // published curves, each drawn once, in its colour
	standIns := make(map[string]int)
	for _, k := range pairs {
		i := slices.Index(tables, k.published)
		if i < 0 {
			tables = append(tables, k.published)
			i = len(tables) - 1
			if err := addPublished(p, rows[k], heldLabel(k.published), i); err != nil {
				return nil, err
			}
		}
		// A published table's stand-ins share its colour, told apart by
		// their dashes.
		j := standIns[k.published]
		standIns[k.published]++
		c, err := addPredicted(p, rows[k], heldLabel(k.cell), palette[i%len(palette)], dashes[1+j%(len(dashes)-1)], top)
		if err != nil {
			return nil, err
		}
		cut = cut || c
	}
	p.Y.Min, p.Y.Max = 0, top
	p.X.Min, p.X.Max = 0.7, p.X.Max+0.3
	p.X.Tick.Marker = integerTicks{}
	p.Y.Tick.Marker = niceTicks{}
	if cut {
		p.Title.Text += " (bands cut at the top)"
	}
	return &Plot{Name: name, Caption: "predicted per(n)/per(1) beside published", plot: p}, nil
}

// addPublished draws a published curve, per(1) = 1 first, solid with its
// points, in the i-th colour and glyph.
func addPublished(p *plot.Plot, rows []predict.Held, label string, i int) error {
	pub := plotter.XYs{{X: 1, Y: 1}}
	for _, h := range rows {
		pub = append(pub, plotter.XY{X: float64(h.Threads), Y: h.Table})
	}
	pl, pp, err := plotter.NewLinePoints(pub)
	if err != nil {
		return err
	}
	pl.Color, pp.Color, pp.Shape, pl.Width = palette[i%len(palette)], palette[i%len(palette)], glyphs[i%len(glyphs)], vg.Points(2)
	p.Add(pl, pp)
	p.Legend.Add(label+": published", pl, pp)
	return nil
}

// addPredicted draws a prediction dashed, its band shaded and cut at top;
// it says whether the band was cut.
func addPredicted(p *plot.Plot, rows []predict.Held, label string, col color.Color, dash []vg.Length, top float64) (cut bool, err error) {
	mid, lo, hi := plotter.XYs{{X: 1, Y: 1}}, plotter.XYs{{X: 1, Y: 1}}, plotter.XYs{{X: 1, Y: 1}}
	for _, h := range rows {
		x := float64(h.Threads)
		mid = append(mid, plotter.XY{X: x, Y: h.Predicted})
		lo = append(lo, plotter.XY{X: x, Y: h.Low})
		hi = append(hi, plotter.XY{X: x, Y: min(h.High, top)})
		cut = cut || h.High > top
	}
	band, err := shadedBand(lo, hi, col, 0x18)
	if err != nil {
		return false, err
	}
	ml, err := plotter.NewLine(mid)
	if err != nil {
		return false, err
	}
	ml.Color, ml.Dashes, ml.Width = col, dash, vg.Points(1.5)
	p.Add(band, ml)
	p.Legend.Add(label+": predicted, band shaded", ml, band)
	return cut, nil
}

// heldLabel names a cell by its design and, where it has one, its cost.
func heldLabel(name string) string {
	label := records.NameKey(name, "impl")
	if cost := records.NameKey(name, "cost"); cost != "" {
		label += " cost=" + cost
	}
	if label == "" {
		return name
	}
	return label
}
