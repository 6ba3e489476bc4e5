package report_test

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// FuzzPlots: whatever a results file says — thread counts of 1e15, n of 0,
// huge or tiny values — drawing its plots neither panics nor runs away.
func FuzzPlots(f *testing.F) {
	f.Add("BenchmarkIssuer/impl=a/threads=1 1 100 ns/op 1e7 ops/s\nBenchmarkIssuer/impl=a/threads=2 1 60 ns/op 1.6e7 ops/s\n")
	f.Add("BenchmarkIssuer/impl=a/threads=1 1 100 ns/op\nBenchmarkIssuer/impl=a/threads=1e15 1 60 ns/op\n")
	f.Add("BenchmarkLoad/impl=a/n=0/threads=1 1 1 ns/op 5 ns/add\nBenchmarkLoad/impl=a/n=128/threads=1 1 1 ns/op 1e300 ns/add\n")
	f.Add("BenchmarkLoad/impl=a/n=-5/threads=1 1 1 ns/op 0 ns/add\nBenchmarkLoad/impl=a/n=9e18/threads=1 1 1 ns/op 1e-300 ns/add\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := records.Read(strings.NewReader(text), "f.txt", "f")
		if err != nil {
			return
		}
		plots, err := report.Plots([]*records.Set{s}, report.PlotOptions{Cores: 2})
		if err != nil {
			return
		}
		names := make(map[string]bool)
		for _, p := range plots {
			// Every plot has a name a file can carry, once, and encodes
			// to a real SVG document.
			if p.Name == "" || strings.ContainsAny(p.Name, "/\\\x00") || names[p.Name] {
				t.Errorf("plot name %q: empty, not a file name, or drawn twice", p.Name)
			}
			names[p.Name] = true
			svg, err := p.Encode("svg")
			if err != nil {
				t.Errorf("%s: %v", p.Name, err)
				continue
			}
			if !strings.Contains(string(svg), "<svg") || !strings.HasSuffix(strings.TrimSpace(string(svg)), "</svg>") {
				t.Errorf("%s: not an SVG document (%d bytes)", p.Name, len(svg))
			}
		}
	})
}
