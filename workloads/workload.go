// Package workloads defines what perfrun asks the stores to do. A workload
// is a pure description: it sets up a filled store for one cell (never
// timed) and says what each worker does for n operations; the harness
// decides when, how long and on how many threads, and does all the timing.
//
// Every workload runs identically on every implementation and checks every
// answer: a wrong issuer, a lost object or a short snapshot is an error that
// names the implementation and the object, and it fails the run.
//
// Its place: above the store and the corpus, below the designs and the
// harness; it receives an implementation as a store.Impl, never the
// registry.
//
// Its promise: the workloads' names and parameters, and the cell names they
// give, change only with a note in docs/run.md; Workload, Env, Instance and
// Op keep their meaning. Other exported names serve perfrun's commands and
// may change between versions.
package workloads

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/corpus"
)

// Workload is one kind of work, with its parameters.
type Workload struct {
	Name        string // lower case, as on the command line
	Title       string // as in benchmark names: "Issuer" gives BenchmarkIssuer
	Description string
	Params      []Param
	// Setup prepares the workload for one cell. It may take long (filling a
	// store); it is never timed.
	Setup func(env Env) (*Instance, error)
	// Hidden workloads are not in the default suite, and list shows them
	// apart (the harness's own overhead check).
	Hidden bool
	// Floor, if set, measures the limit of this workload's operation on
	// the machine (no store); run measures it beside, at one thread, with
	// the same parameters.
	Floor *Workload
	// CountOps is how many operations an exact count of a cell runs
	// (instructions/op, a lock profile): fixed in advance, never sized by
	// a measured time, so a busy host counts the very operations a quiet
	// one does. A multiple of every period its instances have and of
	// callgrind's batch; 0 is one batch, for operations so long that a
	// batch of them is the count.
	CountOps int
}

// Param declares a workload parameter.
type Param struct {
	Name    string
	Default string
	Help    string
	Check   func(value string) error
	// Quiet leaves the parameter out of cell names at its default: a
	// parameter added after names were in use keeps them as they were.
	Quiet bool
}

// Env is what Setup gets: the implementation, the parameters, and access to
// the corpus.
type Env struct {
	Impl   store.Impl
	Params Params
	// Corpus returns the corpus for a cell that wants about cas CA
	// certificates. A generated corpus has exactly that many; a loaded one
	// is what it is.
	Corpus func(cas int) (*corpus.Corpus, error)
	// Seed makes per-worker rotations reproducible.
	Seed uint64
}

// Instance is a workload set up for one cell.
type Instance struct {
	// Worker returns what worker w (0-based) does; the harness calls it
	// once per worker per measurement, before the workers start.
	Worker func(w int) Op
	// Paced workers run beside the measured ones, one operation per
	// Interval, and are reported under their Role (the mixed writer).
	Paced []Paced
	// Unit, if set, names what one operation is made of, for a derived
	// metric: Unit "add" with PerOp N reports ns/add = ns/op / N.
	Unit  string
	PerOp float64
	// Extra metrics measured during setup, such as load's B/object.
	Extra []Metric
	// BatchTarget, if set, is how long the harness makes a batch of
	// operations (between two reads of its clock) instead of its 100 µs:
	// a store behind cgo takes a batch in few cgo calls, and Go takes the
	// P of a thread that stays in one cgo call past 20 µs and wakes
	// another thread, which on a small machine runs in the workers' time
	// (results/fidelity/x509storeissuer/). Its windows also run with one
	// spare P and a yield after every batch (harness: procsFor). A worker
	// then runs up to one batch past the window's end.
	BatchTarget time.Duration
	// Period, if set, is after how many operations a worker's sequence
	// repeats; exact counts (instructions/op) measure whole periods so every
	// leaf of a rotation counts equally.
	Period int
}

// Op performs n operations and reports the first wrong answer.
type Op func(n int) error

// Paced is a background worker with a fixed rate.
type Paced struct {
	Role     string
	Interval time.Duration
	Op       func() error
}

// Metric is a named value with a unit, in the Go benchmark format's sense.
type Metric struct {
	Value float64
	Unit  string
}

// Params are a cell's parameter values, in the workload's declared order.
type Params []KV

// KV is one parameter value.
type KV struct{ Key, Value string }

// Get returns the value of key, or "".
func (p Params) Get(key string) string {
	for _, kv := range p {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// Int returns key as an int; Resolve has already validated it.
func (p Params) Int(key string) int {
	n, _ := strconv.Atoi(p.Get(key))
	return n
}

// Float returns key as a float64.
func (p Params) Float(key string) float64 {
	f, _ := strconv.ParseFloat(p.Get(key), 64)
	return f
}

// Duration returns key as a duration.
func (p Params) Duration(key string) time.Duration {
	d, _ := time.ParseDuration(p.Get(key))
	return d
}

// String formats the parameters as in a benchmark name: k=v/k=v.
func (p Params) String() string {
	parts := make([]string, len(p))
	for i, kv := range p {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, "/")
}

// Resolve fills defaults for the workload's parameters from set (which may
// hold parameters of other workloads too) and validates each value.
func (w Workload) Resolve(set map[string]string) (Params, error) {
	var p Params
	for _, d := range w.Params {
		v, ok := set[d.Name]
		if !ok {
			v = d.Default
		}
		if err := d.Check(v); err != nil {
			return nil, fmt.Errorf("workload %s: parameter %s=%q: %w", w.Name, d.Name, v, err)
		}
		if d.Quiet && v == d.Default {
			continue
		}
		p = append(p, KV{d.Name, v})
	}
	return p, nil
}

// The value checks, one per kind of parameter.

// positiveInt accepts a whole number above zero.
func positiveInt(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n <= 0 {
		return fmt.Errorf("want a positive integer")
	}
	return nil
}

// allOrPositiveInt accepts "all" or a whole number above zero.
func allOrPositiveInt(v string) error {
	if v != "all" && positiveInt(v) != nil {
		return fmt.Errorf("want all or a positive integer")
	}
	return nil
}

// ParseNumber reads a decimal number that can be measured with: finite
// and not subnormal. NaN, an infinity, an overflow (1e999) and a value
// too small to hold its precision (5e-324) are refused — each either
// passes every range check by accident or divides into nonsense — and so
// are Go's other spellings (0x1p-20, 1_000), as whole numbers refuse 0x10.
func ParseNumber(v string) (float64, error) {
	v = strings.TrimSpace(v)
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("not a finite number")
	case err != nil || !decimal.MatchString(v):
		return 0, fmt.Errorf("not a number")
	case f != 0 && math.Abs(f) < 0x1p-1022:
		return 0, fmt.Errorf("too small to be a number (subnormal)")
	}
	return f, nil
}

// decimal is a number as a person writes it: digits, a point, an exponent.
var decimal = regexp.MustCompile(`^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$`)

// fraction accepts a number from 0 to 1.
func fraction(v string) error {
	if f, err := ParseNumber(v); err != nil || f < 0 || f > 1 {
		return fmt.Errorf("want a fraction between 0 and 1")
	}
	return nil
}

// maxRepeats bounds load's dup: a hundred more passes over the objects.
const maxRepeats = 100

// repeats accepts copies as a fraction of the objects, up to maxRepeats.
func repeats(v string) error {
	if f, err := ParseNumber(v); err != nil || f < 0 || f > maxRepeats {
		return fmt.Errorf("want a number of copies per object from 0 to %d", maxRepeats)
	}
	return nil
}

// Rates a paced worker can keep: one operation in 1000 s to one a
// microsecond. Beyond them the interval is not a pace: at 1e-12/s it
// overflows a duration, at 1e9/s the worker never sleeps.
const minRate, maxRate = 1e-3, 1e6

// rate accepts operations per second a paced worker can keep.
func rate(v string) error {
	if f, err := ParseNumber(v); err != nil || f < minRate || f > maxRate {
		return fmt.Errorf("want operations per second from %g to %g", minRate, maxRate)
	}
	return nil
}

func positiveDuration(v string) error {
	if d, err := time.ParseDuration(v); err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration such as 30s")
	}
	return nil
}

func oneOf(choices ...string) func(string) error {
	return func(v string) error {
		for _, c := range choices {
			if v == c {
				return nil
			}
		}
		return fmt.Errorf("want one of %s", strings.Join(choices, ", "))
	}
}

// All lists the workloads in presentation order.
var All = []Workload{Issuer, Mixed, Load, Objects, Reload, Empty}

// Lookup finds a workload by name.
func Lookup(name string) (Workload, error) {
	var names []string
	for _, w := range All {
		if w.Name == name {
			return w, nil
		}
		names = append(names, w.Name)
	}
	return Workload{}, fmt.Errorf("unknown workload %q (have %s)", name, strings.Join(names, ", "))
}

// Known reports whether some workload declares parameter name.
func Known(name string) bool {
	for _, w := range All {
		for _, p := range w.Params {
			if p.Name == name {
				return true
			}
		}
	}
	return false
}
