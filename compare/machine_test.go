package compare

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// timedCells are the report's verdicts on the timed metric of the cells
// it gated (not the exact units, not the oversubscribed cells).
func timedCells(rep *Report) []CellVerdict {
	var out []CellVerdict
	for _, c := range rep.Cells {
		if c.Unit == DefaultThresholds.Metric && c.Verdict != NotGated {
			out = append(out, c)
		}
	}
	return out
}

// gateJourney gates two runs of the baseline journey (testdata/journey, the
// runs results/baseline-journey describes) at the defaults.
func gateJourney(t *testing.T, old, new string) *Report {
	t.Helper()
	rep, err := Gate(readJourney(t, old), readJourney(t, new), DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// noteSays says whether the report's note on the machine at threads
// ("1 thread," or "2 threads,") contains text.
func noteSays(rep *Report, threads, text string) bool {
	for _, w := range rep.Warnings {
		if strings.Contains(w, "the machine at "+threads) && strings.Contains(w, text) {
			return true
		}
	}
	return false
}

// passes says whether the report gave the named cell PASS on the timed
// metric.
func passes(rep *Report, name string) bool {
	for _, c := range timedCells(rep) {
		if c.Name == name && c.Verdict == Pass {
			return true
		}
	}
	return false
}

func readJourney(t *testing.T, path string) *records.Set {
	t.Helper()
	s, err := records.ReadFile(filepath.Join(journey, path))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGateMachineMovedOnRealRuns: two runs of one commit, the second in a
// slow minute of the host (its speed probe +7.8% at 1 thread, +3.1% at
// 2). The cells' own statistics call sortoninsert at 1 thread a
// REGRESSION (+51%); the machine's view makes every cell INCONCLUSIVE,
// naming it.
func TestGateMachineMovedOnRealRuns(t *testing.T) {
	rep := gateJourney(t, "slow-minute/old.txt", "slow-minute/new.txt")
	hidden := 0
	for _, c := range timedCells(rep) {
		if c.Verdict != Inconclusive || c.Vetoed != VetoMachine {
			t.Errorf("%s: %s: %s", c.Name, c.Verdict, c.Reason)
		}
		if strings.Contains(c.Reason, "slower, above the 5% threshold") {
			hidden++ // what the cell alone would have said
		}
	}
	if hidden == 0 {
		t.Errorf("no cell's own statistic was a REGRESSION: the data no longer shows what the machine's view is for")
	}
}

// TestGateDefaultRunsOfOneCommit: sixteen default runs of one commit over
// half an hour, gated pairwise both ways (240 gates). A REGRESSION on
// any cell of a gate is a false alarm: the gate promises at most -alpha
// (5%) of them, and without the machine's view 38 of the 240 gates
// (16%) had one. Each cell left undecided says what the machine did.
func TestGateDefaultRunsOfOneCommit(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(journey, "default-runs", "run-*.txt"))
	if err != nil || len(files) != 16 {
		t.Fatalf("%d runs (%v), want 16", len(files), err)
	}
	var runs []*records.Set
	for _, f := range files {
		runs = append(runs, readJourney(t, filepath.Join("default-runs", filepath.Base(f))))
	}
	gates, alarms := 0, 0
	for i, a := range runs {
		for j, b := range runs {
			if i == j {
				continue
			}
			rep, err := Gate(a, b, DefaultThresholds)
			if err != nil {
				t.Fatal(err)
			}
			gates++
			alarm := false
			for _, c := range timedCells(rep) {
				if c.Verdict == Regression {
					alarm = true
					t.Logf("run %d against %d, %s: REGRESSION: %s", i+1, j+1, c.Name, c.Reason)
				}
				if c.Verdict == Inconclusive && !strings.Contains(c.Reason, "the machine") { // what it says: not all are vetoed
					t.Errorf("run %d against %d, %s: INCONCLUSIVE without the machine: %s", i+1, j+1, c.Name, c.Reason)
				}
			}
			if alarm {
				alarms++
			}
			if !strings.Contains(strings.Join(rep.Warnings, "\n"), "the machine at 2 threads") {
				t.Errorf("run %d against %d: notes %q", i+1, j+1, rep.Warnings)
			}
		}
	}
	if rate := float64(alarms) / float64(gates); rate > DefaultThresholds.Alpha {
		t.Errorf("false REGRESSION in %d of %d gates of one commit (%.1f%%), above alpha %.0f%%", alarms, gates, 100*rate, 100*DefaultThresholds.Alpha)
	}
}

// TestMachineNoteBesideAnUndecidedCell: a cell left with too few rounds
// to test (set aside by a slow host) still gets the note on the machine
// at its thread count, as a tested one does (a slow CI host once left the
// gate without a word on the machine there).
func TestMachineNoteBesideAnUndecidedCell(t *testing.T) {
	read := func(text, name string) *records.Set {
		s, err := records.Read(strings.NewReader(text), name, name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cell := "BenchmarkIssuer/impl=rcu/threads=1 1 %s ns/op 30 probe-ns/call\n"
	text := "cores: 2\n" + strings.Repeat(fmt.Sprintf(cell, "40"), 3)
	short := "cores: 2\n" + strings.Repeat(fmt.Sprintf(cell, "40"), 2) + "quarantined: the machine ran more than 25% slower than usual (speed probe)\n" + fmt.Sprintf(cell, "90")
	rep, err := Gate(read(text, "old.txt"), read(short, "new.txt"), DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "the machine at 1 thread, new.txt against old.txt") {
		t.Fatalf("no note on the machine at 1 thread beside the undecided cell: %q", rep.Warnings)
	}
}

// TestMachineNotesSayWhatTheyCouldNotSee: a thread count at which neither
// run kept a speed probe or a control still gets a note, saying the
// machine's move is unknown, instead of no word about the machine.
func TestMachineNotesSayWhatTheyCouldNotSee(t *testing.T) {
	m := machineView{old: "old.txt", new: "new.txt", at: map[int]*machineAt{}}
	notes := m.notes([]int{2}, 0.05)
	if len(notes) != 1 || !strings.Contains(notes[0], "the machine at 2 threads, new.txt against old.txt: not seen") {
		t.Fatalf("notes %q, want one saying the machine was not seen at 2 threads", notes)
	}
}

// TestGateNamesTheFloorProbe: two default runs of one commit, the second
// in the host's slow state (every one-thread lookup about 1.5 times as
// long): the floor probe moved over 40% at both thread counts, and the
// gate names it beside the speed probe and gives no verdict on a store.
func TestGateNamesTheFloorProbe(t *testing.T) {
	rep := gateJourney(t, "floor-probe/set-b/run-1.txt", "floor-probe/set-b/run-4.txt")
	for _, threads := range []string{"1 thread,", "2 threads,"} {
		if !noteSays(rep, threads, "floor probe +4") {
			t.Errorf("no note names the floor probe at %s: %q", threads, rep.Warnings)
		}
	}
	gated := 0
	for _, c := range timedCells(rep) {
		gated++
		if c.Verdict != Inconclusive || c.Vetoed != VetoMachine || !strings.Contains(c.Reason, "its floor probe ran +4") {
			t.Errorf("%s: %s: %s", c.Name, c.Verdict, c.Reason)
		}
	}
	if gated != 8 {
		t.Errorf("%d gated cells, want 8", gated)
	}
}

// TestControlVetoesByItsInterval: the README's baseline journey. At 1
// thread the probes held still (speed +1.0%, floor +2.2%, dozens of
// windows a side) and the control's five rounds a side moved +5.1%
// [-3.7%, +14.7%]: an estimate that noisy is no evidence that the machine
// moved, so the 1-thread cells get verdicts on their own figures (hashmap:
// PASS at -0.6% [-3.4%, +2.2%]). At 2 threads the floor probe moved
// +11.9% and every cell there is still INCONCLUSIVE, naming it.
func TestControlVetoesByItsInterval(t *testing.T) {
	rep := gateJourney(t, "floor-probe/set-c/run-1.txt", "floor-probe/set-c/run-2.txt")
	for _, c := range timedCells(rep) {
		vetoed := c.Vetoed == VetoMachine
		switch {
		case c.Verdict == Regression:
			t.Errorf("%s: REGRESSION between two runs of one commit: %s", c.Name, c.Reason)
		case strings.HasSuffix(c.Name, "threads=1") && vetoed:
			t.Errorf("%s: vetoed at 1 thread: %s", c.Name, c.Reason)
		case strings.HasSuffix(c.Name, "threads=2") && (!vetoed || !strings.Contains(c.Reason, "its floor probe ran +11.9%")):
			t.Errorf("%s: %s: %s; want INCONCLUSIVE naming the floor probe", c.Name, c.Verdict, c.Reason)
		}
	}
	if !passes(rep, "Issuer/impl=hashmap/certs=1024/hit=1/threads=1") {
		t.Errorf("hashmap at 1 thread did not PASS")
	}
}

// TestFloorProbeWandersWithinAState: the README's baseline journey now.
// Both runs stayed in the host's fast state, and the floor probe moved
// +2.8% [+2.0%, +3.5%] at 1 thread and +3.4% at 2 — its own wander from
// process to process, past half the threshold but within the threshold
// (floorLimit). No cell is vetoed for it, and sortoninsert at 2 threads
// PASSes on its own figures (-1.7% [-4.7%, +1.5%]).
func TestFloorProbeWandersWithinAState(t *testing.T) {
	rep := gateJourney(t, "floor-probe/journey/run-1.txt", "floor-probe/journey/run-2.txt")
	for threads, move := range map[string]string{"1 thread,": "floor probe +2.8%", "2 threads,": "floor probe +3.4%"} {
		if !noteSays(rep, threads, move) {
			t.Errorf("no note at %s says %q: %q", threads, move, rep.Warnings)
		}
	}
	for _, c := range timedCells(rep) {
		if c.Verdict == Regression || c.Vetoed != "" {
			t.Errorf("%s: %s: %s", c.Name, c.Verdict, c.Reason)
		}
	}
	if !passes(rep, "Issuer/impl=sortoninsert/certs=1024/hit=1/threads=2") {
		t.Errorf("sortoninsert at 2 threads did not PASS")
	}
}

// TestGateNamesTwoLevels: in the second run of the ab-baseline journey,
// sortoninsert and hashmap at 2 threads ran 2 of their 5 rounds 1.8 times
// as fast as the other 3, with every probe steady. Their robust spread
// says ±1.5%, their interval about ±50%: the reason must say the rounds
// ran at two levels, in which run, and how far apart; a cell whose
// rounds held one level must not.
func TestGateNamesTwoLevels(t *testing.T) {
	rep := gateJourney(t, "ab-baseline/run-1.txt", "ab-baseline/run-2.txt")
	named := 0
	for _, c := range timedCells(rep) {
		twoLevels := strings.Contains(c.Reason, "rounds at two levels")
		bimodal := strings.HasSuffix(c.Name, "/threads=2") && (strings.Contains(c.Name, "impl=sortoninsert/") || strings.Contains(c.Name, "impl=hashmap/"))
		switch {
		case bimodal && c.Verdict != Inconclusive:
			t.Errorf("%s: %s, want INCONCLUSIVE: %s", c.Name, c.Verdict, c.Reason)
		case bimodal && !regexp.MustCompile(`in \S*ab-baseline/run-2\.txt its slowest round took 1\.8\d× its fastest`).MatchString(c.Reason):
			t.Errorf("%s: the reason does not name the two levels of run-2.txt: %s", c.Name, c.Reason)
		case !bimodal && twoLevels:
			t.Errorf("%s: named two levels it did not have: %s", c.Name, c.Reason)
		}
		if twoLevels {
			named++
		}
	}
	if named != 2 {
		t.Errorf("%d cells named two levels, want 2", named)
	}
}
