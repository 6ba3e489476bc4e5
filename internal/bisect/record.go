package bisect

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/report"
)

// A Record is a result as bisect -json writes it.
type Record struct {
	Verdict  string            `json:"verdict"` // FOUND, NO-STEP or UNDECIDED
	Good     string            `json:"good"`
	Bad      string            `json:"bad"`
	Cell     string            `json:"cell,omitempty"`
	Step     float64           `json:"step"`
	Culprits []culpritRecord   `json:"culprits,omitempty"`
	From     string            `json:"from,omitempty"`
	To       string            `json:"to,omitempty"`
	Why      string            `json:"why,omitempty"`
	Skipped  map[string]string `json:"skipped,omitempty"`
	Probes   []probeRecord     `json:"probes"`
	Seconds  float64           `json:"seconds"`
}

type culpritRecord struct {
	Commit       string   `json:"commit"`
	Before       string   `json:"before"`
	Shift        float64  `json:"shift"`
	Instructions *float64 `json:"instructions,omitempty"`
	Share        float64  `json:"share"`
}

type probeRecord struct {
	Base         string   `json:"base"`
	Head         string   `json:"head"`
	Outcome      string   `json:"outcome"`
	Shift        float64  `json:"shift"`
	Low          float64  `json:"low"`
	High         float64  `json:"high"`
	Instructions *float64 `json:"instructions,omitempty"`
	NoCount      string   `json:"no_count,omitempty"` // why instructions is missing
	Verdict      string   `json:"verdict"`
	Seconds      float64  `json:"seconds"`
}

// Record is r as data: cell is the cell followed, wall the search's time.
func (r *Result) Record(cell string, wall time.Duration) Record {
	out := Record{Good: r.Step.Base, Bad: r.Step.Head, Cell: cell, Step: r.Step.Shift, From: r.From, To: r.To,
		Why: r.Why, Skipped: r.Skipped, Seconds: wall.Seconds()}
	for _, c := range r.Culprits {
		cj := culpritRecord{Commit: c.Commit, Before: c.Before, Shift: c.Shift, Share: c.Share}
		if !math.IsNaN(c.Instructions) {
			cj.Instructions = &c.Instructions
		}
		out.Culprits = append(out.Culprits, cj)
	}
	for _, p := range r.Probes {
		pj := probeRecord{Base: p.Base, Head: p.Head, Outcome: p.Outcome.String(), Shift: p.Shift, Low: p.Low, High: p.High, NoCount: p.NoCount, Verdict: p.Verdict, Seconds: p.Wall.Seconds()}
		if !math.IsNaN(p.Instructions) {
			pj.Instructions = &p.Instructions
		}
		out.Probes = append(out.Probes, pj)
	}
	switch {
	case r.Found:
		out.Verdict = "FOUND"
	case r.NoStep:
		out.Verdict = "NO-STEP"
	default:
		out.Verdict = "UNDECIDED"
	}
	return out
}

// Summary is what the search found, in the lines bisect prints: cell is
// the cell followed, wall the search's time, subject a commit's subject
// line.
func (r *Result) Summary(cell string, wall time.Duration, subject func(string) string) string {
	var w strings.Builder
	switch {
	case r.Found:
		fmt.Fprintf(&w, "FOUND: %s moved %+.1f%% from %s to %s", cell, 100*r.Step.Shift, history.ShortCommit(r.Step.Base), history.ShortCommit(r.Step.Head))
		if len(r.Culprits) > 1 {
			fmt.Fprintf(&w, ", in %d steps", len(r.Culprits))
		}
		w.WriteString("\n")
		for _, c := range r.Culprits {
			fmt.Fprintf(&w, "  %s %s (%.0f%% of the step)  %s\n", history.ShortCommit(c.Commit), CulpritShift(c), 100*c.Share, subject(c.Commit))
		}
	case r.NoStep:
		fmt.Fprintf(&w, "NO STEP: %s\n", r.Why)
	default:
		for _, c := range r.Culprits {
			fmt.Fprintf(&w, "  found first: %s %s (%.0f%% of the step)  %s\n", history.ShortCommit(c.Commit), CulpritShift(c), 100*c.Share, subject(c.Commit))
		}
		fmt.Fprintf(&w, "UNDECIDED: the step (or its rest) lies after %s, up to %s (%s)\n", history.ShortCommit(r.From), history.ShortCommit(r.To), r.Why)
	}
	if r.Found && r.Why != "" {
		fmt.Fprintf(&w, "  note: %s\n", r.Why)
	}
	skipped := make([]string, 0, len(r.Skipped))
	for c := range r.Skipped {
		skipped = append(skipped, c)
	}
	slices.Sort(skipped)
	for _, c := range skipped {
		fmt.Fprintf(&w, "  skipped %s: does not build\n", history.ShortCommit(c))
	}
	fmt.Fprintf(&w, "%d measurements in %s\n", len(r.Probes), wall.Round(time.Second))
	return w.String()
}

// Markdown is bisect.md: the summary, the probe table and each culprit's
// change (show: git show --stat of a commit).
func (r *Result) Markdown(summary string, subject, show func(string) string) string {
	var w strings.Builder
	fmt.Fprintf(&w, "# perfrun bisect\n\n```\n%s```\n\n", summary)
	fmt.Fprintf(&w, "| # | head | against | outcome | time | instructions | wall | ab's verdict |\n|---|---|---|---|---|---|---|---|\n")
	for i, p := range r.Probes {
		instr := ""
		if p.NoCount != "" {
			instr = "not counted: " + report.MarkdownText(strings.TrimPrefix(p.NoCount, "no instruction verdict: "))
		}
		if !math.IsNaN(p.Instructions) {
			instr = fmt.Sprintf("%+.2f%%", 100*p.Instructions)
		}
		fmt.Fprintf(&w, "| %d | `%s` %s | `%s` | %s | %+.1f%% [%+.1f%%, %+.1f%%] | %s | %s | %s |\n", i+1, history.ShortCommit(p.Head),
			report.MarkdownText(subject(p.Head)), history.ShortCommit(p.Base), p.Outcome, 100*p.Shift, 100*p.Low, 100*p.High, instr, p.Wall.Round(time.Second), report.MarkdownText(p.Verdict))
	}
	for _, c := range r.Culprits {
		fmt.Fprintf(&w, "\n## %s (%s, %.0f%% of the step)\n\n```\n%s```\n", history.ShortCommit(c.Commit), CulpritShift(c), 100*c.Share, show(c.Commit))
	}
	return w.String()
}

// CulpritShift is a culprit's own shift: time, and the count where taken.
func CulpritShift(c Culprit) string {
	s := fmt.Sprintf("time %+.1f%%", 100*c.Shift)
	if !math.IsNaN(c.Instructions) {
		s += fmt.Sprintf(", instructions %+.2f%%", 100*c.Instructions)
	}
	return s
}
