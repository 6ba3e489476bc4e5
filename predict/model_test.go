package predict

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// TestOneThreadIsMeasured: at one thread the model gives back the measured
// time, whatever the profile and the machine.
func TestOneThreadIsMeasured(t *testing.T) {
	c := Cell{Name: "c", PerCall: 2e-6, Instructions: 6000, ExclusiveLocks: 1, LockedInstructions: 5000, Atomics: 4}
	got, err := perCall(c, Constants{Handoff: 3e-6, Transfer: 1e-7}, []int{1})
	if err != nil || !near(got[0], c.PerCall) {
		t.Fatalf("per(1) = %v, %v; want %v", got, err, c.PerCall)
	}
}

// TestNothingSharedScales: a store that takes no lock and writes no shared
// line keeps its time per call at every thread count.
func TestNothingSharedScales(t *testing.T) {
	c := Cell{Name: "rcu", PerCall: 1e-6, Instructions: 3000}
	got, _ := perCall(c, Constants{Handoff: 5e-6, Transfer: 2e-7}, []int{2, 8, 18})
	for i, v := range got {
		if !near(v, c.PerCall) {
			t.Errorf("threads %d: %g, want %g", []int{2, 8, 18}[i], v, c.PerCall)
		}
	}
}

// TestLockSaturates: a store that holds its lock for most of a call
// saturates it: at many threads each call waits for every other thread's
// hold and hand-off, per(n) → n × (held + hand-off), and a store that
// holds it less scales further.
func TestLockSaturates(t *testing.T) {
	k := Constants{Handoff: 1e-6}
	long := Cell{Name: "stack", PerCall: 2e-6, Instructions: 2000, ExclusiveLocks: 1, LockedInstructions: 1800, Atomics: 2}
	short := long
	short.LockedInstructions = 200
	l, _ := perCall(long, k, []int{18})
	s, _ := perCall(short, k, []int{18})
	held := 1.8e-6
	if want := 18 * (held + k.Handoff); math.Abs(l[0]-want) > 0.1*want {
		t.Errorf("per(18) of a lock held 90%% of a call: %g, want about %g", l[0], want)
	}
	if s[0] >= l[0]/2 {
		t.Errorf("a lock held 10%% of a call: per(18) %g, want far below the 90%% one's %g", s[0], l[0])
	}
}

// TestSharedLineQueues: atomics beyond the exclusive locks' own queue on
// their cache line, so a read lock's reader count bounds throughput.
func TestSharedLineQueues(t *testing.T) {
	c := Cell{Name: "hashmap", PerCall: 1e-6, Instructions: 3000, Atomics: 2}
	got, _ := perCall(c, Constants{Transfer: 2e-7}, []int{2, 18})
	if !(got[0] > c.PerCall && got[1] > got[0]) {
		t.Fatalf("per(2), per(18) = %v: want above per(1) %g and growing", got, c.PerCall)
	}
	if bound := 18 * 2 * 2e-7; got[1] < bound*0.9 {
		t.Errorf("per(18) = %g, want at least the line's bound %g", got[1], bound)
	}
}

// TestBandCarriesTheMeasuredInterval: the band of a design with nothing
// shared is the 1-thread median's 95% interval at every thread count, not
// the median alone (a band of one value no measurement's rounds sit in).
func TestBandCarriesTheMeasuredInterval(t *testing.T) {
	text := "cores: 2\n"
	for _, v := range []string{"520", "560", "580", "598", "549", "569", "610"} {
		text += "BenchmarkIssuer/impl=rcu/threads=1 1 " + v + " ns/call 6000 instructions/op 0 exclusive-locks/op 0 locked-instructions/op 0 atomics/op\n"
	}
	in, err := records.Read(strings.NewReader(text), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Results(in, []int{1, 2, 16}, Measured{Low: Constants{Handoff: 1e-7, Transfer: 5e-8}, Mid: Constants{Handoff: 2e-7, Transfer: 8e-8}, High: Constants{Handoff: 4e-7, Transfer: 1e-7}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	sum := records.Summarize(in.Cells()[0].Values[records.Tidy(records.NsPerCall)])
	for _, c := range out.Cells() {
		lo, hi := records.Median(c.Values[records.Tidy(Low)]), records.Median(c.Values[records.Tidy(High)])
		if !near(lo, sum.Lo) || !near(hi, sum.Hi) || !(hi > lo) {
			t.Errorf("%s: band [%g, %g], want the 1-thread interval [%g, %g]", c.Name, lo, hi, sum.Lo, sum.Hi)
		}
	}
}

// TestOtherLocksQueueApart: a store that holds one lock long and takes
// three short locks of its own besides pays the hand-offs of the short
// ones only where they are met held — less, at many threads, than if all
// four acquisitions queued on the one long lock, which is what a profile
// without its busiest lock has to assume.
func TestOtherLocksQueueApart(t *testing.T) {
	k := Constants{Handoff: 2e-6}
	one := Cell{Name: "sorted", PerCall: 2e-6, Instructions: 10000, ExclusiveLocks: 4, LockedInstructions: 4000, Atomics: 8}
	apart := one
	apart.BusiestLocks, apart.BusiestLocked = 1, 3700
	a, _ := perCall(one, k, []int{2, 18})
	b, _ := perCall(apart, k, []int{2, 18})
	if !(b[1] < 0.8*a[1]) {
		t.Errorf("per(18) with the short locks apart %g, as one queue %g: want well below", b[1], a[1])
	}
	if !(b[0] > apart.PerCall) {
		t.Errorf("per(2) = %g: the busiest lock still queues, want above per(1) %g", b[0], apart.PerCall)
	}
}

// TestBandCarriesTheMachinesDelivery: where the control cell is faster
// per call at two threads than at one (a host that slows a lone vCPU),
// and the hashmap cell is too, the band's low edge, the model's least
// contention from the 1-thread interval's low end, must reach the
// hashmap cell's 2-thread interval; with no control cell the band is the
// model's alone.
func TestBandCarriesTheMachinesDelivery(t *testing.T) {
	cell := func(threads int, ns ...float64) string {
		out := ""
		for _, v := range ns {
			out += fmt.Sprintf("BenchmarkIssuer/impl=hashmap/threads=%d 1 %g ns/call 6229 instructions/op 0 exclusive-locks/op 0 locked-instructions/op 2.55 atomics/op\n", threads, v)
		}
		return out
	}
	control := func(threads int, ns ...float64) string {
		out := ""
		for _, v := range ns {
			out += fmt.Sprintf("BenchmarkControl/threads=%d 1 %g ns/call %g ops/s\n", threads, v, float64(threads)*1e9/v)
		}
		return out
	}
	store := "cores: 2\n" + cell(1, 1008, 968, 1017, 1021) + cell(2, 968, 960, 976, 989, 960)
	// Constants with a cheap low edge and a dear high one, each transfer
	// one move of a line.
	m := Measured{Low: Constants{Handoff: 606e-9, Transfer: 13e-9}, Mid: Constants{Handoff: 621e-9, Transfer: 15.5e-9}, High: Constants{Handoff: 67937e-9, Transfer: 92.5e-9}}
	band := func(text string) (lo, hi float64) {
		in, err := records.Read(strings.NewReader(text), "r.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		out, err := Results(in, []int{1, 2}, m, "test")
		if err != nil {
			t.Fatal(err)
		}
		c, ok := out.Cell("Issuer/impl=hashmap/threads=2")
		if !ok {
			t.Fatal("no 2-thread prediction")
		}
		return records.Median(c.Values[records.Tidy(Low)]), records.Median(c.Values[records.Tidy(High)])
	}
	loAlone, hiAlone := band(store)
	if !(loAlone > 989e-9) {
		t.Fatalf("without a control cell the band's low edge %g already reaches the cells' 989 ns: the case tests nothing", loAlone)
	}
	lo, hi := band(store + control(1, 35.2, 36.8, 44.0, 39.9, 44.3, 40.8) + control(2, 38.7, 34.5, 38.5, 39.0, 40.2))
	if !(lo <= 989e-9) {
		t.Errorf("band's low edge %g ns with the control cell: the cells' 2-thread interval [960, 989] ns is outside it", 1e9*lo)
	}
	if hi != hiAlone {
		t.Errorf("high edge %g, want the model's %g: a faster second core widens only the low edge", hi, hiAlone)
	}
	_, hiBusy := band(store + control(1, 40, 40, 40) + control(2, 60, 60, 60))
	if !near(hiBusy, 1.5*hiAlone) {
		t.Errorf("a second core delivering two thirds: high edge %g, want %g", hiBusy, 1.5*hiAlone)
	}
}

// TestUnpredictedSaysWhy: a 1-thread store cell without a lock profile is
// named with what it lacks; reference cells and counted cells are not.
func TestUnpredictedSaysWhy(t *testing.T) {
	text := "cores: 2\n" +
		"BenchmarkIssuer/impl=rcu/threads=1 1 500 ns/call 6000 instructions/op 0 exclusive-locks/op 0 locked-instructions/op 0 atomics/op\n" +
		"BenchmarkIssuer/impl=sorted/threads=1 1 900 ns/call\n" +
		"BenchmarkControl/threads=1 1 40 ns/call 2.5e7 ops/s\n"
	in, err := records.Read(strings.NewReader(text), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	got := Unpredicted(in, Measured{})
	if len(got) != 1 || !strings.HasPrefix(got[0], "Issuer/impl=sorted/threads=1: no instructions/op or lock profile") {
		t.Errorf("Unpredicted = %q, want the sorted cell alone, with what it lacks", got)
	}
}

// TestASetAsideCellIsPredictedFromItsCounts: a cell whose every 1-thread
// sample a busy machine set aside is predicted, where the constants give a
// time per instruction, from its instructions at that rate, and the file
// says so; without one it is not predicted, and Unpredicted says why.
func TestASetAsideCellIsPredictedFromItsCounts(t *testing.T) {
	text := "cores: 2\n" +
		"quarantined: no\n" +
		"BenchmarkIssuer/impl=hashmap/cost=openssl/threads=1 1 700 ns/call\n" +
		"BenchmarkIssuer/impl=hashmap/cost=openssl/threads=1 1 4000 instructions/op 0 exclusive-locks/op 0 locked-instructions/op 2 atomics/op\n" +
		"BenchmarkIssuer/impl=sorted/cost=openssl/threads=1 1 5000 instructions/op 1.25 exclusive-locks/op 1800 locked-instructions/op 2.5 atomics/op\n" +
		"quarantined: the machine ran more than 25% slower than usual (speed probe)\n" +
		"BenchmarkIssuer/impl=sorted/cost=openssl/threads=1 1 1900 ns/call\n"
	in, err := records.Read(strings.NewReader(text), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	k := Measured{Low: Constants{Handoff: 600e-9, Transfer: 30e-9}, Mid: Constants{Handoff: 600e-9, Transfer: 30e-9}, High: Constants{Handoff: 600e-9, Transfer: 30e-9}}
	if got := Unpredicted(in, k); len(got) != 1 || !strings.Contains(got[0], "impl=sorted") || !strings.Contains(got[0], "no time per call kept") {
		t.Fatalf("without a time per instruction: Unpredicted = %q, want the sorted cell, its time set aside", got)
	}
	k.PerInstruction = func(*records.Cell) [3]float64 { return [3]float64{0.1e-9, 0.2e-9, 0.3e-9} }
	if got := Unpredicted(in, k); len(got) != 0 {
		t.Errorf("with a time per instruction: Unpredicted = %q, want none", got)
	}
	out, err := Results(in, []int{1, 16}, k, "test")
	if err != nil {
		t.Fatal(err)
	}
	at := func(name, unit string) float64 {
		c, ok := out.Cell(name)
		if !ok {
			t.Fatalf("%s not predicted", name)
		}
		return 1e9 * records.Median(c.Values[records.Tidy(unit)]) // read back in seconds
	}
	sorted := "Issuer/impl=sorted/cost=openssl/threads="
	// At one thread the model adds nothing to a call: its time is its
	// 5000 instructions at 0.1, 0.2 and 0.3 ns, never the 1 900 set aside.
	for unit, want := range map[string]float64{records.NsPerCall: 1000, Low: 500, High: 1500} {
		if got := at(sorted+"1", unit); !near(got, want) {
			t.Errorf("sorted at 1 thread: %s %g, want %g", unit, got, want)
		}
	}
	if got := at("Issuer/impl=hashmap/cost=openssl/threads=1", records.NsPerCall); !near(got, 700) {
		t.Errorf("hashmap at 1 thread: %g ns/call, want its measured 700: a kept time is used as ever", got)
	}
	if !(at(sorted+"16", records.NsPerCall) > 2*at(sorted+"1", records.NsPerCall)) {
		t.Errorf("sorted at 16 threads %g ns/call: its exclusive lock adds nothing", at(sorted+"16", records.NsPerCall))
	}
	if got := out.Config("predict-untimed"); !strings.Contains(got, "Issuer/impl=sorted/cost=openssl/threads=1 at 0.100 0.200 0.300 ns") || strings.Contains(got, "hashmap") {
		t.Errorf("predict-untimed: %q, want the sorted cell alone with its rate", got)
	}
}

// TestANonFiniteCountIsRefused: a count the reader skipped as +Inf makes
// the file refused by name, not read as a cell without a lock profile.
func TestANonFiniteCountIsRefused(t *testing.T) {
	text := "cores: 2\n" +
		"BenchmarkIssuer/impl=rcu/threads=1 1 500 ns/call 6000 instructions/op 0 exclusive-locks/op 0 locked-instructions/op 0 atomics/op\n" +
		"BenchmarkIssuer/impl=sorted/threads=1 1 900 ns/call 7000 instructions/op 1 exclusive-locks/op +Inf locked-instructions/op 2 atomics/op\n"
	in, err := records.Read(strings.NewReader(text), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Inputs(in, Measured{})
	if err == nil || !strings.Contains(err.Error(), "r.txt:3: non-finite +Inf locked-instructions/op") {
		t.Errorf("Inputs = %v, want the +Inf count named", err)
	}
}

// TestCheckRefusesImpossibleLocks: a cell holding an exclusive lock it
// never takes, or taking locks with fewer atomics, predicts nothing.
func TestCheckRefusesImpossibleLocks(t *testing.T) {
	for _, c := range []Cell{
		{Name: "held", Instructions: 2000, LockedInstructions: 370, Atomics: 2},
		{Name: "atomics", Instructions: 2000, ExclusiveLocks: 1, LockedInstructions: 50, Atomics: 0.5},
	} {
		if err := Check(c); err == nil {
			t.Errorf("%s: accepted %+v", c.Name, c)
		}
	}
}

// TestSpinningWaitersAreHandedOverFaster: one lock held a fifth of a call,
// its waiters spinning first (Go's sync locks) or sleeping at once (a C
// library's). At 2 threads a waiter waits less than Go spins, and takes
// the lock at the spinning hand-off: far less than a wake-up. At 16 the
// queue is long, the waiter parks, and the two are the same. Split in 64
// stripes, the queues stay short at 16 threads and the spinning lock
// stays the cheaper.
func TestSpinningWaitersAreHandedOverFaster(t *testing.T) {
	sleeps := Cell{Name: "c", PerCall: 1e-6, Instructions: 10000, ExclusiveLocks: 1, LockedInstructions: 2000, Atomics: 2,
		BusiestLocks: 1, BusiestLocked: 2000}
	spins := sleeps
	spins.BusiestSpins = 1
	k := Constants{Handoff: 1.1e-6, Spin: 276e-9, SpinFor: 1.6e-6, Transfer: 38e-9}
	a, _ := perCall(sleeps, k, []int{2, 16})
	b, _ := perCall(spins, k, []int{2, 16})
	if !(b[0] < a[0]) || !near(a[1], b[1]) {
		t.Errorf("per(2) spinning %g, sleeping %g: want the spinning far below; per(16) %g and %g: want the same", b[0], a[0], b[1], a[1])
	}
	striped := func(c Cell) Cell {
		c.BusiestLocks, c.BusiestLocked, c.OtherLocks, c.OtherSpinning = 1.0/64, 2000.0/64, 63, 63.0/64*c.BusiestSpins
		return c
	}
	x, _ := perCall(striped(sleeps), k, []int{16})
	y, _ := perCall(striped(spins), k, []int{16})
	if !(y[0] < x[0]) {
		t.Errorf("64 stripes at 16 threads: spinning %g, sleeping %g: want the spinning below", y[0], x[0])
	}
}

// TestTheLockWordMoves: a lock held for next to nothing, taken once a
// call, costs at 2 threads the move of its word's line on every call,
// the other thread having written it last, where nothing queues: without
// the word's line it costs nothing.
func TestTheLockWordMoves(t *testing.T) {
	c := Cell{Name: "c", PerCall: 100e-9, Instructions: 1000, ExclusiveLocks: 1, LockedInstructions: 1, Atomics: 2,
		BusiestLocks: 1, BusiestLocked: 1, BusiestSpins: 1, Kinds: true}
	k := Constants{Handoff: 1.1e-6, Spin: 276e-9, SpinFor: 1.6e-6, Transfer: 40e-9}
	at, err := perCall(c, k, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if grew := at[1] - at[0]; grew < 0.9*k.Transfer || grew > 1.2*k.Transfer {
		t.Errorf("per(2) - per(1) = %.1f ns: want about a transfer, %.1f ns", 1e9*grew, 1e9*k.Transfer)
	}
}

// TestAReleaserBarges: a spinning lock held most of a call and taken
// again at once is handed to its waiter only where the releaser's time
// away outlasts the line's move, so at 2 threads it costs far less than a
// spinning hand-off for every contended acquisition; held the same but
// taken again after a long gap, the waiter gets it nearly every time.
func TestAReleaserBarges(t *testing.T) {
	k := Constants{Handoff: 50e-6, Spin: 344e-9, SpinFor: 1.6e-6, Transfer: 73e-9}
	short := Cell{Name: "memo", PerCall: 20e-9, Instructions: 250, ExclusiveLocks: 1, LockedInstructions: 160, Atomics: 2,
		BusiestLocks: 1, BusiestLocked: 160, BusiestSpins: 1, Kinds: true}
	s, err := TermsAt(short, k, 2)
	if err != nil {
		t.Fatal(err)
	}
	held, queued := 20e-9*160/250, 160.0/250
	if full := held + (held+k.Spin)*queued; !(s.Busiest < full/2) {
		t.Errorf("a lock taken again at once: its queue %.0f ns a call at 2 threads, want well under %.0f ns (a hand-off each contended call)", 1e9*s.Busiest, 1e9*full)
	}
	if b := k.Barged(7e-9); !(b < 0.15) {
		t.Errorf("Barged(7 ns) = %.2f: a waiter gets the lock back from a releaser away 7 ns far less than one time in seven", b)
	}
	if b := k.Barged(2e-6); !(b > 0.95) {
		t.Errorf("Barged(2 µs) = %.2f: want nearly every contended acquisition handed over", b)
	}
}
