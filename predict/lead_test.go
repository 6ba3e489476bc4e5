package predict

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
)

// readLock is a hash map's lookup under a read lock: its reader count's
// two writes a call on one line.
var readLock = Cell{Name: "hashmap", Instructions: 415, Atomics: 2, HottestLine: 2}

// at16 is the prediction of base -> head at 16 threads with the fixed
// reference constants, as ab makes it; an error ends the test.
func at16(t *testing.T, base, head Cell) Prediction {
	t.Helper()
	p, err := Change(base.Name, base, head, Threads(16), Fixed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTheCauseIsWhatGrew: a memo of answers behind one mutex of the whole
// store (the read lock's two atomics gone, a mutex held 169 instructions
// come) is slower at 16 threads, and its reason leads with the mutex's
// queue, never with the atomics that went away; the read lock split in
// 64 Mutex stripes is faster, and its reason leads with the line that
// went away, never with the stripes that came.
func TestTheCauseIsWhatGrew(t *testing.T) {
	memo := Cell{Name: "hashmap", Instructions: 600, ExclusiveLocks: 1, LockedInstructions: 169, Atomics: 2,
		BusiestLocks: 1, BusiestLocked: 169, BusiestSite: "github.com/perfrun/perfrun/impls/hashmap.(*Store).Issuer"}
	stripes := Cell{Name: "hashmap", Instructions: 420, ExclusiveLocks: 1, LockedInstructions: 50, Atomics: 2,
		BusiestLocks: 1.0 / 64, BusiestLocked: 50.0 / 64, OtherLocks: 63}
	for _, c := range []struct {
		what    string
		head    Cell
		verdict compare.Verdict
		lead    string
	}{
		{"the memo", memo, compare.Regression, "the queue of the exclusive lock taken in hashmap.Store.Issuer 0 ns -> "},
		{"the stripes", stripes, compare.Improved, "the hottest shared cache line "},
	} {
		p := at16(t, readLock, c.head)
		v := p.Verdict(compare.DefaultThresholds)
		// The cause a verdict's line names: the reason's first, up to its
		// detail.
		_, first, _ := strings.Cut(v.Reason, "]: ")
		first, _, _ = strings.Cut(first, "(")
		if v.Verdict != c.verdict || !strings.HasPrefix(first, c.lead) {
			t.Errorf("%s: %s, first cause %q; want %s, leading %q", c.what, v.Verdict, first, c.verdict, c.lead)
		}
		if strings.Contains(first, "atomic") {
			t.Errorf("%s: %q names the atomics that went away", c.what, first)
		}
	}
}

// TestABlindSpotIsNamed: a lookup that adds a channel's send and receive
// (the runtime's lock, which the profile cannot see, 4 atomics a call) is
// predicted from its atomics and says it is blind to the lock; a lookup
// without one says nothing of it.
func TestABlindSpotIsNamed(t *testing.T) {
	ch := readLock
	ch.Atomics, ch.Unseen = 6, 4
	p := at16(t, readLock, ch)
	if r := p.Reason(); !strings.Contains(r, "blind to locks the profile cannot see, 0 -> 4 atomics a call") {
		t.Errorf("a channel added: %q names no blind spot", r)
	}
	same := readLock
	same.Instructions++
	q := at16(t, readLock, same)
	if r := q.Reason(); strings.Contains(r, "blind") {
		t.Errorf("no unseen lock: %q names a blind spot", r)
	}
}

// TestABlindPassIsUndecidedWhereItMoved: a prediction that passes while
// both arms take the same locks it cannot see stays a PASS; one whose
// head takes more of them, nothing it weighs moving, is undecided.
func TestABlindPassIsUndecidedWhereItMoved(t *testing.T) {
	base := readLock
	base.Atomics, base.Unseen = 6, 4
	for _, c := range []struct {
		what   string
		head   func(*Cell)
		want   compare.Verdict
		reason string
	}{
		{"the same unseen locks", func(c *Cell) { c.Instructions++ }, compare.Pass, "blind to locks the profile cannot see, 4 -> 4"},
		{"more of them", func(c *Cell) { c.Unseen = 5 }, compare.Inconclusive, "undecided: the prediction is blind to what moved"},
	} {
		head := base
		c.head(&head)
		p := at16(t, base, head)
		if v := p.Verdict(compare.DefaultThresholds); v.Verdict != c.want || !strings.Contains(v.Reason, c.reason) {
			t.Errorf("%s: %s %q, want %s saying %q", c.what, v.Verdict, v.Reason, c.want, c.reason)
		}
	}
}

// TestAReadOfAWrittenLineIsNamed: a lookup that reads a word one call in
// 16 writes says the prediction is blind to it, beside the write it
// weighs, and one that only reads a line its calls already wrote says so
// where nothing it weighs moved; reading the lines base read, the same
// way, says nothing of them.
func TestAReadOfAWrittenLineIsNamed(t *testing.T) {
	base := Cell{Name: "rcu", Instructions: 324}
	head := base
	head.Instructions, head.Atomics, head.HottestLine = 330, 1.0/16, 1.0/16
	head.Reads, head.ReadLineWrites = 1, 1.0/16
	p := at16(t, base, head)
	want := "blind to reads of lines other calls write, 0 -> 1 a call, the lines written 0 -> 0.0625 times a call"
	if r := p.Reason(); !strings.Contains(r, want) {
		t.Errorf("a read of a written word added: %q, want it to say %q", r, want)
	}
	only := base
	only.Reads, only.ReadLineWrites = 2, 1
	if r := at16(t, base, only).Reason(); !strings.Contains(r, "unchanged by what the model weighs: blind to reads") {
		t.Errorf("reads alone added: %q, want it unchanged by what the model weighs, blind to the reads", r)
	}
	if r := at16(t, only, only).Reason(); strings.Contains(r, "blind") {
		t.Errorf("the same reads both ways: %q names a blind spot", r)
	}
}

// TestAWriterAmongReadersIsWeighed: a lookup that takes its read-write
// lock exclusively once in 64 calls, shared in the rest, parks the
// readers that come while the writer waits or holds. The prediction
// weighs their sleep and names it as what moved; on a machine whose
// sleeping hand-off is long (the runner's) it is most of a call at two
// threads, and at one thread nothing; the same lock taken the same way in
// both arms passes.
func TestAWriterAmongReadersIsWeighed(t *testing.T) {
	base := Cell{Name: "sortoninsert", Instructions: 1964, SharedLocks: 1.275, SharedLocked: 1626, Atomics: 2.55}
	head := base
	head.SharedLocks, head.ExclusiveLocks, head.LockedInstructions = 1.275-1.0/64, 1.0/64, 12
	head.BusiestLocks, head.BusiestLocked, head.Atomics = 1.0/64, 12, 2.55+2.0/64
	head.Writers, head.WriterReads = 1.0/64, 1.275-1.0/64
	want := "the readers parked for a writer of their read-write lock 0 ns -> "
	if r := at16(t, base, head).Reason(); !strings.Contains(r, want) || !strings.Contains(r, "taken exclusively 0.0156 a call and shared 1.26") {
		t.Errorf("a writer among readers added: %q, want it to say %q, with the lock's counts", r, want)
	}
	if v := at16(t, head, head).Verdict(compare.DefaultThresholds); v.Verdict != compare.Pass {
		t.Errorf("the same writer both ways: %s %q, want PASS", v.Verdict, v.Reason)
	}
	for _, n := range []int{1, 2} {
		b, err := TermsAt(base, RunnerFixed.Mid, n)
		if err != nil {
			t.Fatal(err)
		}
		h, err := TermsAt(head, RunnerFixed.Mid, n)
		if err != nil {
			t.Fatal(err)
		}
		whole := b.Alone + b.Locks() + b.Line()
		if sleeps := h.Writer > whole; sleeps != (n == 2) {
			t.Errorf("at %d threads the readers sleep %s a call for the writer, base's whole call %s", n, duration(h.Writer), duration(whole))
		}
	}
}

// TestAWritersConvoyIsNamed: where head takes its read-write lock both
// ways otherwise than base, the prediction names the convoy of a writer
// and the readers it woke, which it does not weigh; a writer rare enough
// to predict a PASS is then undecided, as the convoy can make it many
// times slower at two threads (results/scaling/runner/writers), and one
// predicted a REGRESSION stays one; the same lock both ways names nothing.
func TestAWritersConvoyIsNamed(t *testing.T) {
	base := Cell{Name: "hashmap", Instructions: 388, SharedLocks: 1, SharedLocked: 60, Atomics: 2}
	writer := func(every float64) Cell {
		head := base
		head.SharedLocks, head.ExclusiveLocks, head.LockedInstructions = 1-1/every, 1/every, 64/every
		head.BusiestLocks, head.BusiestLocked, head.Atomics = 1/every, 64/every, 2+2/every
		head.Writers, head.WriterReads = 1/every, 1-1/every
		return head
	}
	const convoy = "blind to the convoy a writer and the readers it woke make"
	for _, c := range []struct {
		every float64
		want  compare.Verdict
	}{{8, compare.Regression}, {100000, compare.Inconclusive}} {
		v := at16(t, base, writer(c.every)).Verdict(compare.DefaultThresholds)
		if v.Verdict != c.want || !strings.Contains(v.Reason, convoy) {
			t.Errorf("a writer 1 call in %g: %s %q, want %s naming the convoy", c.every, v.Verdict, v.Reason, c.want)
		}
	}
	if r := at16(t, writer(8), writer(8)).Reason(); strings.Contains(r, "convoy") {
		t.Errorf("the same writer both ways: %q names the convoy", r)
	}
}

// TestAnAddedLockSaysHowLongEachHolds: an added lock's cause gives the
// instructions held an acquisition, not the per-call total (a lock taken
// once in a hundred calls and held 99 instructions held it "for 0.99"),
// and a change that rounds to nothing is +0.0%, never -0.0%.
func TestAnAddedLockSaysHowLongEachHolds(t *testing.T) {
	base := Cell{Name: "x", Instructions: 3000}
	head := Cell{Name: "x", Instructions: 3000, ExclusiveLocks: 0.01, LockedInstructions: 0.99, Atomics: 0.02,
		BusiestLocks: 0.01, BusiestLocked: 0.99}
	p := at16(t, base, head)
	reason := p.Verdict(compare.DefaultThresholds).Reason
	if !strings.Contains(reason, "holding it 99 instructions an acquisition") || strings.Contains(reason, "-0.0%") {
		t.Errorf("reason %q: want the lock held 99 instructions an acquisition, and no -0.0%%", reason)
	}
	if got := Percent(1 - 1e-6); got != "+0.0%" {
		t.Errorf("Percent(1-1e-6) = %q, want +0.0%%", got)
	}
}

// TestALineIsNamedByWhereItIsWritten: a lookup that adds the standard
// library's read lock (log's) beside its own is slower for the other
// lines, and the cause names that line by what it is and the function
// that first wrote it; the read lock split in stripes is faster for the
// hottest line, named so.
func TestALineIsNamedByWhereItIsWritten(t *testing.T) {
	own := "the reader count of a read lock taken in github.com/perfrun/perfrun/impls/hashmap.(*Store).Issuer"
	base := readLock
	base.HottestSite = own
	logged := base
	logged.Atomics, logged.OtherLineTransfers, logged.OtherLines = 4, 2, 1
	logged.OtherLineSite = "the reader count of a read lock taken in log.(*Logger).output"
	stripes := Cell{Name: "hashmap", Instructions: 420, ExclusiveLocks: 1, LockedInstructions: 50, Atomics: 2,
		BusiestLocks: 1.0 / 64, BusiestLocked: 50.0 / 64, OtherLocks: 63}
	for _, c := range []struct {
		what string
		head Cell
		lead string
	}{
		{"log's read lock", logged, "the other shared cache lines led by the reader count of a read lock taken in log.Logger.output 0 ns -> "},
		{"the stripes", stripes, "the hottest shared cache line: the reader count of a read lock taken in hashmap.Store.Issuer "},
	} {
		p := at16(t, base, c.head)
		_, first, _ := strings.Cut(p.Verdict(compare.DefaultThresholds).Reason, "]: ")
		first, _, _ = strings.Cut(first, "(")
		if !strings.HasPrefix(first, c.lead) {
			t.Errorf("%s: first cause %q, want it leading %q", c.what, first, c.lead)
		}
	}
}
