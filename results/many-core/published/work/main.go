// Command work is perfrun's command line with the work of four published
// many-core benchmarks as stores, and of one kept apart
// (folly-rwspin-reads), so perfrun counts each at one thread as it
// counts a store: every lookup does the benchmark's one operation and
// then the lock-free rcu design's lookup, which answers it (rcu writes no
// shared line, so what the profile adds is the operation's alone).
// bash ../count.sh counts them (../README.md).
package main

import (
	"github.com/perfrun/perfrun"
)

func main() {
	impls := make([]perfrun.Impl, 0, len(works))
	for _, w := range works {
		impls = append(impls, perfrun.Impl{Name: w.name, Description: w.what, New: w.store})
	}
	perfrun.Main(impls...)
}
