package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
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

// historyBackfill measures the commits of a range that the history has no
// runs of — building perfrun (or -pkg) at each in a worktree, as ab does —
// and adds each run as it ends: a history useful on the day it starts,
// as airspeed velocity's. With -reference, a reference commit is measured
// after each commit too and filed under MACHINE+reference, so the machine's
// drift over the backfill shows as a series of its own: a step both
// series share is the machine's.
func historyBackfill(fs *flag.FlagSet) runFunc {
	db := dbFlag(fs)
	every := fs.Int("every", 1, "measure every k-th commit of the range (the last always)")
	reference := fs.String("reference", "", "a commit measured after each commit, filed as MACHINE+reference: the machine's drift")
	repo := fs.String("repo", ".", "the git repository")
	pkg := fs.String("pkg", defaultPkg, "the main package to build at each commit, relative to the repository's root")
	machine := fs.String("machine", "", "the machine label of the runs (default: each run's machine: line, else its cpu and cores)")
	return func(ctx context.Context, o *streams, args []string) error {
		if fs.NArg() < 1 {
			return usageError("history backfill: want a revision range, such as HEAD~20..HEAD, and after -- the flags of perfrun run")
		}
		if *every < 1 {
			return usageError("-every must be at least 1")
		}
		if err := machineLabel(*machine); err != nil {
			return err
		}
		rangeArg, runArgs := fs.Arg(0), fs.Args()[1:]
		if strings.HasPrefix(rangeArg, "-") {
			return usageError("bad revision range %q", rangeArg)
		}
		// The run flags are checked now, not after the first build.
		if err := parse(cmdRun.flagSet(), runArgs, cmdRun.maxArgs); err != nil {
			return usageError("the flags of perfrun run after --: %v", err)
		}
		if err := ab.CheckSource(ctx, *repo, *pkg); err != nil {
			return asUsage(err)
		}
		commits, err := revList(ctx, *repo, rangeArg, *every)
		if err != nil {
			return asUsage(err)
		}
		ctx, stop := interruptible(ctx)
		defer stop()
		h, err := openHistory(ctx, *db)
		if err != nil {
			return err
		}
		defer h.Close()
		dir, err := ab.TempDir()
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		b := &backfill{ctx: ctx, o: o, h: h, repo: *repo, pkg: *pkg, dir: dir, runArgs: runArgs, machine: *machine}
		var ref string
		if *reference != "" {
			if ref, err = b.build(*reference, "reference"); err != nil {
				return err
			}
		}
		start := time.Now()
		for i, c := range commits {
			eta := ""
			if i > 0 {
				eta = fmt.Sprintf(", about %s left", (time.Since(start) / time.Duration(i) * time.Duration(len(commits)-i)).Round(time.Second))
			}
			fmt.Fprintf(o.stderr, "perfrun: history backfill: commit %d/%d %s%s\n", i+1, len(commits), ab.Describe(ctx, *repo, c), eta)
			bin, err := b.build(c, fmt.Sprintf("c%03d", i))
			if err != nil {
				return fmt.Errorf("%v (%d commits before it were added)", err, i)
			}
			if err := b.measure(bin, c, c, "", i); err != nil {
				return err
			}
			if ref != "" {
				if err := b.measure(ref, c, *reference, "+reference", i); err != nil {
					return err
				}
			}
		}
		fmt.Fprintf(o.stdout, "history %s: %d commits measured in %s; perfrun history changes finds their steps\n", h.Path, len(commits), time.Since(start).Round(time.Second))
		return nil
	}
}

// revList lists a range's commits, oldest first, every k-th and the last.
func revList(ctx context.Context, repo, rangeArg string, every int) ([]string, error) {
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

// backfill is one backfill's state: where it builds and what it runs.
type backfill struct {
	ctx            context.Context
	o              *streams
	h              *history.DB
	repo, pkg, dir string
	runArgs        []string
	machine        string
}

// build builds the binary of a commit.
func (b *backfill) build(rev, label string) (string, error) {
	bins, cleanup, err := ab.Build(b.ctx, b.repo, rev, b.pkg, b.dir, label)
	if err != nil {
		return "", err
	}
	cleanup() // the binary stays; the worktree is no longer needed
	return bins[0], nil
}

// measure runs bin's perfrun run and adds the results under commit (the
// measured commit; for a reference run, the commit it followed, so the
// reference series lines up with the commits), the machine suffixed.
func (b *backfill) measure(bin, commit, measured, suffix string, i int) error {
	out := filepath.Join(b.dir, fmt.Sprintf("run%03d%s.txt", i, strings.TrimPrefix(suffix, "+")))
	args := append([]string{"run", "-q", "-plots", "none", "-o", out}, b.runArgs...)
	cmd := exec.CommandContext(b.ctx, bin, args...)
	procgroup.Gentle(cmd, childGrace)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(b.ctx.Err(), context.Canceled) {
			return fmt.Errorf("interrupted at commit %s: the commits before it are in the history", history.ShortCommit(commit))
		}
		return fmt.Errorf("perfrun run at %s: %v: %s", history.ShortCommit(measured), err, strings.TrimSpace(stderr.String()))
	}
	data, _, err := readInput(out)
	if err != nil {
		return err
	}
	opts := history.AddOptions{Commit: commit, CommitTimeOf: gitCommitTime(b.repo), ResolveCommit: gitResolve(b.repo)}
	if b.machine != "" || suffix != "" {
		opts.Machine = b.machine
		if opts.Machine == "" {
			set, err := records.Read(bytes.NewReader(data), out, "")
			if err != nil {
				return err
			}
			opts.Machine = set.Machine()
		}
		opts.Machine += suffix
	}
	a, err := b.h.Add(b.ctx, fmt.Sprintf("%s at %s", filepath.Base(out), history.ShortCommit(commit)), data, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.o.stderr, "perfrun: history backfill: %s%s: %d values\n", history.ShortCommit(measured), suffix, a.Samples)
	return nil
}
