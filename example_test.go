package perfrun_test

import (
	"github.com/perfrun/perfrun"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/storetest"
)

// A store kept in another module gets perfrun's whole command line from a
// main of one line; `go run . run -impl reference,rcu` then measures it
// beside perfrun's rcu (docs/own-store.md).
func ExampleMain() {
	perfrun.Main(perfrun.Impl{Name: "reference", Description: "the conformance suite's reference store",
		New: func() store.Store { return storetest.NewReference() }})
}
