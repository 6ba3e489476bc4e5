// Package published holds perfrun's model to published tables of machines
// with many cores, which no constant of it was fitted to: each benchmark's
// work re-created as a store (package work) and counted at one thread
// here (counts.txt, count.sh), each machine's constants taken from its
// own rows at two threads, and every row from 4 threads up predicted
// beside the table. held.txt is the result; predict.ManyCore says it
// where a prediction is read, and this test keeps the two one.
package published

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

var update = flag.Bool("update", false, "rewrite held.txt")

// A machine is one published table, the benchmarks in it, and how its
// constants are taken from its rows at two threads.
type machine struct {
	file string
	// fits set one constant each, in order: the value that makes the
	// model's time per call of impl at 2 threads the table's.
	fits []fit
	// sleeps names the works whose lock's waiters park at once (a pthread
	// mutex's), where the Go re-creation's sync.Mutex spins first.
	sleeps []string
}

type fit struct {
	impl, constant string
	of             func(*predict.Constants) *float64
}

var (
	transfer = func(k *predict.Constants) *float64 { return &k.Transfer }
	handoff  = func(k *predict.Constants) *float64 { return &k.Handoff }
)

var machines = []machine{
	{file: "xsync-c6g.txt", fits: []fit{{"xsync-atomic", "transfer", transfer}}},
	{file: "folly-e5-2660.txt", fits: []fit{
		{"folly-mutex", "hand-off", handoff},
		{"folly-rwlock-reads", "transfer", transfer},
	}, sleeps: []string{"folly-mutex"}},
}

// predictedFrom is the first thread count a table's rows are predicted
// at: the rows below it give the constants and the time at one thread.
const predictedFrom = 4

func read(t *testing.T, file string) *records.Set {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := records.Read(f, file, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// perOp is each impl's published time per operation at each thread count,
// in seconds, in the tables' throughput form.
func perOp(s *records.Set) map[string]map[int]float64 {
	out := map[string]map[int]float64{}
	for _, c := range s.Cells() {
		if out[c.Impl] == nil {
			out[c.Impl] = map[int]float64{}
		}
		out[c.Impl][c.Threads] = records.Median(c.Values[records.Tidy("ns/op")])
	}
	return out
}

// counted is each work's profile at one thread, its instructions less
// those of rcu's lookup, which answers every work's lookup.
func counted(t *testing.T) map[string]predict.Cell {
	t.Helper()
	out := map[string]predict.Cell{}
	for _, c := range read(t, "counts.txt").Cells() {
		if cell, ok := predict.CountsOf(c); ok {
			out[c.Impl] = cell
		}
	}
	rcu, ok := out["rcu"]
	if !ok {
		t.Fatal("counts.txt: no 1-thread counts of rcu")
	}
	for impl, c := range out {
		c.Instructions -= rcu.Instructions
		out[impl] = c
	}
	return out
}

func at(t *testing.T, c predict.Cell, k predict.Constants, n int) float64 {
	t.Helper()
	b, err := predict.Predict(c, k, k, k, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	return b.Mid[0]
}

// fitted is k with f's constant set so c's time per call at 2 threads is
// want: the model's time there grows with each constant, so halving the
// interval finds it.
func fitted(t *testing.T, c predict.Cell, k predict.Constants, f fit, want float64) predict.Constants {
	lo, hi := 1e-12, 1e-3
	set := func(v float64) predict.Constants { *f.of(&k) = v; return k }
	if at(t, c, set(lo), 2) > want || at(t, c, set(hi), 2) < want {
		t.Fatalf("%s: no %s gives the table's %.1f ns a call at 2 threads", f.impl, f.constant, 1e9*want)
	}
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if at(t, c, set(mid), 2) < want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return set(lo)
}

// A row is one published time predicted.
type row struct {
	table, impl          string
	threads              int
	published, predicted float64
}

func (r row) miss() float64 { return r.predicted/r.published - 1 }

// held predicts every table's rows from predictedFrom threads up, and
// writes what it did.
func held(t *testing.T, w *bytes.Buffer) []row {
	counts := counted(t)
	var rows []row
	for _, m := range machines {
		s := read(t, m.file)
		table := perOp(s)
		cells := map[string]predict.Cell{}
		for impl, times := range table {
			c, ok := counts[impl]
			if !ok {
				t.Fatalf("counts.txt: no counts of %s", impl)
			}
			c.PerCall, c.PerCallLo, c.PerCallHi = times[1], times[1], times[1]
			if slices.Contains(m.sleeps, impl) {
				c.BusiestSpins, c.OtherSpinning = 0, 0
			}
			cells[impl] = c
		}
		var k predict.Constants
		fmt.Fprintf(w, "%s (%s)\n", m.file, s.Config("machine"))
		for _, f := range m.fits {
			k = fitted(t, cells[f.impl], k, f, 2*table[f.impl][2])
			fmt.Fprintf(w, "  %s %.1f ns: %s's row at 2 threads\n", f.constant, 1e9**f.of(&k), f.impl)
		}
		fmt.Fprintf(w, "  %-20s %7s %10s %10s %7s\n", "work", "threads", "published", "predicted", "miss")
		for _, impl := range slices.Sorted(maps.Keys(table)) {
			for _, n := range slices.Sorted(maps.Keys(table[impl])) {
				if n < predictedFrom {
					continue
				}
				r := row{m.file, impl, n, table[impl][n], at(t, cells[impl], k, n) / float64(n)}
				rows = append(rows, r)
				fmt.Fprintf(w, "  %-20s %7d %10.2f %10.2f %+6.0f%%\n", impl, n, 1e9*r.published, 1e9*r.predicted, 100*r.miss())
			}
		}
	}
	return rows
}

// TestTheModelHeldToPublishedTables predicts every row and compares the
// whole account with held.txt, then the error it states with the one
// perfrun prints beside a prediction (predict.ManyCore).
func TestTheModelHeldToPublishedTables(t *testing.T) {
	var w bytes.Buffer
	rows := held(t, &w)
	got := predict.HeldTo{What: fmt.Sprintf("%d published many-core tables", len(machines)), Where: "results/many-core/published", Rows: len(rows)}
	misses := make([]float64, len(rows))
	for i, r := range rows {
		misses[i] = math.Abs(r.miss())
		got.Worst = max(got.Worst, misses[i])
	}
	got.Median = records.Median(misses)
	fmt.Fprintf(&w, "\n%s\n", got)
	if *update {
		if err := os.WriteFile("held.txt", w.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("held.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), want) {
		t.Errorf("held.txt is not what the model predicts now (go test -update rewrites it):\n%s", w.Bytes())
	}
	if got.String() != predict.ManyCore.String() {
		t.Errorf("perfrun states %q beside a prediction; the tables give %q", predict.ManyCore, got)
	}
}

// TestTheDocsShowTheHeldTables: docs/predict.md shows held.txt whole,
// between its held markers.
func TestTheDocsShowTheHeldTables(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/predict.md")
	if err != nil {
		t.Fatal(err)
	}
	begin := []byte("<!-- held: results/many-core/published/held.txt -->\n")
	_, after, ok := bytes.Cut(doc, begin)
	block, _, ok2 := bytes.Cut(after, []byte("<!-- end held -->"))
	if !ok || !ok2 {
		t.Fatal("docs/predict.md: no held markers")
	}
	var shown bytes.Buffer
	for _, line := range bytes.SplitAfter(block, []byte("\n")) {
		shown.Write(bytes.TrimPrefix(line, []byte("    ")))
	}
	want, err := os.ReadFile("held.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shown.Bytes(), want) {
		t.Errorf("docs/predict.md shows another account than held.txt:\n%s", shown.Bytes())
	}
}
