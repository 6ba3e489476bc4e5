package report

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
)

// TestWindowStripsHoldOnBadData: a cell whose every window was set aside
// is still drawn (its row was empty), and one set-aside window 800 times
// the median is drawn at the axis's edge, not stretched to (the axis ran to
// +80 000%); the caption says both.
func TestWindowStripsHoldOnBadData(t *testing.T) {
	cells := []string{"Issuer/impl=sorted/threads=2", "Issuer/impl=hashmap/threads=1"}
	windows := make(map[string][]compare.Window)
	why := "a worker waited for a CPU"
	for round := range 6 {
		j := 1 + 0.01*float64(round%3-1)
		windows[cells[0]] = append(windows[cells[0]],
			compare.Window{Round: round, Arm: compare.ArmBase, Value: 100e-9 * j, Aside: why},
			compare.Window{Round: round, Arm: compare.ArmHead, Value: 110e-9 * j, Aside: why})
		windows[cells[1]] = append(windows[cells[1]],
			compare.Window{Round: round, Arm: compare.ArmBase, Value: 50e-9 * j},
			compare.Window{Round: round, Arm: compare.ArmHead, Value: 52e-9 * j})
	}
	windows[cells[1]] = append(windows[cells[1]], compare.Window{Round: 6, Arm: compare.ArmHead, Value: 40e-6, Aside: why})
	p, err := WindowStrips(cells, windows)
	if err != nil || p == nil {
		t.Fatalf("%v, %v", p, err)
	}
	for _, want := range []string{"1 row whose base kept no window against the median of its set-aside windows",
		"1 set-aside window past the axis drawn at its edge as triangles (the farthest +79900%)"} {
		if !strings.Contains(p.Caption, want) {
			t.Errorf("caption %q does not say %q", p.Caption, want)
		}
	}
	if p.plot.X.Max > 100 || p.plot.X.Min < -100 {
		t.Errorf("x axis %.0f%% to %.0f%%: the outlier stretched it", p.plot.X.Min, p.plot.X.Max)
	}
	if n := len(p.plot.Y.Tick.Marker.Ticks(p.plot.Y.Min, p.plot.Y.Max)); n < 2 {
		t.Errorf("%d rows labelled, want both", n)
	}
}
