package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/bisect"
	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/internal/procgroup"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/terminal"
	"github.com/perfrun/perfrun/records"
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
	bisect.Follower
	threshold       string
	budget          time.Duration
	seed            uint64
	firstParent     bool
	step            int
	db              *string
	outDir, jsonOut string
	quiet           bool
	probes          int
	start           time.Time
	stderr          io.Writer // progress, nil with -q
}

func bisectFlags(fs *flag.FlagSet) subcommand.RunFunc {
	b := &bisectOptions{}
	b.revisionCells.define(fs)
	fs.StringVar(&b.threshold, "threshold", "5%", "the least step the whole range must show")
	flagvalue.SpanVar(fs, &b.budget, "budget", 0, 0, mostBudget, "start no measurement past this time from the start (0: no limit), e.g. 30m")
	fs.Uint64Var(&b.seed, "seed", 1, "seed of the corpus and of the code layouts (each probe its own)")
	fs.BoolVar(&b.firstParent, "first-parent", true, "walk the first-parent commits only (merges as one)")
	fs.IntVar(&b.step, "step", 0, "bisect the N-th step history changes prints, instead of GOOD BAD")
	b.db = dbFlag(fs)
	fs.StringVar(&b.outDir, "o", filepath.Join(filepath.Dir(defaultOutput), "bisect"), "write bisect.md here")
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
	commits, good, err := b.commits(ctx, good, bad)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(b.outDir, 0o755); err != nil {
		return err
	}
	b.start = time.Now()
	s := &bisect.Search{Good: good, Commits: commits, Measure: b.measure, Threshold: thr, ProbeFloor: 0.02}
	if b.budget > 0 {
		s.Deadline = b.start.Add(b.budget)
	}
	if !b.quiet {
		fmt.Fprintf(o.Stderr, "perfrun: bisect: %d commits after %s up to %s; about %d measurements\n", len(commits), history.ShortCommit(good), history.ShortCommit(commits[len(commits)-1]), 1+int(math.Ceil(math.Log2(float64(len(commits))))))
		s.Progress = b.progress(ctx, o)
		b.stderr = o.Stderr
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

// commits are the commits after good up to bad, oldest first; good comes
// back as its full name.
func (b *bisectOptions) commits(ctx context.Context, good, bad string) ([]string, string, error) {
	full := func(rev string) (string, error) {
		out, err := git.Output(ctx, b.repo, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
		if err != nil {
			return "", subcommand.UsageError("%s is not a commit of %s", rev, b.repo)
		}
		return strings.TrimSpace(string(out)), nil
	}
	g, err := full(good)
	if err != nil {
		return nil, "", err
	}
	bd, err := full(bad)
	if err != nil {
		return nil, "", err
	}
	args := []string{"rev-list", "--reverse"}
	if b.firstParent {
		args = append(args, "--first-parent")
	}
	out, err := git.Output(ctx, b.repo, append(args, g+".."+bd)...)
	if err != nil {
		return nil, "", fmt.Errorf("git rev-list %s..%s: %w", history.ShortCommit(g), history.ShortCommit(bd), err)
	}
	commits := strings.Fields(string(out))
	if len(commits) == 0 {
		return nil, "", subcommand.UsageError("%s is not after %s: no commits between them", bad, good)
	}
	return commits, g, nil
}

// measure runs ab on head against base, on the cell followed (the cells
// chosen, for the whole range), at the threshold.
func (b *bisectOptions) measure(ctx context.Context, base, head string, thr float64) (bisect.Measurement, error) {
	m := bisect.Measurement{Base: base, Head: head, Instructions: math.NaN()}
	self, err := os.Executable()
	if err != nil {
		return m, err
	}
	b.probes++
	jsonFile := filepath.Join(b.outDir, fmt.Sprintf("probe%02d.json", b.probes))
	args := []string{"ab", "-q", "-json", jsonFile, "-repo", b.repo, "-pkg", b.pkg,
		"-threshold", strconv.FormatFloat(100*math.Abs(thr), 'f', 2, 64) + "%",
		"-seed", strconv.FormatUint(b.seed*1000+uint64(b.probes), 10)}
	if b.budget > 0 {
		left := b.budget - time.Since(b.start)
		if left < time.Minute {
			left = time.Minute
		}
		args = append(args, "-budget", left.Round(time.Second).String())
	}
	args = append(append(args, b.cellArgs()...), base, head)
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, self, args...)
	procgroup.Gentle(cmd, terminal.ChildGrace)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = nil, &stderr
	err = cmd.Run()
	m.Wall = time.Since(t0)
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == subcommand.ExitFailure {
		if berr := b.builds(ctx, head); berr != nil {
			if b.stderr != nil {
				fmt.Fprintf(b.stderr, "perfrun: bisect: %s does not build: skipped\n", history.ShortCommit(head))
			}
			return m, fmt.Errorf("%s %w: %v", history.ShortCommit(head), bisect.ErrDoesNotBuild, berr)
		}
		// Every probe measures against the good commit: if it does not
		// build, nothing can be measured, and that is the user's to fix.
		if berr := b.builds(ctx, base); berr != nil {
			return m, subcommand.UsageError("the good commit %s does not build, so nothing can be measured against it: %s", history.ShortCommit(base), firstLine(berr.Error()))
		}
	}
	if err != nil && !(errors.As(err, &exit) && (exit.ExitCode() == subcommand.ExitRegression || exit.ExitCode() == subcommand.ExitInconclusive)) {
		if ctx.Err() != nil {
			return m, ctx.Err()
		}
		return m, fmt.Errorf("ab %s %s: %w: %s", history.ShortCommit(base), history.ShortCommit(head), err, lastLines(stderr.String(), 5))
	}
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		return m, err
	}
	var rep compare.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return m, fmt.Errorf("%s: %w", jsonFile, err)
	}
	if b.Tracked == "" {
		b.follow(rep)
	}
	b.Judge(&m, rep, thr)
	return m, nil
}

// follow has the whole range's report choose the cell followed
// (bisect.Follower), and measures it alone from then on.
func (b *bisectOptions) follow(rep compare.Report) {
	if cell := b.Follow(rep); cell != "" {
		b.selectCell(cell)
	}
}

// selectCell narrows the cells measured to one, named as results name
// it: its workload and its parameters, Issuer/impl=x/threads=1/….
func (b *bisectOptions) selectCell(cell string) {
	parts := strings.Split(cell, "/")
	b.workload, b.params = strings.ToLower(parts[0]), nil
	for _, kv := range parts[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "impl":
			b.impl = v
		case "threads":
			b.threads = v
		default:
			b.params = append(b.params, kv)
		}
	}
}

// builds says why commit does not build, or nil when it does.
func (b *bisectOptions) builds(ctx context.Context, commit string) error {
	dir, err := ab.TempDir()
	if err != nil {
		return err
	}
	defer scratch.Remove(dir)
	v, err := ab.Checkout(ctx, b.repo, commit, b.pkg, dir, "probe")
	if err != nil {
		return err
	}
	v.Close()
	return nil
}

// progress prints each measurement as it starts and ends.
func (b *bisectOptions) progress(ctx context.Context, o *subcommand.Streams) func(bisect.Event) {
	return func(ev bisect.Event) {
		m := ev.Measurement
		if !ev.Done {
			fmt.Fprintf(o.Stderr, "perfrun: bisect: measurement %d of about %d: %s against %s (%s)\n", ev.Probe, ev.About, history.ShortCommit(m.Head), history.ShortCommit(m.Base), subject(ctx, b.repo, m.Head))
			return
		}
		fmt.Fprintf(o.Stderr, "perfrun: bisect: %s against %s: %s, %s; %s in %s\n", history.ShortCommit(m.Head), history.ShortCommit(m.Base), m.Outcome, shiftText(m), cmp.Or(b.Tracked, "no cell moved"), m.Wall.Round(time.Second))
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

// subject is a commit's subject line, or "" where git cannot say.
func subject(ctx context.Context, repo, commit string) string {
	out, err := git.Output(ctx, repo, "log", "-1", "--format=%s", commit)
	if err != nil {
		return ""
	}
	// A subject is the committer's text: one line, no control character.
	return records.OneLine(strings.TrimSpace(string(out)))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// firstLine is the first line of s: a build's error chain begins with
// what went wrong.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
