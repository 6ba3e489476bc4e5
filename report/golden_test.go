package report_test

import (
	"bytes"
	"compress/bzip2"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/history/changepoint"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

var update = flag.Bool("update", false, "rewrite the golden plots in testdata/golden")

// goldenSets are two machines' results, fixed numbers: four designs at
// one to three threads on two cores (the third oversubscribed), and a load
// sweep with a spread that reaches below zero on a linear scale; the
// control cells say the first machine delivered p(2) = 1.9, the second 1.6.
func goldenSets(t *testing.T) []*records.Set {
	t.Helper()
	var sets []*records.Set
	for m, machine := range []string{"amd64-ci", "arm64-ci"} {
		var b strings.Builder
		fmt.Fprintf(&b, "cores: 2\nmachine: %s\n", machine)
		for round := range 8 { // enough rounds for a median's 95% interval
			jitter := 1 + 0.03*float64(round-3)
			for i, im := range []string{"sorted", "sortoninsert", "hashmap", "rcu"} {
				base := []float64{390, 330, 150, 120}[i] * (1 + 0.3*float64(m))
				scale := []float64{0.7, 1.4, 1.3, 1.95}[i]
				for th := 1; th <= 3; th++ {
					speed := 1 + (scale-1)*float64(min(th, 2)-1)
					wall := base / speed * jitter
					fmt.Fprintf(&b, "BenchmarkIssuer/impl=%s/certs=1024/hit=1/threads=%d 1 %g ns/op %g ops/s\n", im, th, wall, 1e9/wall)
				}
				if i == 0 {
					for th := 1; th <= 3; th++ {
						p := []float64{1, []float64{1.9, 1.6}[m], []float64{1.95, 1.7}[m]}[th-1]
						fmt.Fprintf(&b, "BenchmarkControl/threads=%d 1 %g ns/op %g ops/s\n", th, 40/p, 2.5e7*p)
					}
				}
				for _, n := range []int{128, 1024, 16384} {
					add := []float64{10, 0.3, 0.35, 1.4}[i] * float64(n) / 128 * (1 + 0.9*float64(round%2)) * (1 + 0.5*float64(m))
					fmt.Fprintf(&b, "BenchmarkLoad/impl=%s/n=%d/mode=spread/dup=0/threads=1 1 %g ns/op %g ns/add\n", im, n, add*float64(n), add)
				}
			}
		}
		s, err := records.Read(strings.NewReader(b.String()), machine+".txt", machine)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, s)
	}
	return sets
}

// TestGoldenPlots draws the plots of fixed results and compares each with
// its golden picture (golden), so a change to what a person sees is a
// change someone looked at: go test -run Golden -update rewrites them.
func TestGoldenPlots(t *testing.T) {
	plots, err := report.Plots(goldenSets(t), report.PlotOptions{Cores: 2, Impls: []string{"sorted", "sortoninsert", "hashmap", "rcu"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plots) != 4 {
		t.Fatalf("%d plots, want latency, throughput, speedup and ns/add", len(plots))
	}
	for _, p := range plots {
		golden(t, p.Name, p)
		if !bytes.Contains(mustSVG(t, p), []byte("rcu @ arm64-ci")) {
			t.Errorf("%s: no legend entry per implementation and machine", p.Name)
		}
	}
}

// golden draws p and compares each format (SVG where none is named) with
// testdata/golden/NAME.FORMAT, by gonum's cmpimg: an SVG byte for byte, a
// PNG pixel by pixel within 1%, which holds the rasterizing. An SVG is
// kept compressed (NAME.svg.bz2: a sixth of its weight in the module
// download); bzcat shows it as text. -update rewrites them; one that
// differs is kept beside it as NAME.failed.FORMAT (git ignores it): look
// at both.
func golden(t *testing.T, name string, p *report.Plot, formats ...string) {
	t.Helper()
	if len(formats) == 0 {
		formats = []string{"svg"}
	}
	for _, format := range formats {
		got, err := p.Encode(format)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", name+"."+format)
		if format == "svg" {
			path += ".bz2"
		}
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := writeGolden(path, got); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := readGolden(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		bad := filepath.Join("testdata", "golden", name+".failed."+format)
		if ok, err := cmpimg.EqualApprox(format, got, want, 0.01); err != nil || !ok {
			os.WriteFile(bad, got, 0o644)
			t.Errorf("%s differs from %s (%v); the new picture is kept in %s", name, path, err, bad)
		} else {
			os.Remove(bad)
		}
	}
}

// readGolden reads a golden file, decompressing one whose name ends in
// .bz2.
func readGolden(path string) ([]byte, error) {
	if !strings.HasSuffix(path, ".bz2") {
		return os.ReadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(bzip2.NewReader(f))
}

// writeGolden writes a golden file, compressed by the bzip2 command where
// its name ends in .bz2 (Go's library only reads bzip2).
func writeGolden(path string, data []byte) error {
	if !strings.HasSuffix(path, ".bz2") {
		return os.WriteFile(path, data, 0o644)
	}
	cmd := exec.Command("bzip2", "-9", "-c")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("bzip2 (the command) compresses %s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

func mustSVG(t *testing.T, p *report.Plot) []byte {
	svg, err := p.Encode("svg")
	if err != nil {
		t.Fatal(err)
	}
	return svg
}

// goldenHistory is a series of n commits on one machine with a step of
// +20% two thirds of the way along.
func goldenHistory(n int) (*history.Series, []history.Step) {
	s := &history.Series{ID: 1, Machine: "amd64-ci", Cell: "Issuer/impl=hashmap/certs=1024/hit=1/threads=1", Unit: "sec/op", Better: -1}
	at := 2 * n / 3
	for i := 0; i < n; i++ {
		level := 400e-9
		if i >= at {
			level = 480e-9
		}
		wobble := 1 + 0.02*float64((i*7)%5-2)/2
		s.Points = append(s.Points, history.Point{Commit: fmt.Sprintf("%07x%s", i*2654435761%0xfffffff, strings.Repeat("0", 33)),
			Values: []float64{level * wobble, level * wobble * 1.01, level * wobble * 0.99}})
	}
	st := history.Step{Series: s, Index: at, Lo: 0, Hi: n, Before: s.Points[at-1].Commit, After: s.Points[at].Commit, P: 0.001,
		From: 400e-9, To: 480e-9, Shift: changepoint.Step{Shift: 80e-9, Low: 76e-9, High: 84e-9}, Regression: true}
	return s, []history.Step{st}
}

// TestGoldenHistoryPlots: a history of 7 commits and one of 1 000 draw
// their commits across the whole frame, labels thinned, the title and the
// legend inside it (7 commits were squeezed into a strip at the left by a
// legend beside them).
func TestGoldenHistoryPlots(t *testing.T) {
	for _, n := range []int{7, 1000} {
		s, steps := goldenHistory(n)
		p, err := report.HistoryPlot(s, steps)
		if err != nil {
			t.Fatal(err)
		}
		format := "svg"
		if n == 1000 {
			format = "png" // 3 000 points: a PNG is a fifth of their SVG
		}
		golden(t, fmt.Sprintf("history-%d", n), p, format)
	}
}

// TestGoldenHeldPlot: a prediction held against published tables, two
// stand-ins of one table in its colour, told apart by dashes, their bands
// cut at the top.
func TestGoldenHeldPlot(t *testing.T) {
	var held []predict.Held
	for _, n := range []int{2, 4, 6, 8, 10, 12, 14, 16, 18} {
		x := float64(n)
		held = append(held,
			predict.Held{Cell: "Issuer/impl=sorted/cost=real", Published: "Issuer/impl=pr28599-before", Threads: n,
				Predicted: 0.9 * x, Low: 0.85 * x, High: 60 * x, Table: 0.97 * x},
			predict.Held{Cell: "Issuer/impl=openssl-paths", Published: "Issuer/impl=pr28599-before", Threads: n,
				Predicted: 0.55 * x, Low: 0.5 * x, High: 40 * x, Table: 0.97 * x},
			predict.Held{Cell: "Issuer/impl=hashmap/cost=real", Published: "Issuer/impl=pr28599-after", Threads: n,
				Predicted: 1 + 0.02*x, Low: 1 + 0.01*x, High: 1 + 0.3*x, Table: 1 + 0.12*x})
	}
	p, err := report.HeldPlot(held, "held-against")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "held-against", p)
}

// abReport is an ab comparison of fixed numbers: one cell of each verdict,
// an interval past the axis on either side, and a shaded ±5% band.
func abReport() *compare.Report {
	rep := &compare.Report{Old: "main (1a2b3c4 the base's subject)", New: "HEAD (5d6e7f8 the head's subject)",
		Threshold: 0.05, Verdict: compare.Regression}
	for _, c := range []struct {
		name          string
		v             compare.Verdict
		ratio, lo, hi float64
	}{
		{"Issuer/impl=sorted/certs=1024/hit=1/threads=1", compare.Pass, 0.99, 0.97, 1.02},
		{"Issuer/impl=sorted/certs=1024/hit=1/threads=2", compare.Inconclusive, 1.02, 0.70, 1.09},
		{"Issuer/impl=hashmap/certs=1024/hit=1/threads=1", compare.Regression, 1.12, 1.08, 1.16},
		{"Issuer/impl=hashmap/certs=1024/hit=1/threads=2", compare.Regression, 1.40, 1.20, 2.30},
		{"Issuer/impl=rcu/certs=1024/hit=1/threads=1", compare.Improved, 0.90, 0.86, 0.93},
	} {
		rep.Cells = append(rep.Cells, compare.CellVerdict{Name: c.name, Unit: compare.DefaultThresholds.Metric, Verdict: c.v,
			Ratio: c.ratio, Lo: c.lo, Hi: c.hi})
	}
	return rep
}

// TestGoldenForestPlot: ab's verdicts as a forest, short row labels, the
// intervals past the axis cut at its edge with an arrow.
func TestGoldenForestPlot(t *testing.T) {
	p, err := report.ForestPlot(abReport())
	if err != nil || p == nil {
		t.Fatalf("%v, %v", p, err)
	}
	golden(t, "verdict-forest", p)
}

// TestGoldenWindowStrips: every window of two cells, arm by arm, a slow
// window of the head's set aside.
func TestGoldenWindowStrips(t *testing.T) {
	cells := []string{"Issuer/impl=sorted/certs=1024/hit=1/threads=1", "Issuer/impl=hashmap/certs=1024/hit=1/threads=2"}
	windows := make(map[string][]compare.Window)
	for ci, c := range cells {
		base := []float64{180e-9, 40e-9}[ci]
		for round := range 6 {
			j := 1 + 0.01*float64(round%3-1)
			windows[c] = append(windows[c],
				compare.Window{Round: round, Arm: compare.ArmBase, Value: base * j, Probe: 30e-9},
				compare.Window{Round: round, Arm: compare.ArmBase2, Value: base * j * 1.005, Probe: 30e-9},
				compare.Window{Round: round, Arm: compare.ArmHead, Value: base * j * 1.09, Probe: 30e-9})
		}
		windows[c] = append(windows[c], compare.Window{Round: 2, Arm: compare.ArmHead, Value: base * 1.6, Probe: 45e-9,
			Aside: "the machine's speed moved 50% between the arms' windows"})
	}
	p, err := report.WindowStrips(cells, windows)
	if err != nil || p == nil {
		t.Fatalf("%v, %v", p, err)
	}
	golden(t, "windows", p, "svg", "png")
}
