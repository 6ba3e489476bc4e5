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
	// perCall says the table gives one thread's time per call, not the
	// throughput form; counted, where set, names for each of its tables
	// the file and the impl whose counts are the table's work (else the
	// work's own, counts.txt).
	perCall bool
	counted map[string][2]string
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

// apart are tables kept apart: rows never read while the model was
// shaped, predicted the same way with each machine's constants from the
// rows machines takes them from (repeated in the file). A change shaped
// on held.txt's rows is held to these too (held-apart.txt).
var apart = []machine{
	{file: "folly-e5-2660-apart.txt", fits: machines[1].fits, sleeps: machines[1].sleeps},
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

// perOp is each impl's published time at each thread count, in seconds,
// as the table gives it: per operation in the throughput form, or, where
// perCall, one thread's per call.
func (m machine) perOp(s *records.Set) map[string]map[int]float64 {
	unit := "ns/op"
	if m.perCall {
		unit = records.NsPerCall
	}
	out := map[string]map[int]float64{}
	for _, c := range s.Cells() {
		if m.counted != nil && m.counted[c.Impl] == [2]string{} {
			continue
		}
		if out[c.Impl] == nil {
			out[c.Impl] = map[int]float64{}
		}
		out[c.Impl][c.Threads] = records.Median(c.Values[records.Tidy(unit)])
	}
	return out
}

// inForm is a time per call at n threads in the table's form.
func (m machine) inForm(perCall float64, n int) float64 {
	if m.perCall {
		return perCall
	}
	return perCall / float64(n)
}

// callAt is one thread's time per call at n threads of a time v in the
// table's form.
func (m machine) callAt(v float64, n int) float64 {
	if m.perCall {
		return v
	}
	return v * float64(n)
}

// countsIn is each impl's 1-thread counts in file.
func countsIn(t *testing.T, file string) map[string]predict.Cell {
	t.Helper()
	out := map[string]predict.Cell{}
	for _, c := range read(t, file).Cells() {
		if cell, ok := predict.CountsOf(c); ok {
			out[c.Impl] = cell
		}
	}
	return out
}

// counted is each work's profile at one thread, its instructions less
// those of rcu's lookup, which answers every work's lookup: counts.txt's
// works, and counts-apart.txt's, each file with its own rcu.
func counted(t *testing.T) map[string]predict.Cell {
	t.Helper()
	out := map[string]predict.Cell{}
	for _, file := range []string{"counts.txt", "counts-apart.txt"} {
		in := countsIn(t, file)
		rcu, ok := in["rcu"]
		if !ok {
			t.Fatalf("%s: no 1-thread counts of rcu", file)
		}
		for impl, c := range in {
			if impl == "rcu" {
				continue // not a work: what each work's lookup ends in
			}
			c.Instructions -= rcu.Instructions
			out[impl] = c
		}
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
// interval finds it. Where the other constants alone make c slower than
// want, it is zero.
func fitted(t *testing.T, c predict.Cell, k predict.Constants, f fit, want float64) predict.Constants {
	lo, hi := 1e-12, 1e-3
	set := func(v float64) predict.Constants { *f.of(&k) = v; return k }
	if at(t, c, set(lo), 2) > want {
		return set(0) // the other constants alone make it slower: none
	}
	if at(t, c, set(hi), 2) < want {
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
func held(t *testing.T, w *bytes.Buffer, machines []machine) []row {
	counts := counted(t)
	var rows []row
	for _, m := range machines {
		s := read(t, m.file)
		table := m.perOp(s)
		cells := map[string]predict.Cell{}
		for impl, times := range table {
			c, ok := counts[impl]
			if where := m.counted[impl]; where != [2]string{} {
				c, ok = countsIn(t, where[0])[where[1]]
			}
			if !ok {
				t.Fatalf("no counts of %s's work", impl)
			}
			one := m.callAt(times[1], 1)
			c.PerCall, c.PerCallLo, c.PerCallHi = one, one, one
			if slices.Contains(m.sleeps, impl) {
				c.BusiestSpins, c.OtherSpinning = 0, 0
			}
			cells[impl] = c
		}
		var k predict.Constants
		fmt.Fprintf(w, "%s (%s)\n", m.file, s.Config("machine"))
		// Each constant is fitted with the others as fitted last, until
		// they settle: a table's row may depend on more than one.
		for range 20 {
			for _, f := range m.fits {
				k = fitted(t, cells[f.impl], k, f, m.callAt(table[f.impl][2], 2))
			}
		}
		for _, f := range m.fits {
			fmt.Fprintf(w, "  %s %.1f ns: %s's row at 2 threads", f.constant, 1e9**f.of(&k), f.impl)
			// A fit that found no value short of the row says by how much
			// the other constants alone miss it.
			if got, want := m.inForm(at(t, cells[f.impl], k, 2), 2), table[f.impl][2]; math.Abs(got/want-1) > 0.005 {
				fmt.Fprintf(w, " (none fits: the others alone predict %.2f, %+.0f%%)", 1e9*got, 100*(got/want-1))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "  %-20s %7s %10s %10s %7s\n", "work", "threads", "published", "predicted", "miss")
		for _, impl := range slices.Sorted(maps.Keys(table)) {
			for _, n := range slices.Sorted(maps.Keys(table[impl])) {
				if n < predictedFrom {
					continue
				}
				r := row{m.file, impl, n, table[impl][n], m.inForm(at(t, cells[impl], k, n), n)}
				rows = append(rows, r)
				fmt.Fprintf(w, "  %-20s %7d %10.2f %10.2f %+6.0f%%\n", impl, n, 1e9*r.published, 1e9*r.predicted, 100*r.miss())
			}
		}
	}
	return rows
}

// account holds the model to the tables of ms, writes the account with
// what it was held to last, and compares it with the file golden
// (-update rewrites it).
func account(t *testing.T, golden, what string, ms []machine) predict.HeldTo {
	var w bytes.Buffer
	var ratios []float64
	for _, r := range held(t, &w, ms) {
		ratios = append(ratios, r.predicted/r.published)
	}
	got := predict.HeldOver(what, "results/many-core/published", ratios)
	fmt.Fprintf(&w, "\n%s\n", got)
	if *update {
		if err := os.WriteFile(golden, w.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), want) {
		t.Errorf("%s is not what the model predicts now (go test -update rewrites it):\n%s", golden, w.Bytes())
	}
	return got
}

// TestTheModelHeldToPublishedTables predicts every row and compares the
// whole account with held.txt, then the error it states with the one
// perfrun prints beside a prediction (predict.ManyCore).
func TestTheModelHeldToPublishedTables(t *testing.T) {
	got := account(t, "held.txt", fmt.Sprintf("%d published many-core tables", len(machines)), machines)
	if got.String() != predict.ManyCore.String() {
		t.Errorf("perfrun states %q beside a prediction; the tables give %q", predict.ManyCore, got)
	}
}

// TestRowsKeptApart predicts the rows kept apart and compares the account
// with held-apart.txt (a change to the model moves it, and says so, as it
// moves held.txt), then the miss it states with the one perfrun prints
// beside a prediction past the cores (predict.ManyCoreApart).
func TestRowsKeptApart(t *testing.T) {
	got := account(t, "held-apart.txt", fmt.Sprintf("%d published table's rows kept apart", len(apart)), apart)
	if got.String() != predict.ManyCoreApart.String() {
		t.Errorf("perfrun states %q beside a prediction; the rows kept apart give %q", predict.ManyCoreApart, got)
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

// pr28599 is OpenSSL PR 28599's before and after tables, held the same
// way: each table's work is the OpenSSL store the table is of, as
// results/published/predicted counts it with its pthread locks, and the
// constants come from the tables' own rows at two threads.
var pr28599 = machine{file: "../../published/pr28599.txt", perCall: true,
	counted: map[string][2]string{
		"pr28599-before": {"../../published/predicted/openssl-3.0.19.txt", "openssl-paths"},
		"pr28599-after":  {"../../published/predicted/openssl-4.0.2.txt", "openssl-paths"},
	},
	fits: []fit{{"pr28599-before", "hand-off", handoff}, {"pr28599-after", "transfer", transfer}}}

// TestPR28599HeldTheSameWay holds the model to PR 28599's tables by the
// procedure of the many-core tables, and compares the account with
// held-pr28599.txt.
func TestPR28599HeldTheSameWay(t *testing.T) {
	account(t, "held-pr28599.txt", "OpenSSL PR 28599's two tables", []machine{pr28599})
}
