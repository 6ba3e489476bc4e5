package report

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"

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
// median and its interval hide it. Nil when there are no windows (arms
// paired by process).
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
	rng := rand.New(rand.NewPCG(1, 2)) // jitter, the same in every report
	lo, hi := -5.0, 5.0
	arms := []string{compare.ArmBase, compare.ArmHead, compare.ArmBase2}
	for i, name := range rows {
		y := float64(len(rows) - 1 - i)
		var base []float64
		for _, w := range windows[name] {
			if w.Arm == compare.ArmBase && w.Aside == "" {
				base = append(base, w.Value)
			}
		}
		ref := records.Median(base)
		if !(ref > 0) {
			continue
		}
		for k, arm := range arms {
			var kept, aside plotter.XYs
			for _, w := range windows[name] {
				if w.Arm != arm {
					continue
				}
				x := 100 * (w.Value/ref - 1)
				lo, hi = min(lo, x), max(hi, x)
				pt := plotter.XY{X: x, Y: y + 0.25*float64(k-1) + 0.06*(rng.Float64()-0.5)}
				if w.Aside == "" {
					kept = append(kept, pt)
				} else {
					aside = append(aside, pt)
				}
			}
			for _, set := range []struct {
				pts   plotter.XYs
				glyph draw.GlyphDrawer
			}{{kept, draw.CircleGlyph{}}, {aside, draw.RingGlyph{}}} {
				if len(set.pts) == 0 {
					continue
				}
				s, err := plotter.NewScatter(set.pts)
				if err != nil {
					return nil, err
				}
				s.Color, s.Shape, s.Radius = armColour[arm], set.glyph, vg.Points(1.8)
				p.Add(s)
			}
		}
	}
	pad := (hi - lo) * 0.05
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4
	p.Add(zeroLine{top: math.Inf(1)})
	p.Y.Tick.Marker = rowTicks(rowLabels(rows)) // the forest plot's short labels
	p.X.Tick.Marker = niceTicks{}
	p.Add(plotter.NewGrid())
	for _, arm := range slices.Backward(arms) {
		sw, err := plotter.NewScatter(plotter.XYs{{}}) // a legend entry only
		if err != nil {
			return nil, err
		}
		sw.Color, sw.Shape = armColour[arm], draw.CircleGlyph{}
		p.Legend.Add(arm, sw)
	}
	p.Legend.Top = true
	return &Plot{Name: "windows", Caption: fmt.Sprintf("every window of %d cells, arm by arm, against the base arm's median", len(rows)), plot: p}, nil
}
