package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/records"
)

// Verdict is what the gate decides, per cell and overall.
type Verdict string

const (
	Pass         Verdict = "PASS"
	Improved     Verdict = "IMPROVED"
	Regression   Verdict = "REGRESSION"
	Inconclusive Verdict = "INCONCLUSIVE"
	NotGated     Verdict = "NOT-GATED"
	// Missing is a gated cell or unit NEW lacks: it fails closed, as a
	// REGRESSION does (exit 1), named for what it is.
	Missing Verdict = "MISSING"
)

// Severity orders verdicts: the worst of a report or a cell decides it.
func (v Verdict) Severity() int {
	switch v {
	case Regression:
		return 5
	case Missing:
		return 4
	case Trade:
		return 3
	case Inconclusive:
		return 2
	case Improved:
		return 1
	}
	return 0
}

// CellVerdict is the gate's decision on one benchmark and unit.
type CellVerdict struct {
	Name    string  `json:"name"`
	Unit    string  `json:"unit"`
	Verdict Verdict `json:"verdict"`
	// Ratio is new/old of the centers (for paired A/B, the Hodges–Lehmann
	// estimate of the per-round ratio: the median of the Walsh averages of
	// the log ratios); Lo and Hi bound it where a test gives bounds.
	Ratio float64 `json:"ratio"`
	Lo    float64 `json:"lo,omitempty"`
	Hi    float64 `json:"hi,omitempty"`
	P     float64 `json:"p,omitempty"`
	PAdj  float64 `json:"p_holm,omitempty"`
	// Noise is what the A/A arm (base against itself) moved, as a
	// fraction, where one was measured.
	Noise float64 `json:"noise,omitempty"`
	// Layout is how much one arm's binary moved the cell, as a fraction:
	// the spread of the A/A arm's per-round log ratios over √2. With a
	// fresh code layout for every arm of every round it is what code
	// layout (and the process it runs in) alone does to identical code.
	Layout float64 `json:"layout,omitempty"`
	Reason string  `json:"reason"`
	// Rounds is how many rounds the verdict rests on; NeedRounds, for an
	// undecided cell, about how many would decide it at the spread seen.
	Rounds     int `json:"rounds,omitempty"`
	NeedRounds int `json:"need_rounds,omitempty"`
	// ByCounts marks a PASS the counts gave where time could not decide
	// (Report.Decide).
	ByCounts bool `json:"by_counts,omitempty"`
	// Cause is, for a prediction, the first cause its reason names in a
	// few words ("the busiest exclusive lock's queue 0 ns -> 16.5 µs a
	// call"): what the answer line quotes.
	Cause string `json:"cause,omitempty"`
	// Vetoed says why time's own measurement of the cell is void whatever
	// head did: the machine did not hold still ("" where it held).
	Vetoed Veto `json:"vetoed,omitempty"`

	undecided bool // more rounds may decide it (ab's second look)
}

// A Veto is why a time cell's measurement is void: the same code,
// measured twice, moved as much as a verdict would rest on.
type Veto string

const (
	// VetoAA: base against itself (ab's A/A arm) moved past half the
	// threshold.
	VetoAA Veto = "a/a"
	// VetoMachine: the machine's reference cells moved between the two
	// runs at the cell's thread count (gate).
	VetoMachine Veto = "machine"
)

// Report is a whole gate decision.
type Report struct {
	Verdict Verdict `json:"verdict"`
	Old     string  `json:"old"`
	New     string  `json:"new"`
	// Threshold is the smallest change that matters, as a fraction.
	Threshold float64       `json:"threshold"`
	Cells     []CellVerdict `json:"cells"`
	// Warnings are what the data made the gate accept, such as pooled runs.
	Warnings []string `json:"warnings,omitempty"`
	// Answers say, a line a design the change moved, what it does at
	// each declared thread count (Decide); a trade's line says so.
	Answers []string `json:"answers,omitempty"`
	// Figures are the answers' numbers: a design's head ÷ base at each
	// declared thread count it moved at, and what measured it.
	Figures []Figure `json:"figures,omitempty"`
	// Decided are the table's decisions, a design and declared count
	// each, with the witness that gave each and what each witness said
	// (Decide).
	Decided []Decided `json:"decided,omitempty"`
	// Held are what the predictions that gave an answer were held to,
	// once each (Rules.Held): how far to trust a predicted figure, said
	// where it is read.
	Held []string `json:"held,omitempty"`
	// Untimed, where set, says why time was not measured (ab -time): the
	// counts and the prediction decided every count.
	Untimed string `json:"untimed,omitempty"`

	countsOnly bool            // neither side has a time: counts are what is gated
	trades     map[string]bool // designs better at one declared count, worse at another
	// predictionGates: a declared count is past the cores, where the
	// prediction is the witness that judges (Decide).
	predictionGates bool
	// decisions are the table's, by design and declared count (Decide);
	// measured the cells before any decision was shown on them.
	decisions map[string]map[int]atCount
	measured  []CellVerdict
	// nothingGated is the warning finish said last, if any.
	nothingGated string
}

// finish sets the overall verdict: the decisions' where the report was
// decided (decidedVerdict, which alone knows a TRADE), else the worst
// cell's: any regression, else any inconclusive cell, else any
// improvement, else pass.
//
// A report that gated nothing — every cell oversubscribed, new, missing
// but allowed, or only the machine's reference cells — is INCONCLUSIVE,
// never PASS: a gate that could not look has not seen that nothing slowed.
func (r *Report) finish() {
	if v, ok := r.decidedVerdict(); ok {
		r.Verdict = v
		if v == Inconclusive && !r.decidedAnything() {
			r.sayNothingGated("nothing was gated on time: no witness decided any declared count: time decided none, and nothing counted or predicted settles what it left")
		}
		return
	}
	r.Verdict = Pass
	gated := 0
	for _, c := range r.Cells {
		// Only a timed verdict counts as gated: a PASS on allocs/op or
		// instructions/op alone has not seen that nothing slowed.
		if c.Verdict != NotGated && (r.countsOnly || !Counted(c.Unit) || r.predictionGates && Predicted(c.Unit)) {
			gated++
		}
		if c.Verdict.Severity() > r.Verdict.Severity() {
			r.Verdict = c.Verdict
		}
	}
	if gated == 0 {
		r.Verdict = Inconclusive
		r.sayNothingGated(fmt.Sprintf("nothing was gated on time: of %d verdicts none judged a time "+
			"(more threads than cores, only in one side, no time unit, or only the machine's reference cells): gate cells that fit the cores and measure time", len(r.Cells)))
	}
}

// decidedAnything says whether a decision rests on a witness.
func (r *Report) decidedAnything() bool {
	for _, at := range r.decisions {
		for _, dec := range at {
			if dec.By != ByNone {
				return true
			}
		}
	}
	return false
}

// Add adds verdicts on other units of the cells (ab's instructions/op
// beside time) and recomputes the overall verdict: any REGRESSION fails
// it, and a PASS still needs every other verdict's.
func (r *Report) Add(cells ...CellVerdict) {
	r.Cells = append(r.Cells, cells...)
	if r.measured != nil {
		r.measured = append(r.measured, cells...) // a later Decide reads them too
	}
	r.finish()
}

// sayNothingGated puts note among the warnings in place of the one an
// earlier finish said: a report finished again after cells were added
// says it once, with the count it ends with.
func (r *Report) sayNothingGated(note string) {
	if i := slices.Index(r.Warnings, r.nothingGated); r.nothingGated != "" && i >= 0 {
		r.Warnings = slices.Delete(r.Warnings, i, i+1)
	}
	r.nothingGated = note
	r.Warnings = append(r.Warnings, note)
}

// holmLevels returns the level each hypothesis is tested at in Holm's
// step-down: alpha/m for the smallest p-value, alpha/(m-1) for the next,
// and so on, in the input order.
func holmLevels(p []float64, alpha float64) []float64 {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	out := make([]float64, len(p))
	for rank, i := range idx {
		out[i] = alpha / float64(len(p)-rank)
	}
	return out
}

// holm returns Holm-Bonferroni adjusted p-values, in the input order.
func holm(p []float64) []float64 {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	adj := make([]float64, len(p))
	running := 0.0
	for rank, i := range idx {
		v := min(1, float64(len(p)-rank)*p[i])
		running = max(running, v)
		adj[i] = running
	}
	return adj
}

// WriteText prints the verdict first, the answer at the declared counts
// and the notes, then the cells that are not PASS, each with its reason
// short (ShortReason), and how many more there are: the whole table, with
// every reason, is WriteFull's (-v) and the report's.
func (r *Report) WriteText(w io.Writer) {
	r.writeHead(w)
	rest := 0
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range r.Cells {
		if c.Verdict == Pass || c.Verdict == NotGated {
			rest++
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Verdict, c.Name, c.Unit, c.RatioText(), c.ShortReason())
	}
	tw.Flush()
	if rest > 0 {
		fmt.Fprintf(w, "%d more verdicts PASS or not gated: -v prints every one with its whole reason\n", rest)
	}
}

// WriteFull prints the verdict first, then the cells that are not PASS,
// then the rest, each with its whole reason.
func (r *Report) WriteFull(w io.Writer) {
	r.writeHead(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "verdict\tbenchmark\tunit\tnew/old\treason")
	for _, changed := range []bool{true, false} {
		for _, c := range r.Cells {
			if (c.Verdict != Pass && c.Verdict != NotGated) != changed {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Verdict, c.Name, c.Unit, c.RatioText(), c.Reason)
		}
	}
	tw.Flush()
	if note := r.LayoutNote(); note != "" {
		fmt.Fprintln(w, note)
	}
}

// writeHead prints the verdict, the answer at the declared counts and
// the notes.
func (r *Report) writeHead(w io.Writer) {
	fmt.Fprintf(w, "verdict: %s (%s vs %s, threshold %.0f%%)\n", r.Verdict, r.Old, r.New, 100*r.Threshold)
	if line := r.DecidedLine(); line != "" {
		fmt.Fprintf(w, "  %s\n", line)
	}
	for _, a := range r.Answers {
		fmt.Fprintf(w, "  %s\n", a)
	}
	for _, h := range r.Held {
		fmt.Fprintf(w, "  %s\n", h)
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "note: %s\n", Shorten(warn, MaxShortReason))
	}
	fmt.Fprintln(w)
}

// MaxShortReason is the longest reason the terminal and the pull
// request's comment show, in characters: the whole reasoning is the
// report's.
const MaxShortReason = 160

// ShortReason is the reason's opening, at most MaxShortReason
// characters.
func (c CellVerdict) ShortReason() string { return Shorten(c.Reason, MaxShortReason) }

// Shorten is s cut at a word to at most n characters, with an ellipsis
// where it was longer.
func Shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// LayoutNote says, for the cells where an A/A arm ran, how much one
// binary moved identical code (CellVerdict.Layout); "" where none did.
func (r *Report) LayoutNote() string {
	var parts []string
	for _, c := range r.Cells {
		if c.Layout > 0 {
			parts = append(parts, fmt.Sprintf("%s ±%.1f%%", c.Name, 100*c.Layout))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "base against itself, one binary's layout and process moved each cell by (sd a round): " + strings.Join(parts, ", ")
}

// RatioText is new/old for people: "not gated" or "—" where the cell has
// none.
func (c CellVerdict) RatioText() string {
	switch {
	case c.Verdict == NotGated:
		return "not gated"
	case c.Ratio == 0:
		return "—"
	}
	return fmt.Sprintf("%.3f", c.Ratio)
}

// WriteJSON writes the report as the verdict file CI jobs read.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(records.VisibleWriter{W: w})
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
