package report

import (
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perfrun/perfrun/compare"
)

// verdictColour colours a verdict alike in every picture and page.
var verdictColour = map[compare.Verdict]color.Color{
	compare.Pass:         color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	compare.Improved:     color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	compare.Regression:   color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	compare.Inconclusive: color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
}

// ForestPlot is the first picture of a comparison: one row per gated cell,
// its change in percent with the interval the verdict rests on, the band
// of ±threshold shaded, each cell coloured by its verdict. A cell whose
// interval reaches past the band's edge cannot PASS.
func ForestPlot(rep *compare.Report) (*Plot, error) {
	var cells []compare.CellVerdict
	for _, c := range rep.Cells {
		if c.Verdict != compare.NotGated && c.Ratio > 0 && c.Unit == compare.DefaultThresholds.Metric {
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return nil, nil
	}
	p := newFigure()
	// Revisions by their short names: subjects are the report's text.
	p.Title.Text = fmt.Sprintf("%s: %s against %s", rep.Verdict, shortRevision(rep.New), shortRevision(rep.Old))
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = fmt.Sprintf("change of time/op, %% (interval of each verdict; shaded: within ±%.0f%%)", 100*rep.Threshold)
	thr := 100 * rep.Threshold
	lo, hi := axisRange(cells, thr)
	full := make([]string, len(cells))
	for i, c := range cells {
		full[i] = c.Name
	}
	names := rowLabels(full)
	var left, right plotter.XYs
	for i, c := range cells {
		y := float64(len(cells) - 1 - i)
		l, r, err := addForestRow(p, c, y, lo, hi)
		if err != nil {
			return nil, err
		}
		left, right = append(left, l...), append(right, r...)
	}
	if err := addArrows(p, left, right); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = lo, hi
	// A row of room above the cells for the legend.
	p.Y.Min, p.Y.Max = -0.8, float64(len(cells))+1.2
	// The band and the zero line stop at the top row: the room above is
	// the legend's, which they would run through.
	top := float64(len(cells)) - 0.4
	p.Add(band{-thr, thr, top}, zeroLine{top})
	p.Y.Tick.Marker = rowTicks(names)
	p.X.Tick.Marker = niceTicks{}
	p.Add(plotter.NewGrid())
	if err := addVerdictLegend(p); err != nil {
		return nil, err
	}
	p.Legend.Top = true
	return &Plot{Name: "verdict-forest", Caption: "each gated cell's change with its interval; the shaded band is ±threshold", plot: p, legendInside: true}, nil
}

// addForestRow draws one cell's change at row y, its interval cut at the
// axis [lo, hi]; it returns where an interval was cut on the left and on
// the right, for the arrows.
func addForestRow(p *plot.Plot, c compare.CellVerdict, y, lo, hi float64) (left, right plotter.XYs, err error) {
	x := 100 * (c.Ratio - 1)
	pt := errPointsX{XYs: plotter.XYs{{X: x, Y: y}}, XErrors: plotter.XErrors{{}}}
	if c.Lo > 0 && c.Hi > 0 {
		// An interval past the axis is drawn to its edge, with an
		// arrow: one wide interval must not squeeze the band away.
		l, h := 100*(c.Lo-1), 100*(c.Hi-1)
		if l < lo {
			l = lo
			left = append(left, plotter.XY{X: lo, Y: y})
		}
		if h > hi {
			h = hi
			right = append(right, plotter.XY{X: hi, Y: y})
		}
		pt.XErrors[0] = struct{ Low, High float64 }{x - l, h - x}
	}
	col := verdictColour[c.Verdict]
	bars, err := plotter.NewXErrorBars(pt)
	if err != nil {
		return nil, nil, err
	}
	bars.Color, bars.Width = col, vg.Points(2)
	dot, err := plotter.NewScatter(pt.XYs)
	if err != nil {
		return nil, nil, err
	}
	dot.Color, dot.Shape, dot.Radius = col, draw.CircleGlyph{}, vg.Points(4)
	p.Add(bars, dot)
	return left, right, nil
}

// addArrows marks the intervals cut at the axis's left and right edges.
func addArrows(p *plot.Plot, left, right plotter.XYs) error {
	for _, a := range []struct {
		at    plotter.XYs
		point float64
	}{{left, -1}, {right, 1}} {
		if len(a.at) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(a.at)
		if err != nil {
			return err
		}
		sc.Shape, sc.Radius, sc.Color = arrowGlyph{a.point}, vg.Points(5), color.Gray{Y: 60}
		p.Add(sc)
	}
	return nil
}

// addVerdictLegend lists the verdicts' colours.
func addVerdictLegend(p *plot.Plot) error {
	for _, v := range []compare.Verdict{compare.Regression, compare.Inconclusive, compare.Pass, compare.Improved} {
		sw, err := plotter.NewScatter(plotter.XYs{{}}) // a legend entry only, never added to the plot
		if err != nil {
			return err
		}
		sw.Color, sw.Shape = verdictColour[v], draw.CircleGlyph{}
		p.Legend.Add(string(v), sw)
	}
	return nil
}

// shortRevision is a revision as ab describes it ("HEAD (1a2b3c4 subject)")
// without its subject: a picture's title must fit its frame.
func shortRevision(name string) string {
	if head, _, ok := strings.Cut(name, " ("); ok && head != "" {
		return head
	}
	if len([]rune(name)) > 40 {
		return string([]rune(name)[:39]) + "…"
	}
	return name
}

// rowLabels names each cell by what tells it from the others: the parts
// of its name every cell shares (Issuer, certs=1024, hit=1) left out, so
// the labels fit beside the axis.
func rowLabels(names []string) []string {
	parts := make([][]string, len(names))
	count := make(map[string]int)
	for i, name := range names {
		parts[i] = strings.Split(name, "/")
		for _, p := range parts[i] {
			count[p]++
		}
	}
	out := make([]string, len(names))
	for i, ps := range parts {
		var keep []string
		for _, p := range ps {
			if count[p] < len(names) || len(names) == 1 {
				keep = append(keep, strings.TrimPrefix(p, "impl="))
			}
		}
		if len(keep) == 0 {
			keep = ps
		}
		out[i] = strings.Join(keep, " ")
	}
	return out
}

// axisRange is the forest plot's x range, in percent: every estimate and
// the ±threshold band with room, and the intervals as far as they stay
// within four bands' widths beyond the farthest estimate — past that an
// interval is clipped and marked, so the band stays readable.
func axisRange(cells []compare.CellVerdict, thr float64) (lo, hi float64) {
	lo, hi = -1.5*thr, 1.5*thr
	for _, c := range cells {
		x := 100 * (c.Ratio - 1)
		lo, hi = min(lo, x), max(hi, x)
	}
	capLo, capHi := lo-4*thr, hi+4*thr
	for _, c := range cells {
		if c.Lo > 0 && c.Hi > 0 {
			lo, hi = min(lo, max(100*(c.Lo-1), capLo)), max(hi, min(100*(c.Hi-1), capHi))
		}
	}
	pad := (hi - lo) * 0.06
	return lo - pad, hi + pad
}

// ForestRange is a forest plot's x axis, in percent.
func ForestRange(p *Plot) (lo, hi float64) { return p.plot.X.Min, p.plot.X.Max }

// arrowGlyph is a triangle pointing left (dir -1) or right (1): an
// interval that goes on past the axis.
type arrowGlyph struct{ dir float64 }

func (g arrowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	d := vg.Length(g.dir)
	var path vg.Path
	path.Move(vg.Point{X: pt.X + d*r, Y: pt.Y})
	path.Line(vg.Point{X: pt.X - d*r, Y: pt.Y + r})
	path.Line(vg.Point{X: pt.X - d*r, Y: pt.Y - r})
	path.Close()
	c.SetColor(sty.Color)
	c.Fill(path)
}

// errPointsX are points with horizontal error bars only.
type errPointsX struct {
	plotter.XYs
	plotter.XErrors
}

// rowTicks labels row i (from the top) with names[i].
type rowTicks []string

func (r rowTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for i, n := range r {
		t = append(t, plot.Tick{Value: float64(len(r) - 1 - i), Label: n})
	}
	return t
}

// band shades the x range [from, to] from the bottom up to row top.
type band struct{ from, to, top float64 }

func (b band) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x0, x1 := trX(max(b.from, p.X.Min)), trX(min(b.to, p.X.Max))
	y0, y1 := trY(p.Y.Min), trY(min(b.top, p.Y.Max))
	poly := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	c.FillPolygon(color.NRGBA{R: 0x00, G: 0x9E, B: 0x73, A: 28}, c.ClipPolygonXY(poly))
}

// zeroLine marks no change, from the bottom up to row top.
type zeroLine struct{ top float64 }

func (z zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x := trX(0)
	c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}},
		x, trY(p.Y.Min), x, trY(min(z.top, p.Y.Max)))
}
