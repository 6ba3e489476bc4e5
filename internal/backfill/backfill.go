// Package backfill measures the commits of a range that a history has no
// runs of — building perfrun (or a store's main) at each in a worktree,
// as ab does — and adds each run as it ends: a history useful on the day
// it starts. With a reference commit, that commit is measured after each
// one too and filed under MACHINE+reference, so the machine's drift over
// the backfill shows as a series of its own: a step both series share is
// the machine's. The command line (perfrun history backfill) wires its
// flags to it.
package backfill

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/internal/procgroup"
	"github.com/perfrun/perfrun/records"
)

// A Backfill is where it builds, what it runs and where it adds the runs.
type Backfill struct {
	History   *history.DB
	Repo, Pkg string
	// Dir holds the builds and the runs' results.
	Dir string
	// RunArgs are perfrun run's flags for each commit.
	RunArgs []string
	// Machine labels the runs ("": each run's own); Reference is the
	// commit measured after each one ("": none).
	Machine, Reference string
	// CommitTimeOf and ResolveCommit are the history's (history.AddOptions).
	CommitTimeOf  func(string) (time.Time, bool)
	ResolveCommit func(string) (string, bool)
	// Grace is how long an interrupted run has to end before it is killed.
	Grace time.Duration
	// Log takes a line per commit and per run added.
	Log io.Writer
}

// RevList lists a range's commits, oldest first, every k-th and the last.
func RevList(ctx context.Context, repo, rangeArg string, every int) ([]string, error) {
	out, err := git.Output(ctx, repo, "rev-list", "--reverse", "--end-of-options", rangeArg, "--")
	if err != nil {
		return nil, fmt.Errorf("%q is not a revision range of %s", rangeArg, repo)
	}
	all := strings.Fields(string(out))
	var commits []string
	for i, c := range all {
		if i%every == 0 || i == len(all)-1 {
			commits = append(commits, c)
		}
	}
	if len(commits) == 0 {
		return nil, fmt.Errorf("the range %q holds no commit", rangeArg)
	}
	return commits, nil
}

// Run builds and measures each commit, oldest first, and the reference
// after each; a commit that fails ends it, the commits before it kept.
func (b *Backfill) Run(ctx context.Context, commits []string) error {
	var ref string
	if b.Reference != "" {
		var err error
		if ref, err = b.build(ctx, b.Reference, "reference"); err != nil {
			return err
		}
	}
	start := time.Now()
	for i, c := range commits {
		eta := ""
		if i > 0 {
			eta = fmt.Sprintf(", about %s left", (time.Since(start) / time.Duration(i) * time.Duration(len(commits)-i)).Round(time.Second))
		}
		fmt.Fprintf(b.Log, "perfrun: history backfill: commit %d/%d %s%s\n", i+1, len(commits), ab.Describe(ctx, b.Repo, c), eta)
		bin, err := b.build(ctx, c, fmt.Sprintf("c%03d", i))
		if err != nil {
			return fmt.Errorf("%v (%d commits before it were added)", err, i)
		}
		if err := b.measure(ctx, bin, c, c, "", i); err != nil {
			return err
		}
		if ref != "" {
			if err := b.measure(ctx, ref, c, b.Reference, "+reference", i); err != nil {
				return err
			}
		}
	}
	return nil
}

// build builds the binary of a commit.
func (b *Backfill) build(ctx context.Context, rev, label string) (string, error) {
	bins, cleanup, err := ab.Build(ctx, b.Repo, rev, b.Pkg, b.Dir, label)
	if err != nil {
		return "", err
	}
	cleanup() // the binary stays; the worktree is no longer needed
	return bins[0], nil
}

// measure runs bin's perfrun run and adds the results under commit (the
// measured commit; for a reference run, the commit it followed, so the
// reference series lines up with the commits), the machine suffixed.
func (b *Backfill) measure(ctx context.Context, bin, commit, measured, suffix string, i int) error {
	out := filepath.Join(b.Dir, fmt.Sprintf("run%03d%s.txt", i, strings.TrimPrefix(suffix, "+")))
	args := append([]string{"run", "-q", "-plots", "none", "-o", out}, b.RunArgs...)
	cmd := exec.CommandContext(ctx, bin, args...)
	procgroup.Gentle(cmd, b.Grace)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return fmt.Errorf("interrupted at commit %s: the commits before it are in the history", history.ShortCommit(commit))
		}
		return fmt.Errorf("perfrun run at %s: %v: %s", history.ShortCommit(measured), err, strings.TrimSpace(stderr.String()))
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	opts := history.AddOptions{Commit: commit, CommitTimeOf: b.CommitTimeOf, ResolveCommit: b.ResolveCommit}
	if b.Machine != "" || suffix != "" {
		opts.Machine = b.Machine
		if opts.Machine == "" {
			set, err := records.Read(bytes.NewReader(data), out, "")
			if err != nil {
				return err
			}
			opts.Machine = set.Machine()
		}
		opts.Machine += suffix
	}
	a, err := b.History.Add(ctx, fmt.Sprintf("%s at %s", filepath.Base(out), history.ShortCommit(commit)), data, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.Log, "perfrun: history backfill: %s%s: %d values\n", history.ShortCommit(measured), suffix, a.Samples)
	return nil
}
