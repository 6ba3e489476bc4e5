package historycmd

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/terminal"

	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/backfill"
)

// historyBackfill wires history backfill's flags to internal/backfill: it
// measures the commits of a range the history has no runs of, as
// airspeed velocity's backfill does, and with -reference the machine's
// drift beside them.
func historyBackfill(fs *flag.FlagSet) subcommand.RunFunc {
	db := DBFlag(fs)
	every := new(int)
	flagvalue.BoundedVar(fs, every, "every", 1, 1, 1000000, "measure every k-th commit of the range (the last always)")
	reference := fs.String("reference", "", "a commit measured after each commit, filed as MACHINE+reference: the machine's drift")
	repo := fs.String("repo", ".", "the git repository")
	pkg := fs.String("pkg", ab.DefaultPkg, "the main package to build at each commit, relative to the repository's root")
	machine := fs.String("machine", "", "the machine label of the runs (default: each run's machine: line, else its cpu and cores)")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		if fs.NArg() < 1 {
			return subcommand.UsageError("history backfill: want a revision range, such as HEAD~20..HEAD, and after -- the flags of perfrun run")
		}
		if err := machineLabel(*machine); err != nil {
			return err
		}
		rangeArg, runArgs := fs.Arg(0), fs.Args()[1:]
		if strings.HasPrefix(rangeArg, "-") {
			return subcommand.UsageError("bad revision range %q", rangeArg)
		}
		// The run flags are checked now, not after the first build.
		if err := subcommand.Parse(runCommand.FlagSet(), runArgs, runCommand.MaxArgs); err != nil {
			return subcommand.UsageError("the flags of perfrun run after --: %v", err)
		}
		if err := ab.CheckSource(ctx, *repo, *pkg); err != nil {
			return subcommand.AsUsage(err)
		}
		commits, err := backfill.RevList(ctx, *repo, rangeArg, *every)
		if err != nil {
			return subcommand.AsUsage(err)
		}
		ctx, stop := terminal.Interruptible(ctx)
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
		defer scratch.Remove(dir)
		b := &backfill.Backfill{History: h, Repo: *repo, Pkg: *pkg, Dir: dir, RunArgs: runArgs, Machine: *machine, Reference: *reference,
			CommitTimeOf: gitCommitTime(*repo), ResolveCommit: gitResolve(*repo), Grace: terminal.ChildGrace, Log: o.Stderr}
		start := time.Now()
		if err := b.Run(ctx, commits); err != nil {
			return err
		}
		fmt.Fprintf(o.Stdout, "history %s: %d commits measured in %s; perfrun history changes finds their steps\n", h.Path, len(commits), time.Since(start).Round(time.Second))
		return nil
	}
}
