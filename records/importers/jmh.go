package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/records"
)

// jmhResult is the part of one entry of JMH's -rf json that perfrun reads.
type jmhResult struct {
	Benchmark     string               `json:"benchmark"`
	Mode          string               `json:"mode"`
	Threads       int                  `json:"threads"`
	Params        map[string]string    `json:"params"`
	PrimaryMetric jmhMetric            `json:"primaryMetric"`
	Secondary     map[string]jmhMetric `json:"secondaryMetrics"`
}

// jmhMetric is a metric's score and its iterations. JMH writes NaN as the
// string "NaN", so the score and its error are kept as written.
type jmhMetric struct {
	Score      json.RawMessage `json:"score"`
	ScoreError json.RawMessage `json:"scoreError"`
	ScoreUnit  string          `json:"scoreUnit"`
	// RawData is each fork's iterations; sample mode writes
	// RawDataHistogram instead: each fork's iterations, each a list of
	// [value, count] pairs.
	RawData          [][]float64      `json:"rawData"`
	RawDataHistogram [][][][2]float64 `json:"rawDataHistogram"`
}

// jmhTimeUnits are JMH's time units in nanoseconds.
var jmhTimeUnits = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9, "hr": 3600e9}

// readJMH reads JMH's -rf json: one record per measurement iteration of
// every fork, so perfrun's statistics see JMH's own spread (the score's
// score and error JMH computed, the half-width of its 99.9% interval, are
// kept in each record as jmh-score-UNIT and jmh-error-UNIT). Both kinds of score become perfrun's two
// time units: ns/op, wall time over all threads' operations, and ns/call,
// one thread's time per operation — thrpt's operations per time give
// ns/op = 1/score and ns/call = threads/score; avgt's and ss's time per
// operation (each thread's) give ns/call = score and ns/op =
// score/threads; sample mode's histogram gives each iteration's mean as
// avgt's score. JMH's normalized allocation rate (gc.alloc.rate.norm,
// from -prof gc) becomes B/op; other secondary metrics are left out.
// Parameters and the thread count become name keys:
// org.x.Bench.find/size=64/threads=2.
func readJMH(r io.Reader, file string) (*records.Set, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, err
	}
	var results []jmhResult
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&results); err != nil {
		return nil, fmt.Errorf("%s: %w -rf json writes: %w", file, ErrFormat, err)
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("%s: %w -rf json writes: no benchmarks", file, ErrFormat)
	}
	set := records.New("", file)
	for _, b := range results {
		if b.Benchmark == "" || b.Mode == "" {
			return nil, fmt.Errorf("%s: %w -rf json writes: an entry without a benchmark or mode", file, ErrFormat)
		}
		iters, err := jmhIterations(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", file, b.Benchmark, err)
		}
		alloc := jmhAllocations(b)
		cfg := config("JMH", file)
		name := benchfmt.Name(jmhName(b))
		summary := jmhSummary(b.PrimaryMetric)
		for i, it := range iters {
			values := []benchfmt.Value{records.Value(it.op, records.NsPerOp), {Value: it.call, Unit: records.NsPerCall}}
			if i < len(alloc) {
				values = append(values, benchfmt.Value{Value: alloc[i], Unit: records.BPerOp})
			}
			values = append(values, summary...)
			set.Add(&benchfmt.Result{Config: cfg, Name: name, Iters: 1, Values: values})
		}
	}
	if len(set.Records) == 0 {
		return nil, fmt.Errorf("%s: no measurement iteration in any benchmark", file)
	}
	return set, nil
}

// jmhIteration is one measurement iteration in perfrun's two time units.
type jmhIteration struct{ op, call float64 }

// jmhIterations converts a benchmark's primary metric, iteration by
// iteration, fork after fork.
func jmhIterations(b jmhResult) ([]jmhIteration, error) {
	m := b.PrimaryMetric
	unit, perOp := strings.CutSuffix(m.ScoreUnit, "/op")
	ops, perTime := strings.CutPrefix(m.ScoreUnit, "ops/")
	threads := float64(max(b.Threads, 1))
	var out []jmhIteration
	add := func(v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("an iteration's score %v is not a positive number", v)
		}
		switch {
		case b.Mode == "thrpt" && perTime && jmhTimeUnits[ops] > 0:
			ns := jmhTimeUnits[ops] / v // ns per operation of all threads
			out = append(out, jmhIteration{ns, ns * threads})
		case b.Mode != "thrpt" && perOp && jmhTimeUnits[unit] > 0:
			ns := v * jmhTimeUnits[unit] // one thread's ns per operation
			out = append(out, jmhIteration{ns / threads, ns})
		default:
			return fmt.Errorf("mode %s in %q: want thrpt in ops/TIME, or avgt, sample or ss in TIME/op", b.Mode, m.ScoreUnit)
		}
		return nil
	}
	for _, fork := range m.RawData {
		for _, v := range fork {
			if err := add(v); err != nil {
				return nil, err
			}
		}
	}
	for _, fork := range m.RawDataHistogram {
		for _, hist := range fork {
			var sum, n float64
			for _, vc := range hist {
				sum += vc[0] * vc[1]
				n += vc[1]
			}
			if n == 0 {
				continue
			}
			if err := add(sum / n); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// jmhAllocations are the iterations of -prof gc's normalized allocation
// rate, in the primary metric's order, when JMH recorded it.
func jmhAllocations(b jmhResult) []float64 {
	for name, m := range b.Secondary {
		if strings.HasSuffix(name, "gc.alloc.rate.norm") && m.ScoreUnit == "B/op" {
			var out []float64
			for _, fork := range m.RawData {
				out = append(out, fork...)
			}
			return out
		}
	}
	return nil
}

// jmhSummary is JMH's own score and its error (the half-width of its
// 99.9% interval) in JMH's unit, kept with every iteration of the
// benchmark as jmh-score-UNIT and jmh-error-UNIT; JMH's NaN (an error of
// one iteration) is left out.
func jmhSummary(m jmhMetric) []benchfmt.Value {
	var out []benchfmt.Value
	unit := strings.Map(func(r rune) rune {
		if r <= ' ' {
			return -1
		}
		return r
	}, m.ScoreUnit)
	for _, v := range []struct {
		raw  json.RawMessage
		unit string
	}{{m.Score, "jmh-score-" + unit}, {m.ScoreError, "jmh-error-" + unit}} {
		var x float64
		if json.Unmarshal(v.raw, &x) == nil && !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, benchfmt.Value{Value: x, Unit: v.unit})
		}
	}
	return out
}

// jmhName is the benchmark's name with its parameters, in name order, and
// its threads as Go name keys.
func jmhName(b jmhResult) string {
	parts := []string{benchName(b.Benchmark)}
	keys := make([]string, 0, len(b.Params))
	for k := range b.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, benchName(k)+"="+benchName(b.Params[k]))
	}
	return strings.Join(append(parts, "threads="+strconv.Itoa(max(b.Threads, 1))), "/")
}
