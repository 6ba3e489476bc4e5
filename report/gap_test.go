package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestSetAsideCellIsAGap: a thread count whose every sample was set aside
// keeps its place on the axis, so no line bridges it (1 → 3 was drawn as
// if 2 had been skipped), and the axis names each line's empty cells and
// no other (it said "a gap at 1, 2 threads" above a line's point at 1).
func TestSetAsideCellIsAGap(t *testing.T) {
	text := "cores: 2\n"
	for _, n := range []string{"1", "3"} {
		for _, v := range []string{"500", "510", "505"} {
			text += "BenchmarkIssuer/impl=rcu/threads=" + n + " 1 " + v + " ns/call\n"
		}
	}
	for _, n := range []string{"2", "3"} {
		text += "BenchmarkIssuer/impl=hashmap/threads=" + n + " 1 700 ns/call\n"
	}
	text += "\nquarantined: a worker waited for a CPU more than 25% of the window\nBenchmarkIssuer/impl=rcu/threads=2 1 900 ns/call\n"
	text += "BenchmarkIssuer/impl=hashmap/threads=1 1 900 ns/call\n"
	s, err := records.Read(strings.NewReader(text), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	fs := figures([]*records.Set{s}, records.Tidy(records.NsPerCall), "threads", false, nil)
	want := []gap{{series{"rcu", ""}, 2}, {series{"hashmap", ""}, 1}}
	if len(fs) != 1 || !slices.Equal(fs[0].xs, []float64{1, 2, 3}) || !slices.Equal(fs[0].aside, want) {
		t.Fatalf("figures: %+v, want xs 1, 2, 3 with rcu's 2 and hashmap's 1 set aside", fs)
	}
	plots, err := Plots([]*records.Set{s}, PlotOptions{})
	if err != nil || len(plots) == 0 {
		t.Fatalf("plots: %v", err)
	}
	if label := plots[0].plot.X.Label.Text; !strings.Contains(label, "no point, every sample set aside: rcu at 2 threads, hashmap at 1 thread") {
		t.Errorf("x label %q does not name each line's empty cells", label)
	}
	if got := gapsText([]gap{{series{"sorted", ""}, 2}, {series{"sorted", ""}, 1}, {series{"rcu", ""}, 16}}); got != "sorted at 1 and 2 threads, rcu at 16 threads" {
		t.Errorf("gapsText: %q", got)
	}
}

// TestZoomSaysOnlyWhatItDid: two revisions side by side start their axis
// near their lowest point and say so; where the points spread from near
// zero to far above it the axis starts at zero, and says nothing (it said
// "not from zero" over an axis from zero).
func TestZoomSaysOnlyWhatItDid(t *testing.T) {
	label := func(lo, hi string) string {
		var sets []*records.Set
		for _, rev := range []string{"base", "head"} {
			text := "cores: 2\n"
			for _, v := range []string{"0", "1", "2"} {
				for _, n := range []string{"1", "2"} {
					text += "BenchmarkIssuer/impl=rcu/threads=" + n + " 1 " + lo + v + " ns/call\nBenchmarkIssuer/impl=sorted/threads=" + n + " 1 " + hi + v + " ns/call\n"
				}
			}
			s, err := records.Read(strings.NewReader(text), rev+".txt", rev)
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, s)
		}
		plots, err := Plots(sets, PlotOptions{ByLabel: true})
		if err != nil || len(plots) == 0 {
			t.Fatalf("plots: %v", err)
		}
		return plots[0].plot.Y.Label.Text
	}
	if l := label("40", "90"); !strings.Contains(l, "axis not from zero") {
		t.Errorf("400 and 900 ns: label %q, want the axis zoomed and said", l)
	}
	if l := label("4", "90"); strings.Contains(l, "axis not from zero") {
		t.Errorf("40 and 900 ns: label %q says not from zero over an axis from zero", l)
	}
}
