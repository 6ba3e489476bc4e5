package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/history/changepoint"
)

func historySeries(cell string) *history.Series {
	s := &history.Series{ID: 1, Machine: "box", Cell: cell, Unit: "sec/op", Better: -1}
	for i := 0; i < 20; i++ {
		level := 100e-9
		if i >= 10 {
			level = 120e-9
		}
		s.Points = append(s.Points, history.Point{Commit: fmt.Sprintf("%02d%s", i, strings.Repeat("c", 38)),
			Values: []float64{level, level * 1.01, level * 0.99}})
	}
	return s
}

// TestHistoryPages: the plot renders with its step; the Markdown escapes a name
// that would break its table or add a link; the HTML inlines every plot
// and says which step was the machine's.
func TestHistoryPages(t *testing.T) {
	s := historySeries("Issuer/impl=x|y*[z](http://evil)")
	st := history.Step{Series: s, Index: 10, Lo: 0, Hi: 20, Before: s.Points[9].Commit, After: s.Points[10].Commit, P: 0.005,
		From: 100e-9, To: 120e-9, Shift: changepoint.Step{Shift: 20e-9, Low: 19e-9, High: 21e-9}, Regression: true,
		Machine: "Floor/x moved +20% over the same commits"}
	p, err := HistoryPlot(s, []history.Step{st})
	if err != nil {
		t.Fatal(err)
	}
	png, err := p.Encode("png")
	if err != nil || len(png) < 1000 {
		t.Fatalf("png of %d bytes, %v", len(png), err)
	}
	doc := &HistoryPage{Title: "t", Steps: []history.Step{st}, Plots: []*Plot{p}, ImageDir: "images"}
	var md, html bytes.Buffer
	doc.WriteMarkdown(&md)
	if err := doc.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	row := `| regression | Issuer/impl=x\|y\*\[z\](http://evil) | sec/op | box | 09cccccccccc..10cccccccccc | +20.0% [+19.0%, +21.0%] | 100.0n → 120.0n | 0.005 | Floor/x moved +20% over the same commits |`
	if !strings.Contains(md.String(), row) {
		t.Errorf("Markdown row missing or unescaped; want\n%s\nin\n%s", row, md.String())
	}
	if n := strings.Count(html.String(), "<svg"); n != 1 || !strings.Contains(html.String(), "Floor/x moved") {
		t.Errorf("HTML: %d inline SVGs, want 1, with the machine note", n)
	}
}

// TestCommitTicksDoNotOverprint: the last commit's label stood beside the
// one before it and the two printed over each other; labels keep at least
// half a step apart, and a plot's unit names the tables' unit.
func TestCommitTicksDoNotOverprint(t *testing.T) {
	for _, n := range []int{1, 9, 10, 11, 21, 100, 101} {
		pts := make(commitTicks, n)
		for i := range pts {
			pts[i].Commit = fmt.Sprintf("%040x", i+1)
		}
		step := max(1, (n+9)/10)
		last := -step
		for _, tk := range pts.Ticks(0, 0) {
			if tk.Label == "" {
				continue
			}
			if gap := int(tk.Value) - last; gap < max(1, step/2) {
				t.Errorf("%d commits: labels at %d and %v, %d apart (step %d)", n, last, tk.Value, gap, step)
			}
			last = int(tk.Value)
		}
	}
	if got := unitLabel("n", "sec/op"); got != "sec/op, in ns/op" {
		t.Errorf("unitLabel = %q", got)
	}
}

// TestRatioStepRowAndPlot: a step found in a store's ratio to its
// reference is said to be one, in the ratio's levels and not in a time
// unit, and drawn in a picture of its own.
func TestRatioStepRowAndPlot(t *testing.T) {
	raw := historySeries("Issuer/impl=x/threads=1")
	over := &history.Series{ID: raw.ID, Machine: raw.Machine, Cell: raw.Cell, Unit: raw.Unit, Better: -1, Over: "Control/threads=1", Points: raw.Points}
	st := history.Step{Series: over, Index: 10, Lo: 0, Hi: 20, Before: raw.Points[9].Commit, After: raw.Points[10].Commit, P: 0.005,
		From: 1.5, To: 1.8, Shift: changepoint.Step{Shift: 0.3, Low: 0.2, High: 0.4}, Regression: true}
	r := NewStepRow(st)
	if r.Unit != "sec/op ÷ Control/threads=1" || r.Levels != "1.5 → 1.8" || !strings.Contains(r.Note, "the machine's speed hid it") || r.Size != "+20.0% [+13.3%, +26.7%]" {
		t.Errorf("row %+v", r)
	}
	p, err := HistoryPlot(over, []history.Step{st})
	if err != nil {
		t.Fatal(err)
	}
	q, err := HistoryPlot(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name == q.Name || !strings.Contains(p.plot.Title.Text, "÷ Control/threads=1") || strings.Contains(p.plot.Y.Label.Text, "ns/op") {
		t.Errorf("ratio plot %q titled %q, y %q; the series' own plot %q", p.Name, p.plot.Title.Text, p.plot.Y.Label.Text, q.Name)
	}
}

// TestReferenceStepIsTheMachines: a step of a control or floor cell says
// it is the machine's, so a list of them is not read as a store's.
func TestReferenceStepIsTheMachines(t *testing.T) {
	for cell, want := range map[string]bool{"Control/threads=1": true, "Floor/certs=1024/hit=1/threads=1": true, "Issuer/impl=rcu/threads=1": false} {
		r := NewStepRow(history.Step{Series: historySeries(cell), Index: 10, From: 100e-9, To: 120e-9})
		if got := strings.Contains(r.Note, "the machine's speed, no store's"); got != want {
			t.Errorf("%s: note %q, want the machine's: %v", cell, r.Note, want)
		}
	}
}
