package report_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"

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

// TestGoldenPlots draws the plots of fixed results and compares each PNG
// with its golden image (gonum's cmpimg), so a change to what a person
// sees is a change someone looked at: go test -run GoldenPlots -update
// rewrites them.
func TestGoldenPlots(t *testing.T) {
	plots, err := report.Plots(goldenSets(t), report.PlotOptions{Cores: 2, Impls: []string{"sorted", "sortoninsert", "hashmap", "rcu"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plots) != 4 {
		t.Fatalf("%d plots, want latency, throughput, speedup and ns/add", len(plots))
	}
	for _, p := range plots {
		got, err := p.Encode("png")
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", p.Name+".png")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		bad := filepath.Join("testdata", "golden", p.Name+".failed.png")
		if ok, err := cmpimg.EqualApprox("png", got, want, 0.01); err != nil || !ok {
			// Kept beside the golden image (git ignores it), as gonum's
			// cmpimg keeps its failed pictures: look at both.
			os.WriteFile(bad, got, 0o644)
			t.Errorf("%s differs from %s (%v); the new picture is kept in %s", p.Name, golden, err, bad)
		} else {
			os.Remove(bad)
		}
		if !bytes.Contains(mustSVG(t, p), []byte("rcu @ arm64-ci")) {
			t.Errorf("%s: no legend entry per implementation and machine", p.Name)
		}
	}
}

func mustSVG(t *testing.T, p *report.Plot) []byte {
	svg, err := p.Encode("svg")
	if err != nil {
		t.Fatal(err)
	}
	return svg
}
