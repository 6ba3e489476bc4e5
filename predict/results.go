package predict

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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
// with -instructions -locks), or every sample of its time was set aside.
func CellOf(c *records.Cell) (Cell, bool) {
	out, ok := CountsOf(c)
	return out, ok && out.PerCall > 0
}

// CountsOf is CellOf for constants that give a time per instruction
// (Measured.PerInstruction): a cell's counts alone, its time per call zero
// where the machine set every sample aside. The counts are exact, so the
// records set aside give them where no record was kept.
func CountsOf(c *records.Cell) (Cell, bool) {
	med := func(unit string) (float64, bool) {
		v := c.Values[records.Tidy(unit)]
		if len(v) == 0 {
			v = c.AsideValues[records.Tidy(unit)]
		}
		if len(v) == 0 {
			return 0, false
		}
		return records.Median(v), true
	}
	out := Cell{Name: c.Name}
	if v := c.Values[records.Tidy(records.NsPerCall)]; len(v) > 0 {
		out.PerCall = records.Median(v)
		out.PerCallLo, out.PerCallHi = records.Interval(v)
	}
	var counted bool
	out.Instructions, counted = med(records.Instructions)
	values, given := make([]float64, len(ProfileUnits)), make([]bool, len(ProfileUnits))
	for i, u := range ProfileUnits {
		values[i], given[i] = med(u.Unit)
		counted = counted && (given[i] || !u.Model)
	}
	SetProfile(&out, values, given)
	return out, c.Threads == 1 && counted
}

// cellFor reads c as m predicts it: with its time, or, where m gives a
// time per instruction, with its counts alone.
func (m Measured) cellFor(c *records.Cell) (Cell, bool) {
	if m.PerInstruction != nil {
		return CountsOf(c)
	}
	return CellOf(c)
}

// For are the constants c is predicted with: m's, and where every sample
// of c's time was set aside or m predicts from counts (FromCounts), m's
// with its time per instruction (PerInstruction), so c's instructions
// stand for its time at one thread.
func (m Measured) For(c *records.Cell, cell Cell) Measured {
	if cell.PerCall > 0 && !m.FromCounts || m.PerInstruction == nil {
		return m
	}
	r := m.PerInstruction(c)
	m.Low.Instruction, m.Mid.Instruction, m.High.Instruction = r[0], r[1], r[2]
	return m
}

// Unpredicted are the 1-thread store cells of in that m cannot predict,
// each with why: what a reader of a prediction would otherwise take for
// designs the run left out.
func Unpredicted(in *records.Set, m Measured) []string {
	var out []string
	for _, c := range in.Cells() {
		if c.Threads != 1 || c.IsReference() {
			continue
		}
		if _, ok := m.cellFor(c); ok {
			continue
		}
		why := "no instructions/op or lock profile (run it with -instructions -locks)"
		if _, ok := CountsOf(c); ok {
			why = "no time per call kept (every sample set aside, or none measured)"
		}
		out = append(out, c.Name+": "+why)
	}
	return out
}

// Inputs are the 1-thread cells of in a prediction with m starts from,
// with what the model reads of each (a cell whose time was set aside is
// one where m gives a time per instruction): refused where one is a prediction itself or a
// profile no operation can have (Check) or a value the reader skipped as
// not finite, or where none has a lock profile. What Results predicts from, checked before anything is
// measured.
func Inputs(in *records.Set, m Measured) ([]*records.Cell, []Cell, error) {
	for _, w := range in.Warnings {
		var nf *records.NonFinite
		if errors.As(w, &nf) {
			return nil, nil, fmt.Errorf("%v: a value no run measures or counts; predict from the file a run wrote", nf)
		}
	}
	var cs []*records.Cell
	var cells []Cell
	for _, c := range in.Cells() {
		cell, ok := m.cellFor(c)
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
	cs, cells, err := Inputs(in, m)
	if err != nil {
		return nil, err
	}
	d := Delivery(in)
	if m.FromCounts {
		d = 1 // a function of the counts alone: not this run's machine
	}
	untimed := untimedText(cs, cells, m)
	for i, c := range cs {
		band, err := m.band(c, cells[i], threads, d)
		if err != nil {
			return nil, err
		}
		for i, t := range threads {
			r := c.First.Clone()
			r.Name = benchfmt.Name(records.AtThreads(c.Name, t))
			r.Iters = 1
			machine := "predicted from " + records.MachineOf(c.First)
			r.Config = slices.DeleteFunc(slices.Clone(r.Config), func(c benchfmt.Config) bool { return c.Key == "command" || c.Key == "machine" })
			// A prediction is no window the machine disturbed, whatever
			// the record it starts from was.
			for j := range r.Config {
				if r.Config[j].Key == records.QuarantineKey {
					r.Config[j].Value = []byte(records.QuarantineKept)
				}
			}
			r.Config = append(r.Config,
				benchfmt.Config{Key: "command", Value: []byte(command), File: true},
				// A machine of its own: plotted beside the measurements,
				// a prediction draws lines of its own, dashed.
				benchfmt.Config{Key: "machine", Value: []byte(machine), File: true},
				benchfmt.Config{Key: "predicted", Value: []byte("yes"), File: true},
				benchfmt.Config{Key: "predict-handoff-ns", Value: []byte(constantsText(m, func(k Constants) float64 { return k.Handoff })), File: true},
				benchfmt.Config{Key: "predict-spin-handoff-ns", Value: []byte(constantsText(m, Constants.SpinHandoff)), File: true},
				benchfmt.Config{Key: "predict-transfer-ns", Value: []byte(constantsText(m, func(k Constants) float64 { return k.Transfer })), File: true},
				benchfmt.Config{Key: "predict-disturbed", Value: []byte(fmt.Sprintf("%d of %d windows (a thread that spins throughout waited for a CPU more than %.0f%% of one)", m.Disturbed, m.Windows, 100*MaxWait)), File: true},
				benchfmt.Config{Key: "predict-parallel", Value: []byte(fmt.Sprintf("%.2f (two threads of independent work over one, the lowest of the windows)", m.Parallel)), File: true},
				benchfmt.Config{Key: "predict-delivery", Value: []byte(fmt.Sprintf("%.3f (the run's control cell, time per call at two threads over one: the band's edges from two threads carry it)", d)), File: true})
			if m.Within != nil {
				r.Config = append(r.Config, benchfmt.Config{Key: "predict-within", Value: []byte(fmt.Sprintf("1 to %d threads with the constants of %s", m.WithinUpTo(), m.Within.Source)), File: true})
			}
			if untimed != "" {
				// One value for every record: benchstat makes a table
				// per configuration, and a prediction is one table.
				r.Config = append(r.Config, benchfmt.Config{Key: "predict-untimed", Value: []byte(untimed), File: true})
			}
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

// band is c's (cell's) prediction at threads with m, its edges carrying
// the 1-thread time's interval and the machine's delivery d; at counts up
// to m.WithinUpTo() with m.Within where m has it.
func (m Measured) band(c *records.Cell, cell Cell, threads []int, d float64) (Band, error) {
	k := m.For(c, cell)
	band, err := Predict(cell, k.Low, k.Mid, k.High, threads)
	if err != nil {
		return Band{}, err
	}
	// The band's edges also carry the uncertainty of the 1-thread time
	// the model starts from: its median's 95% interval.
	lo, hi := cell, cell
	lo.PerCall, hi.PerCall = cell.PerCallLo, cell.PerCallHi
	if band.Low, err = perCall(lo, k.Low, threads); err != nil {
		return Band{}, err
	}
	if band.High, err = perCall(hi, k.High, threads); err != nil {
		return Band{}, err
	}
	widen(band, d)
	if m.Within == nil || !cell.KnowsItsLocks() {
		// A profile from before the kinds of lock stays with m: the
		// runner's sleeping hand-off would read every lock of it as one
		// whose waiters sleep.
		return band, nil
	}
	var within []int
	for _, n := range threads {
		if n <= m.WithinUpTo() {
			within = append(within, n)
		}
	}
	if len(within) == 0 {
		return band, nil
	}
	w := *m.Within
	w.Within = nil
	inner, err := w.band(c, cell, within, d)
	if err != nil {
		return Band{}, err
	}
	for j, n := range within {
		i := slices.Index(threads, n)
		band.Low[i], band.Mid[i], band.High[i] = inner.Low[j], inner.Mid[j], inner.High[j]
	}
	return band, nil
}

// untimedText names the cells m predicts from their instructions, with
// the time an instruction took: "" where m read every cell's time.
func untimedText(cs []*records.Cell, cells []Cell, m Measured) string {
	var names []string
	for i, c := range cs {
		if k := m.For(c, cells[i]); k.Mid.Instruction > 0 {
			names = append(names, fmt.Sprintf("%s at %.3f %.3f %.3f ns", c.Name, 1e9*k.Low.Instruction, 1e9*k.Mid.Instruction, 1e9*k.High.Instruction))
		}
	}
	if len(names) == 0 {
		return ""
	}
	why := "every 1-thread sample set aside"
	if m.FromCounts || m.Mid.Instruction > 0 {
		why = "from the counts alone"
	}
	return why + ": predicted from instructions/op at a time per instruction (low, mid, high): " + strings.Join(names, "; ")
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
