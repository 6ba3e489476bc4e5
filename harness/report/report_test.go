package report_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/harness/report"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/workloads"
	"github.com/perfrun/perfrun/workloads/corpus"
)

func smallRun(t *testing.T) *harness.Results {
	t.Helper()
	p, _ := workloads.Issuer.Resolve(map[string]string{"certs": "32"})
	var cells []harness.Cell
	for _, im := range impls.All {
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
	var buf bytes.Buffer
	if err := report.WriteBenchfmt(&buf, res); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&buf, "results.txt")
	n := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.Result:
			s := res.Samples[n]
			if string(rec.Name) != s.Cell.Name() || len(rec.Values) != len(s.Metrics) {
				t.Fatalf("result %d: %s with %d values, want %s with %d", n, rec.Name, len(rec.Values), s.Cell.Name(), len(s.Metrics))
			}
			for _, key := range []string{"goos", "goarch", "cpu", "cores", "go", "perfrun", "corpus", "date"} {
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
}

func TestSeedTables(t *testing.T) {
	res := smallRun(t)
	var buf bytes.Buffer
	report.WriteSeedTables(&buf, res)
	out := buf.String()
	for _, want := range []string{"| Threads |   mean/us |    var/us |", "sorted", "rcu", "side by side", " *\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("seed tables lack %q:\n%s", want, out)
		}
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
	report.WriteJMH(&buf, smallRun(t))
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
	set, err := compare.Read(strings.NewReader(b.String()), "p.txt", "p")
	if err != nil {
		t.Fatal(err)
	}
	plots, err := report.Plots(set, 2)
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
