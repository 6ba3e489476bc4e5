package harness_test

import (
	"context"
	"fmt"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// Plan expands designs, workloads, parameters and thread counts into
// cells; Run measures each in every round, beside a control cell per
// thread count, and its Set is the results file run writes. The windows
// here are short: an example shows the shape, not a measurement.
func ExampleRun() {
	rcu, err := impls.Lookup("rcu")
	if err != nil {
		panic(err)
	}
	sweep, err := harness.ParseSweep([]string{"certs=64"})
	if err != nil {
		panic(err)
	}
	cells, err := harness.Plan([]store.Impl{rcu}, []workloads.Workload{workloads.Issuer}, sweep, []int{1})
	if err != nil {
		panic(err)
	}
	opts := harness.DefaultOptions
	opts.Rounds, opts.Window, opts.Warmup = 2, 10*time.Millisecond, 2*time.Millisecond
	opts.Quarantine = harness.Quarantine{} // an example keeps every sample
	opts.Corpus = func(cas int) (*corpus.Corpus, error) {
		return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: 16})
	}
	out, err := harness.Run(context.Background(), cells, opts)
	if err != nil {
		panic(err)
	}
	for _, c := range out.Set().Cells() {
		fmt.Printf("%s: %d rounds of ns/call\n", c.Name, len(c.Values["sec/call"]))
	}
	// Output:
	// Issuer/impl=rcu/certs=64/hit=1/threads=1: 2 rounds of ns/call
	// Control/threads=1: 2 rounds of ns/call
}
