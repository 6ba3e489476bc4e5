package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
	maxArgs: -1, name: "ab", args: "[flags] BASE HEAD | -base-bin B -head-bin H | -replay windows.csv", short: "build two git revisions and gate them, interleaved, with an A/A noise arm",
	long: `AB builds perfrun (or, with -pkg, any main that calls perfrun.Main) at two
git revisions and measures them side by side on the same corpus and cells:
base, head and base again (the A/A arm). Each round starts the three arms as
fresh processes and, once they are set up, drives them window by window: for
each cell, -inner triples of one window in each arm back to back, in orders
that rotate through all six permutations, so a slow stretch of the machine
lands on all three arms alike. Each window is followed by a short probe of
the machine's speed; a triple whose arms' probes differ by more than
-speed-limit, or in which a worker waited for a CPU or the hypervisor stole
time, is set aside and measured again. -pairing process runs each arm as one
whole "perfrun run" process after another instead (revisions from before
window pairing need it).

Per cell the statistic is the per-round log ratio of head to the mean of both
base arms, paired by round id, with Wilcoxon signed-rank bounds. PASS means
the upper bound of the slowdown is below the threshold (each cell at -alpha:
every cell must pass, so no correction is due), REGRESSION that its
lower bound is above it (Holm across cells), IMPROVED that the speedup's
bound is beyond it; anything else is INCONCLUSIVE. After -rounds rounds ab
decides what it can; the cells still undecided get -rounds fresh rounds, and
so on, up to -looks looks or until -budget would be exceeded; every look
tests at Pocock's level for -looks looks, so each kind of claim keeps its
error rate at -alpha. An A/A interval wholly outside ±threshold/2 makes a
cell INCONCLUSIVE. Each revision is linked with -layouts code layouts,
rotated over the rounds (the A/A arm another of base's than the base arm),
so no verdict rests on one code layout. Exit codes as gate; a revision that
does not build exits 4.

Instead of two revisions: -base-bin and -head-bin compare two prebuilt
binaries (two builds of a library, such as libcrypto 3.0 and 4.0), and
-base-env/-head-env KEY=VALUE one binary under two environments — no build,
one code layout. -baseline NAME takes as BASE the build a "run
-save-baseline NAME" kept, and this perfrun as HEAD: the baseline journey,
measured side by side instead of file against file. -replay judges the windows.csv of an earlier -report
again with this perfrun's rules, measuring nothing.`,
}

func init() { cmdAB.define = abFlags }

// defaultPkg is perfrun's own main.
const defaultPkg = "./cmd/perfrun"

// abOptions are ab's flags.
type abOptions struct {
	th                   *compare.Thresholds
	rounds, inner, looks int
	budget               time.Duration
	pairing              string
	speedLimit           string
	layouts              int
	pin                  bool
	repo, pkg            string
	impl, workload       string
	threads              string
	params               listFlag
	window, warmup       time.Duration
	seed                 uint64
	jsonOut, reportDir   string
	replay               string
	baseBin, headBin     string
	baseline             string
	baseEnv, headEnv     listFlag
	keep, quiet          bool
	cmd                  commandFlags
}

func abFlags(fs *flag.FlagSet) runFunc {
	a := &abOptions{th: thresholdFlags(fs)}
	fs.BoolVar(&a.th.AllowMissing, "allow-missing", false, "do not fail cells that BASE measures and HEAD does not")
	fs.IntVar(&a.rounds, "rounds", 10, "rounds of each look (each runs all three arms)")
	fs.IntVar(&a.inner, "inner", 2, "windows each arm measures of a cell in a round; their median is the arm's value")
	fs.IntVar(&a.looks, "looks", 3, "most looks: cells still undecided after a look get -rounds fresh rounds")
	fs.DurationVar(&a.budget, "budget", 0, "start no look that would end past this time from the start (0: no limit), e.g. 5m")
	fs.StringVar(&a.pairing, "pairing", "window", "window: arms driven window by window; process: one whole process per arm and round")
	fs.StringVar(&a.speedLimit, "speed-limit", "10%", "set aside a window triple whose speed probes differ by more than this (window pairing; 0 for never)")
	fs.IntVar(&a.layouts, "layouts", 3, "code layouts linked per revision (-ldflags=-randlayout), rotated over the rounds; 0 for the default layout alone")
	fs.BoolVar(&a.pin, "pin", true, "window pairing: pin worker i of every arm to the same i-th CPU, so the arms of a triple run on the same CPUs")
	fs.StringVar(&a.repo, "repo", ".", "git repository")
	fs.StringVar(&a.pkg, "pkg", defaultPkg, "the main package to build at each revision, relative to the repository's root (a store's own main that calls perfrun.Main)")
	fs.StringVar(&a.impl, "impl", "", "implementations (default: all)")
	fs.StringVar(&a.workload, "workload", "issuer", "workloads")
	fs.StringVar(&a.threads, "threads", fmt.Sprintf("1-%d", harness.Cores()), "thread counts (oversubscribed ones are never gated)")
	fs.Var(&a.params, "param", "workload parameter name=v1,v2 (repeatable)")
	a.cmd.define(fs)
	fs.DurationVar(&a.window, "window", 150*time.Millisecond, "measured time per cell and window")
	fs.DurationVar(&a.warmup, "warmup", 50*time.Millisecond, "unmeasured warm-up before each window")
	fs.Uint64Var(&a.seed, "seed", 1, "corpus seed, and seed of the arm order")
	fs.StringVar(&a.jsonOut, "json", "", "also write the verdict as JSON to this file")
	fs.StringVar(&a.reportDir, "report", "", "also write report.md, report.html, images/ and windows.csv of the comparison here")
	fs.StringVar(&a.replay, "replay", "", "judge the recorded comparison in this windows.csv (of -report) again, measuring nothing: with this perfrun's -rounds, -looks, -threshold and -alpha")
	fs.StringVar(&a.baseBin, "base-bin", "", "a prebuilt perfrun (or perfrun.Main) binary as BASE, instead of building a revision")
	fs.StringVar(&a.baseline, "baseline", "", "the build kept with the named baseline (run -save-baseline `NAME`) as BASE; HEAD is this perfrun or -head-bin")
	fs.StringVar(&a.headBin, "head-bin", "", "a prebuilt binary as HEAD; with either -bin, the other defaults to this perfrun")
	fs.Var(&a.baseEnv, "base-env", "KEY=VALUE added to the environment of BASE's processes, e.g. LD_LIBRARY_PATH=/opt/openssl-a/lib (repeatable)")
	fs.Var(&a.headEnv, "head-env", "KEY=VALUE added to the environment of HEAD's processes (repeatable)")
	fs.BoolVar(&a.keep, "keep", false, "keep the scratch directory with every arm's results")
	fs.BoolVar(&a.quiet, "q", false, "no progress on stderr")
	return func(ctx context.Context, o *streams, _ []string) error { return a.run(ctx, o, fs) }
}

// cellArgs are the flags that choose the cells, for both arm commands.
func (a *abOptions) cellArgs() []string {
	args := []string{"-workload", a.workload, "-threads", a.threads, "-window", a.window.String(),
		"-warmup", a.warmup.String(), "-seed", fmt.Sprint(a.seed)}
	if a.impl != "" {
		args = append(args, "-impl", a.impl)
	}
	for _, p := range a.params {
		args = append(args, "-param", p)
	}
	return append(args, a.cmd.args()...)
}

func (a *abOptions) run(ctx context.Context, o *streams, fs *flag.FlagSet) error {
	if a.replay != "" {
		if fs.NArg() != 0 {
			return usageError("-replay judges a recorded comparison: want no revisions")
		}
		return a.replayWindows(o)
	}
	if a.baseline != "" {
		if a.baseBin != "" {
			return usageError("-baseline and -base-bin both name BASE: give one")
		}
		bin, err := baselineBuild(a.baseline)
		if err != nil {
			return err
		}
		a.baseBin = bin
	}
	prebuilt := a.baseBin != "" || a.headBin != "" || len(a.baseEnv)+len(a.headEnv) > 0
	switch {
	case prebuilt && fs.NArg() != 0:
		return usageError("with -baseline, -base-bin, -head-bin, -base-env or -head-env, want no revisions: the binaries are the arms")
	case !prebuilt && fs.NArg() != 2:
		return usageError("want two revisions: BASE HEAD")
	}
	limit, err := parsePercent(a.speedLimit)
	if err != nil && a.speedLimit != "0" {
		return usageError("bad -speed-limit %q: want a percentage such as 10%%, or 0", a.speedLimit)
	}
	switch {
	case a.rounds < compare.MinPairedRounds || a.inner < 1 || a.looks < 1:
		return usageError("-rounds must be at least %d for paired statistics, -inner and -looks at least 1", compare.MinPairedRounds)
	case a.pairing != "window" && a.pairing != "process":
		return usageError("-pairing must be window or process, not %q", a.pairing)
	case a.budget < 0 || a.layouts < 0:
		return usageError("-budget and -layouts must not be negative")
	}
	if err := checkThresholds(a.th); err != nil {
		return err
	}
	if threads, err := harness.ParseThreads(a.threads); err == nil && len(threads) > 0 && slices.Min(threads) > harness.Cores() {
		return usageError("-threads %s: every count is above the %d cores: those cells only time-slice and are never gated, so ab could judge nothing", a.threads, harness.Cores())
	}
	// Another package's binary knows implementations this one does not:
	// only perfrun's own flags are checked here.
	if a.pkg == defaultPkg && !prebuilt {
		cmds, err := a.cmd.commands()
		if err != nil {
			return asUsage(err)
		}
		if _, err := planCells(orDefault(a.impl), a.workload, a.threads, a.params, cmds...); err != nil {
			return asUsage(err)
		}
	}
	if err := checkOutputs(a.jsonOut, a.reportDir); err != nil {
		return err
	}
	var arms *prebuiltArms
	if prebuilt {
		var err error
		if arms, err = a.prebuilt(); err != nil {
			return err
		}
	} else if err := ab.CheckSource(ctx, a.repo, a.pkg); err != nil {
		return asUsage(err)
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	start := time.Now()
	if !prebuilt {
		for _, d := range ab.PruneStale(a.repo) {
			fmt.Fprintf(o.stderr, "perfrun: ab: removed %s, left by a comparison that was killed\n", d)
		}
		if ab.Dirty(a.repo) {
			fmt.Fprintf(o.stderr, "perfrun: ab: %s has uncommitted changes; ab measures the commits %s and %s, not them\n", a.repo, fs.Arg(0), fs.Arg(1))
		}
	}
	dir, err := ab.TempDir()
	if err != nil {
		return err
	}
	if a.keep {
		fmt.Fprintf(o.stderr, "perfrun: ab: keeping %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	oldName, newName := fs.Arg(0), fs.Arg(1)
	var r *ab.Runner
	if prebuilt {
		r = a.runner(o, dir, []string{arms.base}, []string{arms.head})
		r.BaseEnv, r.HeadEnv = a.baseEnv, a.headEnv
		oldName, newName = arms.baseName, arms.headName
	} else {
		var cleanup func()
		if r, cleanup, err = a.buildArms(ctx, o, dir, oldName, newName); err != nil {
			return err
		}
		defer cleanup()
		oldName, newName = ab.Describe(ctx, a.repo, oldName), ab.Describe(ctx, a.repo, newName)
	}
	r.SpeedLimit = limit
	rep, windows, err := a.decide(ctx, o, r, start)
	if err != nil {
		return err
	}
	rep.Old, rep.New = oldName, newName
	if a.reportDir != "" {
		if err := abReport(rep, dir, a.reportDir, r, windows); err != nil {
			return fmt.Errorf("report: %v", err)
		}
	}
	verdict := finishGate(rep, a.jsonOut, o)
	if !a.quiet {
		wall := time.Since(start)
		fmt.Fprintf(o.stderr, "perfrun: ab: %s in %s (%.0f%% of it measuring)\n", rep.Verdict, wall.Round(time.Second), 100*r.Measuring.Seconds()/wall.Seconds())
	}
	return verdict
}

// buildArms builds both revisions, each linked with -layouts code layouts
// (seeds from -seed, different for base and head), and returns the
// runner of the arms.
func (a *abOptions) buildArms(ctx context.Context, o *streams, dir, baseRev, headRev string) (*ab.Runner, func(), error) {
	var baseLayouts, headLayouts []uint64 // nil: the default layout
	for i := range uint64(a.layouts) {
		baseLayouts = append(baseLayouts, 1000*a.seed+2*i+1)
		headLayouts = append(headLayouts, 1000*a.seed+2*i+2)
	}
	if !a.quiet {
		fmt.Fprintf(o.stderr, "perfrun: ab: building %s and %s (%d code layouts each)\n", baseRev, headRev, max(a.layouts, 1))
	}
	t0 := time.Now()
	built := func(rev string, n int) {
		if !a.quiet {
			fmt.Fprintf(o.stderr, "perfrun: ab: built %s (%d binaries) in %s\n", rev, n, time.Since(t0).Round(100*time.Millisecond))
		}
		t0 = time.Now()
	}
	base, cleanBase, err := ab.Build(ctx, a.repo, baseRev, a.pkg, dir, "base", baseLayouts...)
	if err != nil {
		return nil, nil, sourceError(err)
	}
	built(baseRev, len(base))
	head, cleanHead, err := ab.Build(ctx, a.repo, headRev, a.pkg, dir, "head", headLayouts...)
	if err != nil {
		cleanBase()
		return nil, nil, sourceError(err)
	}
	built(headRev, len(head))
	return a.runner(o, dir, base, head), func() { cleanHead(); cleanBase() }, nil
}

// runner is the runner of arms whose binaries are base and head.
func (a *abOptions) runner(o *streams, dir string, base, head []string) *ab.Runner {
	r := &ab.Runner{Base: base, Head: head, Windows: a.pairing == "window",
		RunArgs: append(a.cellArgs(), "-plots", "none"), ArmArgs: append(a.cellArgs(), "-pin="+strconv.FormatBool(a.pin)),
		Rounds: a.rounds, Inner: a.inner, Seed: a.seed, Dir: dir, Metric: a.th.Metric,
		Disturbed: harness.DefaultQuarantine.Window}
	if !a.quiet {
		r.Progress = a.progress(o)
	}
	return r
}

// progress prints where the arms are: the look, the round of the look, the
// cell, and how long the look has left at its pace so far. A look starts
// when its first round does.
func (a *abOptions) progress(o *streams) func(round, rounds int, what string) {
	look, lastRound := 0, 0
	var start time.Time
	return func(round, rounds int, what string) {
		if round < lastRound || look == 0 {
			look++
			start = time.Now()
		}
		lastRound = round
		eta := ""
		if done := round - 1; done > 0 {
			left := time.Since(start) / time.Duration(done) * time.Duration(rounds-done)
			eta = fmt.Sprintf(", about %s left in this look", left.Round(time.Second))
		}
		fmt.Fprintf(o.stderr, "perfrun: ab: look %d of up to %d, round %d/%d, %s%s\n", look, a.looks, round, rounds, what, eta)
	}
}

// prebuiltArms are the arms of an A/B of binaries built elsewhere (two
// builds of a library, one perfrun under two environments): no revision
// is built and no code layout rotated.
type prebuiltArms struct {
	base, head         string
	baseName, headName string
}

// prebuilt checks the binaries and environments of the arms: each binary
// an executable file (this perfrun where not given), each setting
// KEY=VALUE; it names each arm by its binary and settings.
func (a *abOptions) prebuilt() (*prebuiltArms, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	arms := &prebuiltArms{base: cmp.Or(a.baseBin, self), head: cmp.Or(a.headBin, self)}
	for _, bin := range []string{arms.base, arms.head} {
		if info, err := os.Stat(bin); err != nil || !info.Mode().IsRegular() || info.Mode()&0o111 == 0 {
			return nil, usageError("%s is not an executable file", bin)
		}
	}
	for _, kv := range append(append([]string(nil), a.baseEnv...), a.headEnv...) {
		if k, _, ok := strings.Cut(kv, "="); !ok || !envKey.MatchString(k) {
			return nil, usageError("bad environment setting %q: want KEY=VALUE", kv)
		}
	}
	name := func(what string, env []string) string {
		return strings.Join(append([]string{what}, env...), " ")
	}
	arms.baseName, arms.headName = name(filepath.Base(arms.base), a.baseEnv), name(filepath.Base(arms.head), a.headEnv)
	if a.baseline != "" {
		arms.baseName = name("baseline "+a.baseline+savedWhen(a.baseline), a.baseEnv)
		if a.headBin != "" { // as given: its base name is often perfrun too
			arms.headName = name(a.headBin, a.headEnv)
		}
	}
	if arms.baseName == arms.headName {
		arms.baseName, arms.headName = "base: "+arms.baseName, "head: "+arms.headName
	}
	return arms, nil
}

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// replayWindows judges a recorded comparison (the windows.csv of ab
// -report) again with this perfrun's statistics and thresholds, measuring
// nothing: the verdict a trusted job derives from an untrusted run's data.
func (a *abOptions) replayWindows(o *streams) error {
	if err := checkThresholds(a.th); err != nil {
		return err
	}
	if a.rounds < compare.MinPairedRounds || a.looks < 1 {
		return usageError("-rounds must be at least %d, -looks at least 1", compare.MinPairedRounds)
	}
	data, name, err := readInput(a.replay)
	if err != nil {
		return asUsage(err)
	}
	rec, err := ab.ReadWindows(bytes.NewReader(data), harness.Cores())
	if err != nil {
		return asUsage(fmt.Errorf("%s: %v", name, err))
	}
	looks, measure := rec.Replay(a.rounds, a.looks)
	rep, err := compare.Sequential(*a.th, looks, measure)
	if err != nil {
		return err
	}
	rep.Old, rep.New = "base", "head"
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("judged again from %s: %d cells, %d-core machine; the numbers are the recording's", name, len(rec.Cells), rec.Cores))
	return finishGate(rep, a.jsonOut, o)
}

// sourceError makes a revision or package ab cannot build a usage error;
// a build that fails stays the tool's failure (exit 4).
func sourceError(err error) error {
	if errors.Is(err, ab.ErrBadSource) {
		return asUsage(err)
	}
	return err
}

// decide runs the looks within the budget and returns the report and
// every cell's windows.
func (a *abOptions) decide(ctx context.Context, o *streams, r *ab.Runner, start time.Time) (*compare.Report, map[string][]compare.Window, error) {
	windows := make(map[string][]compare.Window)
	var lastLook time.Duration
	var lastCells int
	looks := compare.Looks{Rounds: a.rounds, Max: a.looks, Next: func(look int, undecided []string) bool {
		// The next look measures only the undecided cells: its time is the
		// last look's, scaled by how many cells it measures.
		next := lastLook * time.Duration(len(undecided)) / time.Duration(max(lastCells, 1))
		if a.budget > 0 && time.Since(start)+next > a.budget {
			if !a.quiet {
				fmt.Fprintf(o.stderr, "perfrun: ab: %d cells undecided; another look (about %s) would pass -budget %s\n",
					len(undecided), next.Round(time.Second), a.budget)
			}
			return false
		}
		if !a.quiet {
			fmt.Fprintf(o.stderr, "perfrun: ab: %d cells undecided after look %d; measuring %d more rounds of them\n", len(undecided), look-1, a.rounds)
		}
		return true
	}}
	rep, err := compare.Sequential(*a.th, looks, func(names []string, first int) ([]*records.Cell, map[string]compare.Arms, int, error) {
		match := ""
		if names != nil {
			match = matchNames(names)
		}
		t0 := time.Now()
		cells, arms, cores, err := r.Run(ctx, match, first)
		lastLook, lastCells = time.Since(t0), len(cells)
		for name, a := range arms {
			windows[name] = append(windows[name], a.Windows...)
		}
		return cells, arms, cores, err
	})
	if err != nil {
		return nil, nil, err
	}
	perCellRound := r.Measuring / time.Duration(max(1, totalCellRounds(rep)))
	for i := range rep.Cells {
		c := &rep.Cells[i]
		if c.Verdict == compare.Inconclusive && c.NeedRounds > c.Rounds {
			c.Reason += fmt.Sprintf(" (about %s more at this pace)", (time.Duration(c.NeedRounds-c.Rounds) * perCellRound).Round(time.Second))
		}
	}
	return rep, windows, nil
}

// totalCellRounds counts the rounds behind every cell's verdict.
func totalCellRounds(rep *compare.Report) int {
	n := 0
	for _, c := range rep.Cells {
		n += c.Rounds
	}
	return n
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
func abReport(rep *compare.Report, scratch, dir string, r *ab.Runner, windows map[string][]compare.Window) error {
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
		Notes: []string{fmt.Sprintf("Interleaved A/B on one machine: rounds of base, head and base again (the A/A arm), %s; "+
			"%d rounds a look, cells a look left undecided measured again. PASS: the upper bound of the slowdown is below %.0f%%; "+
			"REGRESSION: its lower bound is above it (Holm across cells, Pocock across the looks).", pairingNote(r), r.Rounds, 100*rep.Threshold)},
	}
	var cells []string
	for _, c := range rep.Cells {
		cells = append(cells, c.Name)
	}
	strips, err := report.WindowStrips(cells, windows)
	if err != nil {
		return err
	}
	if strips == nil {
		return writeDocument(doc, dir, nil)
	}
	doc.Extra = append(doc.Extra, strips)
	return writeDocument(doc, dir, map[string][]byte{"windows.csv": ab.WriteWindows(cells, windows, harness.Cores())})
}

// pairingNote says how the arms of a round were paired.
func pairingNote(r *ab.Runner) string {
	if r.Windows {
		return fmt.Sprintf("driven window by window (%d triples of one window per arm and cell, rotating orders)", r.Inner)
	}
	return "one whole process per arm, in balanced orders"
}
