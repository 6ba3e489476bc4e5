package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/bisect"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// fromHistory is the N-th step history changes prints: its commits, and
// its cell as the cells to look at.
func (b *bisectOptions) fromHistory(ctx context.Context) (good, bad string, err error) {
	sf := addSeriesFlags(flag.NewFlagSet("history changes", flag.ContinueOnError), defaultUnits)
	*sf.repo = b.repo // its commits ordered as the repository bisect walks
	h, found, err := openSteps(ctx, io.Discard, *b.db, sf, false)
	if err != nil {
		return "", "", err
	}
	defer h.Close()
	steps := found.Steps
	if b.step > len(steps) {
		return "", "", usageError("-step %d: history changes finds %d steps in %s", b.step, len(steps), h.Path)
	}
	st := steps[b.step-1]
	_, cell, _ := strings.Cut(st.Series.Cell, ":") // a go test cell's package
	if cell == "" {
		cell = st.Series.Cell
	}
	b.selectCell(cell)
	return st.Before, st.After, nil
}

// bisectJSON is the result as -json writes it.
type bisectJSON struct {
	Verdict  string            `json:"verdict"` // FOUND, NO-STEP or UNDECIDED
	Good     string            `json:"good"`
	Bad      string            `json:"bad"`
	Cell     string            `json:"cell,omitempty"`
	Step     float64           `json:"step"`
	Culprits []culpritJSON     `json:"culprits,omitempty"`
	From     string            `json:"from,omitempty"`
	To       string            `json:"to,omitempty"`
	Why      string            `json:"why,omitempty"`
	Skipped  map[string]string `json:"skipped,omitempty"`
	Probes   []probeJSON       `json:"probes"`
	Seconds  float64           `json:"seconds"`
}

type culpritJSON struct {
	Commit       string   `json:"commit"`
	Before       string   `json:"before"`
	Shift        float64  `json:"shift"`
	Instructions *float64 `json:"instructions,omitempty"`
	Share        float64  `json:"share"`
}

type probeJSON struct {
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

// finish says what the search found on stdout, writes bisect.md and the
// JSON, and returns the exit code's error.
func (b *bisectOptions) finish(ctx context.Context, o *streams, r *bisect.Result) error {
	good, bad := r.Step.Base, r.Step.Head
	out := bisectJSON{Good: good, Bad: bad, Cell: b.tracked, Step: r.Step.Shift, From: r.From, To: r.To,
		Why: r.Why, Skipped: r.Skipped, Seconds: time.Since(b.start).Seconds()}
	for _, c := range r.Culprits {
		cj := culpritJSON{Commit: c.Commit, Before: c.Before, Shift: c.Shift, Share: c.Share}
		if !math.IsNaN(c.Instructions) {
			cj.Instructions = &c.Instructions
		}
		out.Culprits = append(out.Culprits, cj)
	}
	for _, p := range r.Probes {
		pj := probeJSON{Base: p.Base, Head: p.Head, Outcome: p.Outcome.String(), Shift: p.Shift, Low: p.Low, High: p.High, NoCount: p.NoCount, Verdict: p.Verdict, Seconds: p.Wall.Seconds()}
		if !math.IsNaN(p.Instructions) {
			pj.Instructions = &p.Instructions
		}
		out.Probes = append(out.Probes, pj)
	}
	var summary strings.Builder
	var verdict error
	switch {
	case r.Found:
		out.Verdict = "FOUND"
		fmt.Fprintf(&summary, "FOUND: %s moved %+.1f%% from %s to %s", b.tracked, 100*r.Step.Shift, history.ShortCommit(good), history.ShortCommit(bad))
		if len(r.Culprits) > 1 {
			fmt.Fprintf(&summary, ", in %d steps", len(r.Culprits))
		}
		summary.WriteString("\n")
		for _, c := range r.Culprits {
			fmt.Fprintf(&summary, "  %s %s (%.0f%% of the step)  %s\n", history.ShortCommit(c.Commit), culpritShift(c), 100*c.Share, subject(ctx, b.repo, c.Commit))
		}
	case r.NoStep:
		out.Verdict = "NO-STEP"
		fmt.Fprintf(&summary, "NO STEP: %s\n", r.Why)
		verdict = &exitError{code: exitInconclusive}
	default:
		out.Verdict = "UNDECIDED"
		for _, c := range r.Culprits {
			fmt.Fprintf(&summary, "  found first: %s %s (%.0f%% of the step)  %s\n", history.ShortCommit(c.Commit), culpritShift(c), 100*c.Share, subject(ctx, b.repo, c.Commit))
		}
		fmt.Fprintf(&summary, "UNDECIDED: the step (or its rest) lies after %s, up to %s (%s)\n", history.ShortCommit(r.From), history.ShortCommit(r.To), r.Why)
		verdict = &exitError{code: exitInconclusive}
	}
	if r.Found && r.Why != "" {
		fmt.Fprintf(&summary, "  note: %s\n", r.Why)
	}
	for _, c := range sortedKeys(r.Skipped) {
		fmt.Fprintf(&summary, "  skipped %s: does not build\n", history.ShortCommit(c))
	}
	fmt.Fprintf(&summary, "%d measurements in %s\n", len(r.Probes), time.Since(b.start).Round(time.Second))
	io.WriteString(o.stdout, summary.String())

	md := filepath.Join(b.outDir, "bisect.md")
	if err := writeFile(md, []byte(b.markdown(ctx, r, summary.String()))); err != nil {
		return lostOutput(verdict, fmt.Errorf("writing %s: %w", md, err), o)
	}
	if b.jsonOut != "" {
		data, err := json.MarshalIndent(out, "", "  ")
		if err == nil {
			err = writeFile(b.jsonOut, append(records.Visible(data), '\n'))
		}
		if err != nil {
			return lostOutput(verdict, fmt.Errorf("writing %s: %w", b.jsonOut, err), o)
		}
	}
	if !b.quiet {
		fmt.Fprintf(o.stderr, "perfrun: bisect: wrote %s\n", md)
	}
	return verdict
}

// markdown is bisect.md: the summary, the probe table and each culprit's
// git show --stat.
func (b *bisectOptions) markdown(ctx context.Context, r *bisect.Result, summary string) string {
	var w strings.Builder
	fmt.Fprintf(&w, "# perfrun bisect\n\n```\n%s```\n\n", summary)
	fmt.Fprintf(&w, "| # | head | against | outcome | time | instructions | wall | ab's verdict |\n|---|---|---|---|---|---|---|---|\n")
	for i, p := range r.Probes {
		instr := ""
		if p.NoCount != "" {
			instr = "not counted: " + mdEscape(strings.TrimPrefix(p.NoCount, "no instruction verdict: "))
		}
		if !math.IsNaN(p.Instructions) {
			instr = fmt.Sprintf("%+.2f%%", 100*p.Instructions)
		}
		fmt.Fprintf(&w, "| %d | `%s` %s | `%s` | %s | %+.1f%% [%+.1f%%, %+.1f%%] | %s | %s | %s |\n", i+1, history.ShortCommit(p.Head),
			mdEscape(subject(ctx, b.repo, p.Head)), history.ShortCommit(p.Base), p.Outcome, 100*p.Shift, 100*p.Low, 100*p.High, instr, p.Wall.Round(time.Second), mdEscape(p.Verdict))
	}
	for _, c := range r.Culprits {
		out, _ := git.Output(ctx, b.repo, "show", "--stat", "--format=medium", c.Commit)
		fmt.Fprintf(&w, "\n## %s (%s, %.0f%% of the step)\n\n```\n%s```\n", history.ShortCommit(c.Commit), culpritShift(c), 100*c.Share, out)
	}
	return w.String()
}

// culpritShift is a culprit's own shift: time, and the count where taken.
func culpritShift(c bisect.Culprit) string {
	s := fmt.Sprintf("time %+.1f%%", 100*c.Shift)
	if !math.IsNaN(c.Instructions) {
		s += fmt.Sprintf(", instructions %+.2f%%", 100*c.Instructions)
	}
	return s
}

func mdEscape(s string) string { return report.MarkdownText(s) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
