package locks

import (
	"testing"

	"github.com/perfrun/perfrun/predict"
)

// TestARecordedProfileReadsBackAsTheModelReadIt: a profile written as
// its units and read back (FromCell) gives the model the cell it gave
// before, the busiest lock's site aside (a file keeps no site).
func TestARecordedProfileReadsBackAsTheModelReadIt(t *testing.T) {
	p := Profile{ExclusiveLocks: 1.25, SharedLocks: 0.5, LockedInstructions: 1800, SharedLockedInstructions: 40, Atomics: 4.5, Kinds: true,
		Locks: []LockProfile{
			{Kind: "sync.Mutex", Site: "x.Store.Issuer", Exclusive: 1, HeldExclusive: 1500, Spin: true},
			{Kind: "sync.Mutex", Site: "x.stripe", Exclusive: 0.25, HeldExclusive: 300, Count: 16, Spin: true},
			{Kind: "sync.RWMutex", Site: "x.read", Shared: 0.5, HeldShared: 40},
		},
		Lines:  Lines{Hottest: 1.5, Others: 3, OtherTransfers: 0.5},
		Unseen: []Unseen{{What: "the runtime's", Atomics: 0.02}},
	}
	want := p.Cell("c", 100)
	values := predict.ProfileValues(want)
	given := make([]bool, len(values))
	for i := range given {
		given[i] = true
	}
	var read predict.Cell
	predict.SetProfile(&read, values, given)
	got := FromCell(read).Cell("c", 100)
	want.BusiestSite = ""
	if got != want {
		t.Errorf("read back %+v\nwant        %+v", got, want)
	}
}
