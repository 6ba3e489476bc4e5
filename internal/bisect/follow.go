package bisect

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// A Follower reads ab's reports of a bisection's probes: the whole
// range's chooses the cell to follow (Tracked), and each probe's is
// judged on that cell.
type Follower struct {
	// Tracked is the cell followed, once the whole range chose it.
	Tracked string
	// CountSees says the whole range's step showed in the cell's
	// instruction count.
	CountSees bool
}

// Follow picks the cell that moved most in the whole range (time or
// instructions), the one measured alone from then on, and returns it
// ("" where none moved).
func (f *Follower) Follow(rep compare.Report) string {
	best := 0.0
	for _, c := range rep.Cells {
		if c.Verdict != compare.Regression && c.Verdict != compare.Improved {
			continue
		}
		if d := math.Abs(math.Log(c.Ratio)); d > best {
			best, f.Tracked = d, c.Name
		}
	}
	if f.Tracked == "" {
		return ""
	}
	for _, c := range rep.Cells {
		if c.Name == f.Tracked && c.Unit == records.Instructions {
			f.CountSees = c.Verdict == compare.Regression || c.Verdict == compare.Improved
		}
	}
	return f.Tracked
}

// Judge reads the followed cell's verdicts: moved when time or
// instructions moved the step's way past the threshold, the same when
// time passed (and the count, where taken), undecided otherwise.
func (f *Follower) Judge(m *Measurement, rep compare.Report, thr float64) {
	for _, w := range rep.Warnings {
		if strings.HasPrefix(w, "no instruction verdict") {
			m.NoCount = w
		}
	}
	name := f.Tracked
	if name == "" {
		// Nothing moved: show the cell that moved most all the same.
		best := -1.0
		for _, c := range rep.Cells {
			if d := math.Abs(math.Log(c.Ratio)); c.Unit != records.Instructions && d > best {
				best, name = d, c.Name
			}
		}
	}
	var timeV, instrV *compare.CellVerdict
	for i, c := range rep.Cells {
		if c.Name != name {
			continue
		}
		if c.Unit == records.Instructions {
			instrV = &rep.Cells[i]
		} else if timeV == nil {
			timeV = &rep.Cells[i]
		}
	}
	if timeV != nil {
		m.Shift, m.Low, m.High = timeV.Ratio-1, timeV.Lo-1, timeV.Hi-1
		m.Verdict = fmt.Sprintf("%s %s", timeV.Verdict, timeV.Reason)
	}
	if instrV != nil {
		// Every outcome shows the count it had, whichever decided it.
		m.Instructions = instrV.Ratio - 1
		defer func() { m.Verdict += fmt.Sprintf("; the count: %s", instrV.Verdict) }()
	}
	if f.Tracked == "" {
		// No cell moved in the whole range: no step, unless some cell
		// stayed undecided.
		m.Outcome = Same
		if rep.Verdict != compare.Pass {
			m.Outcome = Undecided
		}
		m.Verdict = fmt.Sprintf("%s overall; %s", rep.Verdict, m.Verdict)
		return
	}
	if timeV == nil {
		m.Outcome = Undecided
		return
	}
	moved, against := compare.Regression, compare.Improved
	if thr < 0 {
		moved, against = against, moved
	}
	countSame := instrV != nil && instrV.Verdict == compare.Pass
	switch {
	case timeV.Verdict == moved || instrV != nil && instrV.Verdict == moved:
		m.Outcome = Moved
	case timeV.Verdict == against:
		m.Outcome = Against
	case timeV.Verdict == compare.Pass && (instrV == nil || countSame):
		m.Outcome = Same
	case f.CountSees && countSame:
		// The step showed in the count, exactly; a probe whose count
		// did not move is not where it happened, though time alone
		// could not tell a quarter of the step at one thread.
		m.Outcome = Same
	default:
		m.Outcome = Undecided
	}
}
