package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// A file gate compares two processes run minutes apart, and the machine
// changes between them: a slow minute of the host slows every process.
// The speed and floor probes after each window and the control cells run
// the harness's own code, the same in both files whatever the stores did,
// so what they moved is the machine's (harness/probe.go). machineView holds, per thread
// count, what they saw: a cell whose machine moved between the runs by
// more than a yardstick's share of the threshold (half; the floor probe's
// floorLimit) gets no verdict on the store (the file gate's A/A arm), and
// an undecided cell says what the machine did in its windows.

// twoLevels is how much slower than its fastest round a cell's slowest
// must run for the reason to say its rounds ran at two levels. The
// spread above is robust, so it describes the majority of the rounds; a
// lock-based design at 2 threads can run at one of two levels for minutes
// while every probe holds still, and then the spread alone would hide it
// (results/notes.md, "Two levels").
const twoLevels = 0.25

// slowProbe is how much slower than its run's median a speed probe must
// run for its window to count as measured on a slow machine.
const slowProbe = 0.05

// machineView is what the probes and control cells of two runs saw, by
// thread count.
type machineView struct {
	old, new string
	at       map[int]*machineAt
}

// machineAt is the machine at one thread count.
type machineAt struct {
	// yardsticks are log(new/old) of what measured the machine: the speed
	// probes of every window at this thread count and the control cell's
	// values, each only where both files have MinRounds of them.
	yardsticks []yardstick
	// probeMedian is each run's median probe, the yardstick of a slow one.
	probeMedian [2]float64
	// controlSD is each run's robust spread of the control's rounds, as a
	// fraction; hasControl says both runs have one.
	controlSD  [2]float64
	hasControl bool
}

type yardstick struct {
	what string
	e    estimate
	// perWindow says the yardstick has a value after every window (the
	// probes), dozens a side, so its best estimate is the machine's move;
	// the control has one a round, five a side by default, and its
	// estimate alone moves by several percent by chance.
	perWindow bool
	// ofThreshold is the share of the threshold the yardstick may move
	// before it vetoes: half for the speed probe and the control, all of
	// it for the floor probe (floorLimit).
	ofThreshold float64
}

// floorLimit is the share of the threshold the floor probe may move
// between two runs before it vetoes their cells: the whole of it, where
// the other yardsticks get half. The floor probe tells the host's two
// states apart, but within one state it wanders from process to process
// by itself, and the designs follow that wander unevenly; at half the
// threshold it vetoed pairs of one state for the probe's own wander, with
// no false REGRESSION gained (results/notes.md, "The floor probe's
// limit").
const floorLimit = 1.0

func newMachineView(old, new *records.Set, metric string) machineView {
	m := machineView{old: old.Label, new: new.Label, at: make(map[int]*machineAt)}
	probe, floor := records.Tidy(records.Probe), records.Tidy(records.FloorProbe)
	windows := func(s *records.Set, threads int, unit string) []float64 {
		var out []float64
		for _, c := range s.Cells() {
			if c.Threads == threads {
				out = append(out, c.Values[unit]...)
			}
		}
		return out
	}
	controls := func(s *records.Set, threads int) []float64 {
		for _, c := range s.Cells() {
			if c.IsControl() && c.Threads == threads {
				return c.Values[metric]
			}
		}
		return nil
	}
	for _, c := range old.Cells() {
		t := c.Threads
		if _, done := m.at[t]; done {
			continue
		}
		a := &machineAt{}
		po, pn := windows(old, t, probe), windows(new, t, probe)
		fo, fn := windows(old, t, floor), windows(new, t, floor)
		a.probeMedian = [2]float64{records.Median(po), records.Median(pn)}
		co, cn := controls(old, t), controls(new, t)
		for _, y := range []struct {
			what      string
			old, new  []float64
			perWindow bool
			of        float64
		}{
			{"speed probe", po, pn, true, 0.5},
			{"floor probe", fo, fn, true, floorLimit},
			{"control", co, cn, false, 0.5},
		} {
			if e := shift(y.old, y.new); e != nil {
				a.yardsticks = append(a.yardsticks, yardstick{y.what, e, y.perWindow, y.of})
			}
		}
		a.controlSD = [2]float64{relativeSD(co), relativeSD(cn)}
		a.hasControl = shift(co, cn) != nil
		m.at[t] = a
	}
	return m
}

// shift estimates log(new/old) of two samples, nil if either is too
// small or not positive.
func shift(old, new []float64) estimate {
	if len(old) < MinRounds || len(new) < MinRounds {
		return nil
	}
	e, ok := logRatio(old, new)
	if !ok {
		return nil
	}
	return e
}

// moved says how the machine moved between the runs at a cell's thread
// count: where a yardstick's whole interval at alpha lies beyond its
// share of the threshold (half; the floor probe's floorLimit), or a
// per-window yardstick's best estimate does; "" if
// every one held still (or nothing measured it). The control's bare
// estimate does not count: one value a round moves by chance, and as a
// veto it cost many PASS cells for almost no false REGRESSION prevented
// (results/notes.md, "The control's bare estimate").
func (m machineView) moved(threads int, threshold, alpha float64) string {
	a := m.at[threads]
	if a == nil {
		return ""
	}
	var saw []string
	for _, y := range a.yardsticks {
		lim := math.Log1p(threshold * y.ofThreshold)
		lo, hi := y.e.bounds(alpha)
		if c := y.e.center(); lo > lim || hi < -lim || y.perWindow && math.Abs(c) > lim {
			saw = append(saw, fmt.Sprintf("its %s ran %+.1f%% [%s, %s], beyond ±%.1f%%", y.what, 100*math.Expm1(c), bound(lo), bound(hi), 100*threshold*y.ofThreshold))
		}
	}
	if len(saw) == 0 {
		return ""
	}
	return fmt.Sprintf("the machine moved between the runs: at %s %s in %s against %s: no verdict on the store",
		threadsText(threads), strings.Join(saw, " and "), m.new, m.old)
}

// saw says what the machine did in a cell's windows, for a cell the
// data left undecided: how many of them the speed probe found slow, and
// how much its rounds spread inside each run beside the control's (the
// probe's and control's moves between the runs are in notes).
func (m machineView) saw(oc, nc *records.Cell, metric string) string {
	a := m.at[oc.Threads]
	if a == nil {
		return ""
	}
	probe := records.Tidy(records.Probe)
	slow, of := 0, 0
	for i, c := range []*records.Cell{oc, nc} {
		for _, p := range c.Values[probe] {
			of++
			if a.probeMedian[i] > 0 && p > a.probeMedian[i]*(1+slowProbe) {
				slow++
			}
		}
	}
	var parts []string
	if of > 0 {
		parts = append(parts, fmt.Sprintf("%d of its %d windows ran before a speed probe over %.0f%% slow", slow, of, 100*slowProbe))
	}
	if a.hasControl {
		parts = append(parts, fmt.Sprintf("its rounds spread ±%.1f%% and ±%.1f%%, the control's ±%.1f%% and ±%.1f%%",
			100*relativeSD(oc.Values[metric]), 100*relativeSD(nc.Values[metric]), 100*a.controlSD[0], 100*a.controlSD[1]))
	}
	for i, c := range []*records.Cell{oc, nc} {
		v := c.Values[metric]
		if len(v) < 2 {
			continue
		}
		if lo, hi := slices.Min(v), slices.Max(v); lo > 0 && hi > lo*(1+twoLevels) {
			parts = append(parts, fmt.Sprintf("in %s its slowest round took %.2f× its fastest (rounds at two levels, which a spread does not describe)",
				[]string{m.old, m.new}[i], hi/lo))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "the machine: " + strings.Join(parts, "; ")
}

// notes say, per thread count of the gated cells, how far the speed
// probe and the control moved between the runs, or that neither run kept
// them there.
func (m machineView) notes(threads []int, alpha float64) []string {
	var out []string
	for _, t := range threads {
		a := m.at[t]
		var parts []string
		if a != nil {
			for _, y := range a.yardsticks {
				lo, hi := y.e.bounds(alpha)
				parts = append(parts, fmt.Sprintf("%s %+.1f%% [%s, %s]", y.what, 100*math.Expm1(y.e.center()), bound(lo), bound(hi)))
			}
		}
		note := fmt.Sprintf("the machine at %s, %s against %s: ", threadsText(t), m.new, m.old)
		if len(parts) == 0 {
			out = append(out, note+"not seen (no speed probe or control kept in both runs), so how far it moved is unknown")
			continue
		}
		note += strings.Join(parts, ", ")
		if a.hasControl {
			note += fmt.Sprintf("; the control's rounds spread ±%.1f%% and ±%.1f%%", 100*a.controlSD[0], 100*a.controlSD[1])
		}
		out = append(out, note)
	}
	return out
}

func threadsText(n int) string {
	if n == 1 {
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", n)
}

// relativeSD is the robust spread of the logs of v: a fraction that a
// slow window or two does not set.
func relativeSD(v []float64) float64 {
	l, ok := logs(v)
	if !ok || len(l) < 2 {
		return 0
	}
	return robustSD(l)
}

// robustSD is the normal-consistent median absolute deviation.
func robustSD(x []float64) float64 {
	m := records.Median(x)
	d := make([]float64, len(x))
	for i, v := range x {
		d[i] = math.Abs(v - m)
	}
	return 1.4826 * records.Median(d)
}
