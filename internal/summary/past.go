package summary

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/internal/hostconstants"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
)

// WritePast prints, per design, what its 1-thread counts predict at n
// threads, one core a thread, beside what the run measured at 1 and 2
// threads, and in words what makes it so: the question the runner's cores
// cannot answer, with the model's band (perfrun predict; docs/predict.md).
// It prints nothing where the prediction cannot be made, and says why.
func WritePast(w io.Writer, set *records.Set, n int) error {
	m, note := FromCounts(set)
	rows, _, err := past(set, n, m)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\npast the cores: what each design's counts predict at %d threads, one core a thread: its lock profile, and its instructions at %s, with the reference constants (a server's); at 1 and 2 threads with this runner's own, beside what it measured (docs/predict.md)\n\n", n, ratesText(rows))
	if note != "" {
		fmt.Fprintf(w, "note: %s\n\n", note)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "cell\t1 thread: measured\tpredicted\t2 threads: measured\tpredicted\t%d threads, predicted\tband\tper(%d)/per(1)\t\n", n, n)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s – %s\t%.2f\t\n", r.Name, r.One, held(r.onePredicted, r.oneMeasured), r.Two, held(r.twoPredicted, r.twoMeasured),
			PerCall(r.At), PerCall(r.Low), PerCall(r.High), r.Ratio)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n(×: predicted over measured; per(%d)/per(1): the %d-thread prediction over the 1-thread one)\n", n, n)
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "%s: %s\n", r.Name, r.Cause)
		if r.unseen >= predict.UnseenMatters {
			fmt.Fprintf(w, "  blind spot: %.3g atomics a call in locks the profile cannot see (the runtime's, internal/sync's, a C library's): their waits are not predicted\n", r.unseen)
		}
		if r.Published != "" {
			fmt.Fprintf(w, "  beside it: %s\n", r.Published)
		}
	}
	for _, why := range predict.Unpredicted(set, m) {
		fmt.Fprintf(w, "not predicted: %s\n", why)
	}
	return nil
}

// A PastRow is one design past the cores: measured at 1 and 2 threads
// (as text: a cell may be set aside; and the medians, 0 where none was
// kept) and predicted there with the runner's constants, predicted at n
// with its band and its ratio to its own 1-thread prediction, and the
// cause in words.
type PastRow struct {
	Name, One, Two             string
	oneMeasured, twoMeasured   float64
	onePredicted, twoPredicted float64
	At, Low, High, Ratio       float64
	Cause, Published           string
	// unseen are the atomics a call of locks the profile cannot see.
	unseen float64
	// perInstruction is the reference time an instruction of its call
	// takes: its instructions at it are its time at one thread.
	perInstruction float64
}

// ratesText says the times per instruction rows were predicted at:
// "0.174 ns an instruction".
func ratesText(rows []PastRow) string {
	var rates []string
	for _, r := range rows {
		if t := fmt.Sprintf("%.3f ns", 1e9*r.perInstruction); !slices.Contains(rates, t) {
			rates = append(rates, t)
		}
	}
	return strings.Join(rates, " or ") + " an instruction"
}

// FromCounts are the constants the main job predicts set's designs with:
// the reference set, each design's time at one thread its instructions at
// the reference time per instruction; within the cores of the machine
// that made set (its cores line, where it has one), the runner's own
// (predict.Runner), which the run measured beside, or that machine's
// own where it keeps them (hostconstants). The note says whose constants
// those within the cores are where they are not the runner's host's, or
// a kept record could not be used; "" where set names no one processor.
// The record is read once, so the note and the constants agree.
func FromCounts(set *records.Set) (predict.Measured, string) {
	m := predict.Reference
	m.FromCounts = true
	cores := set.ConfigValues("cores")
	if len(cores) != 1 {
		return m, ""
	}
	n, err := strconv.Atoi(cores[0])
	if err != nil || n <= 0 {
		return m, ""
	}
	within, note := predict.Runner, ""
	if cpu := set.ConfigValues("cpu"); len(cpu) == 1 {
		k, r, said := hostconstants.For(cpu[0], n)
		if r != nil {
			within = k
		}
		note = said
	}
	within.FromCounts = true
	m.Within, m.Cores = &within, n
	return m, note
}

// Past predicts set's designs at 1 to n threads, one core a
// thread, from their counts alone: each design's instructions at the
// reference time per instruction of its cost stand for its time at one
// thread, and the reference constants for this machine's of the moment.
// The prediction is then the same whatever else the machine runs, and a
// design whose every 1-thread sample a Busy runner set aside is predicted
// too. It gives a row a design at n, and the predicted set.
func Past(set *records.Set, n int) ([]PastRow, *records.Set, error) {
	m, _ := FromCounts(set)
	return past(set, n, m)
}

// past is Past with the constants m.
func past(set *records.Set, n int, m predict.Measured) ([]PastRow, *records.Set, error) {
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
		return PerCall(records.Median(v)), records.Median(v)
	}
	tables, err := published.PR28599()
	if err != nil {
		return nil, nil, err
	}
	var rows []PastRow
	for i, in := range inputs {
		c, ok := pred.Cell(records.AtThreads(in.Name, n))
		one, ok1 := pred.Cell(records.AtThreads(in.Name, 1))
		if !ok || !ok1 {
			continue
		}
		at := func(c *records.Cell, unit string) float64 { return records.Median(c.Values[records.Tidy(unit)]) }
		k := m.For(in, cells[i])
		cause, err := predict.CauseOf(cells[i], k.Mid, n)
		if err != nil {
			return nil, nil, err
		}
		twoPredicted := 0.0
		if two, ok := pred.Cell(records.AtThreads(in.Name, 2)); ok {
			twoPredicted = at(two, records.NsPerCall)
		}
		oneText, oneMeasured := measured(in.Name, 1)
		twoText, twoMeasured := measured(in.Name, 2)
		atN, atOne := at(c, records.NsPerCall), at(one, records.NsPerCall)
		rows = append(rows, PastRow{
			Name: strings.TrimSuffix(in.Name, "/threads=1"), One: oneText, Two: twoText,
			oneMeasured: oneMeasured, twoMeasured: twoMeasured, onePredicted: atOne, twoPredicted: twoPredicted,
			At: atN, Low: at(c, predict.Low), High: at(c, predict.High),
			Ratio: atN / atOne, Cause: cause,
			Published:      publishedBeside(tables, in, n, atN/atOne),
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
		return PerCall(predicted)
	}
	return fmt.Sprintf("%s (×%.2f)", PerCall(predicted), predicted/measured)
}

// PerCall is a time per call in seconds as ns or µs.
func PerCall(sec float64) string {
	if sec >= 1e-5 {
		return fmt.Sprintf("%.1f µs", 1e6*sec)
	}
	return fmt.Sprintf("%.0f ns", 1e9*sec)
}
