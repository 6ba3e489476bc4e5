package cli

import (
	"context"
	"fmt"
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
	"github.com/perfrun/perfrun/records"
)

var cmdAB = &command{
	name: "ab", args: "[flags] BASE HEAD", short: "build two git revisions and gate them, interleaved, with an A/A noise arm",
	long: `AB builds perfrun (or, with -pkg, any main that calls perfrun.Main) at two
git revisions and runs them interleaved round by
round on the same corpus and cells: base, head and base again (the A/A arm),
each a fresh process, in orders balanced over all six permutations. Per cell
the statistic is the per-round log ratio of head to the mean of both base
arms, paired by round id (t interval). PASS means the upper bound of the
slowdown is below the threshold, REGRESSION that its lower bound is above
it, Holm across cells; anything else is INCONCLUSIVE. Cells the first
-rounds rounds leave undecided get as many fresh rounds and are decided on
all of them, each look at Pocock's level so the error rate holds over both.
An A/A interval wholly outside ±threshold/2 makes a cell INCONCLUSIVE.
Both revisions must have "run -order-seed" and "-match". Exit codes as gate;
a revision that does not build exits 4.`,
}

func init() { cmdAB.run = runAB }

// defaultPkg is perfrun's own main.
const defaultPkg = "./cmd/perfrun"

func runAB(ctx context.Context, o *streams, args []string) error {
	fs := cmdAB.flags(o)
	th := thresholdFlags(fs)
	fs.BoolVar(&th.AllowMissing, "allow-missing", false, "do not fail cells that BASE measures and HEAD does not")
	rounds := fs.Int("rounds", 10, "interleaved rounds of the first look (each runs all three arms); undecided cells get as many again")
	inner := fs.Int("inner", 3, "windows each arm process measures; their median is the arm's value (damps a window the host slowed)")
	repo := fs.String("repo", ".", "git repository")
	pkg := fs.String("pkg", defaultPkg, "the main package to build at each revision, relative to the repository's root (a store's own main that calls perfrun.Main)")
	implFlag := fs.String("impl", "", "implementations (default: all)")
	workload := fs.String("workload", "issuer", "workloads")
	threads := fs.String("threads", fmt.Sprintf("1-%d", harness.Cores()), "thread counts (oversubscribed ones are never gated)")
	var params listFlag
	fs.Var(&params, "param", "workload parameter name=v1,v2 (repeatable)")
	window := fs.Duration("window", 150*time.Millisecond, "measured time per cell and window")
	warmup := fs.Duration("warmup", 50*time.Millisecond, "unmeasured warm-up before each window")
	seed := fs.Uint64("seed", 1, "corpus seed, and seed of the arm order")
	jsonOut := fs.String("json", "", "also write the verdict as JSON to this file")
	reportDir := fs.String("report", "", "also write report.md, report.html and images/ of the comparison here")
	keep := fs.Bool("keep", false, "keep the scratch directory with every arm's results")
	quiet := fs.Bool("q", false, "no progress on stderr")
	if err := parse(fs, args, -1); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usageError("want two revisions: BASE HEAD")
	}
	if *rounds < compare.MinPairedRounds || *inner < 1 {
		return usageError("-rounds must be at least %d for paired statistics, -inner at least 1", compare.MinPairedRounds)
	}
	if err := checkThresholds(th); err != nil {
		return err
	}
	runArgs := []string{"-workload", *workload, "-threads", *threads, "-window", window.String(),
		"-warmup", warmup.String(), "-seed", fmt.Sprint(*seed), "-plots", "none"}
	if *implFlag != "" {
		runArgs = append(runArgs, "-impl", *implFlag)
	}
	for _, p := range params {
		runArgs = append(runArgs, "-param", p)
	}
	// Another package's binary knows implementations this one does not:
	// only perfrun's own flags are checked here.
	if *pkg == defaultPkg {
		if _, err := planCells(orDefault(*implFlag), *workload, *threads, params); err != nil {
			return asUsage(err)
		}
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	for _, d := range ab.PruneStale(*repo) {
		fmt.Fprintf(o.stderr, "perfrun: ab: removed %s, left by a comparison that was killed\n", d)
	}
	if ab.Dirty(*repo) {
		fmt.Fprintf(o.stderr, "perfrun: ab: %s has uncommitted changes; ab measures the commits %s and %s, not them\n", *repo, fs.Arg(0), fs.Arg(1))
	}
	dir, err := ab.TempDir()
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintf(o.stderr, "perfrun: ab: keeping %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	base, cleanBase, err := ab.Build(ctx, *repo, fs.Arg(0), *pkg, dir, "base")
	if err != nil {
		return err
	}
	defer cleanBase()
	head, cleanHead, err := ab.Build(ctx, *repo, fs.Arg(1), *pkg, dir, "head")
	if err != nil {
		return err
	}
	defer cleanHead()
	r := &ab.Runner{Base: base, Head: head, RunArgs: runArgs, Rounds: *rounds, Inner: *inner, Seed: *seed, Dir: dir, Metric: th.Metric}
	if !*quiet {
		r.Progress = func(round, rounds int, arm string) {
			fmt.Fprintf(o.stderr, "perfrun: ab: round %d/%d, %s\n", round, rounds, arm)
		}
	}
	start := time.Now()
	rep, err := compare.Sequential(*th, *rounds, func(names []string, first int) ([]*records.Cell, map[string]compare.Arms, int, error) {
		match := ""
		if names != nil {
			match = matchNames(names)
			if !*quiet {
				fmt.Fprintf(o.stderr, "perfrun: ab: %d cells undecided after %d rounds; measuring %d more rounds of them\n", len(names), first, *rounds)
			}
		}
		return r.Run(ctx, match, first)
	})
	if err != nil {
		return err
	}
	rep.Old, rep.New = fs.Arg(0), fs.Arg(1)
	if *reportDir != "" {
		if err := abReport(rep, dir, *reportDir, r); err != nil {
			return fmt.Errorf("report: %v", err)
		}
	}
	verdict := finishGate(rep, *jsonOut, o)
	if !*quiet {
		fmt.Fprintf(o.stderr, "perfrun: ab: %s in %s\n", rep.Verdict, time.Since(start).Round(time.Second))
	}
	return verdict
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
// of the base and head arms' results side by side.
func abReport(rep *compare.Report, scratch, dir string, r *ab.Runner) error {
	arm := func(name, label string) (*records.Set, error) {
		files, _ := filepath.Glob(filepath.Join(scratch, "round*-"+name+".txt"))
		return records.ReadFiles(label, files...)
	}
	base, err := arm(ab.ArmBase, rep.Old)
	if err != nil {
		return err
	}
	head, err := arm(ab.ArmHead, rep.New)
	if err != nil {
		return err
	}
	doc := &report.Document{
		Title:   "perfrun: " + rep.New + " against " + rep.Old,
		Verdict: rep,
		Old:     base,
		New:     head,
		Notes: []string{fmt.Sprintf("Interleaved A/B on one machine: %d rounds of base, head and base again (the A/A arm) in balanced orders, "+
			"%d more for cells the first look left undecided. PASS: the upper bound of the slowdown is below %.0f%%; "+
			"REGRESSION: its lower bound is above it (Holm across cells, Pocock across the two looks).", r.Rounds, r.Rounds, 100*rep.Threshold)},
	}
	return writeDocument(doc, dir)
}
