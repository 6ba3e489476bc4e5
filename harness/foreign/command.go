package foreign

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/records"
)

// Command is a benchmark perfrun does not link: a program run once per
// window, on the cell's thread count, that times itself and prints what
// one call took. Its windows are interleaved with the control and the
// other cells, probed, set aside and re-measured like theirs, so a foreign
// tool (OpenSSL's perftools x509storeissuer, say) stands in the same
// tables, plots and verdicts as the built-in stores.
//
// The contract: the program prints the time one call took on one thread
// (its threads × its wall time over its calls, recorded as ns/call) as
// the last number of its standard output, with its unit (ns, us, µs, ms
// or s) right after it, or given as Unit. It exits 0; anything else fails
// the run with the tail of what it printed. That figure is an aggregate:
// a built-in cell's ns/call is the mean of each worker's time per call,
// larger than the aggregate when the workers are unequal, so at more than
// one thread a command and a store compare like for like by ns/op (wall
// time over all calls, for both).
type Command struct {
	// Name is the cell's impl= value.
	Name string
	// Args is the command line. {threads} becomes the cell's thread count,
	// {corpus} a directory perfrun writes from the run's corpus (see
	// Files), {at} the corpus's verification time in Unix seconds
	// (the time perfrun's own lookups check validity at), and $VAR or
	// ${VAR} the environment's value, so that two arms of an A/B can run
	// two builds of one tool.
	Args []string
	// Unit is the unit of a bare number: ns, us, µs, ms or s.
	Unit string
}

// UsesCorpus says whether the command is given the run's corpus; only
// then does its cell carry the workload's parameters.
func (c *Command) UsesCorpus() bool {
	for _, a := range c.Args {
		if strings.Contains(a, "{corpus}") || strings.Contains(a, "{at}") {
			return true
		}
	}
	return false
}

// Parse reads NAME=COMMAND LINE (words split at spaces, no quoting).
func Parse(spec, unit string) (*Command, error) {
	name, line, ok := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	args := strings.Fields(line)
	if !ok || name == "" || len(args) == 0 {
		return nil, fmt.Errorf("bad command %q: want NAME=COMMAND ARGS, e.g. x509storeissuer='./x509storeissuer -t {corpus} {threads}'", spec)
	}
	if strings.ContainsAny(name, "/= \t") || records.OneLine(name) != name {
		return nil, fmt.Errorf("bad command name %q: it would become impl=%s in benchmark names, so no /, =, spaces or controls", name, records.OneLine(name))
	}
	if unit != "" {
		if _, ok := unitNs[unit]; !ok {
			return nil, fmt.Errorf("bad command unit %q: want ns, us, µs, ms or s", unit)
		}
	}
	return &Command{Name: name, Args: args, Unit: unit}, nil
}

// unitNs is nanoseconds per unit of the numbers a command may print.
var unitNs = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9}

// lastNumber finds the last number of an output and the unit glued to it
// or following it.
var lastNumber = regexp.MustCompile(`([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(ns|us|µs|μs|ms|s)?\b`)

// Time reads the time per call, in ns, a command printed.
func (c *Command) Time(out []byte) (float64, error) {
	all := lastNumber.FindAllSubmatch(out, -1)
	if len(all) == 0 {
		return 0, errors.New("printed no number (it must print the time of one call as its last number)")
	}
	m := all[len(all)-1]
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil || !(v > 0) {
		return 0, fmt.Errorf("printed %q as its time per call: want a positive number", m[1])
	}
	unit := string(m[2])
	if unit == "" {
		unit = c.Unit
	}
	if unit == "" {
		return 0, fmt.Errorf("printed %s with no unit: give one with the command's unit flag (ns, us, ms, s)", m[1])
	}
	if ns := v * unitNs[unit]; ns <= maxCallNs {
		return ns, nil
	}
	return 0, fmt.Errorf("printed %s%s as its time per call: more than an hour a call is no time a store's call takes", m[1], unit)
}

// maxCallNs is the longest time per call a command may print, in ns: an
// hour.
const maxCallNs = 3600e9

// Expand fills the command line for one window: threads for {threads},
// dir (WriteCorpus's) for {corpus} and at, in Unix seconds, for {at}.
func (c *Command) Expand(threads int, dir string, at int64) []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		// The user's $VARIABLES first; what perfrun substitutes is data,
		// never expanded again (a corpus path may hold a '$').
		a = os.ExpandEnv(a)
		a = strings.ReplaceAll(a, "{threads}", strconv.Itoa(threads))
		a = strings.ReplaceAll(a, "{corpus}", dir)
		out[i] = strings.ReplaceAll(a, "{at}", strconv.FormatInt(at, 10))
	}
	return out
}
