package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/cellops"
	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/terminal"

	"github.com/perfrun/perfrun/internal/summary"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

var cmdRun = &subcommand.Command{
	Name: "run", Args: "[flags]", Short: "measure implementations under workloads (the main job)",
	Common: []string{"impl", "workload", "threads", "param", "rounds", "corpus", "o", "format", "q", "exec", "instructions", "locks", "save-baseline"},
	Long: `Run measures every design at 1 to cores threads, in shuffled rounds,
checks every answer, prints PR 28599's per-thread tables and what each
design's lock profile predicts at 16 threads, and writes the results in the
Go benchmark format. Example: perfrun run -impl hashmap,rcu -threads 1,2

Run measures every implementation under every workload on every thread
count, R rounds in shuffled order, checks every answer, prints a summary and
writes the results in the Go benchmark format (benchstat reads them:
benchstat -filter '.unit:sec/call quarantined:no' -col /impl -row '.name /threads'
FILE: the per-thread tables' unit, the samples perfrun kept).

With no flags it runs the default suite: all implementations, the issuer
workload on 1024 generated CAs, threads 1 to the cores, in about 45 s on 2
cores, and writes perfrun-out/results.txt with its plots beside it. Cells with
more threads than cores (-threads) are marked oversubscribed.

The models are measured as OpenSSL runs its store (cost=openssl, in every
cell's name): each lookup also does the work an OpenSSL issuer lookup does
outside its store, the same for every design, so the table shows what the
store's design changes in a whole lookup, as OpenSSL PR 28599's tables did.
-param cost=own measures the structures and locks alone (a bare model's lock
is then most of its cost); -param cost=real runs sorted and hashmap at their
real stores' whole profiles. ab measures cost=own unless told otherwise.

Every round also measures a control cell per thread count (Control/threads=N):
perfectly parallel private work whose throughput over one thread, p(N), is the
parallelism the machine delivered. The tables give each design's efficiency,
its speedup over p(N). A round in which the control got less than 85% of N
cores, or a worker waited for a CPU a quarter of its window, or the
hypervisor stole 5% of the machine, is set aside (kept in the file under a
"quarantined:" line, left out of tables, plots and verdicts) and measured
again at the end, while a cell has kept fewer windows than a median's 95%
interval needs (6, as benchstat reads it) or than its rounds, for at most as
long as its planned rounds of those cells take (-repair N for N rounds'
time, -quarantine=false to keep every round). The run says how many cells it
left with fewer windows than rounds.`,
}

func init() { cmdRun.Define = runDefine }

// longRun is how long a run may take before run says so up front.
const longRun = 10 * time.Minute

// printers are run's -format choices; each prints a results set.
var printers = map[string]func(io.Writer, *records.Set, int) error{
	"table":    func(w io.Writer, s *records.Set, cores int) error { report.WriteThreadTables(w, s, cores); return nil },
	"benchfmt": func(w io.Writer, s *records.Set, _ int) error { return s.Write(w) },
	"jmh":      report.WriteJMH,
	"csv":      report.WriteCSV,
	"json":     report.WriteJSON,
}

// runWindow and runWarmup are run's windows: short enough that the main
// job answers in about a minute on 2 cores, long enough that a window
// holds thousands of lookups (ab's are shorter still).
const (
	runWindow = 200 * time.Millisecond
	runWarmup = 50 * time.Millisecond
)

// shapingFlags are the flags that make a run other than the main job.
var shapingFlags = []string{"impl", "workload", "threads", "param", "corpus", "match", "exec"}

// given says whether any of the named flags was set.
func given(fs *flag.FlagSet, names ...string) bool {
	set := false
	fs.Visit(func(fl *flag.Flag) { set = set || slices.Contains(names, fl.Name) })
	return set
}

// runFlags are run's flags, as parsed.
type runFlags struct {
	cellChoice
	labels                     subcommand.ListFlag
	rounds, repair             int
	window, warmup, maxTime    time.Duration
	maxTimeGiven               bool // -max-time was on the command line (it needs -precision)
	corpus, match, out, format string
	plots, precision, saveAs   string
	strict, instructions       bool
	locks                      bool
	predict                    int
	noPrediction               string // why -predict has no counts to stand on
	quiet, pin, quarantine     bool
	seed, orderSeed            uint64
	profiles                   harness.Profiles
	cmd                        commandFlags
}

func newRunFlags(fs *flag.FlagSet) *runFlags {
	def := harness.DefaultOptions
	f := &runFlags{}
	f.cellChoice.define(fs, cellDefaults{impl: allImpls(), threadsTop: harness.Cores(),
		threadNote: " (default to the cores: the prediction says what more threads do; counts past the cores only time-slice, labelled *, never gated)",
		paramNote:  " (the models run at cost=openssl unless -param cost says otherwise)"})
	flagvalue.BoundedVar(fs, &f.rounds, "rounds", def.Rounds, 1, maxRunRounds, "rounds; each measures every cell once")
	flagvalue.SpanVar(fs, &f.window, "window", runWindow, harness.MinWindow, mostWindow, "measured time per cell and round", windowWhy)
	flagvalue.SpanVar(fs, &f.warmup, "warmup", runWarmup, 0, mostWindow, "unmeasured warm-up before each window")
	fs.StringVar(&f.corpus, "corpus", "", "PEM bundle or directory of PEM/DER files (default: generated)")
	fs.BoolVar(&f.strict, "strict", false, "refuse a corpus with bad blocks instead of skipping them")
	fs.Uint64Var(&f.seed, "seed", def.Seed, "seed of the generated corpus and of the round order")
	fs.Uint64Var(&f.orderSeed, "order-seed", 0, "seed of the round order alone (0: -seed)")
	fs.StringVar(&f.match, "match", "", "only cells whose benchmark name matches this regular expression")
	fs.BoolVar(&f.instructions, "instructions", false, "also count instructions/op of 1-thread cells under valgrind (callgrind)")
	fs.BoolVar(&f.locks, "locks", false, "also count the lock profile of 1-thread cells under callgrind: exclusive and shared locks, instructions held, atomics per op (rebuilds perfrun with the standard sync overlaid, so every lock a call takes is seen)")
	flagvalue.BoundedVar(fs, &f.predict, "predict", 0, 0, 1024, "also say what each design's 1-thread lock profile predicts at this many threads, one core a thread (perfrun predict; counts instructions and locks as -instructions -locks do, about 30 s more); 0 for none (default: 16 for the main job, a run given no -impl, -workload, -threads, -param, -corpus, -match or -exec; else 0)")
	fs.StringVar(&f.out, "o", defaultOutput, "results file (Go benchmark format); empty for none")
	fs.StringVar(&f.format, "format", "table", "what to print: table, benchfmt, jmh, csv, json")
	fs.BoolVar(&f.quiet, "q", false, "no progress on stderr")
	fs.Var(&f.labels, "label", "extra configuration line `key=value` for the results, e.g. machine=arm64 (repeatable)")
	fs.StringVar(&f.plots, "plots", "", "directory for plots (default: beside -o, as NAME-plots; \"none\" for none)")
	fs.BoolVar(&f.pin, "pin", def.Pin, "pin each worker to a CPU of its own when the threads fit the CPUs")
	fs.BoolVar(&f.quarantine, "quarantine", true, "set aside and re-measure rounds the machine disturbed (see above)")
	flagvalue.BoundedVar(fs, &f.repair, "repair", 0, 0, maxRunRounds, "measure the cells the machine disturbed again for at most as long as this many rounds of them take, and up to -rounds of them while a cell has kept fewer windows than a median's interval needs (6); 0 for -rounds")
	fs.StringVar(&f.precision, "precision", "", "add rounds until every gated cell's median is known to within this, e.g. 2%")
	flagvalue.SpanVar(fs, &f.maxTime, "max-time", def.MaxTime, time.Second, mostBudget, "with -precision: stop adding rounds when the run has taken this long")
	fs.StringVar(&f.profiles.CPU, "cpuprofile", "", "write a CPU profile of each cell into `DIR` (an extra window after round 1)")
	fs.StringVar(&f.profiles.Mutex, "mutexprofile", "", "write a mutex contention profile of each cell into `DIR`")
	fs.StringVar(&f.profiles.Block, "blockprofile", "", "write a blocking profile of each cell into `DIR`")
	f.cmd.define(fs)
	fs.StringVar(&f.saveAs, "save-baseline", "", "also save the results, and the build that measured them, as the named baseline `NAME` (see perfrun baselines; perfrun ab -baseline NAME measures that build again)")
	return f
}

// options checks the flags that need no corpus and turns them into the
// harness's options (the corpus and progress still to be set).
func (f *runFlags) options() (harness.Options, error) {
	opts := harness.DefaultOptions
	if _, ok := printers[f.format]; !ok {
		return opts, subcommand.UsageError("unknown format %q (have table, benchfmt, jmh, csv, json)", f.format)
	}
	if f.repair > f.rounds {
		return opts, subcommand.UsageError("-repair %d: at most -rounds (%d): a repair measures again what the planned rounds left short, for as long as that many of its rounds take", f.repair, f.rounds)
	}
	if f.predict > 0 && f.format != "table" {
		return opts, subcommand.UsageError("-predict prints beside the tables: it needs -format table (the default), not %s", f.format)
	}
	if f.out != "" {
		if err := checkOutput(f.out); err != nil {
			return opts, subcommand.AsUsage(err)
		}
		if err := notAnInput(f.out, f.corpus); err != nil {
			return opts, err
		}
		// The previous results are kept beside the new ones: a folder
		// there would lose the run after it was measured.
		if info, err := os.Stat(previousPath(f.out)); err == nil && !info.Mode().IsRegular() {
			return opts, subcommand.UsageError("%s, where this run keeps the previous results, is not a file: move it, or give another -o", previousPath(f.out))
		}
	}
	if f.saveAs != "" {
		if err := baselines.CheckName(f.saveAs); err != nil {
			return opts, err
		}
		if err := baselines.CheckDir(); err != nil {
			return opts, err
		}
	}
	prec, err := flagvalue.ParsePercent(f.precision)
	if err != nil {
		return opts, subcommand.UsageError("bad -precision %q: want a percentage above 0 and below 100, e.g. 2%%", f.precision)
	}
	if prec == 0 && f.maxTimeGiven {
		return opts, subcommand.UsageError("-max-time bounds the rounds -precision adds: give -precision too, or leave -max-time out")
	}
	for _, dir := range []string{f.profiles.CPU, f.profiles.Mutex, f.profiles.Block} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return opts, subcommand.AsUsage(err)
		}
	}
	opts.Rounds, opts.Window, opts.Warmup, opts.Seed, opts.OrderSeed = f.rounds, f.window, f.warmup, f.seed, f.orderSeed
	opts.Pin, opts.Precision, opts.MaxTime, opts.Profiles = f.pin, prec, f.maxTime, f.profiles
	opts.Profiles.Write = regularfile.WriteOwned
	opts.Quarantine.Extra = f.repair
	if !f.quarantine {
		opts.Quarantine = harness.Quarantine{}
	}
	return opts, nil
}

func runDefine(fs *flag.FlagSet) subcommand.RunFunc {
	f := newRunFlags(fs)
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		f.defaultPredict(fs)
		f.maxTimeGiven = given(fs, "max-time")
		return f.run(ctx, o, args)
	}
}

func (f *runFlags) run(ctx context.Context, o *subcommand.Streams, args []string) error {
	cmds, err := f.cmd.commands()
	if err != nil {
		return subcommand.AsUsage(err)
	}
	if _, err := planCells(f.impl, f.workload, f.threads, f.params, cmds...); err != nil {
		return subcommand.AsUsage(err)
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	kvs, err := f.labelValues()
	if err != nil {
		return err
	}
	// Flags are checked; now the corpus, which may take a while to load:
	// an interrupt stops that too.
	ctx, stop := terminal.Interruptible(ctx)
	defer stop()
	if f.counting() && f.corpus == "" {
		unshare, err := shareCorpora()
		if err != nil {
			return err
		}
		defer unshare()
	}
	cells, err := f.cells(ctx, o, &opts)
	if err != nil {
		return err
	}
	if est := time.Duration(f.rounds) * time.Duration(len(cells)) * (f.window + f.warmup); est > longRun && !f.quiet {
		fmt.Fprintf(o.Stderr, "perfrun: run: %d cells × %d rounds × %v will take at least %v; Ctrl-C keeps the rounds completed by then\n",
			len(cells), f.rounds, f.window+f.warmup, est.Round(time.Minute))
	}
	if !f.quiet {
		opts.Progress = terminal.Progress(o.Stderr)
		if note := summary.BusyAtStart(harness.Cores()); note != "" {
			fmt.Fprintf(o.Stderr, "perfrun: run: %s\n", note)
		}
	}
	res, err := harness.Run(ctx, cells, opts)
	if !f.quiet && terminal.IsTerminal(o.Stderr) {
		terminal.ClearLine(o.Stderr)
	}
	if err != nil {
		return err
	}
	if res.Incomplete && len(res.Samples) == 0 {
		// Nothing to keep: the previous results file stays as it was.
		return fmt.Errorf("interrupted before any round completed: nothing written%s", unchanged(f.out))
	}
	res.Labels = kvs
	if !f.quarantine {
		// Samples the machine disturbed are kept: the file says so.
		res.Labels = append(res.Labels, workloads.KV{Key: "quarantine", Value: "off: samples the machine disturbed are kept"})
	}
	res.Command = "perfrun run " + strings.Join(args, " ")
	// A count that fails costs the count, never the measurements: the
	// results are written first, then the failure said and exit 4.
	counts := f.count(ctx, o, res)
	err = f.write(o, res)
	if len(counts) == 0 {
		return err
	}
	for _, c := range counts[:len(counts)-1] {
		fmt.Fprintf(o.Stderr, "perfrun: run: %v\n", c)
	}
	if err != nil {
		fmt.Fprintf(o.Stderr, "perfrun: run: %v\n", counts[len(counts)-1])
		return err
	}
	return fmt.Errorf("%w (%s is written without the counts that failed)", counts[len(counts)-1], f.out)
}

// labelValues are the -label flags as configuration lines, each key once.
func (f *runFlags) labelValues() ([]workloads.KV, error) {
	var kvs []workloads.KV
	for _, l := range f.labels {
		kv, err := harness.ParseLabel(l)
		if err != nil {
			return nil, subcommand.AsUsage(err)
		}
		if i := slices.IndexFunc(kvs, func(o workloads.KV) bool { return o.Key == kv.Key }); i >= 0 {
			return nil, subcommand.UsageError("-label %s given twice (%s=%s, then %s=%s): a configuration key has one value", kv.Key, kv.Key, kvs[i].Value, kv.Key, kv.Value)
		}
		kvs = append(kvs, kv)
	}
	return kvs, nil
}

// counting says whether the run takes counts under callgrind once its
// windows are measured (count).
func (f *runFlags) counting() bool { return f.instructions || f.locks || f.predict > 0 }

// count takes the counts the flags ask for (instructions, lock profiles,
// and those a prediction stands on) once the windows are measured, and
// returns those that failed.
func (f *runFlags) count(ctx context.Context, o *subcommand.Streams, res *harness.Outcome) []error {
	if res.Incomplete {
		return nil
	}
	var failed []error
	cellArgs := cellops.Args(f.corpus, f.strict, f.seed)
	if f.instructions {
		if err := cellops.CountInstructions(ctx, res, harness.Processes, cellArgs, o.Stderr, f.quiet); err != nil {
			failed = append(failed, fmt.Errorf("instructions: %w", err))
		}
	}
	if f.locks && ctx.Err() == nil {
		if err := cellops.CountLocks(ctx, res, cellArgs, o.Stderr, f.quiet); err != nil {
			failed = append(failed, fmt.Errorf("lock profile: %w", err))
		}
	}
	if f.predict > 0 && ctx.Err() == nil {
		f.countForPrediction(ctx, o, res)
	}
	return failed
}

// cells sets the corpus of opts up (generated, or loaded once for every
// cell) and plans the cells, fitted to a loaded corpus, with their floors.
func (f *runFlags) cells(ctx context.Context, o *subcommand.Streams, opts *harness.Options) ([]harness.Cell, error) {
	provider, loaded, err := corpusProvider(ctx, f.corpus, f.strict, f.seed, o.Stderr)
	if err != nil {
		return nil, err
	}
	opts.Corpus = provider
	params := withDefaultCost(f.params)
	if loaded > 0 {
		// A loaded corpus has the size it has: say so in every cell name.
		for _, p := range params {
			if strings.HasPrefix(p, "certs=") {
				fmt.Fprintf(o.Stderr, "perfrun: run: -param %s ignored: the loaded corpus has %d CAs\n", p, loaded)
			}
		}
		params = append(withoutParam(params, "certs"), fmt.Sprintf("certs=%d", loaded))
		params = fitLoad(params, provider, o.Stderr)
	}
	cmds, err := f.cmd.commands()
	if err != nil {
		return nil, subcommand.AsUsage(err)
	}
	cells, err := planCells(f.impl, f.workload, f.threads, params, cmds...)
	if err == nil {
		cells, err = harness.Match(cells, f.match)
	}
	if err != nil {
		return nil, subcommand.AsUsage(err)
	}
	if loaded == 0 {
		// A generated corpus this machine cannot hold is refused before
		// any of it is made.
		// certs sizes the corpus; load's n makes as many objects.
		for _, c := range cells {
			for _, key := range []string{"certs", "n"} {
				if v := c.Params.Get(key); v != "" {
					n := c.Params.Int(key)
					hits, misses := corpus.GeneratedLeaves(n)
					if err := corpus.FitsMemory(n, hits+misses, key+"="+v); err != nil {
						return nil, subcommand.AsUsage(err)
					}
				}
			}
		}
	}
	return harness.WithFloors(cells), nil
}

// unchanged says what an interrupted run left alone.
func unchanged(out string) string {
	if out == "" {
		return ""
	}
	if _, err := os.Stat(out); err == nil {
		return "; " + out + " is as it was"
	}
	return ""
}

// write writes what a run produced: the results file, the baseline, the
// plots, the printed table and the summary.
func (f *runFlags) write(o *subcommand.Streams, res *harness.Outcome) error {
	set := res.Set()
	var unsaved error
	var prev *previousRun
	if f.out != "" || f.saveAs != "" {
		var buf bytes.Buffer
		if err := set.Write(&buf); err != nil {
			return err
		}
		if f.out != "" {
			p, err := keepPrevious(f.out)
			if err != nil {
				// The measurements matter more than the previous file.
				fmt.Fprintf(o.Stderr, "perfrun: run: the previous results were not kept (%v); writing this run's\n", err)
			}
			prev = p
			if err := regularfile.Write(f.out, buf.Bytes()); err != nil {
				return err
			}
		}
		if f.saveAs != "" && !res.Incomplete {
			var err error
			if unsaved, err = f.saveBaseline(o, set, buf.Bytes()); err != nil {
				return err
			}
		}
	}
	if dir := f.plots; dir != "none" && (dir != "" || f.out != "") {
		if dir == "" {
			dir = plotsDir(f.out)
		}
		files, err := drawPlots([]*records.Set{set}, dir)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		if len(files) > 0 && !f.quiet {
			fmt.Fprintf(o.Stderr, "perfrun: wrote %d plots to %s\n", len(files), dir)
		}
	}
	if err := printers[f.format](o.Stdout, set, harness.Cores()); err != nil {
		return err
	}
	if f.predict > 0 && f.format == "table" && !res.Incomplete {
		f.pastTheCores(o, set)
	}
	if !f.quiet {
		summary.Summarize(o.Stderr, res, set)
		if prev != nil && !res.Incomplete {
			sincePrevious(o.Stderr, prev, set, f.out)
		}
	}
	if f.out != "" && !f.quiet {
		fmt.Fprintf(o.Stderr, "perfrun: wrote %s (%d samples, %s); read it with: benchstat -filter '%s' -col /impl -row '.name /threads' %s\n",
			f.out, len(res.Samples), res.Wall.Round(time.Second), records.BenchstatFilter, f.out)
	}
	if res.Incomplete {
		notSaved := ""
		if f.saveAs != "" {
			notSaved = fmt.Sprintf("; baseline %s not saved (an interrupted run is no baseline)", f.saveAs)
		}
		return fmt.Errorf("interrupted: kept the %d completed rounds%s", res.CompletedRounds(), notSaved)
	}
	if unsaved != nil {
		return unsaved
	}
	note, err := summary.Busy(set)
	if note != "" {
		fmt.Fprintf(o.Stderr, "perfrun: run: %s\n", note)
	}
	if errors.Is(err, summary.ErrNothingMeasured) {
		return &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: err}
	}
	return err
}

// saveBaseline keeps the run as baseline f.saveAs, with the build that
// measured it. unsaved is the run's end when the machine decided cells: a
// baseline without them would leave later gates of them nothing to judge.
func (f *runFlags) saveBaseline(o *subcommand.Streams, set *records.Set, data []byte) (unsaved, err error) {
	if lost := summary.Unjudgeable(set); len(lost) > 0 {
		// Said after the tables, which still print.
		return &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: fmt.Errorf("baseline %s not saved: every sample of %s was set aside (the machine disturbed them); "+
			"a baseline without them would make every later gate of those cells INCONCLUSIVE; run again", f.saveAs, strings.Join(lost, ", "))}, nil
	}
	// The build first: results are never left beside a build that did not
	// measure them.
	bin, buildErr := baselines.SaveBuild(f.saveAs, data)
	path, err := saveBaseline(f.saveAs, data)
	if err != nil {
		return nil, err
	}
	if !f.quiet {
		fmt.Fprintf(o.Stderr, "perfrun: saved baseline %s (%s); gate against it with: perfrun gate -baseline %s NEW\n", f.saveAs, path, f.saveAs)
	}
	switch {
	case buildErr != nil:
		fmt.Fprintf(o.Stderr, "perfrun: baseline %s: its build was not kept (%v): ab -baseline %s cannot measure it again\n", f.saveAs, buildErr, f.saveAs)
	case !f.quiet:
		fmt.Fprintf(o.Stderr, "perfrun: kept the build that measured it (%s); measure it again beside a later build, interleaved, with: perfrun ab -baseline %s\n", bin, f.saveAs)
	}
	return nil, nil
}
