package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"golang.org/x/perf/benchunit"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/records"
)

var (
	historyPointColor      = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	historyLevelColor      = color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	historyRegressionColor = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	historyImprovedColor   = color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
)

// HistoryPlot draws one series of a history over its commits, every commit
// a point (its median) with the 95% interval of its rounds, the level of
// each segment between steps across it, and each step marked where it
// happened.
func HistoryPlot(s *history.Series, steps []history.Step) (*Plot, error) {
	medians := s.Medians()
	sc := benchunit.CommonScale(medians, benchunit.ClassOf(s.Unit))
	factor := sc.Factor
	if factor == 0 {
		factor = 1
	}
	title, yLabel, stem := s.Cell+" @ "+s.Machine, unitLabel(sc.Prefix, s.Unit), s.Machine+"/"+s.Cell+"/"+s.Unit
	if s.Over != "" {
		// A ratio to the reference cell: no unit, no scale.
		factor = 1
		title = s.Cell + " ÷ " + s.Over + " @ " + s.Machine
		yLabel = "ratio to " + s.Over
		stem += "/over/" + s.Over
	}
	p := newPlot(title, "commit (oldest first)", yLabel)
	top, err := addCommitMedians(p, s, medians, factor)
	if err != nil {
		return nil, err
	}
	if err := addLevels(p, steps, medians, factor); err != nil {
		return nil, err
	}
	addStepMarks(p, steps)
	p.X.Min, p.X.Max = -1, float64(len(s.Points))
	if p.Y.Max < top {
		p.Y.Max = top
	}
	p.X.Tick.Marker = commitTicks(s.Points)
	caption := fmt.Sprintf("%s in %s on %s over %d commits", s.Cell, yLabel, s.Machine, len(s.Points))
	if len(steps) > 0 {
		caption += fmt.Sprintf("; %d step(s) marked", len(steps))
	}
	// The legend goes in a row under the data: beside it, its long lines
	// left the commits a strip at the left; inside, it covered the first
	// commits' points.
	return &Plot{Name: records.FileStem(stem), Caption: caption, plot: p, legendUnder: true}, nil
}

// addCommitMedians draws each commit's median with its bar: the 95%
// interval of its median where its rounds are enough for one (six or
// more), else the range of its rounds. It returns the highest bar's top.
func addCommitMedians(p *plot.Plot, s *history.Series, medians []float64, factor float64) (float64, error) {
	pts := make(plotter.XYs, len(s.Points))
	bars := historyBars{XYs: pts, YErrors: make(plotter.YErrors, len(s.Points))}
	top := math.Inf(-1)
	for i, pt := range s.Points {
		lo, hi := records.Interval(pt.Values)
		pts[i] = plotter.XY{X: float64(i), Y: medians[i] / factor}
		bars.YErrors[i] = struct{ Low, High float64 }{(medians[i] - lo) / factor, (hi - medians[i]) / factor}
		top = math.Max(top, hi/factor)
	}
	scatter, err := plotter.NewScatter(pts)
	if err != nil {
		return 0, err
	}
	scatter.GlyphStyle = draw.GlyphStyle{Color: historyPointColor, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return 0, err
	}
	eb.LineStyle.Color = historyPointColor
	eb.LineStyle.Width = vg.Points(0.7)
	eb.CapWidth = vg.Points(3)
	p.Add(eb, scatter)
	p.Legend.Add("each commit's median; bar: 95% interval (range under six rounds)", scatter)
	return top, nil
}

// addLevels draws the level of each segment between steps.
func addLevels(p *plot.Plot, steps []history.Step, medians []float64, factor float64) error {
	bounds := []int{0}
	for _, st := range steps {
		bounds = append(bounds, st.Index)
	}
	bounds = append(bounds, len(medians))
	for k := 0; k+1 < len(bounds); k++ {
		lo, hi := bounds[k], bounds[k+1]
		level := records.Median(medians[lo:hi]) / factor
		line, err := plotter.NewLine(plotter.XYs{{X: float64(lo) - 0.4, Y: level}, {X: float64(hi-1) + 0.4, Y: level}})
		if err != nil {
			return err
		}
		line.Color, line.Width = historyLevelColor, vg.Points(1.5)
		p.Add(line)
		if k == 0 {
			p.Legend.Add("level between steps (median)", line)
		}
	}
	return nil
}

// addStepMarks marks each step between its commits, coloured by what it
// is, each kind once in the legend.
func addStepMarks(p *plot.Plot, steps []history.Step) {
	drawn := make(map[string]bool)
	for _, st := range steps {
		c, what := historyImprovedColor, "improvement"
		switch {
		case st.Machine != "":
			c, what = historyLevelColor, "the machine's (a control or floor cell moved too)"
		case st.Regression:
			c, what = historyRegressionColor, "regression"
		}
		m := &stepMark{x: float64(st.Index) - 0.5, color: c}
		p.Add(m)
		if !drawn[what] {
			drawn[what] = true
			p.Legend.Add("step: "+what, m)
		}
	}
}

// unitLabel writes a scaled unit as people write it — ns/op, not
// nsec/op — beside the unit the tables name (sec/op).
func unitLabel(prefix, unit string) string {
	if rest, ok := strings.CutPrefix(unit, "sec/"); ok {
		return unit + ", in " + prefix + "s/" + rest
	}
	if prefix == "" {
		return unit
	}
	return prefix + " " + unit
}

type historyBars struct {
	plotter.XYs
	plotter.YErrors
}

// stepMark is a dashed vertical line between the commits a step lies
// between.
type stepMark struct {
	x     float64
	color color.Color
}

func (m *stepMark) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(m.x)
	c.StrokeLine2(m.style(), x, c.Min.Y, x, c.Max.Y)
}

func (m *stepMark) style() draw.LineStyle {
	return draw.LineStyle{Color: m.color, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
}

// Thumbnail draws the mark in the legend.
func (m *stepMark) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(m.style(), c.Min.X, y, c.Max.X, y)
}

// commitTicks labels about ten commits along the axis with their short
// names.
type commitTicks []history.Point

func (t commitTicks) Ticks(_, _ float64) []plot.Tick {
	n := len(t)
	step := max(1, (n+9)/10)
	// The last commit is labelled too, unless the label before it is so
	// close that the two would print over each other.
	lastLabelled := (n - 1) / step * step
	var ticks []plot.Tick
	for i := 0; i < n; i++ {
		label := ""
		if i%step == 0 || i == n-1 && n-1-lastLabelled >= max(1, step/2) {
			label = history.ShortCommit(t[i].Commit)
			if len(label) > 7 && !strings.Contains(label, "-") {
				label = label[:7]
			}
		}
		// An unlabelled tick a commit reads as a ruler up to a few dozen
		// commits; past that the ticks merge into a bar under the axis.
		if label != "" || n <= 60 {
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
		}
	}
	return ticks
}
