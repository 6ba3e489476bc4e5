package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/montanaflynn/stats"

	"github.com/perfrun/perfrun/records"
)

// The arms of an A/B run: base, head, and base again (the A/A arm).
const (
	ArmBase  = "base"
	ArmHead  = "head"
	ArmBase2 = "base-again"
)

// Arms are one cell's values from an interleaved A/B run, by round id:
// in round i, base, head and base again (the A/A arm) ran back to back on
// the same machine, in an order the runner balanced.
type Arms struct {
	Base, Head, Base2 map[int]float64
	// Aside counts the arm processes' samples of the cell the machine
	// disturbed (quarantined), and Why holds one's reason.
	Aside int
	Why   string
	// Windows are the single windows behind the rounds' values, where the
	// arms were paired at the window: a lock-based design's windows under
	// contention are bimodal or heavy-tailed, which a reader should see.
	Windows []Window
}

// Window is one arm's window of a cell: the gated value, the speed probe
// measured after it, and why it was set aside ("" if it counted).
// Transfer is the transfer probe after a window on two threads or more:
// seconds a write to a line the other core wrote last; negative where
// none ran.
type Window struct {
	Round                  int
	Arm                    string
	Value, Probe, Transfer float64
	Aside                  string
}

// Add records an arm's value in a round.
func (a *Arms) Add(arm string, round int, v float64) {
	if a.Base == nil {
		a.Base, a.Head, a.Base2 = make(map[int]float64), make(map[int]float64), make(map[int]float64)
	}
	switch arm {
	case ArmBase:
		a.Base[round] = v
	case ArmHead:
		a.Head[round] = v
	default:
		a.Base2[round] = v
	}
}

// paired returns, for the rounds where all three arms have a positive
// value, the log ratio of head to the mean of both base arms (the A/A arm
// halves the base's noise) and the log ratio of the A/A arm to base.
func (a Arms) paired() (d, aa []float64) {
	var ids []int
	for id := range a.Head {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		b, h, b2 := a.Base[id], a.Head[id], a.Base2[id]
		if b > 0 && h > 0 && b2 > 0 {
			d = append(d, math.Log(h)-(math.Log(b)+math.Log(b2))/2)
			aa = append(aa, math.Log(b2)-math.Log(b))
		}
	}
	return d, aa
}

// MinPairedRounds is the fewest complete rounds a cell needs for a paired
// verdict: with fewer, even all signs alike leave p = 2^-n above any
// useful level.
const MinPairedRounds = 5

// GatePaired decides one look at an interleaved A/B run. Per cell the
// statistic is the per-round log ratio of head to the mean of both base
// arms, paired by round id; the verdict follows the rule every perfrun
// gate shares (see intervalVerdicts) at level th.Alpha, which a sequential caller
// sets to its per-look level (PocockLevel). The A/A arm is a sanity check:
// only when its interval lies wholly outside ±threshold/2 — base cannot
// reproduce itself on this machine — is the cell INCONCLUSIVE whatever
// head did. Cells with more threads than cores are NOT-GATED.
func GatePaired(cells []*records.Cell, arms map[string]Arms, cores int, th Thresholds) *Report {
	rep := &Report{Old: ArmBase, New: ArmHead, Threshold: th.MinEffect}
	var tested []int
	var ests []estimate
	var aas []*signedRank
	var aaRounds [][]float64
	for _, cell := range cells {
		c := CellVerdict{Name: cell.Name, Unit: th.Metric, Verdict: Inconclusive}
		if cores > 0 && cell.Threads > cores {
			c.Verdict, c.Reason = NotGated, fmt.Sprintf("oversubscribed: %d threads on %d cores", cell.Threads, cores)
			rep.Cells = append(rep.Cells, c)
			continue
		}
		a := arms[cell.Name]
		switch {
		case len(a.Head) == 0 && len(a.Base)+len(a.Base2) > 0 && a.Aside > 0:
			// Set aside, not missing: the machine decided this cell.
			c.Reason = fmt.Sprintf("head has no sample left: %d set aside because the machine disturbed them (%s): no verdict on the store", a.Aside, a.Why)
			rep.Cells = append(rep.Cells, c)
			continue
		case len(a.Head) == 0 && len(a.Base)+len(a.Base2) > 0:
			// Fail closed: a cell base measures and head does not.
			c.Verdict, c.Reason = Missing, "missing from head: base measures it, head does not"
			if th.AllowMissing {
				c.Verdict = NotGated
			}
			rep.Cells = append(rep.Cells, c)
			continue
		case len(a.Head) > 0 && len(a.Base)+len(a.Base2) == 0:
			c.Verdict, c.Reason = NotGated, "new in head: nothing to compare with"
			rep.Cells = append(rep.Cells, c)
			continue
		}
		d, aa := a.paired()
		if len(d) < MinPairedRounds {
			c.Rounds = len(d)
			c.Reason = fmt.Sprintf("%d complete rounds: needs at least %d", len(d), MinPairedRounds)
			if a.Aside > 0 {
				c.Reason += fmt.Sprintf("; %d samples set aside because the machine disturbed them (%s): no verdict on the store", a.Aside, a.Why)
			}
			c.undecided = true
			rep.Cells = append(rep.Cells, c)
			continue
		}
		rep.Cells = append(rep.Cells, c)
		tested = append(tested, len(rep.Cells)-1)
		ests, aas = append(ests, newSignedRank(d)), append(aas, newSignedRank(aa))
		aaRounds = append(aaRounds, aa)
	}
	verdicts := make([]*CellVerdict, len(tested))
	for i, idx := range tested {
		verdicts[i] = &rep.Cells[idx]
	}
	half := math.Log1p(th.MinEffect / 2)
	for i, v := range intervalVerdicts(verdicts, ests, th.MinEffect, th.Alpha) {
		c := verdicts[i]
		if v != "" {
			c.Verdict = v
		} else {
			c.undecided = true
		}
		lo, hi := aas[i].bounds(th.Alpha)
		c.Noise = math.Expm1(aas[i].center())
		sd, _ := stats.StandardDeviationSample(aaRounds[i])
		c.Layout = sd / math.Sqrt2
		if lo > half || hi < -half {
			c.Verdict, c.undecided, c.Vetoed = Inconclusive, false, VetoAA
			c.Reason = fmt.Sprintf("base against itself moved %+.1f%% [%+.1f%%, %+.1f%%], outside ±%.1f%%: the machine did not hold still (head: %s)",
				100*c.Noise, 100*math.Expm1(lo), 100*math.Expm1(hi), 50*th.MinEffect, c.Reason)
		}
	}
	rep.finish()
	return rep
}

// Undecided returns the cells a second look with more rounds may decide:
// INCONCLUSIVE because their interval spans the threshold or their rounds
// were too few, not because the A/A arm failed.
func (r *Report) Undecided() []string {
	var out []string
	for _, c := range r.Cells {
		if c.undecided {
			out = append(out, c.Name)
		}
	}
	return out
}

// Replace takes a later look's verdicts for the cells it decided on,
// keeps the earlier looks' for the others, and recomputes the overall
// verdict. A later look never turns an earlier verdict around: only cells
// left undecided are in it.
func (r *Report) Replace(later *Report, look int) {
	byName := make(map[string]CellVerdict)
	for _, c := range later.Cells {
		byName[c.Name] = c
	}
	for i, c := range r.Cells {
		if s, ok := byName[c.Name]; ok {
			s.Reason += fmt.Sprintf(" (batch %d of rounds)", look)
			r.Cells[i] = s
		}
	}
	r.finish()
}

// Merge adds b's rounds to a's (round ids do not collide: a later look
// numbers its rounds after the earlier ones).
func (a *Arms) Merge(b Arms) {
	for id, v := range b.Base {
		a.Add(ArmBase, id, v)
	}
	for id, v := range b.Head {
		a.Add(ArmHead, id, v)
	}
	for id, v := range b.Base2 {
		a.Add(ArmBase2, id, v)
	}
	a.Windows = append(a.Windows, b.Windows...)
	a.Aside += b.Aside
	if b.Why != "" {
		a.Why = b.Why
	}
}
