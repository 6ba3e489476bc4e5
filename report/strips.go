package report

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// armColour gives each arm of an A/B comparison its colour (Okabe–Ito).
var armColour = map[string]color.Color{
	compare.ArmBase:  palette[0],
	compare.ArmHead:  palette[1],
	compare.ArmBase2: palette[2],
}

// WindowStrips draws every window of every cell, arm by arm: one row per
// cell, each window a dot at its change from the cell's base median, the
// arms a little apart within the row, set-aside windows hollow. A design
// that is bimodal or heavy-tailed under contention shows it here, where a
// median and its interval hide it. A row whose base arm kept no window is
// drawn against the median of all its base windows; set-aside windows far
// past the kept ones are drawn at the axis's edge, so one wild window
// does not squeeze the rest into a line; the caption says both. Nil when
// there are no windows (arms paired by process).
func WindowStrips(cells []string, windows map[string][]compare.Window) (*Plot, error) {
	var rows []string
	for _, c := range cells {
		if len(windows[c]) > 0 {
			rows = append(rows, c)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	p := newFigure()
	p.Title.Text = "every window, arm by arm"
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "change of time/op from the cell's base median, % (hollow: set aside)"
	dots, againstAside := stripDots(rows, windows)
	var kept, all []float64
	for _, d := range dots {
		all = append(all, d.x)
		if !d.aside {
			kept = append(kept, d.x)
		}
	}
	lo, hi := stripAxis(kept, all)
	beyond, far, err := addStripDots(p, dots, lo, hi)
	if err != nil {
		return nil, err
	}
	pad := (hi - lo) * 0.05
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4
	p.Add(zeroLine{top: math.Inf(1)})
	p.Y.Tick.Marker = rowTicks(rowLabels(rows)) // the forest plot's short labels
	p.X.Tick.Marker = niceTicks{}
	p.Add(plotter.NewGrid())
	for _, arm := range slices.Backward(stripArms) {
		sw, err := plotter.NewScatter(plotter.XYs{{}}) // a legend entry only
		if err != nil {
			return nil, err
		}
		sw.Color, sw.Shape = armColour[arm], draw.CircleGlyph{}
		p.Legend.Add(arm, sw)
	}
	p.Legend.Top = true
	caption := fmt.Sprintf("every window of %d cells, arm by arm, against the base arm's median", len(rows))
	if againstAside > 0 {
		caption += fmt.Sprintf("; %d %s whose base kept no window against the median of its set-aside windows", againstAside, plural(againstAside, "row", "rows"))
	}
	if beyond > 0 {
		caption += fmt.Sprintf("; %d set-aside %s past the axis drawn at its edge as triangles (the farthest %+.0f%%)", beyond, plural(beyond, "window", "windows"), far)
	}
	return &Plot{Name: "windows", Caption: caption, plot: p}, nil
}

// stripArms are the arms in the order a row draws them, top to bottom.
var stripArms = []string{compare.ArmBase, compare.ArmHead, compare.ArmBase2}

// A stripDot is one window: its change from the row's reference (%), its
// height (the row, the arm's lane, a little jitter), its arm, and whether
// it was set aside.
type stripDot struct {
	x, y  float64
	arm   int
	aside bool
}

// stripDots are the windows of rows as dots, and how many rows are drawn
// against the median of their set-aside windows (their base kept none).
func stripDots(rows []string, windows map[string][]compare.Window) (dots []stripDot, againstAside int) {
	rng := rand.New(rand.NewPCG(1, 2)) // jitter, the same in every report
	for i, name := range rows {
		y := float64(len(rows) - 1 - i)
		ref, kept := stripReference(windows[name])
		if !(ref > 0) {
			continue
		}
		if !kept {
			againstAside++
		}
		for k, arm := range stripArms {
			for _, w := range windows[name] {
				if w.Arm == arm {
					dots = append(dots, stripDot{100 * (w.Value/ref - 1), y + 0.25*float64(k-1) + 0.06*(rng.Float64()-0.5), k, w.Aside != ""})
				}
			}
		}
	}
	return dots, againstAside
}

// addStripDots draws the dots within [lo, hi] in their arm's colour
// (hollow where set aside) and those past it at its edge as triangles; it
// says how many were past it and the farthest.
func addStripDots(p *plot.Plot, dots []stripDot, lo, hi float64) (beyond int, far float64, err error) {
	for k, arm := range stripArms {
		for _, set := range []struct {
			aside bool
			glyph draw.GlyphDrawer
		}{{false, draw.CircleGlyph{}}, {true, draw.RingGlyph{}}} {
			var pts, edge plotter.XYs
			for _, d := range dots {
				if d.arm != k || d.aside != set.aside {
					continue
				}
				if d.x < lo || d.x > hi {
					beyond++
					if math.Abs(d.x) > math.Abs(far) {
						far = d.x
					}
					edge = append(edge, plotter.XY{X: min(max(d.x, lo), hi), Y: d.y})
					continue
				}
				pts = append(pts, plotter.XY{X: d.x, Y: d.y})
			}
			for _, g := range []struct {
				pts   plotter.XYs
				glyph draw.GlyphDrawer
			}{{pts, set.glyph}, {edge, draw.TriangleGlyph{}}} {
				if len(g.pts) == 0 {
					continue
				}
				sc, err := plotter.NewScatter(g.pts)
				if err != nil {
					return 0, 0, err
				}
				sc.Color, sc.Shape, sc.Radius = armColour[arm], g.glyph, vg.Points(1.8)
				p.Add(sc)
			}
		}
	}
	return beyond, far, nil
}

// stripReference is what a row's windows are drawn against: the median of
// its base arm's kept windows, else (kept false) of all its base windows,
// else of all its windows.
func stripReference(ws []compare.Window) (ref float64, kept bool) {
	var keptBase, base, any []float64
	for _, w := range ws {
		any = append(any, w.Value)
		if w.Arm != compare.ArmBase {
			continue
		}
		base = append(base, w.Value)
		if w.Aside == "" {
			keptBase = append(keptBase, w.Value)
		}
	}
	switch {
	case len(keptBase) > 0:
		return records.Median(keptBase), true
	case len(base) > 0:
		return records.Median(base), false
	}
	return records.Median(any), false
}

// stripAxis is the x range of a strip plot: every kept window, and the
// set-aside ones within five interquartile ranges, or 100 points, of the
// kept windows' quartiles (of all windows' where none was kept), at least
// ±5%. Only a set-aside window can fall outside it.
func stripAxis(kept, all []float64) (lo, hi float64) {
	core := kept
	if len(core) == 0 {
		core = all
	}
	lo, hi = -5, 5
	if len(core) == 0 {
		return lo, hi
	}
	q := slices.Sorted(slices.Values(core))
	q1, q3 := quantile(q, 0.25), quantile(q, 0.75)
	reach := max(5*(q3-q1), 100)
	lo, hi = min(lo, q[0]), max(hi, q[len(q)-1])
	for _, x := range all {
		if x >= q1-reach && x <= q3+reach {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	return lo, hi
}

// quantile is the p-quantile of sorted xs, interpolated.
func quantile(xs []float64, p float64) float64 {
	pos := p * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}

// plural is one or many, as n asks.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
