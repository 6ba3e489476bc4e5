package predict

import (
	"fmt"
	"math"
)

// CauseOf says in words what makes a cell's call at n threads, one core a
// thread, take the time the model gives it (constants k): the exclusive
// locks it queues for, the line its atomics share, or neither. It names
// the counts the model read, so a reader can check them against the
// design: "1.28 exclusive locks a call, held 1 811 instructions each:
// 91% of a call at 16 threads".
func CauseOf(c Cell, k Constants, n int) (string, error) {
	_, t, err := mva(c, k, max(n, 1))
	if err != nil {
		return "", err
	}
	total := t.Alone + t.Locks() + t.Line() + t.Writer
	share := func(x float64) int { return int(math.Round(100 * x / total)) }
	switch {
	case t.Locks()+t.Line()+t.Writer < 0.1*total:
		return fmt.Sprintf("no lock or shared line to wait on: %d%% of a call at %d threads is each thread's own work", share(t.Alone), n), nil
	case t.Writer >= max(t.Locks(), t.Line()):
		return fmt.Sprintf("a read-write lock taken exclusively %s a call and shared %s: %d%% of a call at %d threads sleeps for its writers",
			count(c.Writers), count(c.WriterReads), share(t.Writer), n), nil
	case t.Locks() >= t.Line():
		held := c.LockedInstructions / c.ExclusiveLocks
		return fmt.Sprintf("%s exclusive %s a call%s, held %s instructions each: %d%% of a call at %d threads waits for or holds one",
			count(c.ExclusiveLocks), plural(c.ExclusiveLocks, "lock", "locks"), overLocks(c), grouped(held), share(t.Locks()), n), nil
	}
	return fmt.Sprintf("%s atomic writes a call to lines other threads write (reader counts among them)%s: %d%% of a call at %d threads brings a line from another core",
		count(c.SharedAtomics()), onLines(c), share(t.Line()), n), nil
}

// overLocks says how many locks a cell's exclusive acquisitions spread
// over, where the profile says they spread over more than two: " over 65
// locks".
func overLocks(c Cell) string {
	if c.BusiestLocks > 0 && c.OtherLocks > 1 {
		return fmt.Sprintf(" over %.3g locks", 1+c.OtherLocks)
	}
	return ""
}

// onLines says how a cell's atomics spread over lines, where the profile
// spreads them, in the transfers the model charges: ", 2.00 transfers of
// one line", ", 0.15 transfers of the busiest line and 0.92 of 15 others".
func onLines(c Cell) string {
	hot, rest, others := c.Lines()
	switch {
	case !(c.HottestLine > 0):
		return ", taken as one line (the profile tells no lines apart)"
	case !(rest > 0):
		return fmt.Sprintf(", %s %s of one line", count(hot), plural(hot, "transfer", "transfers"))
	}
	return fmt.Sprintf(", %s %s of the busiest line and %s of %.3g others", count(hot), plural(hot, "transfer", "transfers"), count(rest), others)
}

// count is a count per call as a sentence says it: "one", or two decimals.
func count(x float64) string {
	if x == 1 {
		return "one"
	}
	return fmt.Sprintf("%.2f", x)
}

func plural(x float64, one, many string) string {
	if x == 1 {
		return one
	}
	return many
}

// grouped is a whole number with thin groups of thousands: 1 811.
func grouped(x float64) string {
	s := fmt.Sprintf("%.0f", x)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}
