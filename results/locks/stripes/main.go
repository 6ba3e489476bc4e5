// Command stripes is perfrun's command line with one store in five
// lockings: lookups under one read/write lock, and under one of 1, 4, 16
// or 64 Mutex stripes (package striped). bash run.sh OUT measures and
// predicts them (README.md).
package main

import (
	"fmt"

	"github.com/perfrun/perfrun"
	"github.com/perfrun/perfrun/results/locks/stripes/striped"
	"github.com/perfrun/perfrun/store"
)

func main() {
	impls := []perfrun.Impl{{Name: "rwlock", Description: "lookups under one read/write lock", New: striped.NewRW}}
	for _, k := range []int{1, 4, 16, 64} {
		impls = append(impls, perfrun.Impl{
			Name:        fmt.Sprintf("stripes%d", k),
			Description: fmt.Sprintf("lookups under one of %d Mutex stripes", k),
			New:         func() store.Store { return striped.New(k) },
		})
	}
	perfrun.Main(impls...)
}
