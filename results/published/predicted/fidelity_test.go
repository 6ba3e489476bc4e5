package predicted_test

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/predict/published"
	"github.com/perfrun/perfrun/records"
)

// A standIn is a design, model or real store, whose 1-thread counts
// (results/published/predicted/: the models' three fresh runs in fresh/,
// whose median is held, hashmap at cost=real's since it keeps reference
// counts, and the real stores' recorded files, the runs the
// reference constants are fitted to) predict a published PR 28599 table:
// its predicted per(n)/per(1) over the published must stay in [lo, hi] at
// every published n from 4 to 18. Within ±25% of the table, the band is
// that; where the model misses, the band is the miss as it stood with
// the calibrated constants when the stand-in left ±25% (its least and
// most ratio, widened 10%), and why names the input the model lacks, so a change to
// the model that moves a stand-in is seen either way.
type standIn struct {
	file, cell, table string
	lo, hi            float64
	why               string
}

var (
	within           = "within ±25%"
	missOpenSSLCost  = published.StandsFor["sorted"].Gap
	missHashmap      = "the hashmap model takes 4.0.2's read locks and reference counts (1.28 and 5.97 atomics a lookup; 4.0.2 1.25 and 5.85 where the issuer is there), but its reference counts fall on 382 lines, an object each, where the table's store, missing every lookup through the default lookups, wrote 8.1 on lines the profile cannot tell apart and the model takes as one (results/published/predicted/calibrated/)"
	missSortOnInsert = "its reader count is the one shared line the model sees; no real store of the design gives the atomics the published one took"
	missHashmapOwn   = "at cost=openssl the hashmap model writes its read lock's line alone, 2 atomics a lookup, where 4.0.2 wrote 8.1; since a counted write past one thread pays a whole transfer, the transfer 4.0.2's table fits is 34 ns, and two writes at it fall short of the table from 12 threads (results/published/predicted/calibrated/)"
)

// models are the models' fresh runs.
const models = "fresh/models-*.txt"

// calibration are the stand-ins the reference constants are fitted to
// (TestReferenceIsCalibrated): the real stores, each against the table of
// itself. Every other stand-in is held against constants it never set.
var calibration = standIns[:2]

var standIns = []standIn{
	{"openssl-3.0.19.txt", "impl=openssl-paths/", "pr28599-before", 0.75, 1.25, within},
	{"openssl-4.0.2.txt", "impl=openssl-paths/", "pr28599-after", 0.75, 1.25, within},
	{models, "impl=sorted/certs=1024/hit=1/cost=real/", "pr28599-before", 0.75, 1.25, within},
	{models, "impl=sorted/certs=1024/hit=1/cost=openssl/", "pr28599-before", 1.79, 2.45, missOpenSSLCost},
	{"fresh/hashmap-real-*.txt", "impl=hashmap/certs=1024/hit=1/cost=real/", "pr28599-after", 0.46, 0.98, missHashmap},
	{models, "impl=hashmap/certs=1024/hit=1/cost=openssl/", "pr28599-after", 0.67, 1.02, missHashmapOwn},
	{models, "impl=sortoninsert/", "pr28599-sortoninsert", 0.58, 0.91, missSortOnInsert},
}

// heldRatios are a stand-in's predicted per(n)/per(1) over the published,
// by published n from 4 to 18, with the reference constants: of its file,
// or the median over the files its name matches (the models' fresh runs).
func heldRatios(t *testing.T, s standIn, tables *records.Set, k predict.Measured) map[int]float64 {
	t.Helper()
	files, err := filepath.Glob("" + s.file)
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

// read holds each results file once read: TestReferenceIsCalibrated
// predicts from the same few files at every point of its grid, and
// predict.Results never changes the set it reads.
var read struct {
	sync.Mutex
	sets map[string]*records.Set
}

// readOnce is records.ReadFile of file, read once per test binary.
func readOnce(file string) (*records.Set, error) {
	read.Lock()
	defer read.Unlock()
	if s, ok := read.sets[file]; ok {
		return s, nil
	}
	s, err := records.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if read.sets == nil {
		read.sets = map[string]*records.Set{}
	}
	read.sets[file] = s
	return s, nil
}

// heldRatiosOf is heldRatios of one results file.
func heldRatiosOf(t *testing.T, file string, s standIn, tables *records.Set, k predict.Measured) map[int]float64 {
	t.Helper()
	in, err := readOnce(file)
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
		ratios := heldRatios(t, s, tables, predict.Reference)
		line := ""
		for _, n := range slices.Sorted(maps.Keys(ratios)) {
			r := ratios[n]
			line += fmt.Sprintf(" %d:%.2f", n, r)
			if r < s.lo || r > s.hi {
				t.Errorf("%s %s -> %s at %d threads: predicted ÷ published %.2f, outside [%.2f, %.2f] (%s)", s.file, s.cell, s.table, n, r, s.lo, s.hi, s.why)
			}
		}
		t.Logf("%s %s -> %s:%s", s.file, s.cell, s.table, line)
	}
}

// TestAModelChangeLeavesABand shows the guard failing: the model with its
// hand-off doubled moves stand-ins out of their bands.
func TestAModelChangeLeavesABand(t *testing.T) {
	tables, err := published.PR28599()
	if err != nil {
		t.Fatal(err)
	}
	k := predict.Reference
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
