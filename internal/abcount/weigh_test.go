package abcount

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// TestAReadLockGivenUpIsATrade: a lookup whose read lock (its reader
// count's two atomics on one line) is given up for one of 64 Mutex
// stripes takes an exclusive lock where it took none, but writes no line
// other threads write: a trade of one cause for another, which the
// prediction decides (IMPROVED at 16 threads), not the exclusive lock's
// count alone. The read lock given up for the write lock (its reader
// count still written) is no trade: the count gates, a REGRESSION.
func TestAReadLockGivenUpIsATrade(t *testing.T) {
	name := "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	read := locks.Profile{SharedLocks: 1, SharedLockedInstructions: 60, Atomics: 2, Lines: locks.Lines{Hottest: 2},
		Locks: []locks.LockProfile{{Kind: "sync.RWMutex", Shared: 1, HeldShared: 60}}}
	var stripes locks.Profile
	stripes.ExclusiveLocks, stripes.LockedInstructions, stripes.Atomics = 1, 60, 2
	for range 64 {
		stripes.Locks = append(stripes.Locks, locks.LockProfile{Kind: "sync.Mutex", Exclusive: 1.0 / 64, HeldExclusive: 60.0 / 64})
	}
	write := locks.Profile{ExclusiveLocks: 1, LockedInstructions: 60, Atomics: 4, Lines: locks.Lines{Hottest: 2},
		Locks: []locks.LockProfile{{Kind: "sync.RWMutex", Exclusive: 1, HeldExclusive: 60}}}
	counts := Counts{name: {{400, 400, 400}, {404, 404, 404}}}
	for _, c := range []struct {
		what      string
		head      locks.Profile
		exclusive compare.Verdict // the exclusive-locks/op unit's, after Decide
		predicted compare.Verdict
	}{
		{"64 stripes", stripes, compare.NotGated, compare.Improved},
		{"the write lock", write, compare.Regression, compare.Regression},
	} {
		profiles := Profiles{name: {read, c.head}}
		p := Predictions([]string{name}, counts, profiles, 16, 2, predict.RunnerFixed)
		var exclusive compare.Verdict
		for _, v := range p.WeighTrades(compare.DefaultThresholds, LockVerdicts(compare.DefaultThresholds, []string{name}, profiles), 16) {
			if v.Unit == records.ExclusiveLocks {
				exclusive = v.Verdict
			}
		}
		predicted := p.Verdicts(compare.DefaultThresholds, []string{name}, 16)
		if exclusive != c.exclusive || len(predicted) != 1 || predicted[0].Verdict != c.predicted {
			t.Errorf("%s: exclusive locks %s, predicted %+v; want %s and %s", c.what, exclusive, predicted, c.exclusive, c.predicted)
		}
	}
}

// TestLockReasonsSpeakOfTheGatedCount: with -at 3 the lock units'
// reasons give the prediction at 3 threads, the count it gates, not at
// 16, the farthest it reaches.
func TestLockReasonsSpeakOfTheGatedCount(t *testing.T) {
	name := "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	read := locks.Profile{SharedLocks: 1, SharedLockedInstructions: 60, Atomics: 2, Lines: locks.Lines{Hottest: 2}, Kinds: true}
	write := locks.Profile{ExclusiveLocks: 1, LockedInstructions: 60, Atomics: 4, Lines: locks.Lines{Hottest: 2}, Kinds: true,
		Locks: []locks.LockProfile{{Kind: "sync.RWMutex", Exclusive: 1, HeldExclusive: 60, Spin: true}}}
	profiles := Profiles{name: {read, write}}
	p := Predictions([]string{name}, Counts{name: {{400}, {404}}}, profiles, 16, 2, predict.RunnerFixed)
	for _, v := range p.WeighTrades(compare.DefaultThresholds, LockVerdicts(compare.DefaultThresholds, []string{name}, profiles), 3) {
		if v.Unit == records.ExclusiveLocks && (!strings.Contains(v.Reason, "predicted at 3 threads") || strings.Contains(v.Reason, "16 threads")) {
			t.Errorf("%s: %q, want the prediction at 3 threads", v.Unit, v.Reason)
		}
	}
}

// TestOnlyOneThreadCellsArePredicted: a prediction starts at a 1-thread
// cell's counts, so a campaign's 2-thread cell, which is never counted,
// gets no prediction and no note that it lacks one.
func TestOnlyOneThreadCellsArePredicted(t *testing.T) {
	one := "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	read := locks.Profile{SharedLocks: 1, SharedLockedInstructions: 60, Atomics: 2, Lines: locks.Lines{Hottest: 2}, Kinds: true}
	p := Predictions([]string{one, records.AtThreads(one, 2)}, Counts{one: {{400}, {400}}}, Profiles{one: {read, read}}, 16, 2, predict.RunnerFixed)
	if len(p.Cells) != 1 || len(p.Why) != 0 {
		t.Errorf("predicted %d cells, why %q: want the 1-thread cell alone, and no note", len(p.Cells), p.Why)
	}
}
