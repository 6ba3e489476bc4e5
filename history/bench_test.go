package history

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/perfrun/perfrun/history/changepoint"
)

// LargeResults is a results file of n result lines as perfrun writes them
// (ten units each), over 100 cells, from commits commits.
func LargeResults(n, commits int) []byte {
	var b bytes.Buffer
	rng := rand.New(rand.NewPCG(1, 1))
	per := n / commits
	for c := 0; c < commits; c++ {
		fmt.Fprintf(&b, "cpu: Test CPU\ncores: 2\ngo: go1.26\nperfrun: %040x\ndate: 2026-01-%02dT00:00:00Z\nmachine: bench\n\n", c+1, 1+c%28)
		for i := 0; i < per; i++ {
			ns := 100 * (1 + 0.03*rng.Float64())
			fmt.Fprintf(&b, "BenchmarkIssuer/impl=rcu/certs=%d/hit=1/threads=1 1 %g ns/op %g ns/call %g ops/s 0 B/op 0 allocs/op 0 lock-wait-sec/op 0 gc-cycles %g cpu-ns/op 0.0001 runq-frac 0 steal-frac\n",
				i%100, ns, ns, 1e9/ns, ns)
		}
	}
	return b.Bytes()
}

// BenchmarkAdd100k is the ingest target: 10^5 results (10^6
// values) into a new history, ≤ 10 s.
func BenchmarkAdd100k(b *testing.B) {
	data := LargeResults(100000, 10)
	for i := 0; b.Loop(); i++ {
		h, err := Open(ctx, filepath.Join(b.TempDir(), fmt.Sprint(i), "h.db"))
		if err != nil {
			b.Fatal(err)
		}
		a, err := h.Add(ctx, "large.txt", data, AddOptions{})
		if err != nil || a.Samples != 1000000 {
			b.Fatal(a.Samples, err)
		}
		h.Close()
	}
}

// BenchmarkSteps100x500 is the search target: steps in 100 series
// of 500 commits, each with two steps, ≤ 10 s.
func BenchmarkSteps100x500(b *testing.B) {
	series := make([]*Series, 100)
	for i := range series {
		x := syntheticSeries(uint64(i), 500)
		s := &Series{ID: int64(i), Cell: fmt.Sprint("cell", i), Unit: "sec/op", Machine: "bench", Better: -1}
		for j, v := range x {
			s.Points = append(s.Points, Point{Commit: fmt.Sprint(j), Values: []float64{v}})
		}
		series[i] = s
	}
	for b.Loop() {
		steps, err := FindSteps(ctx, series, changepoint.Options{})
		if err != nil || len(steps) < 150 {
			b.Fatal(len(steps), err)
		}
	}
}

func syntheticSeries(seed uint64, n int) []float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	x := make([]float64, n)
	for i := range x {
		level := 100.0
		if i >= n/3 {
			level = 106
		}
		if i >= 2*n/3 {
			level = 97
		}
		x[i] = level * (1 + 0.03*(2*rng.Float64()-1))
	}
	return x
}
