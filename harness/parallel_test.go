package harness_test

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// runParallelScaling is what go test -bench -cpu 1,2 says of a lookup
// cell written the plain way, independent of the workload's code: a store
// of the cell's corpus, and per goroutine an index on its own stack
// rotating over the leaves (the hits, or the misses for hit=0). It returns
// ns/op at GOMAXPROCS 1 over ns/op at GOMAXPROCS 2.
func runParallelScaling(t *testing.T, c harness.Cell, opts harness.Options) float64 {
	co, err := opts.Corpus(c.Params.Int("certs"))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Impl.New()
	if _, err := s.Add(co.Objects()...); err != nil {
		t.Fatal(err)
	}
	leaves := co.Hits
	if c.Params.Float("hit") == 0 {
		leaves = co.Misses
	}
	nsOp := func(procs int) float64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var wrong atomic.Bool
		r := testing.Benchmark(func(b *testing.B) {
			var next atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				i := int(next.Add(389)) % len(leaves)
				for pb.Next() {
					l := leaves[i]
					if got, _ := s.Issuer(l.Cert, co.At); got != l.Issuer {
						wrong.Store(true)
					}
					if i++; i == len(leaves) {
						i = 0
					}
				}
			})
		})
		if wrong.Load() {
			t.Fatal("a wrong answer under RunParallel")
		}
		return float64(r.T.Nanoseconds()) / float64(r.N)
	}
	return nsOp(1) / nsOp(2)
}

// TestHarnessScalesLikeRunParallel guards the harness against measuring
// itself: each lookup workload's 2-thread scaling through the harness must
// be within 15% of the scaling of the same lookups on the same store
// written as a plain testing.B.RunParallel benchmark.
// The machine's own speed drifts by ±20% within seconds here, so the two
// are measured back to back, seven times over (a one-round harness run,
// then RunParallel at 1 and 2 procs for 100 ms each), and the median of
// the paired ratios is what is checked, over the pairs in which the
// control says the machine delivered 2 cores; a set that misses gets one
// more. A shared counter written by every lookup (one cache line bounced
// between the workers) fails it. The false-sharing bug this guard was
// asked for comes and goes with the allocator's placement (1 pair in 28
// showed it when put back); TestNoWorkerStateOnSharedHeap catches that
// one every time. Skipped under the race detector, which serializes what
// it watches.
func TestHarnessScalesLikeRunParallel(t *testing.T) {
	if harness.Cores() < 2 {
		t.Skip("needs 2 CPUs")
	}
	if raceEnabled {
		t.Skip("timing under the race detector means nothing")
	}
	bt := flag.Lookup("test.benchtime")
	defer bt.Value.Set(bt.Value.String())
	bt.Value.Set("100ms")
	for _, hit := range []string{"1", "0"} {
		cs := cells(t, workloads.Issuer, map[string]string{"certs": "256", "hit": hit}, 1, 2)
		cs = ofImpl(cs, "rcu") // the design that scales
		t.Run("hit="+hit, func(t *testing.T) {
			opts := options(1)
			opts.Window, opts.Warmup = 100*time.Millisecond, 20*time.Millisecond
			// One more set of pairs when the first is off: a noisy minute
			// passes the second, a harness that costs scaling fails both.
			var last string
			for set := range 2 {
				var ratios []float64
				for pair := range 7 {
					res, err := harness.Run(context.Background(), cs, opts)
					if err != nil {
						t.Fatal(err)
					}
					p := res.Set().Parallelism()[2]
					ours := res.Values(cs[1], records.OpsPerSec)[0] / res.Values(cs[0], records.OpsPerSec)[0]
					theirs := runParallelScaling(t, cs[1], opts)
					t.Logf("set %d, pair %d: harness %.2f×, RunParallel %.2f×, control p(2) = %.2f", set+1, pair+1, ours, theirs, p)
					if p >= 1.7 {
						ratios = append(ratios, ours/theirs)
					}
				}
				if len(ratios) < 3 {
					t.Skipf("the machine delivered 2 cores in only %d of 7 pairs", len(ratios))
				}
				m := records.Summarize(ratios).Median
				if m >= 0.85 && m <= 1.15 {
					return
				}
				last = fmt.Sprintf("median %.2f of %.2f", m, ratios)
			}
			t.Fatalf("harness over RunParallel 2-thread scaling, twice off by more than 15%%: %s", last)
		})
	}
}
