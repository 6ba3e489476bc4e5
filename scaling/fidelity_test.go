package scaling

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
)

// A standIn is a design, model or real store, whose 1-thread counts
// (results/published/predicted/: the models' three fresh runs in fresh/,
// whose median is held, and the real stores' recorded files, whose fresh
// runs count the same and differ in their 1-thread time alone,
// fresh/README.md) predict a published
// PR 28599 table: its predicted per(n)/per(1) over the published must stay
// in [lo, hi] at every published n from 4 to 18. Within ±25% of the table,
// the band is that; where the model misses, the band is the miss as it
// stood on 2026-12-05 (its least and most ratio, widened 10%), and why
// names the input the model lacks, so a change to the model that moves a
// stand-in is seen either way.
type standIn struct {
	file, cell, table string
	lo, hi            float64
	why               string
}

var (
	missWith3        = "3.0.19's miss takes its store lock twice, 8 read locks and 26 atomics a lookup: the model queues both holds as one lock and the atomics as one shared line (results/published/predicted/)"
	missSortedReal   = "since the sorted model took 3.0.19's candidates' work into its second hold and its read locks 5 times a lookup (cc0a657, 706005b), its store lock holds 28% of a call (4 893 of 17 786 instructions), where models.txt, recorded before, held 34%: the model contends less than 3.0 did (results/published/predicted/fresh/)"
	missOpenSSLCost  = "cost=openssl does 4.0's work outside the lock on every design, less than 3.0 did outside its own, so more of sorted's call is held than 3.0's was"
	missHashmap      = "the hashmap model takes one read lock and 2 atomics a lookup where 4.0.2 takes two and 8.1: less of a call on the shared line (results/published/predicted/)"
	missSortOnInsert = "its reader count is the one shared line the model sees; no real store of the design gives the atomics the published one took"
)

// models are the models' fresh runs.
const models = "fresh/models-*.txt"

var standIns = []standIn{
	{"openssl-3.0.19.txt", "impl=openssl-paths/", "pr28599-before", 0.54, 0.78, missWith3},
	{models, "impl=sorted/certs=1024/hit=1/cost=real/", "pr28599-before", 0.50, 0.79, missSortedReal},
	{models, "impl=sorted/certs=1024/hit=1/cost=openssl/", "pr28599-before", 1.16, 1.58, missOpenSSLCost},
	{"openssl-4.0.2.txt", "impl=openssl-paths/", "pr28599-after", 0.75, 1.25, "within ±25%"},
	{models, "impl=hashmap/certs=1024/hit=1/cost=real/", "pr28599-after", 0.41, 0.91, missHashmap},
	{models, "impl=hashmap/certs=1024/hit=1/cost=openssl/", "pr28599-after", 0.62, 0.97, missHashmap},
	{models, "impl=sortoninsert/", "pr28599-sortoninsert", 0.52, 0.90, missSortOnInsert},
}

// heldRatios are a stand-in's predicted per(n)/per(1) over the published,
// by published n from 4 to 18, with the reference constants: of its file,
// or the median over the files its name matches (the models' fresh runs).
func heldRatios(t *testing.T, s standIn, tables *records.Set, k predict.Measured) map[int]float64 {
	t.Helper()
	files, err := filepath.Glob("../results/published/predicted/" + s.file)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no such results file (%v)", s.file, err)
	}
	runs := map[int][]float64{}
	for _, f := range files {
		for n, r := range heldRatiosOf(t, f, s, tables, k) {
			runs[n] = append(runs[n], r)
		}
	}
	out := map[int]float64{}
	for n, rs := range runs {
		out[n] = records.Median(rs)
	}
	return out
}

// heldRatiosOf is heldRatios of one results file.
func heldRatiosOf(t *testing.T, file string, s standIn, tables *records.Set, k predict.Measured) map[int]float64 {
	t.Helper()
	in, err := records.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	threads := []int{1, 2, 4, 6, 8, 10, 12, 14, 16, 18}
	pred, err := predict.Results(in, threads, k, "fidelity test")
	if err != nil {
		t.Fatal(err)
	}
	at := func(n int) float64 {
		for _, c := range pred.Cells() {
			if strings.Contains(c.Name, s.cell) && c.Threads == n {
				return records.Median(c.Values[records.Tidy(records.NsPerCall)])
			}
		}
		t.Fatalf("%s: no predicted cell %s at %d threads", s.file, s.cell, n)
		return math.NaN()
	}
	out := map[int]float64{}
	for _, n := range threads[2:] {
		pub, ok := published.Scaling(tables, s.table, n)
		if !ok {
			t.Fatalf("%s has no %d-thread row", s.table, n)
		}
		out[n] = at(n) / at(1) / pub
	}
	return out
}

// TestStandInsHoldTheirBands: every stand-in's prediction of its PR 28599
// table, held in its band at every published thread count from 4 to 18.
func TestStandInsHoldTheirBands(t *testing.T) {
	tables, err := published.PR28599()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range standIns {
		for n, r := range heldRatios(t, s, tables, Reference) {
			if r < s.lo || r > s.hi {
				t.Errorf("%s %s -> %s at %d threads: predicted ÷ published %.2f, outside [%.2f, %.2f] (%s)", s.file, s.cell, s.table, n, r, s.lo, s.hi, s.why)
			}
		}
	}
}

// TestAModelChangeLeavesABand shows the guard failing: the model with its
// hand-off doubled moves stand-ins out of their bands.
func TestAModelChangeLeavesABand(t *testing.T) {
	tables, err := published.PR28599()
	if err != nil {
		t.Fatal(err)
	}
	k := Reference
	k.Low.Handoff, k.Mid.Handoff, k.High.Handoff = 2*k.Low.Handoff, 2*k.Mid.Handoff, 2*k.High.Handoff
	out := 0
	for _, s := range standIns {
		for _, r := range heldRatios(t, s, tables, k) {
			if r < s.lo || r > s.hi {
				out++
			}
		}
	}
	if out == 0 {
		t.Error("a hand-off twice the reference moved no stand-in out of its band: the bands guard nothing")
	}
}
