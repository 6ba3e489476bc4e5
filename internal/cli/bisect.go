package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/bisect"
	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/historycmd"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/internal/terminal"
)

var cmdBisect = &subcommand.Command{
	MaxArgs: 2, Name: "bisect", Args: "[flags] GOOD BAD | -step N", Short: "find the commit that made a step, with paired A/B measurements",
	Common: []string{"impl", "threads", "threshold", "budget", "step", "o", "json", "q"},
	Long: `Bisect finds the commit between GOOD and BAD that moved a cell, with ab's
paired arms and verdicts; where a probe stays undecided it reports the
range it narrowed to, never a guess. Example: perfrun bisect v1.2 main

Bisect finds the commit between GOOD and BAD that moved a cell, measuring
each probe commit against a reference with ab's paired arms and verdicts,
never one commit after another. It first measures BAD against GOOD on the
cells -impl, -threads and -workload choose and follows the cell that moved
most; a range that does not move by -threshold has no step to find (exit
3). Then it walks the first-parent commits between them, halving the range:
each probe is judged at a quarter of the step (at least 2%), so a commit
that made part of it moves too. A probe moved when time or the instruction
count moved the step's way; it is the same when time passed, or, where the
whole step showed in the count, when its count did not move. A step made
of several smaller ones is followed commit by commit, each named with its
share. A commit that does not build is skipped and named. A probe that
stays undecided is measured once more within -budget; if it stays
undecided, bisect stops and reports the range it narrowed to, never a
guess.

-step N bisects the N-th step "perfrun history changes" prints (-db the
history): its commits and its cell. Progress goes to stderr, the probe
table and each culprit's "git show --stat" to -o DIR/bisect.md, and -json
writes the result. Exit codes: 0 found, 3 could not decide or no step, 2
usage, 4 tool failure.`,
}

func init() { cmdBisect.Define = bisectFlags }

// bisectOptions are bisect's flags.
type bisectOptions struct {
	revisionCells
	threshold       string
	budget          time.Duration
	seed            uint64
	firstParent     bool
	step            int
	db              *string
	outDir, jsonOut string
	quiet           bool
	start           time.Time
	probe           *bisect.ABProbe
}

func bisectFlags(fs *flag.FlagSet) subcommand.RunFunc {
	b := &bisectOptions{}
	b.revisionCells.define(fs)
	fs.StringVar(&b.threshold, "threshold", "5%", "the least step the whole range must show")
	flagvalue.SpanVar(fs, &b.budget, "budget", 0, 0, mostBudget, "start no measurement past this time from the start (0: no limit), e.g. 30m")
	fs.Uint64Var(&b.seed, "seed", 1, "seed of the corpus and of the code layouts (each probe its own)")
	fs.BoolVar(&b.firstParent, "first-parent", true, "walk the first-parent commits only (merges as one)")
	fs.IntVar(&b.step, "step", 0, "bisect the N-th step history changes prints, instead of GOOD BAD")
	b.db = historycmd.DBFlag(fs)
	fs.StringVar(&b.outDir, "o", filepath.Join(filepath.Dir(sweep.DefaultOutput), "bisect"), "write bisect.md here")
	fs.StringVar(&b.jsonOut, "json", "", "also write the result as JSON to this file")
	fs.BoolVar(&b.quiet, "q", false, "no progress on stderr")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error { return b.run(ctx, o, fs) }
}

func (b *bisectOptions) run(ctx context.Context, o *subcommand.Streams, fs *flag.FlagSet) error {
	good, bad := fs.Arg(0), fs.Arg(1)
	switch {
	case b.step > 0 && fs.NArg() != 0:
		return subcommand.UsageError("-step names the commits: want no GOOD BAD with it")
	case b.step == 0 && fs.NArg() != 2:
		return subcommand.UsageError("want GOOD and BAD, two commits (or -step N)")
	case b.step < 0:
		return subcommand.UsageError("-step counts from 1")
	case b.budget < 0:
		return subcommand.UsageError("-budget must not be negative")
	}
	thr, err := flagvalue.ParsePercent(b.threshold)
	if err != nil || thr <= 0 || thr >= 1 {
		return subcommand.UsageError("bad -threshold %q: want a percentage such as 5%%", b.threshold)
	}
	ctx, stop := terminal.Interruptible(ctx)
	defer stop()
	if b.step > 0 {
		if good, bad, err = b.fromHistory(ctx); err != nil {
			return err
		}
	}
	if err := ab.CheckSource(ctx, b.repo, b.pkg); err != nil {
		return subcommand.AsUsage(err)
	}
	commits, good, err := bisect.Commits(ctx, b.repo, good, bad, b.firstParent)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(b.outDir, 0o755); err != nil {
		return err
	}
	b.start = time.Now()
	b.probe = &bisect.ABProbe{Repo: b.repo, Pkg: b.pkg, Cells: b.cells(), Seed: b.seed, Budget: b.budget, Start: b.start, OutDir: b.outDir}
	s := &bisect.Search{Good: good, Commits: commits, Measure: b.probe.Measure, Threshold: thr, ProbeFloor: 0.02}
	if b.budget > 0 {
		s.Deadline = b.start.Add(b.budget)
	}
	if !b.quiet {
		fmt.Fprintf(o.Stderr, "perfrun: bisect: %d commits after %s up to %s; about %d measurements\n", len(commits), history.ShortCommit(good), history.ShortCommit(commits[len(commits)-1]), 1+int(math.Ceil(math.Log2(float64(len(commits))))))
		s.Progress = b.progress(ctx, o)
		b.probe.Log = o.Stderr
	}
	res, err := s.Run(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: fmt.Errorf("interrupted after %s: %d measurements made, nothing decided", time.Since(b.start).Round(time.Second), len(res.Probes))}
		}
		if errors.Is(err, bisect.ErrBudget) {
			return &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: err}
		}
		return err
	}
	return b.finish(ctx, o, res)
}

// progress prints each measurement as it starts and ends.
func (b *bisectOptions) progress(ctx context.Context, o *subcommand.Streams) func(bisect.Event) {
	return func(ev bisect.Event) {
		m := ev.Measurement
		if !ev.Done {
			fmt.Fprintf(o.Stderr, "perfrun: bisect: measurement %d of about %d: %s against %s (%s)\n", ev.Probe, ev.About, history.ShortCommit(m.Head), history.ShortCommit(m.Base), bisect.Subject(ctx, b.repo, m.Head))
			return
		}
		fmt.Fprintf(o.Stderr, "perfrun: bisect: %s against %s: %s, %s; %s in %s\n", history.ShortCommit(m.Head), history.ShortCommit(m.Base), m.Outcome, shiftText(m), cmp.Or(b.probe.Tracked, "no cell moved"), m.Wall.Round(time.Second))
	}
}

func shiftText(m bisect.Measurement) string {
	s := fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]", 100*m.Shift, 100*m.Low, 100*m.High)
	if !math.IsNaN(m.Instructions) {
		s += fmt.Sprintf(", instructions %+.2f%%", 100*m.Instructions)
	} else if m.NoCount != "" {
		s += ", instructions not counted: " + strings.TrimPrefix(m.NoCount, "no instruction verdict: ")
	}
	return s
}

// cells are the cells chosen, as ab measures them.
func (b *bisectOptions) cells() ab.Cells {
	return ab.Cells{Impl: b.impl, Workload: b.workload, Threads: b.threads, Params: b.params}
}
