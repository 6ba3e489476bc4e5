package summary

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/internal/hostconstants"
	"github.com/perfrun/perfrun/predict"

	"github.com/perfrun/perfrun/records"
)

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
	rowsOf := func(set *records.Set) map[string]PastRow {
		rows, _, err := Past(set, 16)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]PastRow{}
		for _, r := range rows {
			// The measurements beside it may differ, and what the table
			// of its design says of them.
			r.One, r.Two, r.oneMeasured, r.twoMeasured, r.Published = "", "", 0, 0, ""
			got[strings.TrimPrefix(strings.TrimSuffix(r.Name, "/certs=1024/hit=1/cost=openssl"), "Issuer/impl=")] = r
		}
		return got
	}
	quiet, busy := rowsOf(file("600", true)), rowsOf(file("1200", false))
	sorted, ok := busy["sorted"]
	if !ok {
		t.Fatalf("sorted, its time set aside, not predicted: rows %+v", busy)
	}
	// 5 244 instructions at 0.174 ns, never the 2 600 ns the busy machine took.
	if !(sorted.Ratio > 5) || math.Abs(sorted.At/sorted.Ratio-5244*0.174e-9) > 1e-12 {
		t.Errorf("sorted: %g s a call at 16 threads, %g× its 1-thread time; want its 1-thread time 5244 × 0.174 ns and its lock to slow it", sorted.At, sorted.Ratio)
	}
	for _, d := range []string{"sorted", "hashmap"} {
		if quiet[d] != busy[d] {
			t.Errorf("%s: a quiet runner predicts %+v, a busy one %+v: the counts are the same", d, quiet[d], busy[d])
		}
	}
	var out strings.Builder
	if err := WritePast(&out, file("1200", false), 16); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "not predicted") || !strings.Contains(out.String(), "its instructions at 0.174 ns an instruction") {
		t.Errorf("the main job's lines say:\n%s", out.String())
	}
}

// TestTheMachinesOwnConstantsPredictWithinItsCores: results of a machine
// that keeps its own constants are predicted within its cores with them,
// and the note says so; results of another machine with the runner's.
func TestTheMachinesOwnConstantsPredictWithinItsCores(t *testing.T) {
	t.Setenv("PERFRUN_CONSTANTS", t.TempDir())
	own := predict.Measured{Windows: 9, Parallel: 2,
		Low:  predict.Constants{Handoff: 30e-6, Spin: 500e-9, Transfer: 200e-9},
		Mid:  predict.Constants{Handoff: 31e-6, Spin: 510e-9, Transfer: 210e-9},
		High: predict.Constants{Handoff: 32e-6, Spin: 520e-9, Transfer: 220e-9}}
	if _, err := hostconstants.Save(own, "Kept CPU", 2, time.Now()); err != nil {
		t.Fatal(err)
	}
	read := func(cpu string) *records.Set {
		set, err := records.Read(strings.NewReader("cpu: "+cpu+"\ncores: 2\nBenchmarkIssuer/impl=rcu/threads=1 1 90 ns/op\n"), "run.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	if m, note := FromCounts(read("Kept CPU")); m.Within == nil || m.Within.Mid.Transfer != 210e-9 || !strings.Contains(note, "this machine's own constants (Kept CPU ×2)") {
		t.Errorf("the machine's own constants were not used, or not named: %+v", m.Within)
	}
	if m, note := FromCounts(read("Another CPU")); m.Within == nil || m.Within.Mid.Transfer != predict.Runner.Mid.Transfer || !strings.Contains(note, "another processor") {
		t.Errorf("another machine's results used the record, or did not say whose constants they use (%q): %+v", note, m.Within)
	}
}
