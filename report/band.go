package report

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// bandFigures are the low and high edges of predicted bands (perfrun
// predict's low-ns/call and high-ns/call), by figure group.
type bandFigures struct{ low, high map[string]*figure }

func newBandFigures(sets []*records.Set, byLabel bool) bandFigures {
	b := bandFigures{low: make(map[string]*figure), high: make(map[string]*figure)}
	for _, f := range figures(sets, records.Tidy(predict.Low), "threads", byLabel, nil) {
		b.low[f.group] = f
	}
	for _, f := range figures(sets, records.Tidy(predict.High), "threads", byLabel, nil) {
		b.high[f.group] = f
	}
	return b
}

// addBands shades, for each line of f that is a prediction with a band,
// the band from its low to its high edge in the line's colour, translucent
// so the measured points beside it show through, and names it in the
// legend as predicted.
func (d *drawing) addBands(p *plot.Plot, f *figure, b bandFigures, scale float64) error {
	low, high := b.low[f.group], b.high[f.group]
	if low == nil || high == nil {
		return nil
	}
	// A band's high edge (sleeping hand-offs) can be a hundred times the
	// lines: cut at twice the highest, so the lines stay readable.
	top := 0.0
	for _, s := range f.series {
		for _, v := range f.vals[s] {
			if len(v) > 0 {
				top = max(top, 2*scale*records.Median(v))
			}
		}
	}
	cut := false
	for _, s := range f.series {
		lo, hi := low.vals[s], high.vals[s]
		var xs []float64
		for _, x := range f.xs {
			if len(lo[x]) > 0 && len(hi[x]) > 0 {
				xs = append(xs, x)
			}
		}
		if len(xs) < 2 {
			continue
		}
		var lower, upper plotter.XYs
		for _, x := range xs {
			y := scale * records.Median(hi[x])
			if top > 0 && y > top {
				y, cut = top, true
			}
			lower = append(lower, plotter.XY{X: x, Y: scale * records.Median(lo[x])})
			upper = append(upper, plotter.XY{X: x, Y: y})
		}
		band, err := shadedBand(lower, upper, palette[d.implIndex(s.impl)%len(palette)], 0x40)
		if err != nil {
			return err
		}
		p.Add(band)
		p.Legend.Add(s.String()+": predicted band", band)
	}
	if cut {
		// In the title: a y label longer than the axis squeezes the data.
		p.Title.Text += " (predicted bands cut at the top)"
	}
	return nil
}

// shadedBand is the area between lower and upper (the same xs, in order),
// filled with c at alpha and no outline, so what lies beneath shows through.
func shadedBand(lower, upper plotter.XYs, c color.Color, alpha uint8) (*plotter.Polygon, error) {
	edge := append(plotter.XYs{}, lower...)
	for i := len(upper) - 1; i >= 0; i-- {
		edge = append(edge, upper[i])
	}
	band, err := plotter.NewPolygon(edge)
	if err != nil {
		return nil, err
	}
	r, g, b, _ := c.RGBA()
	band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: alpha}
	band.LineStyle.Width = 0
	return band, nil
}
