package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// TestPredictedBandDrawn: a predicted results file beside a measured one
// draws its band, labelled predicted, in the latency plot; a measured file
// alone draws none.
func TestPredictedBandDrawn(t *testing.T) {
	read := func(text, name string) *records.Set {
		s, err := records.Read(strings.NewReader(text), name, name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	measured := read("machine: this\ncores: 2\n"+
		"BenchmarkIssuer/impl=sorted/threads=1 1 100 ns/call\nBenchmarkIssuer/impl=sorted/threads=2 1 180 ns/call\n", "r.txt")
	var p strings.Builder
	p.WriteString("machine: predicted from r.txt\npredicted: yes\ncores: 2\n")
	for n, v := range []string{"100 ns/call 100 low-ns/call 100 high-ns/call", "170 ns/call 150 low-ns/call 200 high-ns/call",
		"300 ns/call 250 low-ns/call 380 high-ns/call", "420 ns/call 330 low-ns/call 560 high-ns/call"} {
		p.WriteString("BenchmarkIssuer/impl=sorted/threads=" + string(rune('1'+n)) + " 1 " + v + "\n")
	}
	predicted := read(p.String(), "p.txt")
	legendOf := func(sets ...*records.Set) string {
		plots, err := Plots(sets, PlotOptions{Cores: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, pl := range plots {
			if strings.HasSuffix(pl.Name, "-latency") {
				svg, err := pl.Encode("svg")
				if err != nil {
					t.Fatal(err)
				}
				return string(svg)
			}
		}
		t.Fatal("no latency plot")
		return ""
	}
	if svg := legendOf(measured, predicted); !strings.Contains(svg, "predicted band") {
		t.Error("the latency plot of a prediction shows no predicted band")
	}
	if svg := legendOf(measured); strings.Contains(svg, "predicted band") {
		t.Error("a measured file alone drew a predicted band")
	}
	if svg := legendOf(measured, predicted); strings.Contains(svg, "cut at the top") {
		t.Error("a band within the lines' range was said to be cut")
	}
	// A high edge of sleeping hand-offs, far above every line, is cut and
	// said to be: drawn whole, it would flatten the lines to the axis.
	wide := read(strings.Replace(p.String(), "560 high-ns/call", "90000 high-ns/call", 1), "p.txt")
	if svg := legendOf(measured, wide); !strings.Contains(svg, "predicted bands cut at the top") {
		t.Error("a band 150 times the lines was drawn whole, or cut without a word")
	}
}

// TestHeldPlotDrawsBoth: the picture of a prediction held against a
// published table has both curves of every pair in its legend.
func TestHeldPlotDrawsBoth(t *testing.T) {
	held := []predict.Held{
		{Cell: "Issuer/impl=sorted/cost=real", Published: "Issuer/impl=pr28599-before", Threads: 2, Predicted: 1.3, Low: 1.2, High: 9, Table: 1.25},
		{Cell: "Issuer/impl=sorted/cost=real", Published: "Issuer/impl=pr28599-before", Threads: 18, Predicted: 19, Low: 18, High: 900, Table: 17.5},
	}
	pl, err := HeldPlot(held, "held")
	if err != nil {
		t.Fatal(err)
	}
	svg, err := pl.Encode("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pr28599-before: published", "sorted cost=real: predicted, band shaded", "bands cut at the top"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the held-against picture lacks %q", want)
		}
	}
	if _, err := HeldPlot(nil, "held"); err == nil {
		t.Error("a picture of nothing held was drawn without an error")
	}
}

// TestSpeedupSaysWhatItLeftOut: a design whose 1-thread cell has no value
// is named in the speedup plot's legend as having no speedup; it vanished
// from the plot without a word.
func TestSpeedupSaysWhatItLeftOut(t *testing.T) {
	set, err := records.Read(strings.NewReader("cores: 2\n"+
		"BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/call 1e7 ops/s\nBenchmarkIssuer/impl=rcu/threads=2 1 100 ns/call 2e7 ops/s\n"+
		"quarantined: the hypervisor stole more than 5% of the CPU time\nBenchmarkIssuer/impl=sorted/threads=1 1 100 ns/call 1e7 ops/s\n"+
		"quarantined: no\nBenchmarkIssuer/impl=sorted/threads=2 1 300 ns/call 6e6 ops/s\n"), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	plots, err := Plots([]*records.Set{set}, PlotOptions{Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plots {
		if !strings.HasSuffix(p.Name, "-speedup") {
			continue
		}
		svg, err := p.Encode("svg")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(svg), "sorted: no speedup") {
			t.Error("the speedup plot does not say sorted has no speedup")
		}
		return
	}
	t.Fatal("no speedup plot")
}

// TestComparisonAxisZooms: two revisions' latency plot (ByLabel) starts
// its axis near their lowest point, saying so, so a 9% change shows; one
// run's plot keeps its axis from zero.
func TestComparisonAxisZooms(t *testing.T) {
	read := func(ns1, ns2, label string) *records.Set {
		s, err := records.Read(strings.NewReader("cores: 2\n"+
			"BenchmarkIssuer/impl=rcu/threads=1 1 "+ns1+" ns/call\nBenchmarkIssuer/impl=rcu/threads=2 1 "+ns2+" ns/call\n"), label+".txt", label)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	old, new := read("1000", "1010", "old"), read("1090", "1100", "new")
	for _, tc := range []struct {
		byLabel bool
		zoomed  bool
	}{{true, true}, {false, false}} {
		plots, err := Plots([]*records.Set{old, new}, PlotOptions{Cores: 2, ByLabel: tc.byLabel})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range plots {
			if strings.HasSuffix(p.Name, "-latency") {
				if got := p.plot.Y.Min > 500; got != tc.zoomed {
					t.Errorf("ByLabel %v: y from %g, zoomed %v, want %v", tc.byLabel, p.plot.Y.Min, got, tc.zoomed)
				}
			}
		}
	}
}

// TestOwnFaceNotGonumsDefault: every text of a plot is in the sans-serif
// face, and gonum's global default is left as a program embedding perfrun
// set it (report set it for everyone).
func TestOwnFaceNotGonumsDefault(t *testing.T) {
	before := plot.DefaultFont
	set, err := records.Read(strings.NewReader("cores: 2\nBenchmarkIssuer/impl=rcu/threads=1 1 100 ns/call 1e7 ops/s\nBenchmarkIssuer/impl=rcu/threads=2 1 100 ns/call 2e7 ops/s\n"), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	plots, err := Plots([]*records.Set{set}, PlotOptions{Cores: 2})
	if err != nil || len(plots) == 0 {
		t.Fatal(err)
	}
	svg, err := plots[0].Encode("svg")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(svg), "Serif") || !strings.Contains(string(svg), "Liberation Sans") {
		t.Error("a text of the plot is not in Liberation Sans")
	}
	if plot.DefaultFont != before || plot.DefaultFont.Variant == face.Variant {
		t.Errorf("gonum's default font is %v, set by report", plot.DefaultFont)
	}
}
