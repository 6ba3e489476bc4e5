package report

import (
	"bytes"
	"testing"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/history/changepoint"
	"github.com/perfrun/perfrun/internal/browser"
)

// TestHistoryPageInBrowser renders a history page in headless Chromium, offline,
// and looks at it: the regression's row is shaded, and the plot shows the
// commits' points and the red line of the step.
func TestHistoryPageInBrowser(t *testing.T) {
	browser.Chromium(t)
	s := historySeries("Issuer/impl=rcu/threads=1")
	st := history.Step{Series: s, Index: 10, Lo: 0, Hi: 20, Before: s.Points[9].Commit, After: s.Points[10].Commit, P: 0.005,
		From: 100e-9, To: 120e-9, Shift: changepoint.Step{Shift: 20e-9, Low: 19e-9, High: 21e-9}, Regression: true, New: true}
	p, err := HistoryPlot(s, []history.Step{st})
	if err != nil {
		t.Fatal(err)
	}
	doc := &HistoryPage{Title: "history browser test", Steps: []history.Step{st}, Plots: []*Plot{p}}
	var page bytes.Buffer
	if err := doc.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	img := browser.Screenshot(t, page.Bytes(), 1200, 1200)
	near := func(r, g, b, R, G, B uint32) bool {
		d := func(x, y uint32) bool { return x+12 >= y && y+12 >= x }
		return d(r, R) && d(g, G) && d(b, B)
	}
	row := browser.Count(img, func(r, g, b uint32) bool { return near(r, g, b, 0xff, 0xd9, 0xd6) })
	red := browser.Count(img, func(r, g, b uint32) bool { return near(r, g, b, 0xd6, 0x27, 0x28) })
	blue := browser.Count(img, func(r, g, b uint32) bool { return near(r, g, b, 0x1f, 0x77, 0xb4) })
	t.Logf("screenshot: %d pixels of the regression row, %d of the step's red, %d of the points' blue", row, red, blue)
	if row < 5000 {
		t.Errorf("%d pixels of the regression row's shade: the steps table is not on screen", row)
	}
	if red < 100 {
		t.Errorf("%d pixels of the step's red: the step is not marked", red)
	}
	if blue < 100 {
		t.Errorf("%d pixels of the points' blue: the commits are not drawn", blue)
	}
}
