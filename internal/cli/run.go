package cli

import (
	"context"
	"flag"
	"os"
	"slices"
	"time"

	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/internal/terminal"

	"github.com/perfrun/perfrun/harness"
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
	fs.StringVar(&f.out, "o", sweep.DefaultOutput, "results file (Go benchmark format); empty for none")
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

// options checks the flags the harness takes and turns them into its
// options (the corpus and progress are the sweep's to set).
func (f *runFlags) options() (harness.Options, error) {
	opts := harness.DefaultOptions
	if f.repair > f.rounds {
		return opts, subcommand.UsageError("-repair %d: at most -rounds (%d): a repair measures again what the planned rounds left short, for as long as that many of its rounds take", f.repair, f.rounds)
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

// run checks the flags, then has the sweep they describe measure and write.
func (f *runFlags) run(ctx context.Context, o *subcommand.Streams, args []string) error {
	cmds, err := f.cmd.commands()
	if err != nil {
		return subcommand.AsUsage(err)
	}
	sw := &sweep.Sweep{Impl: f.impl, Workload: f.workload, Threads: f.threads, Params: f.params, Match: f.match, Commands: cmds,
		Corpus: f.corpus, Strict: f.strict, Seed: f.seed, Quarantine: f.quarantine,
		Instructions: f.instructions, Locks: f.locks, Predict: f.predict,
		Out: f.out, Plots: f.plots, Format: f.format, SaveAs: f.saveAs, Quiet: f.quiet, Args: args}
	if err := sw.Check(); err != nil {
		return err
	}
	if sw.Options, err = f.options(); err != nil {
		return err
	}
	if sw.Labels, err = f.labelValues(); err != nil {
		return err
	}
	// Flags are checked; now the corpus, which may take a while to load:
	// an interrupt stops that too.
	ctx, stop := terminal.Interruptible(ctx)
	defer stop()
	return sw.Run(ctx, o)
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
