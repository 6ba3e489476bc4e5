package cli

import (
	"math"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/records"
)

// recordNoisy writes what ab -report records of identical hashmap code
// on a host whose windows move ±25% at random, so that time cannot decide:
// the windows, identical instructions and lock profiles, and the traffic
// given (none: no traffic file, as a recording from before it).
func recordNoisy(t *testing.T, traffic abcount.Traffic) string {
	t.Helper()
	more := map[string][]byte{"locks.csv": abcount.WriteLocks([]string{recordedCell}, abcount.Profiles{recordedCell: {hashmapProfile, hashmapProfile}})}
	if traffic != nil {
		more["traffic.csv"] = abcount.WriteTraffic([]string{recordedCell}, traffic)
	}
	return writeRecording(t, func(_, round, arm int) float64 { return 1 + 0.25*math.Sin(float64(7*round+3*arm)*1.3) }, more)
}

const noisyCell = recordedCell

// same is traffic that did not move, two processes a side whose simulated
// caches miss a little differently, as processes' addresses make them.
var same = abcount.Traffic{noisyCell: {
	{{L1Misses: 13.50, LLMisses: 0.500}, {L1Misses: 13.52, LLMisses: 0.501}},
	{{L1Misses: 13.51, LLMisses: 0.499}, {L1Misses: 13.49, LLMisses: 0.502}},
}}

// TestPassByCountsWhereTimeCannotDecide is what the PASS by counts exists
// for: identical code on a host too noisy for time. At ab's defaults every
// time cell is a PASS that says it rests on the counts; -strict keeps
// time's INCONCLUSIVE; a recording without traffic counts (no cache misses
// or system calls seen) gets no PASS by counts.
func TestPassByCountsWhereTimeCannotDecide(t *testing.T) {
	code, rep, md := replayVerdict(t, recordNoisy(t, same))
	if code != subcommand.ExitOK || rep.Verdict != compare.Pass {
		t.Fatalf("exit %d, %s: want PASS by counts\n%+v", code, rep.Verdict, rep.Cells)
	}
	timed := 0
	for _, c := range rep.Cells {
		if c.Unit == records.Tidy("ns/op") || c.Unit == "sec/op" {
			timed++
			if !c.ByCounts || !strings.HasPrefix(c.Reason, "by counts:") {
				t.Errorf("%s: %s %q, want a PASS by counts", c.Name, c.Verdict, c.Reason)
			}
		}
	}
	if timed != 2 || !strings.Contains(md, "by counts") {
		t.Errorf("%d time cells, or the page does not say by counts:\n%s", timed, md)
	}
	if strings.Contains(md, "can have been missed") {
		t.Errorf("the page promises what only time can, where time decided nothing:\n%s", md)
	}
	if code, rep, _ := replayVerdict(t, recordNoisy(t, same), "-strict"); code != subcommand.ExitInconclusive || rep.Verdict != compare.Inconclusive {
		t.Errorf("-strict: exit %d, %s: want INCONCLUSIVE, time's rule", code, rep.Verdict)
	}
	if code, rep, _ := replayVerdict(t, recordNoisy(t, nil)); code != subcommand.ExitInconclusive {
		t.Errorf("without traffic counts: exit %d, %s: want INCONCLUSIVE (no count saw memory)", code, rep.Verdict)
	}
}

// TestTrafficIsNeverAPassByCounts: a change that adds only memory traffic
// (a cold read on a tenth of the lookups: +0.1 last-level misses an op)
// or only a system call on a tenth of them, its instructions and locks
// unchanged, is a REGRESSION by that count, never a PASS by counts.
func TestTrafficIsNeverAPassByCounts(t *testing.T) {
	base := []callgrind.Traffic{{L1Misses: 13.50, LLMisses: 0.500}, {L1Misses: 13.52, LLMisses: 0.501}}
	for _, c := range []struct {
		unit string
		head []callgrind.Traffic
	}{
		{records.LLMisses, []callgrind.Traffic{{L1Misses: 13.61, LLMisses: 0.600}, {L1Misses: 13.60, LLMisses: 0.601}}},
		{records.Syscalls, []callgrind.Traffic{{L1Misses: 13.50, LLMisses: 0.500, Syscalls: 0.1}, {L1Misses: 13.51, LLMisses: 0.501, Syscalls: 0.1}}},
	} {
		code, rep, _ := replayVerdict(t, recordNoisy(t, abcount.Traffic{noisyCell: {base, c.head}}))
		if code != subcommand.ExitRegression {
			t.Errorf("%s: exit %d, %s: want REGRESSION", c.unit, code, rep.Verdict)
		}
		for _, v := range rep.Cells {
			if v.ByCounts {
				t.Errorf("%s: %s is a PASS by counts", c.unit, v.Name)
			}
			if v.Unit == c.unit && v.Verdict != compare.Regression {
				t.Errorf("%s: %s (%s), want REGRESSION", c.unit, v.Verdict, v.Reason)
			}
		}
	}
}
