package predict

import (
	"errors"
	"fmt"
	"slices"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// The units of a prediction: the time per call of the band's middle and
// edges, and the throughput of its middle.
const (
	Low  = "low-ns/call"
	High = "high-ns/call"
)

// CellOf reads what the model needs of a 1-thread cell of a results file:
// false if the cell lacks its instruction count or lock profile (run it
// with -instructions -locks).
func CellOf(c *records.Cell) (Cell, bool) {
	med := func(unit string) (float64, bool) {
		v := c.Values[records.Tidy(unit)]
		if len(v) == 0 {
			return 0, false
		}
		return records.Median(v), true
	}
	out := Cell{Name: c.Name}
	var ok [5]bool
	out.PerCall, ok[0] = med(records.NsPerCall)
	if ok[0] {
		out.PerCallLo, out.PerCallHi = records.Interval(c.Values[records.Tidy(records.NsPerCall)])
	}
	out.Instructions, ok[1] = med(records.Instructions)
	out.ExclusiveLocks, ok[2] = med(records.ExclusiveLocks)
	out.LockedInstructions, ok[3] = med(records.LockedInstructions)
	out.Atomics, ok[4] = med(records.Atomics)
	out.BusiestLocks, _ = med(records.BusiestLocks)
	out.BusiestLocked, _ = med(records.BusiestLockedInstructions)
	out.HottestLine, _ = med(records.HottestLineTransfers)
	out.OtherLines, _ = med(records.OtherLines)
	out.OtherLineTransfers, _ = med(records.OtherLineTransfers)
	return out, c.Threads == 1 && ok == [5]bool{true, true, true, true, true}
}

// Unpredicted are the 1-thread store cells of in that CellOf cannot read,
// each with why: what a reader of a prediction would otherwise take for
// designs the run left out.
func Unpredicted(in *records.Set) []string {
	var out []string
	for _, c := range in.Cells() {
		if c.Threads != 1 || c.IsReference() {
			continue
		}
		if _, ok := CellOf(c); ok {
			continue
		}
		why := "no instructions/op or lock profile (run it with -instructions -locks)"
		if len(c.Values[records.Tidy(records.NsPerCall)]) == 0 {
			why = "no time per call kept (every sample set aside, or none measured)"
		}
		out = append(out, c.Name+": "+why)
	}
	return out
}

// Inputs are the 1-thread cells of in a prediction starts from, with what
// the model reads of each: refused where one is a prediction itself or a
// profile no operation can have (Check) or a value the reader skipped as
// not finite, or where none has a lock profile. What Results predicts from, checked before anything is
// measured.
func Inputs(in *records.Set) ([]*records.Cell, []Cell, error) {
	for _, w := range in.Warnings {
		var nf *records.NonFinite
		if errors.As(w, &nf) {
			return nil, nil, fmt.Errorf("%v: a value no run measures or counts; predict from the file a run wrote", nf)
		}
	}
	var cs []*records.Cell
	var cells []Cell
	for _, c := range in.Cells() {
		cell, ok := CellOf(c)
		if !ok {
			continue
		}
		if c.First != nil && records.ConfigOf(c.First, "predicted") != "" {
			return nil, nil, fmt.Errorf("%s: %s is a prediction, not a measurement: predict from the results a run measured", in.File, c.Name)
		}
		if err := Check(cell); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", in.File, err)
		}
		cs, cells = append(cs, c), append(cells, cell)
	}
	if len(cs) == 0 {
		return nil, nil, fmt.Errorf("%s: no 1-thread cell has instructions/op and a lock profile: run it with -threads 1 -instructions -locks", in.File)
	}
	return cs, cells, nil
}

// Results predicts every 1-thread cell of in that has a lock profile at
// each of threads and returns the prediction as a results file, its
// configuration in's with predicted: yes, the constants and command (the
// command line that predicted), one record per cell and thread count.
func Results(in *records.Set, threads []int, m Measured, command string) (*records.Set, error) {
	out := records.New("predicted", "")
	units := []string{records.NsPerCall, Low, High, records.OpsPerSec}
	for _, u := range units {
		for _, md := range records.Metadata([]string{u}) {
			out.AddUnit(md)
		}
	}
	cs, cells, err := Inputs(in)
	if err != nil {
		return nil, err
	}
	d := Delivery(in)
	for i, c := range cs {
		cell := cells[i]
		band, err := Predict(cell, m.Low, m.Mid, m.High, threads)
		if err != nil {
			return nil, err
		}
		// The band's edges also carry the uncertainty of the 1-thread time
		// the model starts from: its median's 95% interval.
		lo, hi := cell, cell
		lo.PerCall, hi.PerCall = cell.PerCallLo, cell.PerCallHi
		if band.Low, err = perCall(lo, m.Low, threads); err != nil {
			return nil, err
		}
		if band.High, err = perCall(hi, m.High, threads); err != nil {
			return nil, err
		}
		widen(band, d)
		for i, t := range threads {
			r := c.First.Clone()
			r.Name = benchfmt.Name(records.AtThreads(c.Name, t))
			r.Iters = 1
			machine := "predicted from " + records.MachineOf(c.First)
			r.Config = slices.DeleteFunc(slices.Clone(r.Config), func(c benchfmt.Config) bool { return c.Key == "command" || c.Key == "machine" })
			r.Config = append(r.Config,
				benchfmt.Config{Key: "command", Value: []byte(command), File: true},
				// A machine of its own: plotted beside the measurements,
				// a prediction draws lines of its own, dashed.
				benchfmt.Config{Key: "machine", Value: []byte(machine), File: true},
				benchfmt.Config{Key: "predicted", Value: []byte("yes"), File: true},
				benchfmt.Config{Key: "predict-handoff-ns", Value: []byte(constantsText(m, func(k Constants) float64 { return k.Handoff })), File: true},
				benchfmt.Config{Key: "predict-transfer-ns", Value: []byte(constantsText(m, func(k Constants) float64 { return k.Transfer })), File: true},
				benchfmt.Config{Key: "predict-disturbed", Value: []byte(fmt.Sprintf("%d of %d windows (a thread that spins throughout waited for a CPU more than %.0f%% of one)", m.Disturbed, m.Windows, 100*MaxWait)), File: true},
				benchfmt.Config{Key: "predict-parallel", Value: []byte(fmt.Sprintf("%.2f (two threads of independent work over one, the lowest of the windows)", m.Parallel)), File: true},
				benchfmt.Config{Key: "predict-delivery", Value: []byte(fmt.Sprintf("%.3f (the run's control cell, time per call at two threads over one: the band's edges from two threads carry it)", d)), File: true})
			mid := band.Mid[i]
			r.Values = []benchfmt.Value{
				records.Value(1e9*mid, records.NsPerCall),
				records.Value(1e9*min(band.Low[i], mid), Low),
				records.Value(1e9*max(band.High[i], mid), High),
				records.Value(float64(t)/mid, records.OpsPerSec),
			}
			out.Add(r)
		}
	}
	return out, nil
}

// constantsText is a constant's low, middle and high in nanoseconds.
func constantsText(m Measured, of func(Constants) float64) string {
	if m.Source != "" {
		return fmt.Sprintf("%.0f %.0f %.0f (low, mid, high: %s)", 1e9*of(m.Low), 1e9*of(m.Mid), 1e9*of(m.High), m.Source)
	}
	kept := m.Windows - m.Disturbed
	if kept == 0 { // every window disturbed: all were kept (Measure)
		kept = m.Windows
	}
	return fmt.Sprintf("%.0f %.0f %.0f (low, mid, high over %d windows)", 1e9*of(m.Low), 1e9*of(m.Mid), 1e9*of(m.High), kept)
}

// Delivery is the time per call the machine gave each of two threads of
// independent work against one thread's, in the run that measured in: the
// control cell's, 2/p(2) (records.Parallelism). Above 1 the second core
// was partly elsewhere; below 1 one thread ran slower than two (a host
// that slows a lone vCPU). 1 where in has no control cell at two threads.
func Delivery(in *records.Set) float64 {
	p := in.Parallelism()[2]
	if !(p > 0) {
		return 1
	}
	return 2 / p
}

// widen carries the machine's delivery into the band from two threads
// on: a measurement there is the model's time as this machine delivered
// it, so a low edge stays below what a faster second core gives and a high
// edge above what a slower one does. The middle is the model's alone.
func widen(b Band, d float64) {
	for i, n := range b.Threads {
		if n >= 2 {
			b.Low[i] *= min(1, d)
			b.High[i] *= max(1, d)
		}
	}
}
