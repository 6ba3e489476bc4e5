package cli

import (
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

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/internal/campaign"
	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/hostconstants"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/summary"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/internal/terminal"
	"github.com/perfrun/perfrun/report"
)

var cmdAB = &subcommand.Command{
	MaxArgs: -1, Name: "ab", Args: "[flags] BASE HEAD | -base-bin B -head-bin H | -replay windows.csv", Short: "build two git revisions and gate them, interleaved, with an A/A noise arm",
	Common: []string{"impl", "threads", "param", "threshold", "budget", "report", "json", "baseline", "base-bin", "head-bin", "strict", "q"},
	Long: `AB builds two git revisions and measures base, head and base again
(the A/A arm), interleaved window by window, each arm of each round in a
code layout of its own. It judges the change at the thread counts -at
declares (1,2,16): at 1 thread by time and the exact counts, up to the
cores by time, past them by what the lock profiles predict with fixed
constants. Where time cannot decide, the counts do (-strict: a PASS
needs time's); where other processes want every core as ab starts, it
measures no time and says so (-time). Better at one declared count and
worse at another is a TRADE. Exit codes: 0 PASS or IMPROVED, 1
REGRESSION, TRADE or MISSING, 3 INCONCLUSIVE, 4 a revision that does not
build.

Example: perfrun ab main HEAD. The rules, the statistics and every
witness: docs/compare.md.`,
}

func init() { cmdAB.Define = abFlags }

// maxABRounds bounds -rounds and -inner: far more than any comparison
// needs, so a typo is refused rather than run for days.
const maxABRounds = 10000

// maxLooks is the most looks a campaign may take, live or replayed.
const maxLooks = 100

// defaultBudget ends a campaign within a CI job of ten minutes (perf.yml's
// budget) that also checks out, sets Go up and builds the measuring
// perfrun: what is undecided then is said so, never measured on.
const defaultBudget = 8 * time.Minute

// maxAt bounds -at: past a large server's cores.
const maxAt = 1024

// abOptions are ab's flags.
type abOptions struct {
	th                               *compare.Thresholds
	rounds, inner, looks             int
	budget                           time.Duration
	pairing, speedLimit, layouts, at string
	instructions, locks, pin, strict bool
	timing                           string // -time: auto, on or off
	revisionCells
	window, warmup             time.Duration
	seed, corpusSeed           uint64
	jsonOut, reportDir, replay string
	baseBin, headBin, baseline string
	baseEnv, headEnv           subcommand.ListFlag
	keep, quiet, verbose       bool
	only                       string // the first look's cells (-baseline: the baseline's)
	cmd                        commandFlags
}

func abFlags(fs *flag.FlagSet) subcommand.RunFunc {
	a := &abOptions{th: thresholdFlags(fs)}
	fs.BoolVar(&a.th.AllowMissing, "allow-missing", false, "do not fail cells that BASE measures and HEAD does not")
	flagvalue.BoundedVar(fs, &a.rounds, "rounds", 10, compare.MinPairedRounds, maxABRounds, "rounds of each look (each runs all three arms)", fmt.Sprintf(": paired statistics need at least %d", compare.MinPairedRounds))
	flagvalue.BoundedVar(fs, &a.inner, "inner", 2, 1, maxABRounds, "windows each arm measures of a cell in a round; their median is the arm's value")
	flagvalue.BoundedVar(fs, &a.looks, "looks", 3, 1, maxLooks, "most looks: cells still undecided after a look get -rounds fresh rounds")
	flagvalue.SpanVar(fs, &a.budget, "budget", defaultBudget, 0, mostBudget, "start no look that would end past this time from the start, builds included (0: no limit)")
	fs.StringVar(&a.pairing, "pairing", "window", "window: arms driven window by window; process: one whole process per arm and round")
	fs.StringVar(&a.speedLimit, "speed-limit", "10%", "set aside a window triple whose speed probes differ by more than this (window pairing; 0 for never)")
	fs.StringVar(&a.layouts, "layouts", "fresh", "code layouts (-ldflags=-randlayout): fresh, a new one for every arm of every round; or N, N per revision rotated over the rounds; 0 the default layout alone")
	fs.BoolVar(&a.instructions, "instructions", true, "also count instructions/op, simulated cache misses and system calls of every 1-thread cell in both revisions under callgrind and gate them at -threshold")
	fs.BoolVar(&a.locks, "locks", true, "also count the lock profile of every 1-thread cell in both revisions (a build of each with the standard sync overlaid, under callgrind), gate it and predict from it")
	fs.StringVar(&a.at, "at", "1,2,16", "the thread counts a change is judged at: up to the cores by time (1 by the counts too), past them by the prediction; a design better at one and worse at another is a TRADE (16: a server's cores, where OpenSSL PR 28599 compared its designs)")
	fs.StringVar(&a.timing, "time", "auto", "measure time: on; off, the counts and the prediction decide alone (one round names the cells); auto, off where other processes want every core when ab starts, and say so")
	fs.BoolVar(&a.strict, "strict", false, "a PASS needs time's PASS: no PASS or IMPROVED by counts where time could not decide")
	fs.BoolVar(&a.pin, "pin", true, "window pairing: pin worker i of every arm to the same i-th CPU, so the arms of a triple run on the same CPUs")
	a.revisionCells.define(fs)
	a.cmd.define(fs)
	flagvalue.SpanVar(fs, &a.window, "window", 150*time.Millisecond, harness.MinWindow, mostWindow, "measured time per cell and window (shorter than run's on purpose: ab pairs many windows of its three arms)", windowWhy)
	flagvalue.SpanVar(fs, &a.warmup, "warmup", 20*time.Millisecond, 0, mostWindow, "unmeasured warm-up before each window (shorter than run's: an arm's cells stay set up between its windows)")
	fs.Uint64Var(&a.seed, "seed", 1, "seed of the arm order and the code layouts")
	fs.Uint64Var(&a.corpusSeed, "corpus-seed", 1, "the corpus both arms measure and count: one for every campaign by default, so the counts and the prediction of a change repeat")
	fs.StringVar(&a.jsonOut, "json", "", "also write the verdict as JSON to this file")
	fs.StringVar(&a.reportDir, "report", "", "also write report.md, report.html, images/ and windows.csv of the comparison here")
	fs.StringVar(&a.replay, "replay", "", "judge the recorded comparison in this windows.csv (of -report) again, measuring nothing: with this perfrun's -rounds, -looks, -at, -threshold and -alpha")
	fs.StringVar(&a.baseBin, "base-bin", "", "a prebuilt perfrun (or perfrun.Main) binary as BASE, instead of building a revision")
	fs.StringVar(&a.baseline, "baseline", "", "the build kept with the named baseline (run -save-baseline `NAME`) as BASE; HEAD is this perfrun or -head-bin")
	fs.StringVar(&a.headBin, "head-bin", "", "a prebuilt binary as HEAD; with either -bin, the other defaults to this perfrun")
	fs.Var(&a.baseEnv, "base-env", "KEY=VALUE added to the environment of BASE's processes, e.g. LD_LIBRARY_PATH=/opt/openssl-a/lib (repeatable)")
	fs.Var(&a.headEnv, "head-env", "KEY=VALUE added to the environment of HEAD's processes (repeatable)")
	fs.BoolVar(&a.keep, "keep", false, "keep the scratch directory with every arm's results")
	fs.BoolVar(&a.quiet, "q", false, "no progress on stderr")
	fs.BoolVar(&a.verbose, "v", false, "print every verdict with its whole reason, not the changed ones in short (the report has them all)")
	return func(ctx context.Context, o *subcommand.Streams, _ []string) error { return a.run(ctx, o, fs) }
}

// armArgs are the flags that choose the cells and their windows, for both
// arm commands.
func (a *abOptions) armArgs() []string {
	args := append(a.revisionCells.cellArgs(), "-window", a.window.String(), "-warmup", a.warmup.String(), "-seed", fmt.Sprint(a.corpusSeed))
	return append(args, a.cmd.args()...)
}

// campaign is the campaign the flags describe, -at read and checked.
func (a *abOptions) campaign(o *subcommand.Streams) (*campaign.Campaign, error) {
	at, err := harness.ParseThreads(a.at)
	if err != nil || len(at) == 0 || slices.Min(at) < 1 || slices.Max(at) > maxAt {
		return nil, subcommand.UsageError("bad -at %q: want thread counts from 1 to %d, such as 1,2,16 or 16", a.at, maxAt)
	}
	slices.Sort(at)
	layouts, err := a.fixedLayouts()
	if err != nil {
		return nil, err
	}
	var commands []string
	cmds, _ := a.cmd.commands()
	for _, c := range cmds {
		commands = append(commands, c.Name)
	}
	c := &campaign.Campaign{Thresholds: *a.th, Rounds: a.rounds, Inner: a.inner, Looks: a.looks, Budget: a.budget,
		WindowPairing: a.pairing == "window", Layouts: layouts, Instructions: a.instructions, Locks: a.locks, Pin: a.pin,
		Strict: a.strict, Keep: a.keep, Repo: a.repo, Pkg: a.pkg, Seed: a.seed, CorpusSeed: a.corpusSeed, ArmArgs: a.armArgs(), Commands: commands,
		At: slices.Compact(at), Only: a.only}
	if !a.quiet {
		c.Log = o.Stderr
	}
	return c, nil
}

func (a *abOptions) run(ctx context.Context, o *subcommand.Streams, fs *flag.FlagSet) error {
	if a.replay != "" {
		if fs.NArg() != 0 {
			return subcommand.UsageError("-replay judges a recorded comparison: want no revisions")
		}
		return a.replayWindows(ctx, o)
	}
	pre, limit, err := a.check(fs)
	if err != nil {
		return err
	}
	c, err := a.campaign(o)
	if err != nil {
		return err
	}
	c.SpeedLimit = limit
	ctx, stop := terminal.Interruptible(ctx)
	defer stop()
	a.host(c, o, pre != nil)
	ownConstants(c, o)
	start := time.Now()
	res, err := c.Run(ctx, fs.Arg(0), fs.Arg(1), pre)
	if errors.Is(err, campaign.ErrInterrupted) {
		return &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: err}
	} else if err != nil {
		return err
	}
	defer res.Close()
	// The verdict first: a report folder without room loses the report,
	// never the verdict and its JSON.
	verdict := finishGate(res.Report, a.jsonOut, a.verbose, o)
	if a.reportDir != "" {
		if err := a.abReport(res); err != nil {
			verdict = lostOutput(verdict, fmt.Errorf("report: %w", err), o)
		}
	}
	if !a.quiet {
		fmt.Fprintln(o.Stderr, closingLine(res, time.Since(start)))
	}
	return verdict
}

// host says what the machine gives before the budget is spent, and plans
// by it: -time auto measures no time where no thread count has a core of
// its own, and says so. Prebuilt arms have no lock profiles to decide
// in time's place, so auto measures them whatever the load.
func (a *abOptions) host(c *campaign.Campaign, o *subcommand.Streams, prebuilt bool) {
	if a.timing == "off" {
		c.TimeOff, c.Untimed = "-time off", "-time off"
		return
	}
	note, free := summary.BusyBeforeCampaign(harness.Cores())
	if note == "" {
		note = fmt.Sprintf("the machine has %d cores and no other process wants one: time measures the declared counts up to %[1]d threads", harness.Cores())
	}
	if !free && a.timing == "auto" && !prebuilt {
		c.TimeOff, c.Untimed = note+" (-time on measures anyway)", "the machine was busy when ab started (-time auto)"
		note = "-time auto: " + c.TimeOff
	}
	if !a.quiet {
		fmt.Fprintf(o.Stderr, "perfrun: ab: %s\n", note)
	}
}

// ownConstants has the campaign predict within the cores with this
// machine's own constants where it keeps a record of them, and says why
// not where one is there and cannot be used.
func ownConstants(c *campaign.Campaign, o *subcommand.Streams) {
	rec, p, err := hostconstants.Load(harness.CPUName(), harness.Cores())
	if rec != nil {
		c.UseOwn(rec, p)
	} else if err != nil {
		fmt.Fprintf(o.Stderr, "perfrun: ab: %v\n", err)
	}
}

// check refuses, before anything is built or measured, flags that cannot
// make a comparison; it gives the prebuilt arms, if the arms are binaries,
// and reads -speed-limit.
func (a *abOptions) check(fs *flag.FlagSet) (*campaign.Prebuilt, float64, error) {
	prebuilt, limit, err := a.checkFlags(fs)
	if err != nil || !prebuilt {
		return nil, limit, err
	}
	pre, err := a.prebuilt()
	return pre, limit, err
}

func (a *abOptions) checkFlags(fs *flag.FlagSet) (prebuilt bool, limit float64, err error) {
	if a.baseline != "" {
		if a.baseBin != "" {
			return false, 0, subcommand.UsageError("-baseline and -base-bin both name BASE: give one")
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
		return false, 0, subcommand.UsageError("with -baseline, -base-bin, -head-bin, -base-env or -head-env, want no revisions: the binaries are the arms")
	case !prebuilt && fs.NArg() != 2:
		return false, 0, subcommand.UsageError("want two revisions: BASE HEAD")
	}
	switch {
	case a.timing != "auto" && a.timing != "on" && a.timing != "off":
		return false, 0, subcommand.UsageError("bad -time %q: want auto, on or off", a.timing)
	case a.timing == "off" && a.strict:
		return false, 0, subcommand.UsageError("-time off and -strict: -strict needs time to decide every PASS; give one")
	case a.timing == "off" && !a.instructions && !a.locks:
		return false, 0, subcommand.UsageError("-time off with -instructions=false and -locks=false: nothing would decide")
	}
	if a.strict || !a.instructions && !a.locks {
		a.timing = "on" // -time auto: only time can decide here
	}
	limit, err = flagvalue.ParsePercent(a.speedLimit)
	if err != nil && a.speedLimit != "0" {
		return false, 0, subcommand.UsageError("bad -speed-limit %q: want a percentage such as 10%%, or 0", a.speedLimit)
	}
	if err := a.checkRounds(); err != nil {
		return false, 0, err
	}
	if err := checkThresholds(a.th); err != nil {
		return false, 0, err
	}
	if threads, err := harness.ParseThreads(a.threads); err == nil && len(threads) > 0 && slices.Min(threads) > harness.Cores() {
		return false, 0, subcommand.UsageError("-threads %s: every count is above the %d cores: those cells only time-slice and are never gated, so ab could judge nothing", a.threads, harness.Cores())
	}
	// Another package's binary knows implementations this one does not:
	// only perfrun's own flags are checked here.
	if a.pkg == ab.DefaultPkg && !prebuilt {
		cmds, err := a.cmd.commands()
		if err != nil {
			return false, 0, subcommand.AsUsage(err)
		}
		if _, err := sweep.Plan(orDefault(a.impl), a.workload, a.threads, a.params, cmds...); err != nil {
			return false, 0, subcommand.AsUsage(err)
		}
	}
	return prebuilt, limit, subcommand.AsUsage(regularfile.CheckOutputs(a.jsonOut, a.reportDir))
}

// checkRounds refuses rounds, looks, pairing, layouts and a budget that
// cannot make a comparison; the first look always runs whole, so one that
// cannot end within -budget is refused, not started.
func (a *abOptions) checkRounds() error {
	switch {
	case a.pairing != "window" && a.pairing != "process":
		return subcommand.UsageError("-pairing must be window or process, not %q", a.pairing)
	}
	if _, err := a.fixedLayouts(); err != nil {
		return err
	}
	if a.budget > 0 {
		if least := time.Duration(a.rounds*a.inner*3) * (a.window + a.warmup); least > a.budget {
			return subcommand.UsageError("-rounds %d × -inner %d × 3 arms × %v a window is at least %v a cell, past -budget %v: fewer rounds, or a larger budget",
				a.rounds, a.inner, a.window+a.warmup, least.Round(time.Second), a.budget)
		}
	}
	return nil
}

// fixedLayouts reads -layouts: -1 for fresh layouts, else how many
// fixed layouts a revision is linked with.
func (a *abOptions) fixedLayouts() (int, error) {
	if a.layouts == "fresh" {
		return -1, nil
	}
	n, err := strconv.Atoi(a.layouts)
	if err != nil || n < 0 || n > 100 {
		return 0, subcommand.UsageError("bad -layouts %q: want fresh, or a number of layouts from 0 to 100", a.layouts)
	}
	return n, nil
}

// prebuilt checks the binaries and environments of the arms: each binary
// an executable file (this perfrun where not given), each setting
// KEY=VALUE; it names each arm by its binary and settings.
func (a *abOptions) prebuilt() (*campaign.Prebuilt, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	arms := &campaign.Prebuilt{Base: cmp.Or(a.baseBin, self), Head: cmp.Or(a.headBin, self), BaseEnv: a.baseEnv, HeadEnv: a.headEnv}
	for _, bin := range []string{arms.Base, arms.Head} {
		if info, err := os.Stat(bin); err != nil || !info.Mode().IsRegular() || info.Mode()&0o111 == 0 {
			return nil, subcommand.UsageError("%s is not an executable file", bin)
		}
	}
	for _, kv := range append(append([]string(nil), a.baseEnv...), a.headEnv...) {
		if k, _, ok := strings.Cut(kv, "="); !ok || !envKey.MatchString(k) {
			return nil, subcommand.UsageError("bad environment setting %q: want KEY=VALUE", kv)
		}
	}
	name := func(what string, env []string) string {
		return strings.Join(append([]string{what}, env...), " ")
	}
	arms.BaseName, arms.HeadName = name(filepath.Base(arms.Base), a.baseEnv), name(filepath.Base(arms.Head), a.headEnv)
	if a.baseline != "" {
		arms.BaseName = name("baseline "+a.baseline+baselines.SavedWhen(a.baseline), a.baseEnv)
		if a.headBin != "" { // as given: its base name is often perfrun too
			arms.HeadName = name(a.headBin, a.headEnv)
		}
	}
	if arms.BaseName == arms.HeadName {
		arms.BaseName, arms.HeadName = "base: "+arms.BaseName, "head: "+arms.HeadName
	}
	return arms, nil
}

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// replayWindows judges a recorded comparison (the windows.csv of ab
// -report) again with this perfrun's rules, measuring nothing. An
// interrupt ends it at once, whatever it is computing.
func (a *abOptions) replayWindows(ctx context.Context, o *subcommand.Streams) error {
	if err := checkThresholds(a.th); err != nil {
		return err
	}
	if err := subcommand.AsUsage(regularfile.CheckOutputs(a.jsonOut, a.reportDir)); err != nil {
		return err
	}
	c, err := a.campaign(o)
	if err != nil {
		return err
	}
	data, name, err := regularfile.ReadInput(a.replay)
	if err != nil {
		return subcommand.AsUsage(err)
	}
	ctx, stop := terminal.Interruptible(ctx)
	defer stop()
	type replayed struct {
		res *campaign.Result
		err error
	}
	done := make(chan replayed, 1)
	go func() {
		res, _, err := c.Replay(a.replay, data, harness.Cores())
		done <- replayed{res, err}
	}()
	var res *campaign.Result
	select {
	case r := <-done:
		if r.err != nil {
			return subcommand.AsUsage(r.err)
		}
		res = r.res
	case <-ctx.Done():
		return fmt.Errorf("interrupted: %s judged nothing", name)
	}
	res.Report.Warnings = slices.Clip(res.Report.Warnings)
	verdict := finishGate(res.Report, a.jsonOut, a.verbose, o)
	if a.reportDir != "" {
		doc := &report.Document{Title: "perfrun: head against base, judged again", Verdict: res.Report, Notes: []string{fmt.Sprintf(
			"Judged again from %s. A windows file keeps no arm's own results: this page has the verdict and the windows alone.", name)}}
		if err := a.writeABDocument(doc, a.reportDir, res); err != nil {
			verdict = lostOutput(verdict, fmt.Errorf("report: %w", err), o)
		}
	}
	return verdict
}

func orDefault(impl string) string {
	if impl == "" {
		return allImpls()
	}
	return impl
}

// closingLine is ab's last line: the verdict, the wall time and where it
// went.
func closingLine(res *campaign.Result, wall time.Duration) string {
	share := func(d time.Duration) float64 { return 100 * d.Seconds() / wall.Seconds() }
	return fmt.Sprintf("perfrun: ab: %s in %s (%.0f%% of it building, %.0f%% measuring, %.0f%% linking layouts, %.0f%% counting instructions and locks)",
		res.Report.Verdict, wall.Round(time.Second), share(res.Building), share(res.Runner.Measuring), share(res.Runner.Linking), share(res.Counting))
}
