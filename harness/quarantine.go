package harness

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

// Quarantine decides which samples the machine, not the store, decided.
// A sample of a cell with no more threads than cores is set aside when
//   - the control of its round and thread count delivered less than
//     Delivered × n: p(n) = control(n) / control(1) (control(1) the median
//     of the run's undisturbed one-thread controls), or
//   - one of its own workers spent more than MaxWait of the window
//     runnable but waiting for a CPU, or the hypervisor stole more than
//     MaxSteal of the machine's CPU time in it, or
//   - its speed probe (records.Probe) ran more than MaxSlow slower than
//     the median probe of the run's samples at its thread count: the
//     machine itself was slow when the window was measured, or
//   - its floor probe (records.FloorProbe) ran more than MaxSlow slower
//     or faster than the median floor probe at its thread count: the host
//     was in the other of its two states for lookups than most windows, or
//   - its transfer probe (records.TransferProbe) puts its threads on
//     another pair of cores than the median transfer probe at its thread
//     count (records.OtherPair).
//
// Set-aside samples stay in the results, marked, and out of every table,
// plot and verdict; their cells are measured again after the planned
// rounds, for at most as long as Extra added rounds of them take (0: as
// many as were planned), and, while a cell has kept fewer windows than a
// median's interval needs (IntervalWindows), as long as the planned
// rounds of them take.
// Cells with more threads than cores time-slice by design and are never
// set aside.
type Quarantine struct {
	Delivered float64
	MaxWait   float64
	MaxSteal  float64
	MaxSlow   float64
	Extra     int
}

// DefaultQuarantine sits between what a quiet machine does and what a
// CPU hog on one core does, each measured (results/notes.md, "Quarantine's
// defaults"): a quiet round's control, workers' waits, steal and probe
// stay well inside every limit, and a hogged one crosses at least one.
var DefaultQuarantine = Quarantine{Delivered: 0.85, MaxWait: 0.25, MaxSteal: 0.05, MaxSlow: 0.25}

func (q Quarantine) on() bool {
	return q.Delivered > 0 || q.MaxWait > 0 || q.MaxSteal > 0 || q.MaxSlow > 0
}

// Window says why the machine disturbed one window, judged from its own
// values alone (value returns a unit's value and whether the window has
// one), or "" when it did not: a worker waited for a CPU more than MaxWait
// of the window, or the hypervisor stole more than MaxSteal of the CPU
// time. The control's and the probe's judgements need other windows.
func (q Quarantine) Window(value func(unit string) (float64, bool)) string {
	if w, ok := value(records.RunQueue); ok && q.MaxWait > 0 && w > q.MaxWait {
		return fmt.Sprintf("a worker waited for a CPU more than %.0f%% of the window", 100*q.MaxWait)
	}
	if st, ok := value(records.Steal); ok && q.MaxSteal > 0 && st > q.MaxSteal {
		return fmt.Sprintf("the hypervisor stole more than %.0f%% of the CPU time", 100*q.MaxSteal)
	}
	return ""
}

// metric returns the value of unit in a sample, and whether it has one.
func metric(s *Sample, unit string) (float64, bool) {
	for _, m := range s.Metrics {
		if m.Unit == unit {
			return m.Value, true
		}
	}
	return 0, false
}

func isControl(c Cell) bool { return c.Workload.Name == workloads.Control.Name }

// judge decides every sample anew from everything measured so far, so a
// control(1) measured later can correct the reference of earlier rounds.
func (r *runner) judge() {
	q := r.opts.Quarantine
	if !q.on() {
		return
	}
	cores := Cores()
	samples := r.res.Samples
	for i := range samples {
		s := &samples[i]
		s.Quarantine = ""
		if s.Cell.Threads > cores {
			continue
		}
		s.Quarantine = q.Window(func(unit string) (float64, bool) { return metric(s, unit) })
	}
	r.judgeProbes()
	ref := r.controlReference()
	if ref <= 0 || q.Delivered <= 0 {
		return
	}
	for i := range samples {
		c := &samples[i]
		n := c.Cell.Threads
		if !isControl(c.Cell) || n < 2 || n > cores {
			continue
		}
		ops, _ := metric(c, records.OpsPerSec)
		p := ops / ref
		if p >= q.Delivered*float64(n) {
			continue
		}
		why := fmt.Sprintf("the machine delivered fewer than %.2f of %d cores to the control", q.Delivered*float64(n), n)
		for j := range samples {
			s := &samples[j]
			if s.Round == c.Round && s.Cell.Threads == n && s.Quarantine == "" {
				s.Quarantine = why
			}
		}
	}
}

// judgeProbes sets aside the samples whose speed probe ran more than
// MaxSlow slower than its median at their thread count, and those whose
// floor probe ran more than MaxSlow slower or faster than its median: the
// floor probe is bimodal (the host's fast and slow states, about 1.75
// times apart), so a run keeps the windows of the state most of its
// windows saw, whichever it was. So too of the pair of cores its
// transfer probe tells.
func (r *runner) judgeProbes() {
	q := r.opts.Quarantine
	if q.MaxSlow <= 0 {
		return
	}
	r.judgeProbe(records.Probe, fmt.Sprintf("the machine ran more than %.0f%% slower than usual (speed probe)", 100*q.MaxSlow), false,
		func(p, ref float64) bool { return r.outside(p, ref, false) })
	r.judgeProbe(records.FloorProbe, fmt.Sprintf("the machine ran lookups more than %.0f%% slower or faster than usual (floor probe)", 100*q.MaxSlow), false,
		func(p, ref float64) bool { return r.outside(p, ref, true) })
	r.judgeProbe(records.TransferProbe, "its two threads ran on another pair of cores than most windows' (transfer probe)", true,
		func(p, ref float64) bool { return ref > 0 && records.OtherPair(p, ref) })
}

// judgeProbe sets aside, with why, the samples not yet set aside whose
// probe of unit is outside the median of unit at their thread count: over
// all samples, or, where kept, over those not set aside (probeMedians).
func (r *runner) judgeProbe(unit, why string, kept bool, outside func(p, ref float64) bool) {
	ref := r.probeMedians(unit, kept)
	cores := Cores()
	for i := range r.res.Samples {
		s := &r.res.Samples[i]
		p, ok := metric(s, unit)
		if !ok || s.Quarantine != "" || s.Cell.Threads > cores {
			continue
		}
		if outside(p, ref[s.Cell.Threads]) {
			s.Quarantine = why
		}
	}
}

// probeMedians is the median of unit's probes over all samples, by
// thread count; where kept, over the samples not set aside alone: a
// transfer probe after a window whose worker waited for a CPU may have had
// both its threads on one, and tells no pair.
func (r *runner) probeMedians(unit string, kept bool) map[int]float64 {
	probes := make(map[int][]float64)
	for i := range r.res.Samples {
		s := &r.res.Samples[i]
		if kept && s.Quarantine != "" {
			continue
		}
		if p, ok := metric(s, unit); ok {
			probes[s.Cell.Threads] = append(probes[s.Cell.Threads], p)
		}
	}
	ref := make(map[int]float64)
	for n, v := range probes {
		ref[n] = records.Median(v)
	}
	return ref
}

// outside says whether a probe p ran more than MaxSlow slower than ref
// (or, if both, faster); a probe or a reference not measured is not.
func (r *runner) outside(p, ref float64, both bool) bool {
	if p <= 0 || ref <= 0 {
		return false
	}
	limit := math.Log1p(r.opts.Quarantine.MaxSlow)
	d := math.Log(p / ref)
	return d > limit || both && -d > limit
}

// waitedOut says whether a window of c in a round that repairs set-aside
// samples is better not measured now: the floor probe, run just before it,
// finds the host in its other state for lookups, in which the window
// would be set aside as its own floor probe judged it against ref, the
// median of the run's floor probes at c's threads. Waiting costs a probe,
// where measuring would cost a window for nothing; the state lasts longer
// than a window (results/main-job/README.md).
func (r *runner) waitedOut(ctx context.Context, c Cell, ref float64) (bool, error) {
	if r.opts.Quarantine.MaxSlow <= 0 || c.Threads > Cores() {
		return false, nil
	}
	m, ok, err := r.probeFloor(ctx, c)
	if err != nil || !ok {
		return false, err
	}
	return r.outside(m.Value, ref, true), nil
}

// controlReference is the one-thread control's median throughput over the
// samples not set aside: the machine's one core, what p(n) divides by.
func (r *runner) controlReference() float64 {
	var v []float64
	for i := range r.res.Samples {
		s := &r.res.Samples[i]
		if isControl(s.Cell) && s.Cell.Threads == 1 && s.Quarantine == "" {
			if ops, ok := metric(s, records.OpsPerSec); ok {
				v = append(v, ops)
			}
		}
	}
	if len(v) == 0 {
		return 0
	}
	return records.Summarize(v).Median
}

// valid returns a cell's values of unit from the samples not set aside.
func (r *Outcome) valid(c Cell, unit string) []float64 {
	var out []float64
	for i := range r.Samples {
		s := &r.Samples[i]
		if s.Quarantine == "" && s.Cell.Name() == c.Name() {
			if v, ok := metric(s, unit); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// short lists the cells with fewer undisturbed samples than planned rounds.
func (r *runner) short() []Cell {
	var out []Cell
	for _, c := range r.res.Cells {
		if _, short := r.res.keptOf(c); short {
			out = append(out, c)
		}
	}
	return out
}

// ShortCell is a cell that kept fewer windows than the rounds planned.
type ShortCell struct {
	Name string
	Kept int
}

// Short lists the measured cells that kept fewer windows than the rounds
// planned, in the run's order: what the rounds that repair set-aside
// samples left short.
func (r *Outcome) Short() []ShortCell {
	var out []ShortCell
	for _, c := range r.Cells {
		if kept, short := r.keptOf(c); short {
			out = append(out, ShortCell{c.Name(), kept})
		}
	}
	return out
}

// keptOf is how many undisturbed samples a measured cell has, and whether
// that is fewer than the planned rounds.
func (r *Outcome) keptOf(c Cell) (kept int, short bool) {
	if _, ok := r.Unsupported[c.Name()]; ok {
		return 0, false
	}
	kept = len(r.valid(c, records.NsPerOp))
	return kept, kept < r.Options.Rounds
}

// wide lists the gated cells (no more threads than cores) whose median
// ns/op is not yet known to within Precision.
func (r *runner) wide() []Cell {
	var out []Cell
	for _, c := range r.res.Cells {
		if _, ok := r.res.Unsupported[c.Name()]; c.Threads > Cores() || ok {
			continue
		}
		if halfWidth(r.res.valid(c, records.NsPerOp)) > r.opts.Precision {
			out = append(out, c)
		}
	}
	return out
}

// halfWidth is the larger side of the median's confidence interval over
// the median: infinite with too few values for an interval.
func halfWidth(v []float64) float64 {
	s := records.Summarize(v)
	if s.N == 0 || s.Median <= 0 || math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return math.Inf(1)
	}
	return max(s.Hi-s.Median, s.Median-s.Lo) / s.Median
}

// withControls adds the controls a round of cells needs to be judged: one
// thread, and each thread count of cells.
func (r *runner) withControls(cells []Cell) []Cell {
	out := slices.Clone(cells)
	for _, c := range r.res.Controls {
		if c.Threads == 1 || slices.ContainsFunc(cells, func(x Cell) bool { return x.Threads == c.Threads }) {
			out = append(out, c)
		}
	}
	return out
}

// repairing is what an added round that replaces set-aside samples says.
const repairing = "re-measuring set-aside rounds"

// extraRounds adds rounds after the planned ones: first to replace
// set-aside samples (repairBudget), then to reach Precision within
// MaxTime. It reports stopped when interrupted.
func (r *runner) extraRounds(ctx context.Context) (bool, error) {
	limit := r.opts.Quarantine.Extra
	if limit <= 0 {
		limit = r.opts.Rounds
	}
	// A starved cell may take the rounds planned, where limit is fewer.
	starvedLimit := max(limit, r.opts.Rounds)
	repairs := 0
	var began time.Time
	var budget, starvedBudget time.Duration
	for {
		var cells []Cell
		why := ""
		short := r.short()
		if r.opts.Quarantine.on() && len(short) > 0 && began.IsZero() {
			began, budget, starvedBudget = time.Now(), r.repairBudget(short, limit), r.repairBudget(short, starvedLimit)
		}
		within, most, rounds := budget, maxRepairs*limit, limit
		if r.starved() {
			within, most, rounds = starvedBudget, maxRepairs*starvedLimit, starvedLimit
		}
		if len(short) > 0 && !began.IsZero() && time.Since(began) < within && repairs < most {
			cells, why = short, repairing
			r.addedUntil = began.Add(within)
			repairs++
			r.res.RepairRounds = max(r.res.RepairRounds, rounds)
		} else if r.opts.Precision > 0 {
			wide := r.wide()
			perCell := time.Since(r.res.Started) / time.Duration(max(r.done, 1))
			next := perCell * time.Duration(len(r.withControls(wide)))
			if len(wide) == 0 || r.opts.MaxTime > 0 && time.Since(r.res.Started)+next > r.opts.MaxTime {
				break
			}
			cells, why = wide, fmt.Sprintf("toward ±%.3g%%", 100*r.opts.Precision)
			r.addedUntil = time.Time{}
			if r.opts.MaxTime > 0 {
				r.addedUntil = r.res.Started.Add(r.opts.MaxTime)
			}
		}
		if len(cells) == 0 {
			break
		}
		cells = r.withControls(cells)
		r.total += len(cells)
		stopped, err := r.round(ctx, cells, r.opts.Rounds+r.res.ExtraRounds, why)
		if stopped || err != nil {
			return stopped, err
		}
		r.res.ExtraRounds++
	}
	if r.opts.Precision > 0 {
		for _, c := range r.wide() {
			r.res.Imprecise = append(r.res.Imprecise, c.Name())
		}
	}
	return false, nil
}

// IntervalWindows is the fewest samples whose median has a 95% interval
// in benchmath, and so in benchstat and the plots' bars: a cell that kept
// fewer windows prints ± ∞ there.
const IntervalWindows = 6

// starved says whether a cell has kept fewer windows than its median's
// interval needs (IntervalWindows, or all planned rounds where fewer were
// planned): an interval is worth waiting for, so the repair may go on
// past Quarantine.Extra for as long as the planned rounds of the short
// cells take.
func (r *runner) starved() bool {
	least := min(IntervalWindows, r.opts.Rounds)
	for _, c := range r.res.Cells {
		if kept, short := r.res.keptOf(c); short && kept < least {
			return true
		}
	}
	return false
}

// maxRepairs bounds the rounds that repair set-aside samples, as a
// multiple of Quarantine.Extra (of the planned rounds while a cell is
// starved): rounds whose every window is waited out cost probes alone.
const maxRepairs = 8

// repairBudget is how long the rounds that repair set-aside samples may
// take: as long as limit rounds of the cells short when they begin
// (controls included), at the time a window has taken so far. A round
// whose windows wait out the host's other state (waitedOut) is cheaper,
// so more of them fit, where the state lasts longer than one.
func (r *runner) repairBudget(short []Cell, limit int) time.Duration {
	perWindow := time.Since(r.res.Started) / time.Duration(max(r.done, 1))
	return time.Duration(limit*len(r.withControls(short))) * perWindow
}

// SetAside summarizes the quarantined samples: how many, and how many for
// each kind of reason (a reason up to its first number), most frequent
// first.
func (r *Outcome) SetAside() (n int, reasons []string) {
	count := make(map[string]int)
	for _, s := range r.Samples {
		if s.Quarantine == "" {
			continue
		}
		n++
		count[s.Quarantine]++ // a reason names a kind of disturbance, not a figure
	}
	for k := range count {
		reasons = append(reasons, k)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if count[reasons[i]] != count[reasons[j]] {
			return count[reasons[i]] > count[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	for i, k := range reasons {
		reasons[i] = fmt.Sprintf("%d: %s", count[k], k)
	}
	return n, reasons
}
