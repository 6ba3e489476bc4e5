package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/ab"
	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/harness/report"
	"github.com/perfrun/perfrun/impls"
)

// exitInconclusive is the gate's exit code when the data cannot decide.
const exitInconclusive = 3

func verdictCode(v compare.Verdict) int {
	switch v {
	case compare.Regression:
		return exitFailure
	case compare.Inconclusive:
		return exitInconclusive
	}
	return exitOK
}

// readPair reads OLD and NEW, printing their warnings.
func readPair(cmd string, args []string, stderr io.Writer) (*compare.Set, *compare.Set, int) {
	if len(args) != 2 {
		errorf(stderr, cmd, "want two results files: OLD NEW (or label=file)")
		return nil, nil, exitUsage
	}
	var sets [2]*compare.Set
	for i, a := range args {
		s, err := compare.ReadFile(a)
		if err != nil {
			errorf(stderr, cmd, "%v", err)
			return nil, nil, exitUsage
		}
		for _, w := range s.Warnings {
			fmt.Fprintf(stderr, "perfrun: %s: warning: %v\n", cmd, w)
		}
		sets[i] = s
	}
	if _, err := compare.Shared(sets[0], sets[1]); err != nil {
		errorf(stderr, cmd, "%v", err)
		return nil, nil, exitUsage
	}
	return sets[0], sets[1], -1
}

func cmdCompare(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("compare", "OLD NEW", `Compare two results files the way benchstat does (median, 95% CI,
Mann-Whitney U at alpha 0.05, "~" when not significant), then say how many
times faster each implementation ran than the others in NEW.`, stderr)
	if code := parseFlagsArgs(fs, args); code >= 0 {
		return code
	}
	old, new, code := readPair("compare", fs.Args(), stderr)
	if code >= 0 {
		return code
	}
	rows, _ := compare.Compare(old, new)
	compare.WriteCompare(stdout, old, new, rows)
	for _, s := range []*compare.Set{old, new} {
		compare.WriteSpeedups(stdout, s.Label+": mean ns/op ± std, hyperfine style", compare.Speedups(s, "ns/op"))
	}
	return exitOK
}

func cmdGate(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("gate", "[flags] OLD NEW", `Gate decides whether NEW regressed against OLD: PASS, IMPROVED, REGRESSION
or INCONCLUSIVE, per cell and overall. Mann-Whitney U per cell, Holm
correction across the gated cells, a minimum effect, plain thresholds for
allocs/op and instructions/op; cells with more threads than cores are not
gated. Exit 0 PASS/IMPROVED, 1 REGRESSION, 3 INCONCLUSIVE, 2 usage.
For two revisions on one machine prefer "perfrun ab", which interleaves
them and measures the noise floor.`, stderr)
	th := compare.DefaultThresholds
	fs.Float64Var(&th.MinEffect, "threshold", th.MinEffect, "minimum effect as a fraction (0.05 = 5%)")
	fs.Float64Var(&th.Alpha, "alpha", th.Alpha, "family-wise false-alarm rate")
	fs.Float64Var(&th.AllocsDelta, "allocs-delta", th.AllocsDelta, "allocs/op increase that fails")
	fs.Float64Var(&th.InstructionsRatio, "instructions-ratio", th.InstructionsRatio, "instructions/op increase that fails, as a fraction")
	fs.BoolVar(&th.AllowMissing, "allow-missing", false, "do not fail benchmarks missing from NEW")
	jsonOut := fs.String("json", "", "also write the verdict as JSON to this file")
	if code := parseFlagsArgs(fs, args); code >= 0 {
		return code
	}
	if th.MinEffect < 0 || th.Alpha <= 0 || th.Alpha >= 1 {
		errorf(stderr, "gate", "-threshold must be >= 0 and -alpha in (0, 1)")
		return exitUsage
	}
	old, new, code := readPair("gate", fs.Args(), stderr)
	if code >= 0 {
		return code
	}
	rep, err := compare.Gate(old, new, th)
	if err != nil {
		errorf(stderr, "gate", "%v", err)
		return exitUsage
	}
	return finishGate(rep, *jsonOut, stdout, stderr, "gate")
}

func finishGate(rep *compare.Report, jsonOut string, stdout, stderr io.Writer, cmd string) int {
	rep.WriteText(stdout)
	if jsonOut != "" {
		var buf bytes.Buffer
		rep.WriteJSON(&buf)
		if err := writeFileAtomic(jsonOut, buf.Bytes()); err != nil {
			errorf(stderr, cmd, "%v", err)
			return exitFailure
		}
	}
	return verdictCode(rep.Verdict)
}

func cmdAB(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("ab", "[flags] BASE HEAD", `AB builds perfrun at two git revisions and runs them interleaved round by
round on the same corpus and cells, with an A/A arm (BASE twice) that
measures each cell's noise floor. Per cell it tests the per-round log ratio
HEAD/BASE (t-test, Holm across cells) and fails only when the lower bound of
the slowdown exceeds max(threshold, 3 x noise floor); flagged cells are run
again with fresh rounds and fail only if they fail again. If the A/A arm
itself differs, the cell is INCONCLUSIVE. Both revisions must have
"run -order-seed" and "-match". Exit codes as gate.`, stderr)
	th := compare.DefaultThresholds
	fs.Float64Var(&th.MinEffect, "threshold", th.MinEffect, "minimum effect as a fraction (0.05 = 5%)")
	fs.Float64Var(&th.Alpha, "alpha", th.Alpha, "family-wise false-alarm rate")
	rounds := fs.Int("rounds", 8, "interleaved rounds (each runs all three arms)")
	inner := fs.Int("inner", 3, "rounds each arm process measures; their median is the arm's value")
	repo := fs.String("repo", ".", "git repository")
	implFlag := fs.String("impl", "", "implementations (default: all)")
	workload := fs.String("workload", "issuer", "workloads")
	threads := fs.String("threads", fmt.Sprintf("1-%d", harness.Cores()), "thread counts (oversubscribed ones are never gated)")
	var params listFlag
	fs.Var(&params, "param", "workload parameter name=v1,v2 (repeatable)")
	window := fs.Duration("window", 300*time.Millisecond, "measured time per cell and round")
	seed := fs.Uint64("seed", 1, "corpus seed, and seed of the arm order")
	jsonOut := fs.String("json", "", "also write the verdict as JSON to this file")
	reportDir := fs.String("report", "", "also write report.md, report.html and images/ of the comparison here")
	keep := fs.Bool("keep", false, "keep the scratch directory with every arm's results")
	quiet := fs.Bool("q", false, "no progress on stderr")
	if code := parseFlagsArgs(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 2 {
		errorf(stderr, "ab", "want two revisions: BASE HEAD")
		return exitUsage
	}
	if *rounds < 3 || *inner < 1 {
		errorf(stderr, "ab", "-rounds must be at least 3 for paired statistics, -inner at least 1")
		return exitUsage
	}
	runArgs := []string{"-workload", *workload, "-threads", *threads, "-window", window.String(),
		"-seed", fmt.Sprint(*seed)}
	if *implFlag != "" {
		runArgs = append(runArgs, "-impl", *implFlag)
	}
	for _, p := range params {
		runArgs = append(runArgs, "-param", p)
	}
	if _, err := planCells(orDefault(*implFlag), *workload, *threads, params); err != nil {
		errorf(stderr, "ab", "%v", err)
		return exitUsage
	}
	ctx, stop := interruptible()
	defer stop()
	dir, err := ab.TempDir()
	if err != nil {
		errorf(stderr, "ab", "%v", err)
		return exitFailure
	}
	if *keep {
		fmt.Fprintf(stderr, "perfrun: ab: keeping %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	base, cleanBase, err := ab.Build(ctx, *repo, fs.Arg(0), dir, "base")
	if err != nil {
		errorf(stderr, "ab", "%v", err)
		return exitFailure
	}
	defer cleanBase()
	head, cleanHead, err := ab.Build(ctx, *repo, fs.Arg(1), dir, "head")
	if err != nil {
		errorf(stderr, "ab", "%v", err)
		return exitFailure
	}
	defer cleanHead()
	r := &ab.Runner{Base: base, Head: head, RunArgs: runArgs, Rounds: *rounds, Inner: *inner, Seed: *seed, Dir: dir, Metric: th.Metric}
	if !*quiet {
		r.Progress = func(round, rounds int, arm string) {
			fmt.Fprintf(stderr, "perfrun: ab: round %d/%d, %s\n", round, rounds, arm)
		}
	}
	start := time.Now()
	names, arms, cores, err := r.Run(ctx, "")
	if err != nil {
		errorf(stderr, "ab", "%v", err)
		return exitFailure
	}
	rep := compare.GatePaired(names, arms, cores, th)
	if flagged := rep.Flagged(); len(flagged) > 0 {
		if !*quiet {
			fmt.Fprintf(stderr, "perfrun: ab: %d cells flagged; running them again with fresh rounds\n", len(flagged))
		}
		r.Seed += 7919
		_, again, _, err := r.Run(ctx, matchNames(flagged))
		if err != nil {
			errorf(stderr, "ab", "re-run: %v", err)
			return exitFailure
		}
		second := compare.GatePaired(flagged, again, cores, th)
		rep.Confirm(second)
	}
	rep.Old, rep.New = fs.Arg(0), fs.Arg(1)
	if *reportDir != "" {
		if err := abReport(rep, dir, *reportDir, r); err != nil {
			errorf(stderr, "ab", "report: %v", err)
			return exitFailure
		}
	}
	code := finishGate(rep, *jsonOut, stdout, stderr, "ab")
	if !*quiet {
		fmt.Fprintf(stderr, "perfrun: ab: %s in %s\n", rep.Verdict, time.Since(start).Round(time.Second))
	}
	return code
}

func matchNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

func orDefault(impl string) string {
	if impl == "" {
		return strings.Join(impls.Names(), ",")
	}
	return impl
}

// abReport writes the report of an A/B run: the paired verdict, and plots
// of the head arm's results.
func abReport(rep *compare.Report, scratch, dir string, r *ab.Runner) error {
	files, _ := filepath.Glob(filepath.Join(scratch, "round*-"+ab.ArmHead+".txt"))
	head := &compare.Set{Label: rep.New, Values: make(map[string]map[string][]float64)}
	for _, f := range files {
		s, err := compare.ReadFile(f)
		if err != nil {
			return err
		}
		merge(head, s)
	}
	doc := &report.Document{
		Title:   "perfrun: " + rep.New + " against " + rep.Old,
		Verdict: rep,
		New:     head,
		Notes: []string{fmt.Sprintf("Interleaved A/B on one machine: %d rounds of base, head and base again (the A/A arm) in shuffled order; "+
			"a cell fails only when the lower bound of its slowdown exceeds max(threshold, 3 × the A/A noise floor), twice.", r.Rounds)},
	}
	return writeDocument(doc, dir)
}
