package compare

import (
	"bytes"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// FuzzGate feeds two arbitrary results files to compare and gate: no
// panic, and any verdict is one of the four (or NOT-GATED per cell).
func FuzzGate(f *testing.F) {
	f.Add([]byte("cores: 2\nBenchmarkA/threads=1 1 100 ns/op\nBenchmarkA/threads=1 1 101 ns/op\n"),
		[]byte("cores: 2\nBenchmarkA/threads=1 1 130 ns/op\nBenchmarkA/threads=1 1 131 ns/op\n"))
	f.Add([]byte("BenchmarkA/impl=x/threads=3 1 1 ns/op 0 allocs/op\n"), []byte("BenchmarkA/impl=x/threads=3 1 NaN ns/op -1 allocs/op\n"))
	f.Add([]byte("BenchmarkA 1 0 ns/op 5 instructions/op\n"), []byte("BenchmarkA 1 0 ns/op 0 instructions/op\nBenchmarkA 1 1e308 ns/op\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		old, err1 := records.Read(bytes.NewReader(a), "old.txt", "old")
		new, err2 := records.Read(bytes.NewReader(b), "new.txt", "new")
		if err1 != nil || err2 != nil {
			return
		}
		Compare(old, new)
		Speedups(new, "sec/op")
		rep, err := Gate(old, new, DefaultThresholds)
		if err != nil {
			return
		}
		for _, c := range append(rep.Cells, CellVerdict{Verdict: rep.Verdict}) {
			switch c.Verdict {
			case Pass, Improved, Regression, Inconclusive, NotGated, Missing:
			default:
				t.Fatalf("verdict %q", c.Verdict)
			}
		}
	})
}
