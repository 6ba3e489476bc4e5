package workloads_test

import (
	"fmt"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// A workload sets a filled store up for one cell (never timed) and says
// what each worker does; every answer is checked against the corpus's
// expected issuer. The harness does the timing; here one worker's
// operations run untimed.
func ExampleWorkload() {
	params, err := workloads.Issuer.Resolve(map[string]string{"certs": "64"})
	if err != nil {
		panic(err)
	}
	rcu, err := impls.Lookup("rcu")
	if err != nil {
		panic(err)
	}
	inst, err := workloads.Issuer.Setup(workloads.Env{Impl: rcu, Params: params, Seed: 1,
		Corpus: func(cas int) (*corpus.Corpus, error) {
			return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: 16})
		}})
	if err != nil {
		panic(err)
	}
	fmt.Println(workloads.Issuer.Title, params)
	fmt.Println("1000 lookups of worker 0, every answer right:", inst.Worker(0)(1000) == nil)
	// Output:
	// Issuer certs=64/hit=1
	// 1000 lookups of worker 0, every answer right: true
}
