package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

func smallRun(t *testing.T) *harness.Outcome {
	t.Helper()
	p, _ := workloads.Issuer.Resolve(map[string]string{"certs": "32"})
	var cells []harness.Cell
	for _, im := range impls.All() {
		for _, th := range []int{1, 2, harness.Cores() + 1} {
			cells = append(cells, harness.Cell{Impl: im, Workload: workloads.Issuer, Params: p, Threads: th})
		}
	}
	o := harness.DefaultOptions
	o.Rounds, o.Window, o.Warmup = 2, 10*time.Millisecond, time.Millisecond
	o.Corpus = func(cas int) (*corpus.Corpus, error) {
		return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: 4})
	}
	res, err := harness.Run(context.Background(), cells, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBenchfmtReadable reads the output back with benchfmt.Reader, the
// parser benchstat uses: every line parses, the config is there, and each
// value round-trips.
func TestBenchfmtReadable(t *testing.T) {
	res := smallRun(t)
	set := res.Set()
	var buf bytes.Buffer
	if err := set.Write(&buf); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&buf, "results.txt")
	n := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.Result:
			want := set.Records[n]
			if string(rec.Name) != string(want.Name) || len(rec.Values) != len(want.Values) {
				t.Fatalf("result %d: %s with %d values, want %s with %d", n, rec.Name, len(rec.Values), want.Name, len(want.Values))
			}
			for i, v := range rec.Values {
				if v != want.Values[i] {
					t.Fatalf("result %d: value %+v read back as %+v", n, want.Values[i], v)
				}
			}
			for _, key := range []string{"goos", "goarch", "cpu", "cores", "go", "perfrun", "corpus", "date", "rounds", "window", "warmup"} {
				if rec.GetConfig(key) == "" {
					t.Fatalf("config %q missing", key)
				}
			}
			n++
		}
	}
	if err := r.Err(); err != nil || n != len(res.Samples) {
		t.Fatalf("read %d results (%v), want %d", n, err, len(res.Samples))
	}
	if r.Units().GetAssumption("allocs/op") != benchmath.AssumeExact {
		t.Error("allocs/op is not marked exact for benchstat")
	}
}

func TestThreadTables(t *testing.T) {
	res := smallRun(t)
	var buf bytes.Buffer
	report.WriteThreadTables(&buf, res.Set(), harness.Cores())
	out := buf.String()
	if !regexp.MustCompile(`\| Threads \| +mean/(n|µ|m)?s \| +var/(n|µ|m)?s² \|`).MatchString(out) {
		t.Errorf("per-thread tables lack the header:\n%s", out)
	}
	for _, want := range []string{"sorted", "rcu", "side by side", " *\n", "* more threads than the"} {
		if !strings.Contains(out, want) {
			t.Errorf("per-thread tables lack %q:\n%s", want, out)
		}
	}
	// Without an oversubscribed row there is no footnote for one.
	buf.Reset()
	report.WriteThreadTables(&buf, res.Set(), 1000)
	if strings.Contains(buf.String(), "*") {
		t.Errorf("footnote without a marked row:\n%s", buf.String())
	}
}

// TestTabularNoInfinity: two rounds give the median no finite confidence
// interval; CSV and JSON carry no infinity, and say why.
func TestTabularNoInfinity(t *testing.T) {
	set := smallRun(t).Set()
	var js, cs bytes.Buffer
	if err := report.WriteJSON(&js, set, 2); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteCSV(&cs, set, 2); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"json": js.String(), "csv": cs.String()} {
		if strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
			t.Errorf("%s holds a non-finite number", name)
		}
		if !strings.Contains(out, "too few rounds") {
			t.Errorf("%s does not say why the interval is missing", name)
		}
	}
	var doc struct {
		Schema string
		Rows   []map[string]any
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc.Schema != report.Schema || len(doc.Rows) == 0 {
		t.Fatalf("JSON: %v, schema %q, %d rows", err, doc.Schema, len(doc.Rows))
	}
	if _, ok := doc.Rows[0]["median_lo"]; !ok {
		t.Errorf("JSON row without median_lo: %v", doc.Rows[0])
	}
}

func TestScoreError(t *testing.T) {
	score, e := report.ScoreError([]float64{10, 12, 11, 9, 13})
	// mean 11, sd sqrt(2.5), t(0.9995, 4) = 8.6103
	want := 8.6103 * math.Sqrt(2.5) / math.Sqrt(5)
	if score != 11 || math.Abs(e-want) > 1e-3 {
		t.Fatalf("ScoreError = %v ± %v, want 11 ± %.4f", score, e, want)
	}
	var buf bytes.Buffer
	report.WriteJMH(&buf, smallRun(t).Set(), 2)
	if !strings.Contains(buf.String(), "thrpt") || !strings.Contains(buf.String(), "±") {
		t.Fatalf("JMH table:\n%s", buf.String())
	}
}

func TestPlotsFromResults(t *testing.T) {
	var b strings.Builder
	b.WriteString("cores: 2\n")
	for r := range 3 {
		for _, im := range []string{"sorted", "rcu"} {
			for _, th := range []int{1, 2} {
				fmt.Fprintf(&b, "BenchmarkIssuer/impl=%s/certs=64/hit=1/threads=%d 1 %d ns/op %d ops/s\n", im, th, 100*th+r, 1000/th)
			}
			for _, n := range []int{128, 1024} {
				fmt.Fprintf(&b, "BenchmarkLoad/impl=%s/n=%d/mode=spread/dup=0/threads=1 1 %d ns/op %d ns/add\n", im, n, 1000*n, 10*n+r)
			}
		}
	}
	set, err := records.Read(strings.NewReader(b.String()), "p.txt", "p")
	if err != nil {
		t.Fatal(err)
	}
	plots, err := report.Plots([]*records.Set{set}, report.PlotOptions{Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range plots {
		names = append(names, p.Name)
	}
	want := []string{"issuer_certs-64_hit-1-latency", "issuer_certs-64_hit-1-throughput", "issuer_certs-64_hit-1-speedup",
		"load_mode-spread_dup-0_threads-1-nsperadd"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("plots %v, want %v", names, want)
	}
	for _, p := range plots {
		svg, err := p.Encode("svg")
		if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("rcu")) {
			t.Fatalf("%s: SVG without a legend entry for rcu (%v)", p.Name, err)
		}
		pngData, err := p.Encode("png")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(pngData)); err != nil {
			t.Fatalf("%s: PNG: %v", p.Name, err)
		}
	}
}

// TestThreadTablesEfficiency: with control cells the side-by-side table
// gives each design's efficiency (speedup over the machine's p(n)), says
// what the machine delivered and how many samples were set aside, and
// flags an efficiency the rounds cannot pin down; the control is no
// design's table.
func TestThreadTablesEfficiency(t *testing.T) {
	text := `cores: 2
BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/op 1e7 ops/s
BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/op 1e7 ops/s
BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/op 1e7 ops/s
BenchmarkIssuer/impl=rcu/threads=2 1 55 ns/op 1.8e7 ops/s
BenchmarkIssuer/impl=rcu/threads=2 1 55 ns/op 1.8e7 ops/s
BenchmarkIssuer/impl=rcu/threads=2 1 55 ns/op 1.8e7 ops/s
BenchmarkIssuer/impl=sorted/threads=1 1 300 ns/op 3.3e6 ops/s
BenchmarkIssuer/impl=sorted/threads=1 1 200 ns/op 5e6 ops/s
BenchmarkIssuer/impl=sorted/threads=1 1 400 ns/op 2.5e6 ops/s
BenchmarkIssuer/impl=sorted/threads=2 1 300 ns/op 3.3e6 ops/s
BenchmarkIssuer/impl=sorted/threads=2 1 600 ns/op 1.7e6 ops/s
BenchmarkIssuer/impl=sorted/threads=2 1 300 ns/op 3.3e6 ops/s
BenchmarkControl/threads=1 1 40 ns/op 2.5e7 ops/s
BenchmarkControl/threads=2 1 22 ns/op 4.5e7 ops/s
quarantined: a worker waited for a CPU 50% of the window
BenchmarkIssuer/impl=rcu/threads=2 1 99 ns/op 1e7 ops/s
`
	s, err := records.Read(strings.NewReader(text), "e.txt", "e")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	report.WriteThreadTables(&buf, s, 2)
	out := buf.String()
	for _, want := range []string{"(1.80x, 100%)", "machine: the control delivered p(2) = 1.80",
		"set aside: 1 samples of 1 cells", "known only to more than ±10% of itself: sorted at 2 threads"} {
		if !strings.Contains(out, want) {
			t.Errorf("tables lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "## Control") || strings.Contains(out, "rcu at 2 threads") {
		t.Errorf("the control has a table, or rcu's steady rounds were flagged:\n%s", out)
	}
}
