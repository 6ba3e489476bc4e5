package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestSetAsideCellIsAGap: a thread count whose every sample was set aside
// keeps its place on the axis, so no line bridges it (1 → 3 was drawn as
// if 2 had been skipped), and the axis says why it is empty.
func TestSetAsideCellIsAGap(t *testing.T) {
	text := "cores: 2\n"
	for _, n := range []string{"1", "3"} {
		for _, v := range []string{"500", "510", "505"} {
			text += "BenchmarkIssuer/impl=rcu/threads=" + n + " 1 " + v + " ns/call\n"
		}
	}
	text += "\nquarantined: a worker waited for a CPU more than 25% of the window\nBenchmarkIssuer/impl=rcu/threads=2 1 900 ns/call\n"
	s, err := records.Read(strings.NewReader(text), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	fs := figures([]*records.Set{s}, records.Tidy(records.NsPerCall), "threads", false, nil)
	if len(fs) != 1 || !slices.Equal(fs[0].xs, []float64{1, 2, 3}) || !slices.Equal(fs[0].aside, []float64{2}) {
		t.Fatalf("figures: %+v, want xs 1, 2, 3 with 2 set aside", fs)
	}
	plots, err := Plots([]*records.Set{s}, PlotOptions{})
	if err != nil || len(plots) == 0 {
		t.Fatalf("plots: %v", err)
	}
	if label := plots[0].plot.X.Label.Text; !strings.Contains(label, "a gap at 2 threads: every sample set aside") {
		t.Errorf("x label %q does not say why 2 threads has no point", label)
	}
}
