package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
	"github.com/perfrun/perfrun/scaling"
)

var cmdAB = &command{
	maxArgs: -1, name: "ab", args: "[flags] BASE HEAD | -base-bin B -head-bin H | -replay windows.csv", short: "build two git revisions and gate them, interleaved, with an A/A noise arm",
	common: []string{"impl", "threads", "param", "threshold", "budget", "report", "json", "baseline", "base-bin", "head-bin", "strict", "q"},
	long: `AB builds two git revisions and measures base, head and base again (the
same code measured twice), interleaved window by window. It decides each
cell at -threshold on time at 1 and 2 threads, on instructions and the
lock profile at 1 thread, and on what the two lock profiles predict at
-predict-threads (16). Any REGRESSION fails the cell.
Example: perfrun ab main HEAD

Two kinds of PASS. A PASS by time: the slowdown's upper bound is below
-threshold. A PASS by counts, where time could not decide: instructions,
simulated cache misses, system calls, the lock profile and the 16-thread
prediction all unchanged, so head does the same work as base in every way
a count sees; the verdict says "by counts". What only time sees — memory
bandwidth, a cache line two threads share by accident, the scheduler — it
does not promise. -strict: a PASS needs time's PASS.

Beside time it counts instructions/op and the lock profile (locks,
instructions held, atomics per op) of every 1-thread cell, and predicts
from them both revisions' time per call at -predict-threads, one core a
thread, with one set of reference constants: head ÷ base there is gated
at -threshold ("at 16 threads +380% a call: calls take an exclusive lock,
0 -> 1 per op"); a change that trades one lock unit for another is decided
by it. A count cannot see memory bandwidth or waiting. Exit codes as
gate; a revision that does not build exits 4.

AB builds perfrun (or, with -pkg, any main that calls perfrun.Main) at two
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
so on, up to -looks looks or until -budget would be exceeded (a cell of
which a look kept no complete round, its windows set aside by a busy
machine, is not measured again); every look
tests at Pocock's level for -looks looks, so each kind of claim keeps its
error rate at -alpha. An A/A interval wholly outside ±threshold/2 makes a
cell INCONCLUSIVE.

Code layout is a random effect: a change moves where everything linked
beside it lands, and that alone moves a cell by several percent. So every
arm of every round runs a binary with a code layout of its own (relinked
with -ldflags=-randlayout before the round, while nothing is measured):
the rounds replicate layout, process and window together, the interval
speaks of the change over layouts, and the A/A arm, never sharing base's
layout, shows what layout alone does to identical code (the report's
"one binary's layout and process moved each cell by").

Beside time, -instructions counts instructions/op of every 1-thread cell
in both revisions under callgrind, on the same corpus and operations, and
compares them at -threshold: exactly where each side's processes agree
(perfrun's designs do), as a sample where they vary. The same runs
simulate a cache of a fixed geometry (32 KiB first level, 8 MiB last) and
count system calls: l1-misses/op, ll-misses/op and syscalls/op, gated at
-threshold and 0.01 an op. How they combine: any REGRESSION fails the
cell; where time could not decide and every count PASSes, the cell is a
PASS by counts (-strict: a PASS needs time's); and the count explains
the time verdict ("instructions unchanged": the cause is memory, layout
or the machine, not added work). Counts cannot see memory bandwidth or
contention between threads, which time alone judges, and they are never
taken at 2 threads or more. At a tight -threshold (2%) the count decides
what time cannot.

Beside them, -locks counts the lock profile of every 1-thread cell in both
revisions: exclusive and shared lock acquisitions, instructions executed
while a lock is held (exclusively, and shared) and atomic read-modify-writes,
per operation, exact, from a build of each revision with an overlay of
package sync, under callgrind. An operation that takes an exclusive lock
where base took none, runs more instructions under one, or makes more atomic
writes, beyond -threshold, is a REGRESSION of the cell (the reason says
which); shared locks are shown, not gated. The three verdicts combine so:
any REGRESSION (time, a count or locks) fails the cell, and a PASS is
time's or, where time could not decide, the counts'. A profile counts what causes contention at one thread; it
cannot see waiting, a machine's cache-line cost, or locks other than
sync.Mutex, sync.RWMutex and the real store's pthread locks. Exit codes as
gate; a revision that does not build exits 4.

Instead of two revisions: -base-bin and -head-bin compare two prebuilt
binaries (two builds of a library, such as libcrypto 3.0 and 4.0), and
-base-env/-head-env KEY=VALUE one binary under two environments — no build,
one code layout. -baseline NAME takes as BASE the build a "run
-save-baseline NAME" kept, and this perfrun as HEAD: the baseline journey,
measured side by side instead of file against file. -replay judges the windows.csv of an earlier -report
again with this perfrun's rules, measuring nothing.`,
}

func init() { cmdAB.define = abFlags }

// maxABRounds bounds -rounds and -inner: far more than any comparison
// needs, so a typo is refused rather than run for days.
const maxABRounds = 10000

// maxPredictThreads bounds -predict-threads: past a large server's cores.
const maxPredictThreads = 1024

// defaultPkg is perfrun's own main.
const defaultPkg = "./cmd/perfrun"

// abOptions are ab's flags.
type abOptions struct {
	th                   *compare.Thresholds
	rounds, inner, looks int
	budget               time.Duration
	pairing              string
	speedLimit           string
	layouts              string
	instructions         bool
	locks                bool
	pin                  bool
	revisionCells
	window, warmup     time.Duration
	seed               uint64
	jsonOut, reportDir string
	replay             string
	baseBin, headBin   string
	baseline           string
	baseEnv, headEnv   listFlag
	keep, quiet        bool
	counted            time.Duration // spent counting instructions
	only               string        // the first look's cells (-baseline: the baseline's)
	counts             abcount.Counts
	traffic            abcount.Traffic
	strict             bool
	lockBins           [2]string // base's and head's builds for lock profiles, where built
	profiles           abcount.Profiles
	predictThreads     int
	predicted          abcount.Predicted
	noLocks            string // why there is no lock verdict, where there is none
	cmd                commandFlags
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
	fs.StringVar(&a.layouts, "layouts", "fresh", "code layouts (-ldflags=-randlayout): fresh, a new one for every arm of every round; or N, N per revision rotated over the rounds; 0 the default layout alone")
	fs.BoolVar(&a.instructions, "instructions", true, "also count instructions/op, simulated cache misses and system calls of every 1-thread cell in both revisions under callgrind and gate them at -threshold")
	fs.BoolVar(&a.locks, "locks", true, "also count the lock profile of every 1-thread cell in both revisions (a build of each with an overlay of package sync, under callgrind) and gate it at -threshold")
	fs.IntVar(&a.predictThreads, "predict-threads", scaling.DefaultThreads, "predict both revisions from their 1-thread lock profiles at 1 to `N` threads, one core a thread, and gate head ÷ base at N (0: no prediction); 16 is where OpenSSL PR 28599 compared its two designs")
	fs.BoolVar(&a.strict, "strict", false, "a PASS needs time's PASS: no PASS by counts where time could not decide")
	fs.BoolVar(&a.pin, "pin", true, "window pairing: pin worker i of every arm to the same i-th CPU, so the arms of a triple run on the same CPUs")
	a.revisionCells.define(fs)
	a.cmd.define(fs)
	fs.DurationVar(&a.window, "window", 150*time.Millisecond, "measured time per cell and window (shorter than run's on purpose: ab pairs many windows of its three arms)")
	fs.DurationVar(&a.warmup, "warmup", 20*time.Millisecond, "unmeasured warm-up before each window (shorter than run's: an arm's cells stay set up between its windows)")
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

// armArgs are the flags that choose the cells and their windows, for both
// arm commands.
func (a *abOptions) armArgs() []string {
	args := append(a.revisionCells.cellArgs(), "-window", a.window.String(), "-warmup", a.warmup.String(), "-seed", fmt.Sprint(a.seed))
	return append(args, a.cmd.args()...)
}

func (a *abOptions) run(ctx context.Context, o *streams, fs *flag.FlagSet) error {
	if a.replay != "" {
		if fs.NArg() != 0 {
			return usageError("-replay judges a recorded comparison: want no revisions")
		}
		return a.replayWindows(o)
	}
	prebuilt, limit, err := a.check(fs)
	if err != nil {
		return err
	}
	var arms *prebuiltArms
	if prebuilt {
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
	dir, err := a.scratch(o)
	if err != nil {
		return err
	}
	if !a.keep {
		defer os.RemoveAll(dir)
	}
	r, counting, oldName, newName, cleanup, err := a.arms(ctx, o, dir, fs.Arg(0), fs.Arg(1), arms)
	if err != nil {
		return err
	}
	defer cleanup()
	r.SpeedLimit = limit
	for side := range counting {
		counting[side].Env = append(slices.Clip(counting[side].Env), r.CorpusCache(side))
	}
	rep, windows, err := a.decide(ctx, o, r, start, counting)
	if err != nil {
		if ctx.Err() != nil {
			kept := "its scratch folder removed"
			if a.keep {
				kept = "its scratch folder kept: " + dir
			}
			return &exitError{exitInconclusive, fmt.Errorf("interrupted after %s: no verdict, nothing decided; %s", time.Since(start).Round(time.Second), kept)}
		}
		return err
	}
	rep.Old, rep.New = oldName, newName
	// The verdict first: a report folder without room loses the report,
	// never the verdict and its JSON.
	verdict := finishGate(rep, a.jsonOut, o)
	if a.reportDir != "" {
		if err := a.abReport(rep, dir, a.reportDir, r, windows); err != nil {
			verdict = lostOutput(verdict, fmt.Errorf("report: %w", err), o)
		}
	}
	if !a.quiet {
		wall := time.Since(start)
		fmt.Fprintf(o.stderr, "perfrun: ab: %s in %s (%.0f%% of it measuring, %.0f%% linking layouts, %.0f%% counting instructions and locks)\n", rep.Verdict, wall.Round(time.Second),
			100*r.Measuring.Seconds()/wall.Seconds(), 100*r.Linking.Seconds()/wall.Seconds(), 100*a.counted.Seconds()/wall.Seconds())
	}
	return verdict
}

// check refuses, before anything is built or measured, flags that cannot
// make a comparison; it says whether the arms are prebuilt binaries and
// reads -speed-limit.
func (a *abOptions) check(fs *flag.FlagSet) (prebuilt bool, limit float64, err error) {
	if a.baseline != "" {
		if a.baseBin != "" {
			return false, 0, usageError("-baseline and -base-bin both name BASE: give one")
		}
		bin, err := baselines.Build(a.baseline)
		if err != nil {
			return false, 0, err
		}
		a.baseBin = bin
		if err := a.baselineCells(fs); err != nil {
			return false, 0, err
		}
	}
	prebuilt = a.baseBin != "" || a.headBin != "" || len(a.baseEnv)+len(a.headEnv) > 0
	switch {
	case prebuilt && fs.NArg() != 0:
		return false, 0, usageError("with -baseline, -base-bin, -head-bin, -base-env or -head-env, want no revisions: the binaries are the arms")
	case !prebuilt && fs.NArg() != 2:
		return false, 0, usageError("want two revisions: BASE HEAD")
	}
	limit, err = parsePercent(a.speedLimit)
	if err != nil && a.speedLimit != "0" {
		return false, 0, usageError("bad -speed-limit %q: want a percentage such as 10%%, or 0", a.speedLimit)
	}
	if err := a.checkRounds(); err != nil {
		return false, 0, err
	}
	if err := checkThresholds(a.th); err != nil {
		return false, 0, err
	}
	if threads, err := harness.ParseThreads(a.threads); err == nil && len(threads) > 0 && slices.Min(threads) > harness.Cores() {
		return false, 0, usageError("-threads %s: every count is above the %d cores: those cells only time-slice and are never gated, so ab could judge nothing", a.threads, harness.Cores())
	}
	// Another package's binary knows implementations this one does not:
	// only perfrun's own flags are checked here.
	if a.pkg == defaultPkg && !prebuilt {
		cmds, err := a.cmd.commands()
		if err != nil {
			return false, 0, asUsage(err)
		}
		if _, err := planCells(orDefault(a.impl), a.workload, a.threads, a.params, cmds...); err != nil {
			return false, 0, asUsage(err)
		}
	}
	return prebuilt, limit, checkOutputs(a.jsonOut, a.reportDir)
}

// checkRounds refuses rounds, looks, pairing, layouts and a budget that
// cannot make a comparison; the first look always runs whole, so one that
// cannot end within -budget is refused, not started.
func (a *abOptions) checkRounds() error {
	switch {
	case a.rounds < compare.MinPairedRounds || a.inner < 1 || a.looks < 1:
		return usageError("-rounds must be at least %d for paired statistics, -inner and -looks at least 1", compare.MinPairedRounds)
	case a.pairing != "window" && a.pairing != "process":
		return usageError("-pairing must be window or process, not %q", a.pairing)
	case a.budget < 0:
		return usageError("-budget must not be negative")
	case a.predictThreads != 0 && (a.predictThreads < 2 || a.predictThreads > maxPredictThreads):
		return usageError("-predict-threads %d: want 0 (no prediction) or 2 to %d", a.predictThreads, maxPredictThreads)
	}
	if _, err := a.fixedLayouts(); err != nil {
		return err
	}
	if a.rounds > maxABRounds || a.inner > maxABRounds || a.looks > 100 {
		return usageError("-rounds and -inner at most %d, -looks at most 100", maxABRounds)
	}
	if a.budget > 0 {
		if least := time.Duration(a.rounds*a.inner*3) * (a.window + a.warmup); least > a.budget {
			return usageError("-rounds %d × -inner %d × 3 arms × %v a window is at least %v a cell, past -budget %v: fewer rounds, or a larger budget",
				a.rounds, a.inner, a.window+a.warmup, least.Round(time.Second), a.budget)
		}
	}
	return nil
}

// scratch makes the comparison's scratch folder, kept with -keep.
func (a *abOptions) scratch(o *streams) (string, error) {
	dir, err := ab.TempDir()
	if err != nil {
		return "", err
	}
	if a.keep {
		if err := ab.Keep(dir); err != nil {
			return "", err
		}
		fmt.Fprintf(o.stderr, "perfrun: ab: keeping %s\n", dir)
	}
	return dir, nil
}

// arms readies the three arms' runner — from prebuilt binaries, or by
// building base and head — with the binaries the counts use and the names
// the verdict gives the two sides.
func (a *abOptions) arms(ctx context.Context, o *streams, dir, base, head string, arms *prebuiltArms) (r *ab.Runner, counting [2]abcount.Arm, oldName, newName string, cleanup func(), err error) {
	if arms != nil {
		r = a.runner(o, dir, []string{arms.base}, []string{arms.head})
		r.BaseEnv, r.HeadEnv = a.baseEnv, a.headEnv
		counting = [2]abcount.Arm{{Bin: arms.base, Env: a.baseEnv}, {Bin: arms.head, Env: a.headEnv}}
		if a.locks {
			a.noLocks = "prebuilt binaries have no source to build for lock profiles (ab BASE HEAD builds them)"
		}
		return r, counting, arms.baseName, arms.headName, func() {}, nil
	}
	if r, counting, cleanup, err = a.buildArms(ctx, o, dir, base, head); err != nil {
		return nil, counting, "", "", nil, err
	}
	return r, counting, ab.Describe(ctx, a.repo, base), ab.Describe(ctx, a.repo, head), cleanup, nil
}

// fixedLayouts reads -layouts: -1 for fresh layouts, else how many
// fixed layouts a revision is linked with.
func (a *abOptions) fixedLayouts() (int, error) {
	if a.layouts == "fresh" {
		return -1, nil
	}
	n, err := strconv.Atoi(a.layouts)
	if err != nil || n < 0 || n > 100 {
		return 0, usageError("bad -layouts %q: want fresh, or a number of layouts from 0 to 100", a.layouts)
	}
	return n, nil
}

// buildArms checks both revisions out and compiles them. With fresh
// layouts the runner links every arm of every round a layout of its own;
// with N fixed ones each revision is linked N times now (seeds from
// -seed, different for base and head). It returns the runner and the
// binaries instructions are counted in.
func (a *abOptions) buildArms(ctx context.Context, o *streams, dir, baseRev, headRev string) (*ab.Runner, [2]abcount.Arm, func(), error) {
	var none [2]abcount.Arm
	fixed, _ := a.fixedLayouts()
	if !a.quiet {
		what := "a fresh code layout for every arm of every round"
		if fixed >= 0 {
			what = fmt.Sprintf("%d code layouts each", max(fixed, 1))
		}
		fmt.Fprintf(o.stderr, "perfrun: ab: building %s and %s (%s)\n", baseRev, headRev, what)
	}
	base, head, err := a.checkoutBoth(ctx, o, dir, baseRev, headRev)
	if err != nil {
		return nil, none, nil, err
	}
	cleanup := func() { head.Close(); base.Close() }
	counting := [2]abcount.Arm{{Bin: base.Plain}, {Bin: head.Plain}}
	if fixed < 0 {
		r := a.runner(o, dir, nil, nil)
		r.BaseRev, r.HeadRev = base, head
		return r, counting, cleanup, nil
	}
	var bins [2][]string
	for side, v := range []*ab.Revision{base, head} {
		for i := range uint64(fixed) {
			bin := filepath.Join(dir, fmt.Sprintf("perfrun-%d-%d", side, i))
			if err := v.Link(ctx, bin, 1000*a.seed+2*i+1+uint64(side)); err != nil {
				cleanup()
				return nil, none, nil, err
			}
			bins[side] = append(bins[side], bin)
		}
		if fixed == 0 {
			bins[side] = []string{v.Plain}
		}
	}
	return a.runner(o, dir, bins[0], bins[1]), counting, cleanup, nil
}

// runner is the runner of arms whose binaries are base and head.
func (a *abOptions) runner(o *streams, dir string, base, head []string) *ab.Runner {
	r := &ab.Runner{Base: base, Head: head, Windows: a.pairing == "window",
		RunArgs: append(a.armArgs(), "-plots", "none"), ArmArgs: append(a.armArgs(), "-pin="+strconv.FormatBool(a.pin)),
		Rounds: a.rounds, Inner: a.inner, Seed: a.seed, Dir: dir, Metric: a.th.Metric,
		Disturbed: harness.DefaultQuarantine.Window}
	if !a.quiet {
		r.Progress = a.progress(o)
	}
	return r
}

// progress prints where the arms are: the look, the round of the look, the
// cell, and how long the look has left at its pace so far, reckoned as each
// round begins and counted down through it (reckoned at every cell, a
// round half done read as none done and the estimate grew cell by cell).
// A look starts when its first round does.
func (a *abOptions) progress(o *streams) func(round, rounds int, what string) {
	look, lastRound := 0, 0
	var start, roundStart time.Time
	var left time.Duration
	return func(round, rounds int, what string) {
		if round < lastRound || look == 0 {
			look++
			start = time.Now()
		}
		if round != lastRound {
			roundStart, left = time.Now(), 0
			if done := round - 1; done > 0 {
				left = time.Since(start) / time.Duration(done) * time.Duration(rounds-done)
			}
		}
		lastRound = round
		eta := ""
		if left > 0 {
			eta = fmt.Sprintf(", about %s left in this look", max(left-time.Since(roundStart), 0).Round(time.Second))
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
		arms.baseName = name("baseline "+a.baseline+baselines.SavedWhen(a.baseline), a.baseEnv)
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
	if a.predictThreads != 0 && (a.predictThreads < 2 || a.predictThreads > maxPredictThreads) {
		return usageError("-predict-threads %d: want 0 (no prediction) or 2 to %d", a.predictThreads, maxPredictThreads)
	}
	data, name, err := readInput(a.replay)
	if err != nil {
		return asUsage(err)
	}
	rec, err := ab.ReadWindows(bytes.NewReader(data), harness.Cores())
	if err != nil {
		return asUsage(fmt.Errorf("%s: %w", name, err))
	}
	looks, measure := rec.Replay(a.rounds, a.looks)
	rep, err := compare.Sequential(*a.th, looks, measure)
	if err != nil {
		return err
	}
	// The counts recorded beside the windows, judged again too.
	c, err := replayCounts(a.replay, rec)
	if err != nil {
		return asUsage(err)
	}
	a.addCounts(rep, a.judgeCounts(c.counted, c.profiled, c.counts, c.traffic, c.profiles, rec.Windows))
	rep.Old, rep.New = "base", "head"
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("judged again from %s: %d cells, %d-core machine; the numbers are the recording's", name, len(rec.Cells), rec.Cores))
	verdict := finishGate(rep, a.jsonOut, o)
	if a.reportDir != "" {
		doc := &report.Document{Title: "perfrun: head against base, judged again", Verdict: rep, Notes: []string{fmt.Sprintf(
			"Judged again from %s. A windows file keeps no arm's own results: this page has the verdict and the windows alone.", name)}}
		if err := a.writeABDocument(doc, a.reportDir, rec.Cores, rec.Windows, c.counts, c.traffic, c.profiles); err != nil {
			verdict = lostOutput(verdict, fmt.Errorf("report: %w", err), o)
		}
	}
	return verdict
}

// recordedSet holds the counts an ab -report recorded beside windows.csv: the
// instructions and traffic of the cells counted, the lock profiles of
// the cells profiled, each file's cells in its order.
type recordedSet struct {
	counted, profiled []string
	counts            abcount.Counts
	traffic           abcount.Traffic
	profiles          abcount.Profiles
}

// replayCounts reads the counts an ab -report recorded beside windows.csv
// (none for a recording read from standard input): a file that is absent
// was not recorded; one that is there and cannot be read (a FIFO, a
// folder), is malformed, or names a cell the windows do not have refuses
// the replay, since a verdict from counts it lacks must fail closed.
// Traffic of other cells than the instructions' speaks for no cell whole:
// it is left out, so no PASS by counts rests on it.
func replayCounts(windows string, rec *ab.Recording) (recordedSet, error) {
	var c recordedSet
	if windows == "-" {
		return c, nil
	}
	var err error
	if c.counted, c.counts, err = recordedCounts(windows, rec, "instructions.csv", abcount.ReadInstructions); err != nil {
		return recordedSet{}, err
	}
	trafficked, traffic, err := recordedCounts(windows, rec, "traffic.csv", abcount.ReadTraffic)
	if err != nil {
		return recordedSet{}, err
	}
	if slices.Equal(trafficked, c.counted) {
		c.traffic = traffic
	}
	if c.profiled, c.profiles, err = recordedCounts(windows, rec, "locks.csv", abcount.ReadLocks); err != nil {
		return recordedSet{}, err
	}
	return c, nil
}

// recordedCounts reads one counts file beside windows with read, as
// replayCounts says; the zero value and no cells where it is absent.
func recordedCounts[T any](windows string, rec *ab.Recording, file string, read func([]byte) ([]string, T, error)) ([]string, T, error) {
	var none T
	path := filepath.Join(filepath.Dir(windows), file)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, none, nil
	}
	data, err := regularfile.ReadFile(path, records.MaxFileBytes)
	if err != nil {
		return nil, none, err
	}
	names, v, err := read(data)
	if err != nil {
		return nil, none, fmt.Errorf("%s: %w", path, err)
	}
	for _, n := range names {
		if !slices.ContainsFunc(rec.Cells, func(c *records.Cell) bool { return c.Name == n }) {
			return nil, none, fmt.Errorf("%s: %s is not a cell of %s", path, n, windows)
		}
	}
	return names, v, nil
}

// decide runs the looks within the budget and returns the report and
// every cell's windows.
func (a *abOptions) decide(ctx context.Context, o *streams, r *ab.Runner, start time.Time, counting [2]abcount.Arm) (*compare.Report, map[string][]compare.Window, error) {
	windows := make(map[string][]compare.Window)
	var instrWarning string
	var lastLook, lastMeasuring time.Duration
	var lastCells int
	looks := compare.Looks{Rounds: a.rounds, Max: a.looks, Next: func(look int, undecided []string) bool {
		// The next look measures only the undecided cells: its windows take
		// the last look's measuring time scaled by how many cells it
		// measures; its rounds' set-up (layouts, arm processes) does not
		// shrink with the cells.
		next := lastLook - lastMeasuring + lastMeasuring*time.Duration(len(undecided))/time.Duration(max(lastCells, 1))
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
	var counted countVerdicts // the counts' verdicts, once counted after the first look
	if !a.strict {
		looks.Settled = func(undecided []string) []string {
			return compare.SettledByCounts(undecided, counted.all, abcount.CountUnits(a.predictThreads))
		}
	}
	rep, err := compare.Sequential(*a.th, looks, func(names []string, first int) ([]*records.Cell, map[string]compare.Arms, int, error) {
		match := a.only
		if names != nil {
			match = matchNames(names)
		}
		t0, m0 := time.Now(), r.Measuring
		cells, arms, cores, err := r.Run(ctx, match, first)
		lastLook, lastMeasuring, lastCells = time.Since(t0), r.Measuring-m0, len(cells)
		for name, a := range arms {
			windows[name] = append(windows[name], a.Windows...)
		}
		if err == nil && first == 0 && (a.instructions || a.locks) {
			// After the first look, whose speeds size the counts; the
			// later looks' budget then knows the time they took.
			t1 := time.Now()
			if err := a.count(ctx, o, counting, cells, arms, &instrWarning); err != nil {
				return nil, nil, 0, err
			}
			a.counted = time.Since(t1)
			var names []string
			for _, c := range cells {
				names = append(names, c.Name)
			}
			counted = a.judgeCounts(names, names, a.counts, a.traffic, a.profiles, windows)
		}
		return cells, arms, cores, err
	})
	if err != nil {
		return nil, nil, err
	}
	var names []string
	for _, c := range rep.Cells {
		names = append(names, c.Name)
	}
	a.addCounts(rep, a.judgeCounts(names, names, a.counts, a.traffic, a.profiles, windows))
	if instrWarning != "" {
		rep.Warnings = append(rep.Warnings, instrWarning)
	}
	if a.locks && a.noLocks != "" {
		rep.Warnings = append(rep.Warnings, "no lock verdict: "+a.noLocks+" (-locks=false skips the lock profiles)")
	}
	perCellRound := r.Measuring / time.Duration(max(1, totalCellRounds(rep)))
	for i := range rep.Cells {
		c := &rep.Cells[i]
		if c.Verdict == compare.Inconclusive && c.NeedRounds > c.Rounds {
			c.Reason += fmt.Sprintf(" (~%s more)", (time.Duration(c.NeedRounds-c.Rounds) * perCellRound).Round(time.Second))
		}
	}
	return rep, windows, nil
}

// countVerdicts are the verdicts of the counts beside time: instructions
// (which also explain the time verdicts), traffic, the lock units and the
// prediction, with why a cell has no prediction.
type countVerdicts struct {
	instr, all []compare.CellVerdict
	predicted  abcount.Predicted
	why        []string
}

// judgeCounts judges the counts of the cells each names (counted:
// instructions and traffic; profiled: lock profiles and the prediction).
// The prediction at -predict-threads gates every predicted cell, and
// decides alone a cell whose lock units trade one cause for another
// (abcount.Predicted.Decide); a cell without a prediction is judged by
// its units.
func (a *abOptions) judgeCounts(counted, profiled []string, counts abcount.Counts, traffic abcount.Traffic, profiles abcount.Profiles, windows map[string][]compare.Window) countVerdicts {
	var v countVerdicts
	if counts != nil {
		v.instr = abcount.InstructionVerdicts(*a.th, counted, counts)
	}
	v.all = append(append(v.all, v.instr...), abcount.TrafficVerdicts(*a.th, counted, traffic)...)
	if profiles == nil {
		return v
	}
	locked := abcount.LockVerdicts(*a.th, profiled, profiles)
	if a.predictThreads == 0 {
		v.all = append(v.all, locked...)
		return v
	}
	v.predicted = abcount.Predictions(profiled, counts, profiles, windows, a.predictThreads)
	v.all = append(v.all, v.predicted.Decide(locked)...)
	v.all = append(v.all, v.predicted.Verdicts(*a.th, profiled)...)
	for _, why := range v.predicted.Why {
		v.why = append(v.why, fmt.Sprintf("no prediction at %d threads: %s", a.predictThreads, why))
	}
	return v
}

// addCounts adds the counts' verdicts to rep and, unless -strict, turns
// the time verdicts the counts decide into a PASS by counts.
func (a *abOptions) addCounts(rep *compare.Report, v countVerdicts) {
	abcount.Explain(rep, v.instr)
	rep.Add(v.all...)
	rep.Warnings = append(rep.Warnings, v.why...)
	a.predicted = v.predicted
	if !a.strict {
		rep.PassByCounts(abcount.CountUnits(a.predictThreads))
	}
}

// count takes the counts that sit beside time: instructions/op and the
// lock profile of every 1-thread cell, in both revisions. A count that
// cannot be had leaves a warning (time still decides); an interrupt ends
// the comparison.
func (a *abOptions) count(ctx context.Context, o *streams, counting [2]abcount.Arm, cells []*records.Cell, arms map[string]compare.Arms, instrWarning *string) error {
	var commands []string
	cmds, _ := a.cmd.commands()
	for _, c := range cmds {
		commands = append(commands, c.Name)
	}
	counted := abcount.Cells(cells, arms, commands)
	progress := func(what string) func(abcount.Cell) {
		return func(c abcount.Cell) {
			if !a.quiet {
				fmt.Fprintf(o.stderr, "perfrun: ab: counting %s of %s in both revisions (%d ops under callgrind)\n", what, c.Name, c.Ops)
			}
		}
	}
	if a.instructions {
		var err error
		if a.counts, a.traffic, err = abcount.Instructions(ctx, progress("instructions"), counting[0], counting[1], counted, a.seed); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			*instrWarning = fmt.Sprintf("no instruction verdict: %v (-instructions=false skips the counts)", err)
			if !a.quiet {
				fmt.Fprintf(o.stderr, "perfrun: ab: %s\n", *instrWarning)
			}
		}
	}
	if a.locks && a.noLocks == "" {
		var err error
		lockArms := counting
		for side := range lockArms {
			lockArms[side].Bin = a.lockBins[side]
		}
		if a.profiles, err = abcount.Locks(ctx, progress("the lock profile"), lockArms[0], lockArms[1], counted, a.seed); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			a.noLocks = err.Error()
			if !a.quiet {
				fmt.Fprintf(o.stderr, "perfrun: ab: no lock verdict: %s\n", a.noLocks)
			}
		}
	}
	return nil
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
		return allImpls()
	}
	return impl
}

// abReport writes the report of an A/B run: the paired verdict, and plots
// of the base and head arms' results side by side.
func (a *abOptions) abReport(rep *compare.Report, scratch, dir string, r *ab.Runner, windows map[string][]compare.Window) error {
	counts, profiles := a.counts, a.profiles
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
		Notes: []string{fmt.Sprintf("Interleaved A/B on one machine: rounds of base, head and base again (the same code measured twice, which shows what the machine alone moves), %s%s; "+
			"%d rounds a batch, cells a batch left undecided measured again in the next. PASS: the upper bound of the slowdown is below %.0f%%; "+
			"REGRESSION: its lower bound is above it (corrected for the number of cells and of batches).%s", pairingNote(r), layoutNote(r), r.Rounds, 100*rep.Threshold, countsNote(counts)+locksNote(len(profiles) > 0))},
	}
	return a.writeABDocument(doc, dir, harness.Cores(), windows, counts, a.traffic, profiles)
}

// writeABDocument writes doc, a comparison's page, with the strips of its
// cells' windows, and the files -replay reads: windows.csv (measured on a
// machine of cores cores) and the counts.
func (a *abOptions) writeABDocument(doc *report.Document, dir string, cores int, windows map[string][]compare.Window, counts abcount.Counts, traffic abcount.Traffic, profiles abcount.Profiles) error {
	if err := a.lead(doc, windows, counts); err != nil {
		return err
	}
	var cells []string // each cell once, though it has a verdict on several units
	for _, c := range doc.Verdict.Cells {
		if !slices.Contains(cells, c.Name) {
			cells = append(cells, c.Name)
		}
	}
	strips, err := report.WindowStrips(cells, windows)
	if err != nil {
		return err
	}
	if strips == nil {
		return writeDocument(doc, dir, nil)
	}
	doc.Extra = append(doc.Extra, strips)
	more := map[string][]byte{"windows.csv": ab.WriteWindows(cells, windows, cores)}
	if len(counts) > 0 {
		more["instructions.csv"] = abcount.WriteInstructions(cells, counts)
	}
	if len(traffic) > 0 {
		more["traffic.csv"] = abcount.WriteTraffic(cells, traffic)
	}
	if len(profiles) > 0 {
		more["locks.csv"] = abcount.WriteLocks(cells, profiles)
	}
	return writeDocument(doc, dir, more)
}

// layoutNote says how the arms' code layouts were chosen.
func layoutNote(r *ab.Runner) string {
	if r.BaseRev != nil {
		return ", every arm of every round in a code layout of its own"
	}
	return ""
}

// countsNote says what the instruction verdicts are, where there are any.
func countsNote(counts map[string][2][]float64) string {
	if len(counts) == 0 {
		return ""
	}
	return " instructions/op of each 1-thread cell was counted under callgrind in both revisions on the same corpus and operations, " +
		"and compared at the same threshold: either verdict's REGRESSION fails the cell; a count cannot see cache misses or contention."
}

// locksNote says what the lock verdicts are, where there are any.
func locksNote(profiled bool) string {
	if !profiled {
		return ""
	}
	return " The lock profile of each 1-thread cell (exclusive and shared locks, instructions held under each, atomic read-modify-writes, per op) " +
		"was counted exactly in both revisions, built with an overlay of package sync: more exclusive locks, more instructions under one, " +
		"or more atomics than -threshold allows is a REGRESSION; shared locks are shown, not gated. A profile counts what causes contention " +
		"at one thread, not the waiting it causes."
}

// pairingNote says how the arms of a round were paired.
func pairingNote(r *ab.Runner) string {
	if r.Windows {
		return fmt.Sprintf("driven window by window (%d triples of one window per arm and cell, rotating orders)", r.Inner)
	}
	return "one whole process per arm, in balanced orders"
}
