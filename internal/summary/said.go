package summary

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/records"
)

// ErrNothingMeasured is a run's end where the machine set every sample of
// every design's cell aside: no success (exit 3).
var ErrNothingMeasured = errors.New("the machine was busy")

// Unjudgeable names the cells a gate would judge (designs' cells that fit
// the cores) that have no sample left: all were set aside.
func Unjudgeable(set *records.Set) []string {
	var out []string
	cores := set.Cores()
	for _, c := range set.Cells() {
		if !c.IsReference() && (cores == 0 || c.Threads <= cores) && len(c.Values) == 0 && c.Aside > 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

// BusyAtStart says, before anything is measured, that other processes
// want the machine's CPUs and what the run will do about it; "" when none
// does. The run's end says which cells the machine did disturb (Busy).
func BusyAtStart(cores int) string {
	n, from := busyNow(cores)
	if n == 0 {
		return ""
	}
	return busyHead(n, cores) + fmt.Sprintf("cells at %s will likely be set aside as disturbed, measured again and named at the end. "+
		"The instruction counts, the lock profiles and the prediction past the cores do not depend on the load.", threadsFrom(from))
}

// BusyBeforeCampaign is BusyAtStart for ab: what a busy machine does to
// a campaign's time, and what decides where time cannot; free is false
// where other processes want every core, so no thread count has one of
// its own and time can decide nothing.
func BusyBeforeCampaign(cores int) (note string, free bool) {
	n, from := busyNow(cores)
	if n == 0 {
		return "", true
	}
	if n >= cores {
		return busyHead(n, cores) + "no thread count has a core of its own, so time would keep too few rounds to decide anything. " +
			"The instruction counts, the lock profiles and the prediction past the cores do not depend on the load: they decide.", false
	}
	return busyHead(n, cores) + fmt.Sprintf("time at %s will likely keep few windows and decide little. "+
		"The instruction counts, the lock profiles and the prediction past the cores do not depend on the load: where time cannot decide, they do.", threadsFrom(from)), true
}

// busyNow is how many threads of other processes want a CPU, measured
// over a fifth of a second, and the least thread count they would
// disturb; 0 where none do or it cannot be told.
func busyNow(cores int) (n, from int) {
	n, ok := harness.Others(time.Second)
	if !ok || n == 0 {
		return 0, 0
	}
	return n, max(cores-n+1, 1)
}

// busyHead is what a busy note opens with: how many threads of other
// processes want a CPU of the machine's.
func busyHead(n, cores int) string {
	word, want := "threads", "want"
	if n == 1 {
		word, want = "thread", "wants"
	}
	return fmt.Sprintf("the machine is busy: about %d %s of other processes %s a CPU of the %d; ", n, word, want, cores)
}

// threadsFrom names the thread counts from n up.
func threadsFrom(n int) string {
	if n == 1 {
		return "every thread count"
	}
	return fmt.Sprintf("%d threads and more", n)
}

// Busy is the run's end when the machine decided cells: every sample of a
// design's cell that fits the cores set aside. Where some design cells
// were measured the run is a result (exit 0: go run turns any other code
// into 1, a failure's), and its last line says which cells have nothing
// and what to do; where none was, nothing was measured, which is no
// success (ErrNothingMeasured, exit 3).
func Busy(set *records.Set) (note string, err error) {
	lost := Unjudgeable(set)
	if len(lost) == 0 {
		return "", nil
	}
	why := ""
	for _, c := range set.Cells() {
		if c.Aside > 0 && c.Why != "" {
			why = c.Why
			break
		}
	}
	shown := lost
	if len(shown) > 3 {
		shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(lost)-3))
	}
	what := "Close what else runs and run again; to compare two builds on a busy machine use perfrun ab, which pairs them window by window; " +
		"or -quarantine=false keeps every sample, the results then saying quarantine: off"
	if len(lost) == Judgeable(set) {
		return "", fmt.Errorf("%w: every sample of every cell (%s) was set aside (%s), so nothing was measured. %s",
			ErrNothingMeasured, strings.Join(shown, ", "), why, what)
	}
	cells := "cells"
	if len(lost) == 1 {
		cells = "cell"
	}
	return fmt.Sprintf("measured, %d %s set aside: the machine was busy and every sample of %s was set aside (%s); the counts and the prediction do not depend on it. %s",
		len(lost), cells, strings.Join(shown, ", "), why, what), nil
}

// Judgeable counts the cells a gate would judge: designs' cells that fit
// the cores.
func Judgeable(set *records.Set) int {
	n, cores := 0, set.Cores()
	for _, c := range set.Cells() {
		if !c.IsReference() && (cores == 0 || c.Threads <= cores) {
			n++
		}
	}
	return n
}

// Summarize says what the run set aside, added and could not reach; set
// is res's results.
func Summarize(w io.Writer, res *harness.Outcome, set *records.Set) {
	if n, why := res.SetAside(); n > 0 {
		waited := ""
		if res.WaitedOut > 0 {
			waited = fmt.Sprintf(", %d windows waited out where the floor probe just before found the host running lookups in its other state", res.WaitedOut)
		}
		fmt.Fprintf(w, "perfrun: set aside %d samples the machine disturbed (%s); %d rounds added to measure them again%s\n",
			n, strings.Join(why, "; "), res.ExtraRounds, waited)
	} else if res.ExtraRounds > 0 {
		fmt.Fprintf(w, "perfrun: %d rounds added for -precision\n", res.ExtraRounds)
	}
	ShortCells(w, res, set)
	var unsupported []string
	for name := range res.Unsupported {
		unsupported = append(unsupported, name)
	}
	sort.Strings(unsupported)
	for _, name := range unsupported {
		fmt.Fprintf(w, "perfrun: %s: not measured: %s\n", name, res.Unsupported[name])
	}
	for _, name := range res.Imprecise {
		fmt.Fprintf(w, "perfrun: %s: not within -precision by -max-time\n", name)
	}
}

// ShortCells names the cells the rounds that repair set-aside samples
// left with fewer kept windows than planned, says why the repair ended,
// and what to do: their tables stand on fewer windows, and a median's
// interval needs six. set is res's results, where the run's last line
// finds the cells that kept none.
func ShortCells(w io.Writer, res *harness.Outcome, set *records.Set) {
	short := res.Short()
	if len(short) == 0 || res.Incomplete {
		return
	}
	// A cell that kept none is named by the run's last line.
	named := Unjudgeable(set)
	short = slices.DeleteFunc(short, func(c harness.ShortCell) bool { return slices.Contains(named, c.Name) })
	if len(short) == 0 {
		return
	}
	// The fewest is named among the stores' cells, not the machine's
	// reference cells (a floor, the control), where a store's is short.
	stores := slices.DeleteFunc(slices.Clone(short), func(c harness.ShortCell) bool { return records.IsReferenceName(c.Name) })
	if len(stores) == 0 {
		stores = short
	}
	byKept := func(a, b harness.ShortCell) int { return a.Kept - b.Kept }
	fewest := slices.MinFunc(stores, byKept)
	least, most := slices.MinFunc(short, byKept).Kept, slices.MaxFunc(short, byKept).Kept
	kept := fmt.Sprintf("%d", most)
	if least < most {
		kept = fmt.Sprintf("%d to %d", least, most)
	}
	which := "the fewest"
	if fewest.Kept > least {
		which = "the fewest of a store's"
	}
	rounds := fmt.Sprintf("%d rounds", res.RepairRounds)
	if res.RepairRounds == 1 {
		rounds = "one round"
	}
	cells := fmt.Sprintf("%d cells", len(short))
	if len(short) == 1 {
		cells = "1 cell"
	}
	remedy := "A quieter machine keeps more."
	if res.RepairRounds < res.Options.Rounds {
		remedy = fmt.Sprintf("With -repair %d it waits longer.", res.Options.Rounds)
	}
	fmt.Fprintf(w, "perfrun: %s kept %s of %d windows (%s: %s, %d): the host disturbed the rest, and the repair took %s of those cells (-repair). Their tables stand on the windows kept; under %d a median has no interval (± ∞). %s\n",
		cells, kept, res.Options.Rounds, which, fewest.Name, fewest.Kept, rounds, harness.IntervalWindows, remedy)
}
