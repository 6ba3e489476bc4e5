package report_test

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness/report"
	"github.com/perfrun/perfrun/records"
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
		for _, p := range plots {
			p.Encode("svg")
		}
	})
}
