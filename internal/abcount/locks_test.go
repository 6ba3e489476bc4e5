package abcount

import (
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/records"
)

// TestLocksFileRoundTrip: the lock profiles ab -report records read back
// whole, and -replay judges them as ab did: a lookup that takes an
// exclusive lock where base took a shared one fails its cell at the
// default threshold; a forged file is refused.
func TestLocksFileRoundTrip(t *testing.T) {
	name := "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	profiles := Profiles{name: {
		{SharedLocks: 1, SharedLockedInstructions: 49.5, Atomics: 2},
		{ExclusiveLocks: 1, LockedInstructions: 50.7, Atomics: 4, Reads: locks.Reads{PerOp: 1, Writes: 2}, Writers: locks.Writers{Exclusive: 0.01, Shared: 1.27}},
	}}
	names, back, err := ReadLocks(WriteLocks([]string{name, name}, profiles))
	if err != nil || len(names) != 1 || back[name][1].ExclusiveLocks != 1 || back[name][0].SharedLockedInstructions != 49.5 ||
		back[name][1].Reads != (locks.Reads{PerOp: 1, Writes: 2}) || back[name][1].Writers != (locks.Writers{Exclusive: 0.01, Shared: 1.27}) {
		t.Fatalf("read back %v %+v: %v", names, back, err)
	}
	var regressions int
	for _, v := range LockVerdicts(compare.DefaultThresholds, names, back) {
		if v.Verdict == compare.Regression {
			regressions++
		}
	}
	if regressions != 3 {
		t.Errorf("shared to exclusive: %d REGRESSION verdicts, want 3 (exclusive locks, instructions under one, atomics)", regressions)
	}
	// A file from before the lines (and the spread) reads back with every
	// atomic on one line; one from before the spread, with no lock
	// besides the busiest told apart and no blind spot; one from before
	// the reads, with no read of a written line; one from before the
	// writers, with no lock taken both ways.
	without := func(units ...[]string) string {
		var kept []string
		for _, l := range strings.SplitAfter(string(WriteLocks([]string{name}, profiles)), "\n") {
			if !slices.ContainsFunc(slices.Concat(units...), func(u string) bool { return strings.Contains(l, ","+u+",") }) {
				kept = append(kept, l)
			}
		}
		return strings.Join(kept, "")
	}
	if _, old, err := ReadLocks([]byte(without(records.LineUnits, records.SpreadUnits, records.ReadUnits, records.WriterUnits))); err != nil || old[name][1].Lines != (locks.Lines{}) || old[name][1].Atomics != 4 {
		t.Errorf("a file without the lines: %+v, %v", old, err)
	}
	if _, old, err := ReadLocks([]byte(without(records.SpreadUnits, records.ReadUnits, records.WriterUnits))); err != nil || old[name][1].OtherLocks() != 0 || len(old[name][1].Unseen) != 0 {
		t.Errorf("a file without the spread: %+v, %v", old, err)
	}
	if _, old, err := ReadLocks([]byte(without(records.ReadUnits, records.WriterUnits))); err != nil || old[name][1].Reads != (locks.Reads{}) {
		t.Errorf("a file without the reads: %+v, %v", old, err)
	}
	if _, old, err := ReadLocks([]byte(without(records.WriterUnits))); err != nil || old[name][1].Writers != (locks.Writers{}) || old[name][1].Reads.PerOp != 1 {
		t.Errorf("a file without the writers: %+v, %v", old, err)
	}
	if _, _, err := ReadLocks([]byte(without(records.LineUnits))); err == nil {
		t.Error("a file with the spread and without the lines read without error")
	}
	// A file that lacks what a verdict needs fails closed: an arm missing,
	// a unit given twice, a profile cut short.
	whole := string(WriteLocks([]string{name}, profiles))
	lines := strings.SplitAfter(whole, "\n")
	for what, forged := range map[string]string{
		"no head":      strings.Join(lines[:1+len(profileUnits)], ""),
		"a row twice":  whole + lines[1],
		"cut short":    strings.Join(lines[:len(lines)-2], ""),
		"no base unit": lines[0] + strings.Join(lines[2:], ""),
	} {
		if _, _, err := ReadLocks([]byte(forged)); err == nil {
			t.Errorf("%s: read without error:\n%s", what, forged)
		}
	}
}

// TestAtomicsAreCreditedToTheirSource: a global counter beside a read lock
// moves the atomics besides the locks' own, and the verdict says so rather
// than crediting the lock; atomics that moved with the locks name them.
func TestAtomicsAreCreditedToTheirSource(t *testing.T) {
	name := "Issuer/impl=x/threads=1"
	rw := func(shared, exclusive, atomics float64) locks.Profile {
		return locks.Profile{SharedLocks: shared, ExclusiveLocks: exclusive, Atomics: atomics,
			Locks: []locks.LockProfile{{Kind: "sync.RWMutex", Shared: shared, Exclusive: exclusive}}}
	}
	reason := func(p [2]locks.Profile) string {
		for _, v := range LockVerdicts(compare.DefaultThresholds, []string{name}, Profiles{name: p}) {
			if v.Unit == records.Atomics {
				return v.Reason
			}
		}
		return ""
	}
	if r := reason([2]locks.Profile{rw(1, 0, 2), rw(1, 0, 3)}); strings.Contains(r, "(sync.RWMutex)") || !strings.Contains(r, "besides the locks' own: 0 -> 1") {
		t.Errorf("a counter beside a read lock: %q", r)
	}
	if r := reason([2]locks.Profile{rw(1, 0, 2), rw(0, 1, 4)}); !strings.Contains(r, "(sync.RWMutex)") {
		t.Errorf("a read lock made exclusive: %q", r)
	}
}

// TestImpossibleProfilesAreRefused: a lock profile no operation can have
// is refused where it is read, before a verdict or a prediction rests on
// it: held instructions under a lock never taken, fewer atomics than
// acquisitions.
func TestImpossibleProfilesAreRefused(t *testing.T) {
	name := "Issuer/impl=sorted/certs=1024/hit=1/threads=1"
	good := locks.Profile{ExclusiveLocks: 1.23, LockedInstructions: 1743, Atomics: 2.46}
	for _, bad := range []locks.Profile{
		{LockedInstructions: 370, Atomics: 2},
		{SharedLockedInstructions: 50, Atomics: 2},
		{ExclusiveLocks: 1, LockedInstructions: 50, Atomics: 0.5},
	} {
		data := WriteLocks([]string{name}, Profiles{name: {good, bad}})
		if _, _, err := ReadLocks(data); err == nil || !strings.Contains(err.Error(), "head's") {
			t.Errorf("%+v read back: %v", bad, err)
		}
	}
	if _, _, err := ReadLocks(WriteLocks([]string{name}, Profiles{name: {good, good}})); err != nil {
		t.Errorf("a possible profile refused: %v", err)
	}
}

// TestSpreadRoundTrips: what a profile says of its locks' spread — how
// many locks the others make, which waiters spin first, the atomics of
// locks it cannot see — reads back from a lock profiles file as the
// prediction reads it.
func TestSpreadRoundTrips(t *testing.T) {
	name := "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	p := locks.Profile{ExclusiveLocks: 2, LockedInstructions: 400, Atomics: 8,
		Locks:  []locks.LockProfile{{Kind: "own", Exclusive: 1, HeldExclusive: 300}},
		Unseen: []locks.Unseen{{What: "the runtime's", Atomics: 4}}}
	for range 16 {
		p.Locks = append(p.Locks, locks.LockProfile{Kind: "sync.Mutex", Exclusive: 1.0 / 16, HeldExclusive: 100.0 / 16, Spin: true})
	}
	_, back, err := ReadLocks(WriteLocks([]string{name}, Profiles{name: {p, p}}))
	if err != nil {
		t.Fatal(err)
	}
	r := back[name][1]
	if !near(r.OtherLocks(), p.OtherLocks()) || r.BusiestSpins() != p.BusiestSpins() || !near(r.OtherSpinning(), p.OtherSpinning()) || !near(r.UnseenAtomics(), 4) {
		t.Errorf("read back: other locks %g, busiest spins %v, others spinning %g, unseen %g; want %g, %v, %g, 4",
			r.OtherLocks(), r.BusiestSpins(), r.OtherSpinning(), r.UnseenAtomics(), p.OtherLocks(), p.BusiestSpins(), p.OtherSpinning())
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
