package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// Thresholds configure the gate. Start from DefaultThresholds.
type Thresholds struct {
	// Alpha is the family-wise error rate of each kind of claim
	// (REGRESSION, IMPROVED, PASS) across the gated cells.
	Alpha float64
	// MinEffect is the threshold: the smallest slowdown (or speedup) that
	// matters, as a fraction: 0.05 is 5%.
	MinEffect float64
	// Metric is the timed unit the statistics gate on (lower is better),
	// tidied as benchstat tidies it.
	Metric string
	// AllocsDelta is how many more allocs/op fail the gate.
	AllocsDelta float64
	// InstructionsRatio is how much more instructions/op fail, as a fraction.
	InstructionsRatio float64
	// AllowMissing accepts cells and units that OLD has and NEW lacks.
	AllowMissing bool
	// IgnoreConfig names configuration keys whose differences between the
	// files (or within one) are accepted (see MeaningKeys).
	IgnoreConfig []string
}

// DefaultThresholds are the gate's defaults.
var DefaultThresholds = Thresholds{
	Alpha: 0.05, MinEffect: 0.05, Metric: records.Tidy(records.NsPerOp),
	AllocsDelta: 0.5, InstructionsRatio: 0.01,
}

// MeaningKeys are the configuration keys whose values change what a
// measurement means: results that differ in one of them are not compared
// (the thread count, GOMAXPROCS, is in every cell's name). "corpus" covers
// corpus-2 and so on.
var MeaningKeys = []string{"goos", "goarch", "cpu", "cores", "go", "machine", "corpus", "window", "warmup"}

// MinRounds is the fewest rounds a side needs for gate to give a cell a
// verdict: two would estimate a spread from a single difference.
const MinRounds = 3

// exactMetrics gate on plain thresholds, without statistics.
// instructions/op is one only while every value of a side is the same;
// counts that vary between processes (designs hashing with a per-process
// seed) are a sample, gated by the shared rule when each side has
// instructionSample of them.
var exactMetrics = append(append([]string{records.AllocsPerOp, records.Instructions}, records.LockUnits...), records.TrafficUnits...)

// Predicted reports whether unit is a prediction's from counts (package
// predict's predicted-… units): exact like a count, never a time.
func Predicted(unit string) bool { return strings.HasPrefix(unit, "predicted-") }

// instructionSample is how many per-process counts a side needs for
// instructions/op to be gated as a sample.
const instructionSample = 5

// CheckConfig refuses to compare sets whose configuration differs in a
// key of MeaningKeys — between the two files, or within one (concatenated
// runs of different machines or corpora) — unless the key is ignored. It
// returns warnings for what it accepts: a file that pools several runs.
func CheckConfig(old, new *records.Set, ignore []string) (warnings []string, err error) {
	values := func(s *records.Set, key string) []string {
		var out []string
		for _, k := range s.ConfigKeys() {
			if k == key || strings.HasPrefix(k, key+"-") {
				for _, v := range s.ConfigValues(k) {
					if !slices.Contains(out, v) {
						out = append(out, v)
					}
				}
			}
		}
		return out
	}
	for _, key := range MeaningKeys {
		if slices.Contains(ignore, key) {
			continue
		}
		of := values
		if key == "machine" {
			// No label is a label too: a labelled run beside an unlabelled
			// one, in a file or across two, is two machines until the user
			// says otherwise. Where no record has one, cpu and cores speak.
			of = func(s *records.Set, _ string) []string {
				if l := s.MachineLabels(); len(l) == 1 && l[0] == "" {
					return nil
				}
				return s.MachineLabels()
			}
		}
		for _, s := range []*records.Set{old, new} {
			if v := of(s, key); len(v) > 1 {
				return nil, fmt.Errorf("%s mixes results with different %s (%s): runs of different setups do not pool; -ignore-config %s to use them anyway",
					s.File, key, strings.Join(v, " | "), key)
			}
		}
		a, b := of(old, key), of(new, key)
		if key == "machine" && len(a)+len(b) > 0 && (len(a) == 0 || len(b) == 0) {
			a, b = append(a, ""), append(b, "") // one file labelled, the other not
			a, b = a[:1], b[:1]
		}
		if len(a) == 1 && len(b) == 1 && a[0] != b[0] {
			return nil, fmt.Errorf("%s and %s differ in %s (%q vs %q): results of different setups do not compare; -ignore-config %s to compare anyway",
				old.File, new.File, key, a[0], b[0], key)
		}
	}
	for _, s := range []*records.Set{old, new} {
		if n := s.Repeats(); n > 0 {
			warnings = append(warnings, fmt.Sprintf("%s: %d records repeat an earlier record of their cell value for value (copies, not measurements): each is counted once", s.File, n))
		}
		if d := values(s, "date"); len(d) > 1 {
			warnings = append(warnings, fmt.Sprintf("%s pools %d runs (dates %s … %s)", s.File, len(d), d[0], d[len(d)-1]))
		}
	}
	return warnings, nil
}

// Gate decides between two results files measured separately. Per cell it
// estimates the change of the timed metric as the difference of 20%
// trimmed means of log values (Yuen's t; plain means, Welch's t, below
// minTrimmed rounds a side), and decides with the rule every perfrun gate shares:
// PASS only when the upper bound of the slowdown is below the threshold,
// REGRESSION when the lower bound is above it, Holm across cells;
// otherwise INCONCLUSIVE, saying why. Cells with more threads than cores
// are NOT-GATED; cells or units missing from NEW fail unless AllowMissing;
// cells only NEW has are reported as new, not gated.
func Gate(old, new *records.Set, th Thresholds) (*Report, error) {
	if _, err := Shared(old, new); err != nil {
		return nil, err
	}
	warnings, err := CheckConfig(old, new, th.IgnoreConfig)
	if err != nil {
		return nil, err
	}
	rep := &Report{Old: old.Label, New: new.Label, Threshold: th.MinEffect, Warnings: warnings}
	// Files with no time at all (two callgrind imports) are gated on their
	// counts alone, exactly; a file that has times must have them in both.
	rep.countsOnly = !hasUnit(old, th.Metric) && !hasUnit(new, th.Metric)
	if rep.countsOnly {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("neither file has %s: gated on its counts (instructions/op, allocs/op) alone", th.Metric))
	}
	rep.Warnings = append(rep.Warnings, machineWarnings(old, new)...)
	g := &gating{old: old, new: new, th: th, rep: rep, cores: min(nonZero(old.Cores()), nonZero(new.Cores()))}
	for _, oc := range old.Cells() {
		if !oc.IsReference() { // the machine, not a store: see machineWarnings
			g.cell(oc)
		}
	}
	for _, nc := range new.Cells() {
		if _, ok := old.Cell(nc.Name); !ok && !nc.IsReference() {
			rep.Cells = append(rep.Cells, CellVerdict{Name: nc.Name, Unit: th.Metric, Verdict: NotGated, Reason: "new in " + new.Label + ": nothing to compare with"})
		}
	}
	g.judge(newMachineView(old, new, th.Metric))
	rep.finish()
	return rep, nil
}

// gating is one file gate under way: the report so far, and the cells
// whose times go to the decision.
type gating struct {
	old, new *records.Set
	th       Thresholds
	rep      *Report
	cores    int
	tested   []testedCell
	// threads are the thread counts of the cells both runs measured, each
	// given a note on the machine there, decided or not.
	threads []int
}

// testedCell is a cell whose times are decided: its verdict's place in
// the report, its estimate and its two sides.
type testedCell struct {
	at       int
	est      estimate
	old, new *records.Cell
}

// cell adds old's cell oc to the report: not gated, missing, undecidable
// with the reason, or — with its exact verdicts — to be decided.
func (g *gating) cell(oc *records.Cell) {
	rep, th, name := g.rep, g.th, oc.Name
	nc, ok := g.new.Cell(name)
	if g.cores > 0 && oc.Threads > g.cores {
		// Never gated, so never a missing regression either.
		why := fmt.Sprintf("oversubscribed: %d threads on %d cores", oc.Threads, g.cores)
		if !ok {
			why = fmt.Sprintf("missing from %s, and %s", g.new.Label, why)
		}
		rep.Cells = append(rep.Cells, CellVerdict{Name: name, Unit: th.Metric, Verdict: NotGated, Reason: why})
		return
	}
	if !ok {
		rep.Cells = append(rep.Cells, missingVerdict(name, th.Metric, "missing from "+g.new.Label, th))
		return
	}
	c := CellVerdict{Name: name, Unit: th.Metric, Verdict: Inconclusive}
	if !slices.Contains(g.threads, oc.Threads) {
		g.threads = append(g.threads, oc.Threads)
	}
	if len(nc.Values) == 0 && nc.Aside > 0 {
		// Measured, then set aside whole: the machine, not the store,
		// decided this cell; it is not missing, and not a verdict.
		c.Reason = fmt.Sprintf("%s measured it but set all %d samples aside (%s): no verdict on the store", g.new.Label, nc.Aside, nc.Why)
		rep.Cells = append(rep.Cells, c)
		return
	}
	rep.Cells = append(rep.Cells, exactVerdicts(oc, nc, g.new.Label, th)...)
	if rep.countsOnly {
		return
	}
	a, b := oc.Values[th.Metric], nc.Values[th.Metric]
	switch {
	case len(a) == 0:
		c.Reason = fmt.Sprintf("%s has no %s for it: nothing to gate", g.old.Label, th.Metric)
	case len(b) == 0:
		rep.Cells = append(rep.Cells, missingVerdict(name, th.Metric, fmt.Sprintf("%s has no %s for it (it has %s)", g.new.Label, th.Metric, strings.Join(nc.Units, ", ")), th))
		return
	case len(a) < MinRounds || len(b) < MinRounds:
		c.Reason = fmt.Sprintf("%d and %d rounds: needs at least %d on each side", len(a), len(b), MinRounds)
		if why := asideReason(oc, nc); why != "" {
			c.Reason += "; " + why
		}
	default:
		if e, ok := logRatio(a, b); ok {
			rep.Cells = append(rep.Cells, c)
			g.tested = append(g.tested, testedCell{at: len(rep.Cells) - 1, est: e, old: oc, new: nc})
			return
		}
		c.Reason = "a value is not positive: no ratio"
	}
	rep.Cells = append(rep.Cells, c)
}

// judge gives the tested cells their verdicts (Holm across them), then
// takes back those of a thread count where the machine moved, and says
// what it did where a cell stays undecided.
func (g *gating) judge(machine machineView) {
	cells := make([]*CellVerdict, len(g.tested))
	ests := make([]estimate, len(g.tested))
	for i, t := range g.tested {
		cells[i], ests[i] = &g.rep.Cells[t.at], t.est
	}
	slices.Sort(g.threads)
	g.rep.Warnings = append(g.rep.Warnings, machine.notes(g.threads, g.th.Alpha)...)
	for i, v := range intervalVerdicts(cells, ests, g.th.MinEffect, g.th.Alpha) {
		c, t := cells[i], g.tested[i]
		if v != "" {
			c.Verdict = v
		}
		if why := machine.moved(t.old.Threads, g.th.MinEffect, g.th.Alpha); why != "" {
			c.Verdict, c.Vetoed = Inconclusive, VetoMachine
			c.Reason = fmt.Sprintf("%s (the cell: %s)", why, c.Reason)
		} else if c.Verdict == Inconclusive {
			if saw := machine.saw(t.old, t.new, g.th.Metric); saw != "" {
				c.Reason += "; " + saw
			}
		}
	}
}

// hasUnit says whether any cell of s has values of unit.
func hasUnit(s *records.Set, unit string) bool {
	for _, c := range s.Cells() {
		if len(c.Values[unit]) > 0 {
			return true
		}
	}
	return false
}

// missingVerdict fails closed on a cell or unit NEW lacks, unless the
// thresholds allow missing ones.
func missingVerdict(name, unit, why string, th Thresholds) CellVerdict {
	v := Missing
	if th.AllowMissing {
		v = NotGated
	} else {
		why += " (-allow-missing accepts cells left out on purpose, such as a run of fewer cells)"
	}
	return CellVerdict{Name: name, Unit: unit, Verdict: v, Reason: why}
}

// exactVerdicts are a cell's verdicts on the exact units (allocs/op,
// instructions/op): exactly compared where the counts agree across
// processes, as a sample where instruction counts vary.
func exactVerdicts(oc, nc *records.Cell, newLabel string, th Thresholds) []CellVerdict {
	var out []CellVerdict
	name := oc.Name
	for _, unit := range exactMetrics {
		a, b := oc.Values[unit], nc.Values[unit]
		switch {
		case len(a) == 0:
		case len(b) == 0:
			out = append(out, missingVerdict(name, unit, fmt.Sprintf("%s has no %s for it", newLabel, unit), th))
		case unit == records.Instructions:
			out = append(out, InstructionVerdict(name, a, b, th))
		case slices.Contains(records.LockUnits, unit):
			out = append(out, LockVerdict(name, unit, records.Median(a), records.Median(b), th))
		case slices.Contains(records.TrafficUnits, unit):
			out = append(out, TrafficVerdict(name, unit, a, b, th))
		default:
			out = append(out, exactVerdict(name, unit, records.Median(a), records.Median(b), th))
		}
	}
	return out
}

// InstructionVerdict compares a cell's instructions/op, one count per
// process of each side, at th.InstructionsRatio: exactly where each side's
// counts agree (within exactTolerance), as a sample where they vary and
// each side has instructionSample of them, else INCONCLUSIVE.
func InstructionVerdict(name string, old, new []float64, th Thresholds) CellVerdict {
	if exactCount(old) && exactCount(new) {
		return exactVerdict(name, records.Instructions, records.Median(old), records.Median(new), th)
	}
	c := CellVerdict{Name: name, Unit: records.Instructions, Verdict: Inconclusive}
	e, ok := logRatio(old, new)
	switch {
	case len(old) < instructionSample || len(new) < instructionSample:
		c.Reason = fmt.Sprintf("counts vary between processes: %d and %d processes, needs %d a side", len(old), len(new), instructionSample)
	case !ok:
		c.Reason = "a count is not positive"
	default:
		// Its own family: one claim per cell, at the instructions
		// threshold.
		if v := intervalVerdicts([]*CellVerdict{&c}, []estimate{e}, th.InstructionsRatio, th.Alpha)[0]; v != "" {
			c.Verdict = v
		}
	}
	return c
}

// ExactCount reports whether per-process instruction counts agree well
// enough to be compared as one exact count.
func ExactCount(counts []float64) bool { return exactCount(counts) }

// InstructionSample is how many per-process counts a side needs for
// instructions/op to be compared as a sample.
const InstructionSample = instructionSample

// exactTolerance is how far apart the processes' instruction counts of a
// cell may lie for the gate to treat them as one exact count: wide enough
// for the runtime's own few instructions, narrow enough that a design
// hashing with a per-process seed is compared as a sample
// (results/notes.md, "Instruction counts are exact per process").
const exactTolerance = 5e-4

// exactCount reports whether the values lie within exactTolerance of
// their median: an exact count.
func exactCount(v []float64) bool {
	m := records.Median(v)
	for _, x := range v {
		if math.Abs(x-m) > exactTolerance*math.Abs(m) {
			return false
		}
	}
	return true
}

func nonZero(n int) int {
	if n <= 0 {
		return math.MaxInt
	}
	return n
}

// logRatio estimates log(new/old) from two independent samples of
// positive values (twoSample on their logs).
func logRatio(old, new []float64) (estimate, bool) {
	la, ok1 := logs(old)
	lb, ok2 := logs(new)
	if !ok1 || !ok2 {
		return nil, false
	}
	return twoSample(la, lb), true
}

func logs(v []float64) ([]float64, bool) {
	out := make([]float64, len(v))
	for i, x := range v {
		if !(x > 0) {
			return nil, false
		}
		out[i] = math.Log(x)
	}
	return out, true
}

func exactVerdict(name, unit string, old, new float64, th Thresholds) CellVerdict {
	c := CellVerdict{Name: name, Unit: unit, Verdict: Pass, Ratio: ratio(new, old)}
	var limit float64
	if unit == records.AllocsPerOp {
		limit = old + th.AllocsDelta
	} else {
		limit = old * (1 + th.InstructionsRatio)
	}
	change := ""
	if unit != records.AllocsPerOp && old > 0 {
		change = fmt.Sprintf(" (%+.2f%%)", 100*(new/old-1))
	}
	switch {
	case new > limit:
		c.Verdict, c.Reason = Regression, fmt.Sprintf("%.4g -> %.4g%s exceeds the limit %.4g", old, new, change, limit)
	case unit == records.AllocsPerOp && new < old-th.AllocsDelta, unit != records.AllocsPerOp && new < old*(1-th.InstructionsRatio):
		c.Verdict, c.Reason = Improved, fmt.Sprintf("%.4g -> %.4g%s", old, new, change)
	default:
		c.Reason = fmt.Sprintf("%.4g -> %.4g%s, within the limit", old, new, change)
	}
	return c
}

// ratio is a/b, with 0/0 = 1 and x/0 = +Inf reported as such only in text:
// JSON cannot hold an infinity, so callers keep Ratio finite.
func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return math.MaxFloat64
	}
	return a / b
}

// asideReason says, for a cell left with too few rounds, how many the
// machine disturbed: then the gate has no verdict on the store.
func asideReason(cells ...*records.Cell) string {
	n, why := 0, ""
	for _, c := range cells {
		if c.Aside > 0 {
			n += c.Aside
			why = c.Why
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d rounds set aside because the machine disturbed them (%s): no verdict on the store", n, why)
}

// machineWarnings compares the parallelism the two runs' machines
// delivered (their control cells): a gap of a tenth or more means the
// scaling of every multi-thread cell moved with the machine.
func machineWarnings(old, new *records.Set) []string {
	po, pn := old.Parallelism(), new.Parallelism()
	var out []string
	for n, a := range po {
		if b, ok := pn[n]; ok && n > 1 && math.Abs(b-a) >= 0.1*float64(n) {
			out = append(out, fmt.Sprintf("the machines differ: the control delivered p(%d) = %.2f in %s and %.2f in %s", n, a, old.Label, b, new.Label))
		}
	}
	slices.Sort(out)
	return out
}

// OneMeasurement reports whether two results files hold the same
// measurement: every cell of each with the very values of the other's. A
// gate of a run against itself has seen no second run, and its PASS would
// promise nothing.
func OneMeasurement(a, b *records.Set) bool {
	if len(a.Cells()) != len(b.Cells()) || len(a.Cells()) == 0 {
		return false
	}
	for _, ca := range a.Cells() {
		cb, ok := b.Cell(ca.Name)
		if !ok || len(ca.Values) != len(cb.Values) || ca.Aside != cb.Aside {
			return false
		}
		for unit, v := range ca.Values {
			if !slices.Equal(v, cb.Values[unit]) {
				return false
			}
		}
	}
	return true
}
