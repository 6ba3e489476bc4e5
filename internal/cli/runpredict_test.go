package cli

import (
	"flag"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
	"github.com/perfrun/perfrun/records"
)

// TestMainJobPredicts: the main job (no cell chosen) predicts at 16
// threads; a run shaped by hand predicts only when asked, and -predict 0
// turns the main job's off.
func TestMainJobPredicts(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, mainJobPredicts},
		{[]string{"-rounds", "3", "-window", "200ms"}, mainJobPredicts},
		{[]string{"-impl", "sorted"}, 0},
		{[]string{"-threads", "1,2"}, 0},
		{[]string{"-predict", "0"}, 0},
		{[]string{"-impl", "rcu", "-predict", "8"}, 8},
		// CSV prints no prediction: the main job counts nothing for one.
		{[]string{"-format", "csv"}, 0},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		f := newRunFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		f.defaultPredict(fs)
		if f.predict != tc.want {
			t.Errorf("run %v: predicts at %d threads, want %d", tc.args, f.predict, tc.want)
		}
	}
}

// TestRunPredictsPastTheCores: a run with -predict prints, per design,
// its prediction beside its 1- and 2-thread measurements, and a store
// with one exclusive lock held for most of a lookup (sorted) is predicted
// to slow down where one that shares nothing (rcu) is not.
func TestRunPredictsPastTheCores(t *testing.T) {
	needs.Valgrind(t)
	if testing.Short() {
		t.Skip("slow: counts two cells under callgrind and builds perfrun for lock profiles")
	}
	t.Parallel()
	bin := builtPerfrun(t)
	cmd := exec.Command(bin, "run", "-impl", "sorted,rcu", "-threads", "1,2", "-rounds", "2", "-window", "20ms", "-warmup", "1ms",
		"-param", "certs=64", "-param", "cost=own", "-predict", "8", "-plots", "none", "-quarantine=false", "-o", "")
	cmd.Dir = "../.." // -locks builds perfrun from its module
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("perfrun run -predict 8: %v\n%s", err, out)
	}
	for impl, atLeast := range map[string]float64{"sorted": 1.5, "rcu": 1} {
		m := regexp.MustCompile(`Issuer/impl=` + impl + `/certs=64/hit=1 +[0-9.]+ [nµ]s +[0-9.]+ [nµ]s \(×[0-9.]+\) +[0-9.]+ [nµ]s +[0-9.]+ [nµ]s \(×[0-9.]+\) +[0-9.]+ [nµ]s +[0-9.]+ [nµ]s – [0-9.]+ [nµ]s +([0-9.]+)`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("no prediction row for %s in\n%s", impl, out)
		}
		r, _ := strconv.ParseFloat(string(m[1]), 64)
		if r < atLeast || impl == "rcu" && r != 1 {
			t.Errorf("%s: per(8)/per(1) predicted %g, want %s", impl, r, map[string]string{"sorted": "at least 1.5", "rcu": "exactly 1"}[impl])
		}
	}
}

// TestMainJobPredictsFromCounts: the main job's prediction is a function
// of the counts alone, so a busy runner that slowed a design's kept
// samples, or set all of them aside, gets the answer a quiet one does,
// from each design's instructions at its cost's reference time per
// instruction.
func TestMainJobPredictsFromCounts(t *testing.T) {
	file := func(hashmapNs string, sortedKept bool) *records.Set {
		// A run writes the counts on each of the cell's timed records: a
		// busy runner may set every one of them aside.
		sorted := "BenchmarkIssuer/impl=sorted/certs=1024/hit=1/cost=openssl/threads=1 1 %s ns/call 5244 instructions/op 1.275 exclusive-locks/op 1806 locked-instructions/op 2.55 atomics/op\n"
		sortedTime := "quarantined: the machine ran more than 25% slower than usual (speed probe)\n" +
			fmt.Sprintf(sorted, "2600") + fmt.Sprintf(sorted, "2700")
		// The busy runner's control cell: two threads delivered a third less.
		control := "BenchmarkControl/threads=1 1 40 ns/call\nBenchmarkControl/threads=2 1 60 ns/call\n"
		if sortedKept {
			sortedTime, control = fmt.Sprintf(sorted, "885"), ""
		}
		text := "cores: 2\nquarantined: no\n" + control +
			"BenchmarkIssuer/impl=hashmap/certs=1024/hit=1/cost=openssl/threads=1 1 " + hashmapNs + " ns/call\n" +
			"BenchmarkIssuer/impl=hashmap/certs=1024/hit=1/cost=openssl/threads=1 1 3440 instructions/op 0 exclusive-locks/op 0 locked-instructions/op 2 atomics/op\n" +
			sortedTime
		set, err := records.Read(strings.NewReader(text), "run.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	rowsOf := func(set *records.Set) map[string]pastRow {
		rows, _, err := pastTheCoresRows(set, mainJobPredicts)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]pastRow{}
		for _, r := range rows {
			// The measurements beside it may differ, and what the table
			// of its design says of them.
			r.one, r.two, r.oneMeasured, r.twoMeasured, r.published = "", "", 0, 0, ""
			got[strings.TrimPrefix(strings.TrimSuffix(r.name, "/certs=1024/hit=1/cost=openssl"), "Issuer/impl=")] = r
		}
		return got
	}
	quiet, busy := rowsOf(file("600", true)), rowsOf(file("1200", false))
	sorted, ok := busy["sorted"]
	if !ok {
		t.Fatalf("sorted, its time set aside, not predicted: rows %+v", busy)
	}
	// 5 244 instructions at 0.174 ns, never the 2 600 ns the busy machine took.
	if !(sorted.ratio > 5) || math.Abs(sorted.at/sorted.ratio-5244*0.174e-9) > 1e-12 {
		t.Errorf("sorted: %g s a call at 16 threads, %g× its 1-thread time; want its 1-thread time 5244 × 0.174 ns and its lock to slow it", sorted.at, sorted.ratio)
	}
	for _, d := range []string{"sorted", "hashmap"} {
		if quiet[d] != busy[d] {
			t.Errorf("%s: a quiet runner predicts %+v, a busy one %+v: the counts are the same", d, quiet[d], busy[d])
		}
	}
	var out strings.Builder
	f := &runFlags{predict: mainJobPredicts}
	f.pastTheCores(&streams{stdout: &out, stderr: &out}, file("1200", false))
	if strings.Contains(out.String(), "not predicted") || !strings.Contains(out.String(), "its instructions at 0.174 ns an instruction") {
		t.Errorf("the main job's lines say:\n%s", out.String())
	}
}
