package cellops

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/workloads"
)

// The side of a count that starts this program: a run's cells counted,
// each in processes of a countable build of perfrun running cell-ops.

// Args are the corpus flags a cell-ops child needs to rebuild the
// very same corpus.
func Args(corpusPath string, strict bool, seed uint64) []string {
	args := []string{"-seed", strconv.FormatUint(seed, 10)}
	if corpusPath != "" {
		args = append(args, "-corpus", corpusPath, "-strict="+strconv.FormatBool(strict))
	}
	return args
}

// CountInstructions has the harness count instructions/op of the run's
// single-threaded cells, each in procs processes of this very binary
// running cell-ops; quiet, it says nothing on stderr.
func CountInstructions(ctx context.Context, res *harness.Outcome, procs int, corpusArgs []string, stderr io.Writer, quiet bool) error {
	dir, err := scratch.Dir("count-")
	if err != nil {
		return err
	}
	defer scratch.Remove(dir)
	exe, err := countableSelf(ctx, dir, stderr, quiet)
	if err != nil {
		return err
	}
	if err := inheritBurn(); err != nil {
		return err
	}
	return res.CountInstructions(ctx, procs, command(exe, corpusArgs), progress(stderr, quiet, "instructions"))
}

// countableSelf is a binary of this program callgrind can count: this one,
// or, where it has no symbol table (go run links with -s), the same
// package built again from its own source into dir (locks.SelfSource), as
// lock profiles build it, and as the counting program alone (Tag):
// its packages are the ones this binary was compiled from, so only its
// link is new.
func countableSelf(ctx context.Context, dir string, stderr io.Writer, quiet bool) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	why := callgrind.Countable(exe)
	if why == nil {
		return exe, nil
	}
	src, err := locks.SelfSource(ctx)
	if err != nil {
		return "", fmt.Errorf("%v, and %w", why, err)
	}
	if !quiet {
		fmt.Fprintf(stderr, "perfrun: this binary has no symbol table to count instructions in (go run links without one): building %s from %s with one\n", src.Name, src.Dir)
	}
	out := filepath.Join(dir, "perfrun")
	if err := src.BuildWith(ctx, out, Tag, locks.NoDWARF); err != nil {
		return "", fmt.Errorf("%v; building it again to count: %w (build perfrun with go build and run that)", why, err)
	}
	return out, nil
}

// CountLocks has the harness count the lock profile of the run's
// single-threaded cells, in a build of this program for lock profiles.
func CountLocks(ctx context.Context, res *harness.Outcome, corpusArgs []string, stderr io.Writer, quiet bool) error {
	dir, err := scratch.Dir("locks-")
	if err != nil {
		return err
	}
	defer scratch.Remove(dir)
	if !quiet {
		fmt.Fprintf(stderr, "perfrun: building perfrun for lock profiles (the program that counts alone, with the standard sync overlaid: the first build on a machine compiles the standard library again)\n")
	}
	if err := inheritBurn(); err != nil {
		return err
	}
	exe := locks.Binary(dir, "perfrun")
	if err := locks.BuildSelf(ctx, exe); err != nil {
		return err
	}
	cmd := command(exe, corpusArgs)
	return res.CountLocks(ctx, func(c harness.Cell, ops int) []string {
		return append(cmd(c, ops), "-locks")
	}, progress(stderr, quiet, "the lock profile"))
}

// inheritBurn has the processes that count cells do the work per round of
// burn the measured cells did (workloads.BurnEnv): set in this process's
// environment, which they inherit.
func inheritBurn() error {
	return os.Setenv(workloads.BurnEnv, workloads.BurnSetting())
}

// command is the command line of exe's cell-ops for a cell.
func command(exe string, corpusArgs []string) func(c harness.Cell, ops int) []string {
	return func(c harness.Cell, ops int) []string {
		args := append([]string{exe, Name, "-impl", c.Impl.Name, "-workload", c.Workload.Name, "-ops", strconv.Itoa(ops)}, corpusArgs...)
		for _, kv := range c.Params {
			args = append(args, "-param", kv.Key+"="+kv.Value)
		}
		return args
	}
}

// progress tells, unless quiet, which cell is being counted.
func progress(stderr io.Writer, quiet bool, what string) func(harness.Cell, int) {
	if quiet {
		return nil
	}
	return func(c harness.Cell, n int) {
		fmt.Fprintf(stderr, "perfrun: counting %s of %s (%d ops under callgrind)\n", what, c.Name(), n)
	}
}
