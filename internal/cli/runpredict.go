package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/scaling"
)

// countForPrediction counts, for -predict, what -instructions and -locks
// did not already: a count that cannot be taken costs the prediction, not
// the run, and says why.
func (f *runFlags) countForPrediction(ctx context.Context, o *streams, res *harness.Outcome) {
	args := cellOpsArgs(f.corpus, f.strict, f.seed)
	var err error
	if !f.instructions {
		// A prediction needs one count a cell: five are a gate's sample.
		err = countInstructions(ctx, res, 1, args, o.stderr, f.quiet)
	}
	if err == nil && !f.locks && ctx.Err() == nil {
		err = countLocks(ctx, res, args, o.stderr, f.quiet)
	}
	if err != nil {
		f.noPrediction = err.Error()
	}
}

// pastTheCores prints, per design, what its 1-thread lock profile
// predicts at f.predict threads, one core a thread, beside what the run
// measured at 1 and 2 threads, and in words what makes it so: the
// question the runner's cores cannot answer, with the model's band
// (perfrun predict; docs/predict.md).
func (f *runFlags) pastTheCores(o *streams, set *records.Set) {
	n := f.predict
	if f.noPrediction != "" {
		fmt.Fprintf(o.stderr, "perfrun: run: no prediction at %d threads: a count failed: %s\n", n, f.noPrediction)
		return
	}
	rows, _, err := pastTheCoresRows(set, n)
	if err != nil {
		fmt.Fprintf(o.stderr, "perfrun: run: no prediction at %d threads: %v\n", n, err)
		return
	}
	fmt.Fprintf(o.stdout, "\npast the cores: what each design's counts predict at %d threads, one core a thread: its lock profile, and its instructions at %s, with the reference constants (a server's); at 1 and 2 threads with this runner's own, beside what it measured (docs/predict.md)\n\n", n, ratesText(rows))
	tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "cell\t1 thread: measured\tpredicted\t2 threads: measured\tpredicted\t%d threads, predicted\tband\tper(%d)/per(1)\t\n", n, n)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s – %s\t%.2f\t\n", r.name, r.one, held(r.onePredicted, r.oneMeasured), r.two, held(r.twoPredicted, r.twoMeasured),
			perCallText(r.at), perCallText(r.low), perCallText(r.high), r.ratio)
	}
	tw.Flush()
	fmt.Fprintf(o.stdout, "\n(×: predicted over measured; per(%d)/per(1): the %d-thread prediction over the 1-thread one)\n", n, n)
	fmt.Fprintln(o.stdout)
	for _, r := range rows {
		fmt.Fprintf(o.stdout, "%s: %s\n", r.name, r.cause)
		if r.unseen >= scaling.UnseenMatters {
			fmt.Fprintf(o.stdout, "  blind spot: %.3g atomics a call in locks the profile cannot see (the runtime's, internal/sync's, a C library's): their waits are not predicted\n", r.unseen)
		}
		if r.published != "" {
			fmt.Fprintf(o.stdout, "  beside it: %s\n", r.published)
		}
	}
	for _, why := range predict.Unpredicted(set, fromCounts(set)) {
		fmt.Fprintf(o.stdout, "not predicted: %s\n", why)
	}
}

// A pastRow is one design past the cores: measured at 1 and 2 threads
// (as text: a cell may be set aside; and the medians, 0 where none was
// kept) and predicted there with the runner's constants, predicted at n
// with its band and its ratio to its own 1-thread prediction, and the
// cause in words.
type pastRow struct {
	name, one, two             string
	oneMeasured, twoMeasured   float64
	onePredicted, twoPredicted float64
	at, low, high, ratio       float64
	cause, published           string
	// unseen are the atomics a call of locks the profile cannot see.
	unseen float64
	// perInstruction is the reference time an instruction of its call
	// takes: its instructions at it are its time at one thread.
	perInstruction float64
}

// ratesText says the times per instruction rows were predicted at:
// "0.174 ns an instruction".
func ratesText(rows []pastRow) string {
	var rates []string
	for _, r := range rows {
		if t := fmt.Sprintf("%.3f ns", 1e9*r.perInstruction); !slices.Contains(rates, t) {
			rates = append(rates, t)
		}
	}
	return strings.Join(rates, " or ") + " an instruction"
}

// fromCounts are the constants the main job predicts set's designs with:
// the reference set, each design's time at one thread its instructions at
// the reference time per instruction; within the cores of the machine
// that made set (its cores line, where it has one), the runner's own
// (scaling.Runner), which the run measured beside.
func fromCounts(set *records.Set) predict.Measured {
	m := scaling.Reference
	m.FromCounts = true
	if cores := set.ConfigValues("cores"); len(cores) == 1 {
		if n, err := strconv.Atoi(cores[0]); err == nil && n > 0 {
			within := scaling.Runner
			within.FromCounts = true
			m.Within, m.Cores = &within, n
		}
	}
	return m
}

// pastTheCoresRows predicts set's designs at 1 to n threads, one core a
// thread, from their counts alone: each design's instructions at the
// reference time per instruction of its cost stand for its time at one
// thread, and the reference constants for this machine's of the moment.
// The prediction is then the same whatever else the machine runs, and a
// design whose every 1-thread sample a busy runner set aside is predicted
// too. It gives a row a design at n, and the predicted set.
func pastTheCoresRows(set *records.Set, n int) ([]pastRow, *records.Set, error) {
	m := fromCounts(set)
	threads := make([]int, n)
	for i := range threads {
		threads[i] = i + 1
	}
	pred, err := predict.Results(set, threads, m, fmt.Sprintf("perfrun run -predict %d", n))
	if err != nil {
		return nil, nil, err
	}
	inputs, cells, err := predict.Inputs(set, m)
	if err != nil {
		return nil, nil, err
	}
	measured := func(name string, threads int) (string, float64) {
		c, ok := set.Cell(records.AtThreads(name, threads))
		if !ok {
			return "—", 0
		}
		v := c.Values[records.Tidy(records.NsPerCall)]
		if len(v) == 0 {
			return "— (set aside)", 0
		}
		return perCallText(records.Median(v)), records.Median(v)
	}
	tables, err := published.PR28599()
	if err != nil {
		return nil, nil, err
	}
	var rows []pastRow
	for i, in := range inputs {
		c, ok := pred.Cell(records.AtThreads(in.Name, n))
		one, ok1 := pred.Cell(records.AtThreads(in.Name, 1))
		if !ok || !ok1 {
			continue
		}
		at := func(c *records.Cell, unit string) float64 { return records.Median(c.Values[records.Tidy(unit)]) }
		k := m.For(in, cells[i])
		cause, err := predict.Cause(cells[i], k.Mid, n)
		if err != nil {
			return nil, nil, err
		}
		twoPredicted := 0.0
		if two, ok := pred.Cell(records.AtThreads(in.Name, 2)); ok {
			twoPredicted = at(two, records.NsPerCall)
		}
		oneText, oneMeasured := measured(in.Name, 1)
		twoText, twoMeasured := measured(in.Name, 2)
		rows = append(rows, pastRow{
			name: strings.TrimSuffix(in.Name, "/threads=1"), one: oneText, two: twoText,
			oneMeasured: oneMeasured, twoMeasured: twoMeasured, onePredicted: at(one, records.NsPerCall), twoPredicted: twoPredicted,
			at: at(c, records.NsPerCall), low: at(c, predict.Low), high: at(c, predict.High),
			ratio: at(c, records.NsPerCall) / at(one, records.NsPerCall), cause: cause,
			published:      publishedBeside(tables, in, n, at(c, records.NsPerCall)/at(one, records.NsPerCall)),
			perInstruction: k.Mid.Instruction, unseen: cells[i].Unseen,
		})
	}
	return rows, pred, nil
}

// publishedBeside is PR 28599's per(n)/per(1) for the store a built-in
// design stands for, beside the design's predicted one, in words, and,
// where the two are more than published.Beside apart, why; "" for a
// design that stands for none, a cell at cost=own (the store's structure
// and lock alone, never set beside a whole lookup's table), or a thread
// count the tables lack.
func publishedBeside(tables *records.Set, c *records.Cell, n int, predicted float64) string {
	s, ok := published.StandsFor[c.Impl]
	if !ok || records.NameKey(c.Name, "cost") == "" || records.NameKey(c.Name, "cost") == "own" {
		return ""
	}
	r, ok := published.Scaling(tables, s.Impl, n)
	if !ok {
		return ""
	}
	text := fmt.Sprintf("OpenSSL PR 28599 measured %s at %.2f× its 1-thread time at %d threads; predicted here %.2f×", s.Store, r, n, predicted)
	if off := predicted / r; off > published.Beside || off < 1/published.Beside {
		text += fmt.Sprintf("\n  the gap (%.2f× the table's): %s", off, s.Gap)
	}
	return text
}

// held is a prediction within the cores beside the measurement it is
// held to: "912 ns (×1.16)", the prediction alone where none was kept.
func held(predicted, measured float64) string {
	if !(measured > 0) {
		return perCallText(predicted)
	}
	return fmt.Sprintf("%s (×%.2f)", perCallText(predicted), predicted/measured)
}

// perCallText is a time per call in seconds as ns or µs.
func perCallText(sec float64) string {
	if sec >= 1e-5 {
		return fmt.Sprintf("%.1f µs", 1e6*sec)
	}
	return fmt.Sprintf("%.0f ns", 1e9*sec)
}

// mainJobPredicts is the thread count the main job predicts at: where PR
// 28599's tables show the designs about 6× apart.
const mainJobPredicts = 16

// defaultPredict sets -predict, where it was not given, for the main job:
// a run that chooses no implementation, workload, thread count, parameter,
// corpus, cell or command measures the default suite, and answers past the
// cores too; a run shaped by hand predicts when asked.
func (f *runFlags) defaultPredict(fs *flag.FlagSet) {
	// The prediction prints beside the tables: a run that prints another
	// format counts nothing for it.
	if !given(fs, append(shapingFlags, "predict")...) && f.format == "table" {
		f.predict = mainJobPredicts
	}
}
