package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/hostconstants"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/internal/terminal"

	"github.com/perfrun/perfrun/internal/summary"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

var cmdPredict = &subcommand.Command{
	MaxArgs: 1, Name: "predict", Args: "[flags] RESULTS", Short: "predict time per call past the machine's cores from 1-thread lock profiles",
	Common: []string{"threads", "o"},
	Long: `Predict says what each 1-thread cell's lock profile predicts at more threads
than the machine has cores, one core a thread: the time one worker spends
per call, as a band, and the throughput. RESULTS must hold 1-thread cells
with instructions/op and a lock profile ("perfrun run -threads 1
-instructions -locks").

The model is a closed queueing network solved by mean value analysis:
every thread calls again as soon as a call returns; the busiest exclusive
lock (the profile's busiest-lock units) is a queue whose service is the time
it is held (the instructions under it at the cell's own time per
instruction), and every waiter ahead adds a hand-off per acquisition; the
other exclusive locks together are a second such queue;
the cache lines the other atomics write (a read lock's reader count, a
counter) are queues whose service is a transfer between cores: the most
written line one, the rest as lines of equal weight (the profile's line
units; an older profile has them all on one); the rest of a call each
thread spends alone. The hand-off and the transfer are by default the
reference set, a server's, fitted to OpenSSL PR 28599's tables of its two
real stores (results/published/predicted/calibrated/), fixed, so a
prediction is the same from run to run and machine load to machine load; -constants measure measures
them on this machine now (two threads wanting one mutex, with nothing and
with work held, and one counter; run it on the machine that made RESULTS,
with nothing else running). The band runs from the lowest constants to
the highest (the reference set's: every pair that keeps both real stores
within 25% of their tables; measured: a hand-off a spinning waiter catches
to a sleeping waiter woken), widened from two threads on by what the
run's control cell shows the machine gave each of two threads against
one. Each design's line says what makes it wait, in words.

With -against FILE -as IMPL=PUBLISHED,... it prints each predicted design's
per(n)/per(1) beside a published table's (such as PR 28599's,
results/published/pr28599.txt) at the thread counts both have, and their
ratio: scaling, not time, since the machines differ.

It assumes a core a thread; it cannot see a machine's memory system beyond
one cache line, NUMA, a lock's fairness, a holder preempted by the
scheduler, or what does not show at one thread (docs/predict.md shows a
prediction that misses, and why).
The file it writes says predicted: yes on every record; every perfrun
reader and benchstat read it.`,
}

func init() { cmdPredict.Define = predictFlags }

// predictOptions are predict's flags.
type predictOptions struct {
	threads, out, against, constants, plotDir, as *string
	window                                        *time.Duration
	windows                                       *int
	keep                                          *bool
}

func predictFlags(fs *flag.FlagSet) subcommand.RunFunc {
	p := &predictOptions{
		threads:   fs.String("threads", "1-18", "thread counts to predict, e.g. 1-18 or 1,2,4,8,16"),
		out:       fs.String("o", "", "write the prediction as a results file here (default: none, the table alone)"),
		window:    new(time.Duration),
		windows:   new(int),
		against:   fs.String("against", "", "a results file of published numbers (such as results/published/pr28599.txt) to hold the prediction's scaling against, per(n)/per(1)"),
		constants: fs.String("constants", "reference", "reference: the fixed set ab and the main job predict with (results/scaling), each design from its counts at the reference time per instruction, the same from run to run and as run, ab and report print it; measure: the hand-off and transfer measured on this machine now"),
		plotDir:   fs.String("plot", "", "with -against: draw the prediction beside the published curves in this folder (held-against.svg and .png)"),
		keep:      fs.Bool("keep", false, "with -constants measure: keep them as this machine's own, keyed by its processor and cores, which ab and run then predict within its cores with (docs/predict.md)"),
		as:        fs.String("as", "", "with -against: which published implementation each predicted one stands for, IMPL=PUBLISHED,... (e.g. sorted=pr28599-before)"),
	}
	flagvalue.SpanVar(fs, p.window, "window", 100*time.Millisecond, time.Millisecond, time.Minute, "time of each window that measures the machine's constants")
	flagvalue.BoundedVar(fs, p.windows, "windows", 9, 1, 1000, "windows of each constant, interleaved")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		if fs.NArg() != 1 {
			return subcommand.UsageError("want one results file")
		}
		counts, pairs, err := p.check(fs.Arg(0))
		if err != nil {
			return err
		}
		ctx, stop := terminal.Interruptible(ctx)
		defer stop()
		return p.run(ctx, o, fs.Arg(0), counts, pairs, args)
	}
}

// check refuses flags that cannot go together, and parses -threads and
// -as.
func (p *predictOptions) check(input string) ([]int, map[string]string, error) {
	counts, err := harness.ParseThreads(*p.threads)
	if err != nil || len(counts) == 0 {
		return nil, nil, subcommand.UsageError("bad -threads %q: %v", *p.threads, err)
	}
	if *p.keep && *p.constants != "measure" {
		return nil, nil, subcommand.UsageError("-keep keeps constants measured here: give -constants measure")
	}
	if *p.constants != "measure" && *p.constants != "reference" {
		return nil, nil, subcommand.UsageError("-constants must be measure or reference, not %q", *p.constants)
	}
	if *p.out != "" {
		if err := regularfile.CheckOutput(*p.out, *p.out == sweep.DefaultOutput); err != nil {
			return nil, nil, err
		}
		// Neither the results nor the published table may be
		// overwritten by the prediction.
		if err := regularfile.NotAnInput(*p.out, input, *p.against); err != nil {
			return nil, nil, subcommand.AsUsage(err)
		}
	}
	pairs, err := parsePairs(*p.as)
	if err != nil {
		return nil, nil, subcommand.UsageError("bad -as %q: %v", *p.as, err)
	}
	if (*p.against == "") != (len(pairs) == 0) {
		return nil, nil, subcommand.UsageError("-against FILE and -as IMPL=PUBLISHED,... go together")
	}
	if *p.plotDir != "" && *p.against == "" {
		return nil, nil, subcommand.UsageError("-plot draws the prediction beside a published table: give -against FILE -as IMPL=PUBLISHED too")
	}
	return counts, pairs, subcommand.AsUsage(regularfile.CheckOutputs("", *p.plotDir))
}

// run reads the results and the published table, predicts them at the
// thread counts, prints the table (and the scaling held against the
// table), and writes the results file.
func (p *predictOptions) run(ctx context.Context, o *subcommand.Streams, input string, counts []int, pairs map[string]string, args []string) error {
	in, err := records.ReadFile(input)
	if err != nil {
		return subcommand.AsUsage(err)
	}
	var published *records.Set
	if *p.against != "" {
		if published, err = records.ReadFile(*p.against); err != nil {
			return subcommand.AsUsage(err)
		}
	}
	m, err := p.constantsFor(ctx, o, in)
	if err != nil {
		return err
	}
	set, err := predict.Results(in, counts, m, "perfrun predict "+strings.Join(args, " "))
	if err != nil {
		return subcommand.AsUsage(err)
	}
	report.WritePrediction(o.Stdout, set, in, m)
	for _, why := range predict.Unpredicted(in, m) {
		fmt.Fprintf(o.Stderr, "perfrun: predict: not predicted: %s\n", why)
	}
	if published != nil {
		if err := holdAgainst(o, set, published, pairs, *p.plotDir); err != nil {
			return err
		}
	}
	// Constants a busy machine inflated answer nothing: the table is
	// printed and written, and the exit says it is no answer.
	var inflated error
	if m.Inflated() {
		inflated = &subcommand.ExitError{Code: subcommand.ExitInconclusive, Err: fmt.Errorf("every constant was measured on a busy machine: the prediction is no answer (predict again with nothing else running, or with -constants reference)")}
	}
	if *p.out == "" {
		return inflated
	}
	var b bytes.Buffer
	if err := set.Write(&b); err != nil {
		return err
	}
	if err := regularfile.Write(*p.out, b.Bytes()); err != nil {
		return err
	}
	return inflated
}

// constantsFor are the constants in is predicted with: the reference set
// from its counts alone, as the main job, ab and report predict, or
// those measured on this machine now. The inputs are checked before the
// machine is measured: a file no prediction can come from is refused at
// once.
func (p *predictOptions) constantsFor(ctx context.Context, o *subcommand.Streams, in *records.Set) (predict.Measured, error) {
	if _, _, err := predict.Inputs(in, predict.Reference); err != nil {
		return predict.Measured{}, subcommand.AsUsage(err)
	}
	m, note := summary.FromCounts(in)
	if note != "" && m.Within != nil && *p.constants != "measure" {
		fmt.Fprintf(o.Stderr, "perfrun: predict: %s\n", note)
	}
	if *p.constants == "measure" {
		if err := measuredHere(in); err != nil {
			return predict.Measured{}, subcommand.AsUsage(err)
		}
		fmt.Fprintf(o.Stderr, "perfrun: predict: measuring the machine's hand-off and cache-line transfer (%d windows of %v each, on two threads)\n", *p.windows, *p.window)
		m = predict.Measure(ctx, *p.window, *p.windows, sweep.ProgressAfter(o.Stderr, "predict", "windows"))
		if err := ctx.Err(); err != nil {
			return predict.Measured{}, fmt.Errorf("interrupted after %d of %d windows: nothing predicted", m.Windows, *p.windows)
		}
		m.PerInstruction = predict.PerInstruction
		if *p.keep {
			if path, err := hostconstants.Save(m, harness.CPUName(), harness.Cores(), time.Now()); err == nil {
				fmt.Fprintf(o.Stderr, "perfrun: predict: kept as this machine's own constants, which ab and run predict within its cores with: %s\n", path)
			} else {
				fmt.Fprintf(o.Stderr, "perfrun: predict: this machine's constants not kept: %v\n", err)
			}
		}
	}
	if busy := m.Busy(); busy != "" {
		fmt.Fprintf(o.Stderr, "perfrun: predict: %s\n", busy)
	}
	return m, nil
}

// measuredHere refuses results the constants measured now would not
// describe: runs of several machines pooled in one file, or of another
// machine than this one (its cpu and cores, as the file's lines say).
func measuredHere(in *records.Set) error {
	cpus, cores, labels := in.ConfigValues("cpu"), in.ConfigValues("cores"), in.MachineLabels()
	if len(cpus) > 1 || len(cores) > 1 || len(labels) > 1 {
		return fmt.Errorf("%s pools runs of several machines (cpu %q, cores %q, machine %q): predict each machine's runs on that machine", in.File, cpus, cores, labels)
	}
	here := fmt.Sprintf("%s ×%d", strings.TrimSpace(harness.CPUName()), harness.Cores())
	if len(cpus) == 1 && len(cores) == 1 && cpus[0]+" ×"+cores[0] != here {
		return fmt.Errorf("%s was measured on %s ×%s and this machine is %s: constants measured here are not that machine's; predict there, or with -constants reference", in.File, cpus[0], cores[0], here)
	}
	return nil
}

// parsePairs reads -as: IMPL=PUBLISHED pairs, comma-separated.
func parsePairs(text string) (map[string]string, error) {
	out := make(map[string]string)
	if text == "" {
		return out, nil
	}
	for _, p := range strings.Split(text, ",") {
		impl, pub, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || impl == "" || pub == "" {
			return nil, fmt.Errorf("%q is not IMPL=PUBLISHED", p)
		}
		if _, dup := out[impl]; dup {
			return nil, fmt.Errorf("%s is paired twice", impl)
		}
		out[impl] = pub
	}
	return out, nil
}

// holdAgainst prints the prediction's scaling beside the published
// table's and, if plotDir is set, draws both there.
func holdAgainst(o *subcommand.Streams, set, published *records.Set, pairs map[string]string, plotDir string) error {
	held, err := predict.Against(set, published, pairs)
	if err != nil {
		return subcommand.AsUsage(err)
	}
	report.WriteHeld(o.Stdout, held, published.File)
	if plotDir == "" {
		return nil
	}
	pl, err := report.HeldPlot(held, "held-against")
	if err != nil {
		return err
	}
	files, err := report.SavePlots(plotDir, []*report.Plot{pl}, regularfile.WriteOwned)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	fmt.Fprintf(o.Stderr, "perfrun: predict: wrote %s\n", strings.Join(files, ", "))
	return nil
}
