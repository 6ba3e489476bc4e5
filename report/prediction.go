package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
)

// WritePrediction writes the band of every predicted cell, one row a
// thread count, with what the input measured at that count beside it and
// whether it sits inside the band (the check the model must pass where
// the machine has the cores): whether the measured median's 95% interval
// (records.Interval) reaches it.
func WritePrediction(w io.Writer, set, in *records.Set, m predict.Measured) {
	source := "measured here"
	if m.Source != "" {
		source = m.Source
	}
	ns := func(of func(predict.Constants) float64) string {
		return fmt.Sprintf("%.0f / %.0f / %.0f ns", 1e9*of(m.Low), 1e9*of(m.Mid), 1e9*of(m.High))
	}
	fmt.Fprintf(w, "predicted, not measured: one core a thread; hand-off %s to a waiter that sleeps, %s to one that spins (Go's locks), cache-line transfer %s (low / mid / high, %s)\n\n",
		ns(func(k predict.Constants) float64 { return k.Handoff }), ns(predict.Constants.SpinHandoff), ns(func(k predict.Constants) float64 { return k.Transfer }), source)
	most := 0
	for _, c := range set.Cells() {
		most = max(most, c.Threads)
	}
	if most > 1 {
		fmt.Fprintf(w, "%s\n\n", predict.HeldAt(most, in.Cores()))
	}
	if d := predict.Delivery(in); d != 1 {
		fmt.Fprintf(w, "the run's control cell took %.3f× its 1-thread time per call at two threads (the machine, not a store): the band's edges from two threads carry it\n\n", d)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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
		fmt.Fprintf(w, "\nmeasured points inside the predicted band: %d of %d\n", inside, measured)
	}
	if inputs, cells, err := predict.Inputs(in, m); err == nil {
		writeCauses(w, inputs, cells, m, most)
		writeWide(w, inputs, cells, m, most)
	}
}

// writeCauses says in words, for each design, what makes its call at the
// most threads predicted take its time (predict.Cause).
func writeCauses(w io.Writer, inputs []*records.Cell, cells []predict.Cell, m predict.Measured, most int) {
	if most < 2 {
		return
	}
	fmt.Fprintf(w, "\nwhy, at %d threads (the middle constants):\n", most)
	for i, c := range inputs {
		if cause, err := predict.CauseOf(cells[i], m.For(c, cells[i]).Mid, most); err == nil {
			fmt.Fprintf(w, "  %s: %s\n", strings.TrimSuffix(c.Name, "/threads=1"), cause)
		}
	}
}

// writeWide says, for each cell whose band at the most threads predicted
// is more than twice as high as low, which input makes it so: a wide band
// rests on what the machine's constants do not pin down, and says which.
func writeWide(w io.Writer, inputs []*records.Cell, cells []predict.Cell, m predict.Measured, most int) {
	first := true
	for i, c := range inputs {
		why, wide := predict.WhyWide(cells[i], m.For(c, cells[i]), most)
		if why == "" {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, "%s: the band at %d threads is %.1f× as high as low, widest for %s\n",
			strings.TrimSuffix(c.Name, "/threads=1"), most, wide, why)
	}
}

// WriteHeld writes each predicted cell's scaling beside the published
// one it stands for, and their ratio.
func WriteHeld(w io.Writer, held []predict.Held, file string) {
	fmt.Fprintf(w, "\nheld against %s: per(n)/per(1), predicted (middle, band) beside published\n\n", file)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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
		fmt.Fprintf(w, "%s misses its table by more than ±%.0f%%: %s\n", cell, 100*(published.Beside-1), why)
	}
}
