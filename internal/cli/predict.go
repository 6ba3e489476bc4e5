package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/perfrun/perfrun/internal/mainjob"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
	"github.com/perfrun/perfrun/scaling"
)

var cmdPredict = &command{
	maxArgs: 1, name: "predict", args: "[flags] RESULTS", short: "predict time per call past the machine's cores from 1-thread lock profiles",
	common: []string{"threads", "o"},
	long: `Predict says what each 1-thread cell's lock profile predicts at more threads
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

func init() { cmdPredict.define = predictFlags }

func predictFlags(fs *flag.FlagSet) runFunc {
	threads := fs.String("threads", "1-18", "thread counts to predict, e.g. 1-18 or 1,2,4,8,16")
	out := fs.String("o", "", "write the prediction as a results file here (default: none, the table alone)")
	window := fs.Duration("window", 100*time.Millisecond, "time of each window that measures the machine's constants")
	windows := fs.Int("windows", 9, "windows of each constant, interleaved")
	against := fs.String("against", "", "a results file of published numbers (such as results/published/pr28599.txt) to hold the prediction's scaling against, per(n)/per(1)")
	constants := fs.String("constants", "reference", "reference: the fixed set ab and the main job predict with (results/scaling), each design from its counts at the reference time per instruction, the same from run to run and as run, ab and report print it; measure: the hand-off and transfer measured on this machine now")
	plotDir := fs.String("plot", "", "with -against: draw the prediction beside the published curves in this folder (held-against.svg and .png)")
	as := fs.String("as", "", "with -against: which published implementation each predicted one stands for, IMPL=PUBLISHED,... (e.g. sorted=pr28599-before)")
	return func(_ context.Context, o *streams, args []string) error {
		if fs.NArg() != 1 {
			return usageError("want one results file")
		}
		counts, err := harness.ParseThreads(*threads)
		if err != nil || len(counts) == 0 {
			return usageError("bad -threads %q: %v", *threads, err)
		}
		if *windows < 1 || *window < time.Millisecond {
			return usageError("-windows must be at least 1 and -window at least 1ms")
		}
		if *constants != "measure" && *constants != "reference" {
			return usageError("-constants must be measure or reference, not %q", *constants)
		}
		if *out != "" {
			if err := checkOutput(*out); err != nil {
				return err
			}
			// Neither the results nor the published table may be
			// overwritten by the prediction.
			if err := notAnInput(*out, fs.Arg(0), *against); err != nil {
				return err
			}
		}
		pairs, err := parsePairs(*as)
		if err != nil {
			return usageError("bad -as %q: %v", *as, err)
		}
		if (*against == "") != (len(pairs) == 0) {
			return usageError("-against FILE and -as IMPL=PUBLISHED,... go together")
		}
		if *plotDir != "" && *against == "" {
			return usageError("-plot draws the prediction beside a published table: give -against FILE -as IMPL=PUBLISHED too")
		}
		if err := checkOutputs("", *plotDir); err != nil {
			return err
		}
		in, err := records.ReadFile(fs.Arg(0))
		if err != nil {
			return asUsage(err)
		}
		var published *records.Set
		if *against != "" {
			if published, err = records.ReadFile(*against); err != nil {
				return asUsage(err)
			}
		}
		// The inputs are checked before the machine is measured: a file
		// no prediction can come from is refused at once.
		if _, _, err := predict.Inputs(in, scaling.Reference); err != nil {
			return asUsage(err)
		}
		// The reference constants predict from the counts alone, as the
		// main job, ab and report do: one number per cell, whichever
		// command prints it.
		m := mainjob.FromCounts(in)
		if *constants == "measure" {
			if err := measuredHere(in); err != nil {
				return asUsage(err)
			}
			fmt.Fprintf(o.stderr, "perfrun: predict: measuring the machine's hand-off and cache-line transfer (%d windows of %v each, on two threads)\n", *windows, *window)
			m = predict.Measure(*window, *windows)
			m.PerInstruction = scaling.PerInstruction
		}
		if busy := m.Busy(); busy != "" {
			fmt.Fprintf(o.stderr, "perfrun: predict: %s\n", busy)
		}
		set, err := predict.Results(in, counts, m, "perfrun predict "+strings.Join(args, " "))
		if err != nil {
			return asUsage(err)
		}
		printPrediction(o, set, in, m)
		for _, why := range predict.Unpredicted(in, m) {
			fmt.Fprintf(o.stderr, "perfrun: predict: not predicted: %s\n", why)
		}
		if published != nil {
			if err := holdAgainst(o, set, published, pairs, *plotDir); err != nil {
				return err
			}
		}
		// Constants a busy machine inflated answer nothing: the table is
		// printed and written, and the exit says it is no answer.
		var inflated error
		if m.Inflated() {
			inflated = &exitError{exitInconclusive, fmt.Errorf("every constant was measured on a busy machine: the prediction is no answer (predict again with nothing else running, or with -constants reference)")}
		}
		if *out == "" {
			return inflated
		}
		var b bytes.Buffer
		if err := set.Write(&b); err != nil {
			return err
		}
		if err := writeFile(*out, b.Bytes()); err != nil {
			return err
		}
		return inflated
	}
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

// printPrediction prints the band of every predicted cell, one row a
// thread count, with what the input measured at that count beside it and
// whether it sits inside the band (the check the model must pass where
// the machine has the cores): whether the measured median's 95% interval
// (records.Interval) reaches it.
func printPrediction(o *streams, set, in *records.Set, m predict.Measured) {
	source := "measured here"
	if m.Source != "" {
		source = m.Source
	}
	ns := func(of func(predict.Constants) float64) string {
		return fmt.Sprintf("%.0f / %.0f / %.0f ns", 1e9*of(m.Low), 1e9*of(m.Mid), 1e9*of(m.High))
	}
	fmt.Fprintf(o.stdout, "predicted, not measured: one core a thread; hand-off %s to a waiter that sleeps, %s to one that spins (Go's locks), cache-line transfer %s (low / mid / high, %s)\n\n",
		ns(func(k predict.Constants) float64 { return k.Handoff }), ns(predict.Constants.SpinHandoff), ns(func(k predict.Constants) float64 { return k.Transfer }), source)
	if d := predict.Delivery(in); d != 1 {
		fmt.Fprintf(o.stdout, "the run's control cell took %.3f× its 1-thread time per call at two threads (the machine, not a store): the band's edges from two threads carry it\n\n", d)
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cell\tthreads\tns/call\tlow\thigh\tper(n)/per(1)\tmeasured\t")
	inside, measured := 0, 0
	for _, c := range set.Cells() {
		v := func(unit string) float64 { return 1e9 * records.Median(c.Values[records.Tidy(unit)]) }
		mid, low, high := v(records.NsPerCall), v(predict.Low), v(predict.High)
		// per(1) is the cell's own 1-thread prediction where one was
		// asked for (the ratio of two predictions, as the main job's), else
		// its measured 1-thread time: never another design's.
		first := math.NaN()
		one, ok := set.Cell(records.AtThreads(c.Name, 1))
		if !ok {
			one, ok = in.Cell(records.AtThreads(c.Name, 1))
		}
		if ok {
			first = 1e9 * records.Median(one.Values[records.Tidy(records.NsPerCall)])
		}
		seen := ""
		if mc, ok := in.Cell(c.Name); ok && len(mc.Values[records.Tidy(records.NsPerCall)]) > 0 {
			// A measurement is its median's 95% interval, not a point: it
			// sits inside when that interval reaches the band (a design with
			// nothing shared has a band of one value, and rounds jitter).
			vals := mc.Values[records.Tidy(records.NsPerCall)]
			lo, hi := records.Interval(vals)
			got, lo, hi := 1e9*records.Median(vals), 1e9*lo, 1e9*hi
			measured++
			if hi >= low*(1-1e-9) && lo <= high*(1+1e-9) {
				inside++
				seen = fmt.Sprintf("%.1f inside", got)
			} else {
				seen = fmt.Sprintf("%.1f [%.1f, %.1f] OUTSIDE", got, lo, hi)
			}
		}
		name := strings.TrimSuffix(c.Name, fmt.Sprintf("/threads=%d", c.Threads))
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.2f\t%s\t\n", name, c.Threads, mid, low, high, mid/first, seen)
	}
	tw.Flush()
	if measured > 0 {
		fmt.Fprintf(o.stdout, "\nmeasured points inside the predicted band: %d of %d\n", inside, measured)
	}
	printCauses(o, set, in, m)
	printWide(o, set, in, m)
}

// printCauses says in words, for each design, what makes its call at the
// most threads predicted take its time (predict.Cause).
func printCauses(o *streams, set, in *records.Set, m predict.Measured) {
	most := 0
	for _, c := range set.Cells() {
		most = max(most, c.Threads)
	}
	inputs, cells, err := predict.Inputs(in, m)
	if err != nil || most < 2 {
		return
	}
	fmt.Fprintf(o.stdout, "\nwhy, at %d threads (the middle constants):\n", most)
	for i, c := range inputs {
		if cause, err := predict.Cause(cells[i], m.For(c, cells[i]).Mid, most); err == nil {
			fmt.Fprintf(o.stdout, "  %s: %s\n", strings.TrimSuffix(c.Name, "/threads=1"), cause)
		}
	}
}

// printWide says, for each cell whose band at the most threads predicted
// is more than twice as high as low, which input makes it so: a wide band
// rests on what the machine's constants do not pin down, and says which.
func printWide(o *streams, set, in *records.Set, m predict.Measured) {
	most := 0
	for _, c := range set.Cells() {
		most = max(most, c.Threads)
	}
	first := true
	inputs, cells, err := predict.Inputs(in, m)
	if err != nil {
		return
	}
	for i, c := range inputs {
		why, wide := predict.WhyWide(cells[i], m.For(c, cells[i]), most)
		if why == "" {
			continue
		}
		if first {
			fmt.Fprintln(o.stdout)
			first = false
		}
		fmt.Fprintf(o.stdout, "%s: the band at %d threads is %.1f× as high as low, widest for %s\n",
			strings.TrimSuffix(c.Name, "/threads=1"), most, wide, why)
	}
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

// printHeld prints each predicted cell's scaling beside the published
// one it stands for, and their ratio.
func printHeld(o *streams, held []predict.Held, file string) {
	fmt.Fprintf(o.stdout, "\nheld against %s: per(n)/per(1), predicted (middle, band) beside published\n\n", file)
	tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "predicted\tpublished\tthreads\tpredicted\tlow\thigh\tpublished\tpredicted÷published\t")
	var missed []string
	for _, h := range held {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", h.Cell, h.Published, h.Threads, h.Predicted, h.Low, h.High, h.Table, h.Ratio())
		if r := h.Ratio(); (r > published.Beside || r < 1/published.Beside) && !slices.Contains(missed, h.Cell) {
			missed = append(missed, h.Cell)
		}
	}
	tw.Flush()
	// A miss is named where it is read, with what the model lacks where
	// the design is a built-in one that stands for the table.
	for _, cell := range missed {
		why := "no reason is known: the design is not one that stands for a published store"
		if s, ok := published.StandsFor[records.NameKey(cell, "impl")]; ok {
			why = s.Gap
		}
		fmt.Fprintf(o.stdout, "%s misses its table by more than ±%.0f%%: %s\n", cell, 100*(published.Beside-1), why)
	}
}

// holdAgainst prints the prediction's scaling beside the published
// table's and, if plotDir is set, draws both there.
func holdAgainst(o *streams, set, published *records.Set, pairs map[string]string, plotDir string) error {
	held, err := predict.Against(set, published, pairs)
	if err != nil {
		return asUsage(err)
	}
	printHeld(o, held, published.File)
	if plotDir == "" {
		return nil
	}
	pl, err := report.HeldPlot(held, "held-against")
	if err != nil {
		return err
	}
	files, err := report.SavePlots(plotDir, []*report.Plot{pl}, writeOwned)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	fmt.Fprintf(o.stderr, "perfrun: predict: wrote %s\n", strings.Join(files, ", "))
	return nil
}
