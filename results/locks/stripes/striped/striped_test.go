package striped

import (
	"testing"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/storetest"
)

func TestConformance(t *testing.T) {
	for _, k := range []int{1, 4, 64} {
		storetest.Run(t, func() store.Store { return New(k) })
	}
	storetest.Run(t, NewRW)
}
