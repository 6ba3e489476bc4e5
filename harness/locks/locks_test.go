package locks

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
)

// TestRewriteThisGo: the sync package of the Go that runs the tests is
// rewritten with every lock method moved aside, and what is written still
// parses as Go.
func TestRewriteThisGo(t *testing.T) {
	for _, name := range []string{"mutex.go", "rwmutex.go"} {
		out, err := rewrite(filepath.Join(runtime.GOROOT(), "src", "sync", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"perfrunLock()", "perfrunUnlock()"} {
			if !strings.Contains(string(out), m) {
				t.Errorf("%s: no %s in the rewrite", name, m)
			}
		}
	}
}

// TestRewriteRefusesAnotherShape: a sync whose locks are shaped
// otherwise, or a sync/atomic whose types are, is refused, not half
// rewritten.
func TestRewriteRefusesAnotherShape(t *testing.T) {
	for _, c := range []struct {
		what, file, src string
		rewrite         func(string) ([]byte, error)
	}{
		{"a Mutex without TryLock", "mutex.go", "package sync\n\ntype Mutex struct{}\n\nfunc (m *Mutex) Lock() {}\n\nfunc (m *Mutex) Unlock() {}\n", rewrite},
		{"a sync/atomic of one method", "type.go", "package atomic\n\ntype Int64 struct{ v int64 }\n\nfunc (x *Int64) Add(d int64) int64 { return 0 }\n", rewriteAtomics},
	} {
		path := filepath.Join(t.TempDir(), c.file)
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := c.rewrite(path); err == nil || !strings.Contains(err.Error(), "cannot be profiled") {
			t.Errorf("%s: %v, want it refused", c.what, err)
		}
	}
}

// handcount builds testdata/handcount for lock profiles once per test run.
func handcount(t *testing.T) string {
	t.Helper()
	needs.Valgrind(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("client requests and the hand-counted work are amd64's")
	}
	if testing.Short() {
		t.Skip("slow: builds the standard library with the overlay, then runs callgrind")
	}
	bin := filepath.Join(t.TempDir(), "handcount")
	if err := Build(context.Background(), ".", "./testdata/handcount", bin, nil); err != nil {
		t.Fatal(err)
	}
	return bin
}

// heldNear says whether h is work100 held: its 101 instructions, the CALL,
// and a reload of the lock's address.
func heldNear(h float64) bool { return h >= 102 && h <= 106 }

// TestProfileByHand holds profiles to what each operation of handcount
// does, counted by hand: its locks; its atomics (a Mutex: a
// compare-and-swap to lock, an add to unlock; a write lock: its inner
// Mutex's two and an add to the reader count each way; a read lock: an
// add each way); and the instructions it runs under the lock: exactly 198
// more for work300 than for work100, and for work100 its 101, the CALL,
// and what the compiler adds to reload the lock's address after the call
// (a few instructions the empty critical section that calibrates the hook
// does not need).
func TestProfileByHand(t *testing.T) {
	bin := handcount(t)
	profile := func(variant string) Profile {
		t.Helper()
		p, err := Count(context.Background(), []string{bin, variant, "500"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", variant, err)
		}
		t.Logf("%s: %+v", variant, p)
		return p
	}
	m100, m300 := profile("mutex100"), profile("mutex300")
	for _, p := range []Profile{m100, m300} {
		if p.ExclusiveLocks != 1 || p.SharedLocks != 0 || p.Atomics != 2 || p.SharedLockedInstructions != 0 {
			t.Errorf("a Mutex around work: %+v, want 1 exclusive lock, 2 atomics, nothing shared", p)
		}
	}
	if d := m300.LockedInstructions - m100.LockedInstructions; d != 198 {
		t.Errorf("work300 holds the lock for %g instructions more than work100, want 198", d)
	}
	if h := m100.LockedInstructions; !heldNear(h) {
		t.Errorf("work100 under a Mutex: %g instructions held, want its 101, the CALL and a reload (102 to 106)", h)
	}
	if w := profile("write100"); w.ExclusiveLocks != 1 || w.Atomics != 4 || w.LockedInstructions != m100.LockedInstructions {
		t.Errorf("work100 under a write lock: %+v, want 1 exclusive lock, 4 atomics, as many instructions held as under a Mutex", w)
	}
	r := profile("read100")
	if r.ExclusiveLocks != 0 || r.SharedLocks != 1 || r.Atomics != 5 || r.LockedInstructions != 0 || !heldNear(r.SharedLockedInstructions) {
		t.Errorf("work100 under a read lock and 3 atomic adds: %+v, want 1 shared lock, 5 atomics, 102 to 106 instructions held shared", r)
	}
	if o := profile("own100"); o.ExclusiveLocks != 1 || o.Atomics != 2 || !heldNear(o.LockedInstructions) || len(o.Locks) != 1 || o.Locks[0].Kind != "own" {
		t.Errorf("work100 under a lock of the program's own: %+v, want 1 exclusive lock (own), 2 atomics (its swap and its store), 102 to 106 held", o)
	}
	two := profile("two")
	if acq, held := two.Busiest(); acq != 1 || held < m300.LockedInstructions-3 || held > m300.LockedInstructions+3 || two.ExclusiveLocks != 3 {
		t.Errorf("work100 twice under one Mutex, work300 under another: busiest lock %g acquisitions holding %g instructions of %+v; want 1 holding about %g (work300's)",
			acq, held, two, m300.LockedInstructions)
	}
	if f := profile("free"); len(f.Locks) != 0 || f.Atomics != 0 || f.LockedInstructions != 0 {
		t.Errorf("work100 under no lock: %+v, want an empty profile", f)
	}
}

// TestProfileExactAcrossProcesses: one variant profiled in three
// processes gives one profile.
func TestProfileExactAcrossProcesses(t *testing.T) {
	bin := handcount(t)
	var first Profile
	for i := range 3 {
		p, err := Count(context.Background(), []string{bin, "read100", "300"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = p
		} else if p.SharedLockedInstructions != first.SharedLockedInstructions || p.Atomics != first.Atomics || p.SharedLocks != first.SharedLocks {
			t.Fatalf("process %d: %+v, process 1: %+v", i+1, p, first)
		}
	}
}

// TestLinesByHand holds the lines a profile tells apart to what handcount's
// operations write: a read lock's reader count and a counter each on a
// line of its own; a read lock taken twice; 16 shards' read locks in turn,
// each on a line of its own, with a counter on the shard's line or one
// counter of all. A lock's writes may find its line taken (a release after
// what it held, an acquisition after work outside); a counter's write
// straight after a write to its line does not (the shard's counter after
// its release), nor a read lock's acquisition straight after its
// counter's write (shards-first).
func TestLinesByHand(t *testing.T) {
	bin := handcount(t)
	for _, c := range []struct {
		variant string
		want    Lines
	}{
		{"read100", Lines{Hottest: 2, Others: 1, OtherTransfers: 1}},
		{"write100", Lines{Hottest: 2}},
		{"retake", Lines{Hottest: 4}},
		{"mutex100", Lines{}},
		{"shards", Lines{Hottest: 2.0 / 16, Others: 15, OtherTransfers: 30.0 / 16}},
		{"shards-counter", Lines{Hottest: 2.0 / 16, Others: 15, OtherTransfers: 30.0 / 16}},
		{"shards-global", Lines{Hottest: 1, Others: 16, OtherTransfers: 2}},
		{"shards-first", Lines{Hottest: 2.0 / 16, Others: 15, OtherTransfers: 30.0 / 16}},
	} {
		p := byHand(t, bin, c.variant)
		if !near(p.Lines.Hottest, c.want.Hottest) || !near(p.Lines.Others, c.want.Others) || !near(p.Lines.OtherTransfers, c.want.OtherTransfers) {
			t.Errorf("%s: lines %+v (atomics %g), want %+v", c.variant, p.Lines, p.Atomics, c.want)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// byHand is the profile of handcount's variant, counted over 320
// operations.
func byHand(t *testing.T, bin, variant string) Profile {
	t.Helper()
	p, err := Count(context.Background(), []string{bin, variant, "320"}, nil)
	if err != nil {
		t.Fatalf("%s: %v", variant, err)
	}
	return p
}

// TestReadsAndWritersByHand: a profile counts an operation's Loads of
// lines operations write, and how often those lines are written: a word
// every operation reads and one in four writes; a word read before the
// Mutex on its line is taken (its word written twice an operation); a
// counter read before its compare-and-swap; and no read where the word is
// never written, or nothing is read. It counts a read-write lock taken
// exclusively one operation in four and shared by the rest as a writer
// among readers (0.25, 0.75); a read lock alone, and mutexes, are none.
// Each variant is counted once for both.
func TestReadsAndWritersByHand(t *testing.T) {
	bin := handcount(t)
	for _, c := range []struct {
		variant string
		reads   Reads
		writers Writers
	}{
		{"readflag", Reads{PerOp: 1, Writes: 0.25}, Writers{}},
		{"readlocked", Reads{PerOp: 1, Writes: 2}, Writers{}},
		{"casadd", Reads{PerOp: 1, Writes: 1}, Writers{}},
		{"readonly", Reads{}, Writers{}},
		{"mutex100", Reads{}, Writers{}},
		{"writer4", Reads{}, Writers{Exclusive: 0.25, Shared: 0.75}},
		{"read100", Reads{}, Writers{}},
		{"two", Reads{}, Writers{}},
	} {
		p := byHand(t, bin, c.variant)
		if !near(p.Reads.PerOp, c.reads.PerOp) || !near(p.Reads.Writes, c.reads.Writes) {
			t.Errorf("%s: reads %+v, want %+v", c.variant, p.Reads, c.reads)
		}
		if !near(p.Writers.Exclusive, c.writers.Exclusive) || !near(p.Writers.Shared, c.writers.Shared) {
			t.Errorf("%s: writers %+v, want %+v", c.variant, p.Writers, c.writers)
		}
	}
}

// TestAReportOfAnotherVersionIsRefused: a program built with another
// version of this package counts other kinds of lock; its report is
// refused with what to do, not read into the wrong kinds.
func TestAReportOfAnotherVersionIsRefused(t *testing.T) {
	short := make([]string, len(kinds)-1)
	rep := Report{Ops: 1, Calibrations: short, PerKind: make([]int64, len(kinds)-1)}
	_, err := rep.profile(map[string]cost{})
	if err == nil || !strings.Contains(err.Error(), "another version") {
		t.Errorf("a report of %d kinds read by a perfrun of %d: %v, want it refused as another version's", len(short), len(kinds), err)
	}
}

// TestLinesSayWhereTheyAreWritten: the hottest line, and the rest's
// busiest, say what they are and the function that first wrote them: a
// read lock's reader count (in the function that took the lock, the
// standard library's too), a write lock's, a counter's word.
func TestLinesSayWhereTheyAreWritten(t *testing.T) {
	bin := handcount(t)
	for _, c := range []struct{ variant, hottest, other string }{
		{"read100", "the reader count of a read lock taken in main.", "a word written in main."},
		{"write100", "the reader count of a write lock taken in main.", ""},
		{"shards-global", "a word written in main.", "the reader count of a read lock taken in main.shardRead"},
		{"getenv", "the reader count of a read lock taken in syscall.Getenv", ""},
	} {
		p := byHand(t, bin, c.variant)
		if !strings.HasPrefix(p.Lines.HottestSite, c.hottest) || !strings.HasPrefix(p.Lines.OtherSite, c.other) {
			t.Errorf("%s: the hottest line is %q and the rest's busiest %q; want %q… and %q…", c.variant, p.Lines.HottestSite, p.Lines.OtherSite, c.hottest, c.other)
		}
	}
}
