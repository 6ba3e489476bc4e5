package importers

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestJMHRoundTrip: the JSON JMH's own tests hold as the golden output of
// its -rf json writer (see testdata/README.md) reads into one cell per
// benchmark and parameter set, every iteration of every fork a sample in
// sec/op (its thrpt scores in ops/ms inverted), NaN errors and quoted
// parameter values included, JMH's own score and error kept beside them,
// and survives being written as a results
// file and read back.
func TestJMHRoundTrip(t *testing.T) {
	data := testdata(t, "jmh-output-golden.json.bz2")
	var raw []jmhResult
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	back, text := roundTrip(t, "jmh", data, "jmh-output-golden.json")
	for _, r := range raw {
		name := jmhName(r)
		c, ok := back.Cell(name)
		if !ok {
			t.Fatalf("no cell %s in:\n%s", name, text)
		}
		var want []float64
		for _, fork := range r.PrimaryMetric.RawData {
			for _, v := range fork {
				want = append(want, 1e-3/v) // ops/ms → s/op
			}
		}
		got := c.Values["sec/op"]
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("%s: %d values, want the %d iterations", name, len(got), len(want))
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9*want[i] {
				t.Errorf("%s iteration %d: %g s/op, want %g", name, i, got[i], want[i])
			}
		}
	}
	for _, want := range []string{"imported: JMH", "528.857142857142", "jmh-score-ops/ms 278.14195297431", "jmh-error-ops/ms",
		`Benchmarkbenchmark_0/param0=value0/param1=[value1]/param2={value2}/param3='value3'/param4="value4"/threads=80 `} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}

// TestJMHModes holds the conversions to what they say, on entries of each
// mode: avgt and ss give one thread's time per operation (ns/call) and,
// over the threads, ns/op; sample mode's histogram gives each iteration's
// mean; -prof gc's normalized allocation becomes B/op.
func TestJMHModes(t *testing.T) {
	in := `[
{"benchmark": "x.B.avg", "mode": "avgt", "threads": 2, "params": {"size": "64"},
 "primaryMetric": {"score": 1.5, "scoreError": 0.1, "scoreUnit": "us/op", "rawData": [[1.0, 2.0]]},
 "secondaryMetrics": {"·gc.alloc.rate.norm": {"score": 24, "scoreUnit": "B/op", "rawData": [[24.0, 24.0]]},
                      "·gc.count": {"score": 3, "scoreUnit": "counts", "rawData": [[3.0, 3.0]]}}},
{"benchmark": "x.B.sample", "mode": "sample", "threads": 1,
 "primaryMetric": {"score": 150, "scoreError": "NaN", "scoreUnit": "ns/op",
  "rawDataHistogram": [[[[100.0, 1], [200.0, 1]], [[300.0, 3]]]]}},
{"benchmark": "x.B.tp", "mode": "thrpt", "threads": 4,
 "primaryMetric": {"score": 2e6, "scoreError": 1, "scoreUnit": "ops/s", "rawData": [[2e6]]}}
]`
	back, _ := roundTrip(t, "jmh", []byte(in), "modes.json")
	check := func(name, unit string, want ...float64) {
		t.Helper()
		c, ok := back.Cell(name)
		if !ok {
			t.Fatalf("no cell %s", name)
		}
		got := c.Values[unit]
		if len(got) != len(want) {
			t.Fatalf("%s %s: %v, want %v", name, unit, got, want)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9*want[i] {
				t.Errorf("%s %s: %v, want %v", name, unit, got, want)
			}
		}
	}
	check("x.B.avg/size=64/threads=2", "sec/call", 1e-6, 2e-6)
	check("x.B.avg/size=64/threads=2", "sec/op", 0.5e-6, 1e-6)
	check("x.B.avg/size=64/threads=2", "B/op", 24, 24)
	check("x.B.sample/threads=1", "sec/op", 150e-9, 300e-9)
	check("x.B.tp/threads=4", "sec/op", 0.5e-6)
	check("x.B.tp/threads=4", "sec/call", 2e-6)
}

// TestJMHRefusesOthers: other tools' JSON, text, and units a mode cannot
// have are refused.
func TestJMHRefusesOthers(t *testing.T) {
	for name, text := range map[string]string{
		"text":      "BenchmarkA 1 100 ns/op\n",
		"hyperfine": `{"results": [{"command": "x", "times": [1]}]}`,
		"empty":     `[]`,
		"no mode":   `[{"benchmark": "x", "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[1]]}}]`,
	} {
		if _, err := readJMH(strings.NewReader(text), name); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	for name, text := range map[string]string{
		"thrpt in time/op": `[{"benchmark": "x", "mode": "thrpt", "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[1]]}}]`,
		"zero score":       `[{"benchmark": "x", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[0]]}}]`,
	} {
		if _, err := readJMH(strings.NewReader(text), name); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
