package cli

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/internal/hostconstants"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

// recordComparison writes what ab -report records of a comparison of one
// hashmap cell at 1 and 2 threads whose time did not move: the windows,
// both arms' instruction counts and the lock profiles base and head give.
func recordComparison(t *testing.T, base, head locks.Profile) string {
	t.Helper()
	return recordContended(t, base, head, 1)
}

// recordContended is recordComparison with head's time at 2 threads
// times headAt2: what contention did there.
func recordContended(t *testing.T, base, head locks.Profile, headAt2 float64) string {
	t.Helper()
	return writeRecording(t, func(threads, round, arm int) float64 {
		j := 1 + 0.01*float64(round%7-3)
		if threads == 2 && arm == 1 {
			j *= headAt2
		}
		return j
	}, map[string][]byte{
		"locks.csv": abcount.WriteLocks([]string{recordedCell}, abcount.Profiles{recordedCell: {base, head}}),
	})
}

// recordedCell is the 1-thread cell of writeRecording's recordings.
const recordedCell = "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"

// writeRecording writes a recording of recordedCell at 1 and 2 threads, 30
// rounds, each window its cell's time times jitter(threads, round, arm
// index), with instructions that did not move and the files of more
// besides.
func writeRecording(t *testing.T, jitter func(threads, round, arm int) float64, more map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	two := records.AtThreads(recordedCell, 2)
	windows := make(map[string][]compare.Window)
	for round := range 30 {
		for i, arm := range []string{compare.ArmBase, compare.ArmHead, compare.ArmBase2} {
			windows[recordedCell] = append(windows[recordedCell], compare.Window{Round: round, Arm: arm, Value: 470e-9 * jitter(1, round, i), Probe: 20e-9})
			windows[two] = append(windows[two], compare.Window{Round: round, Arm: arm, Value: 260e-9 * jitter(2, round, i), Probe: 20e-9})
		}
	}
	files := map[string][]byte{
		"windows.csv":      ab.WriteWindows([]string{recordedCell, two}, windows, 2),
		"instructions.csv": abcount.WriteInstructions([]string{recordedCell}, abcount.Counts{recordedCell: {{3418}, {3418}}}),
	}
	maps.Copy(files, more)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "windows.csv")
}

// hashmapProfile is the hashmap's lookup: its read lock, whose reader
// count two atomics write; writeLocked the same lookup under the write lock.
var (
	hashmapProfile = locks.Profile{SharedLocks: 1, SharedLockedInstructions: 50, Atomics: 2,
		Locks: []locks.LockProfile{{Kind: "sync.RWMutex", Shared: 1, HeldShared: 50}}}
	writeLocked = locks.Profile{ExclusiveLocks: 1, LockedInstructions: 50, Atomics: 4,
		Locks: []locks.LockProfile{{Kind: "sync.RWMutex", Exclusive: 1, HeldExclusive: 50}}}
)

// replayVerdict judges a recording again at ab's defaults (and flags).
func replayVerdict(t *testing.T, file string, flags ...string) (int, compare.Report, string) {
	t.Helper()
	out := filepath.Join(filepath.Dir(file), "v.json")
	report := filepath.Join(filepath.Dir(file), "report")
	code, stdout, stderr := perfrun(append([]string{"ab", "-replay", file, "-json", out, "-report", report}, flags...)...)
	var rep compare.Report
	data, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(data, &rep) != nil {
		t.Fatalf("exit %d, no verdict file: %v\n%s\n%s", code, err, stdout, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(report, "report.md"))
	return code, rep, string(md)
}

// TestABPredictsTheWriteLock is the case the prediction exists for: a
// lookup that takes the write lock where it took the read lock, its time
// at 1 thread unmoved, at 2 threads what the prediction gives there. At
// ab's defaults the prediction at 16 threads fails the cell, its reason
// names the lock, and the lock units gate beside it, and the page opens
// with it and its picture.
func TestABPredictsTheWriteLock(t *testing.T) {
	code, rep, md := replayVerdict(t, recordContended(t, hashmapProfile, writeLocked, 3.1))
	if code != subcommand.ExitRegression {
		t.Fatalf("exit %d, want %d (REGRESSION)", code, subcommand.ExitRegression)
	}
	var predicted *compare.CellVerdict
	for i, c := range rep.Cells {
		switch {
		case c.Unit == predict.Unit(predict.DefaultThreads):
			predicted = &rep.Cells[i]
		case c.Unit == records.ExclusiveLocks && (c.Verdict != compare.Regression || !strings.Contains(c.Reason, "predicted at 16 threads: +")):
			t.Errorf("exclusive-locks/op is %s (%s): every unit moved one way, so it gates, saying what the prediction makes of it", c.Verdict, c.Reason)
		}
	}
	if predicted == nil || predicted.Verdict != compare.Regression {
		t.Fatalf("no REGRESSION at 16 threads: %+v", rep.Cells)
	}
	if !strings.HasPrefix(predicted.Reason, "at 16 threads +") || !strings.Contains(predicted.Reason, "calls take an exclusive lock, 0 -> 1 per op") {
		t.Errorf("the reason does not give the cost at 16 threads and the lock: %s", predicted.Reason)
	}
	lead, table := strings.Index(md, "### At 16 threads"), strings.Index(md, "| | cell |")
	if lead < 0 || table < 0 || lead > table || !strings.Contains(md, "images/at-16-threads-1.png") || !strings.Contains(md, "the prediction at 16 threads") {
		t.Errorf("report.md does not open with the answer at 16 threads and its picture:\n%s", md)
	}
}

// TestABPredictionThatMissedTimeIsNoWitness: the write lock again, its
// recorded time at 2 threads unmoved where the prediction is far slower:
// a prediction that misses time is no witness alone, so at 16 threads it
// decides nothing. The exact counts still fail the change, and the
// prediction's cell says where it missed.
func TestABPredictionThatMissedTimeIsNoWitness(t *testing.T) {
	code, rep, _ := replayVerdict(t, recordComparison(t, hashmapProfile, writeLocked))
	if code != subcommand.ExitRegression {
		t.Fatalf("exit %d, want %d (REGRESSION by the exact counts)", code, subcommand.ExitRegression)
	}
	for _, d := range rep.Decided {
		if d.At == predict.DefaultThreads && (d.By != compare.ByCounted || d.Prediction != compare.PredictionMissed) {
			t.Errorf("at 16 threads decided %s by %q, prediction %s: want by an exact count, the prediction missed", d.Verdict, d.By, d.Prediction)
		}
	}
	for _, c := range rep.Cells {
		if c.Unit == predict.Unit(predict.DefaultThreads) && (c.Verdict != compare.NotGated || !strings.Contains(c.Reason, "no witness alone: the prediction missed time at 2 threads: predicted +")) {
			t.Errorf("the prediction's cell does not say it missed: %s %s", c.Verdict, c.Reason)
		}
	}
}

// TestABPredictsIdenticalCodeAsOne: the same profiles and instructions
// predict exactly 1 at every thread count: a PASS on the prediction, and
// the page says no cell moved.
func TestABPredictsIdenticalCodeAsOne(t *testing.T) {
	_, rep, md := replayVerdict(t, recordComparison(t, hashmapProfile, hashmapProfile))
	found := false
	for _, c := range rep.Cells {
		if compare.Predicted(c.Unit) {
			found = true
			if c.Verdict != compare.Pass || c.Ratio != 1 {
				t.Errorf("identical code at 16 threads: %s %v (%s), want PASS at exactly 1", c.Verdict, c.Ratio, c.Reason)
			}
		}
	}
	if !found || !strings.Contains(md, "No cell's prediction moved") {
		t.Errorf("no prediction, or the page does not say none moved:\n%s", md)
	}
}

// TestABWithoutACountPastTheCoresGatesTheUnits: -at 1,2 declares no count
// past the cores, so the prediction is shown, not gated, and the lock units
// (witnesses of every count past 1) fail the cell alone.
func TestABWithoutACountPastTheCoresGatesTheUnits(t *testing.T) {
	code, rep, _ := replayVerdict(t, recordComparison(t, hashmapProfile, writeLocked), "-at", "1,2")
	if code != subcommand.ExitRegression {
		t.Fatalf("exit %d, want REGRESSION by the lock units", code)
	}
	for _, c := range rep.Cells {
		if compare.Predicted(c.Unit) && c.Verdict != compare.NotGated {
			t.Errorf("-at 1,2 gated the prediction: %+v", c)
		}
		if c.Unit == records.ExclusiveLocks && c.Verdict != compare.Regression {
			t.Errorf("exclusive-locks/op %s, want REGRESSION", c.Verdict)
		}
	}
}

// TestReplayFailsClosedOnCounts: the counts recorded beside windows.csv
// decide verdicts, so a file there that is not whole, not a file, or of
// another comparison refuses the replay (exit 2) rather than judge a
// cell on counts it lacks.
func TestReplayFailsClosedOnCounts(t *testing.T) {
	const one = "Issuer/impl=hashmap/certs=1024/hit=1/threads=1"
	for what, spoil := range map[string]func(dir string) error{
		"instructions of base alone": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "instructions.csv"), []byte("cell,arm,value\n"+one+",base,3418\n"), 0o644)
		},
		"a lock profile of head alone": func(dir string) error {
			data := abcount.WriteLocks([]string{one}, abcount.Profiles{one: {hashmapProfile, writeLocked}})
			lines := strings.SplitAfter(string(data), "\n")
			return os.WriteFile(filepath.Join(dir, "locks.csv"), []byte(lines[0]+strings.Join(lines[8:], "")), 0o644)
		},
		"a folder in place of the lock profiles": func(dir string) error {
			os.Remove(filepath.Join(dir, "locks.csv"))
			return os.Mkdir(filepath.Join(dir, "locks.csv"), 0o755)
		},
		"counts of a cell the windows lack": func(dir string) error {
			other := strings.Replace(one, "hashmap", "sorted", 1)
			return os.WriteFile(filepath.Join(dir, "instructions.csv"), abcount.WriteInstructions([]string{one, other},
				abcount.Counts{one: {{3418}, {3418}}, other: {{5226}, {300}}}), 0o644)
		},
	} {
		file := recordComparison(t, hashmapProfile, hashmapProfile)
		if err := spoil(filepath.Dir(file)); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := perfrun("ab", "-replay", file)
		if code != subcommand.ExitUsage {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", what, code, subcommand.ExitUsage, stdout, stderr)
		}
	}
}

// TestABTradeIsDecidedByThePrediction: sorted checking every candidate
// in one hold instead of two — one acquisition a lookup instead of 1.275,
// each held longer — is IMPROVED by one unit and a REGRESSION by another.
// The units do not decide it: the predicted time at 16 threads does, and
// the cell is not failed by the unit that got worse.
func TestABTradeIsDecidedByThePrediction(t *testing.T) {
	sorted := locks.Profile{ExclusiveLocks: 1.275, LockedInstructions: 1796, Atomics: 2.55,
		Locks: []locks.LockProfile{{Kind: "sync.Mutex", Exclusive: 1.275, HeldExclusive: 1796}}}
	once := locks.Profile{ExclusiveLocks: 1, LockedInstructions: 2064, Atomics: 2,
		Locks: []locks.LockProfile{{Kind: "sync.Mutex", Exclusive: 1, HeldExclusive: 2064}}}
	code, rep, _ := replayVerdict(t, recordComparison(t, sorted, once))
	var predicted compare.CellVerdict
	for _, c := range rep.Cells {
		if slices.Contains(records.LockUnits, c.Unit) && c.Verdict != compare.NotGated {
			t.Errorf("%s is %s in a trade: the prediction decides", c.Unit, c.Verdict)
		}
		if compare.Predicted(c.Unit) {
			predicted = c
		}
	}
	if predicted.Verdict != compare.Improved || !strings.Contains(predicted.Reason, "decided by the predicted time") {
		t.Fatalf("the trade at 16 threads: %s %s, want IMPROVED, decided by the predicted time", predicted.Verdict, predicted.Reason)
	}
	if code != subcommand.ExitOK {
		t.Errorf("exit %d, want %d: no witness failed the cell", code, subcommand.ExitOK)
	}
}

// TestAReplayPredictsWithTheRecordedConstants: the write lock, its time at
// 2 threads unmoved, recorded with the constants of a machine whose locks
// and lines cost next to nothing (constants.json, as ab records a
// machine's own): within the cores the prediction is made with them, so
// it gives about what the recorded time says, holds, and decides 16
// threads. The same recording without them predicts with the runner's
// and misses.
func TestAReplayPredictsWithTheRecordedConstants(t *testing.T) {
	file := recordComparison(t, hashmapProfile, writeLocked)
	cheap := hostconstants.Record{CPU: "Recorded CPU", Cores: 2, Measured: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC), Windows: 9, Transfer: hostconstants.TransferMove}
	cheap.Low = predict.Constants{Handoff: 1e-9, Spin: 1e-9, Transfer: 1e-9}
	cheap.Mid, cheap.High = cheap.Low, cheap.Low
	data, _ := json.Marshal(cheap)
	if err := os.WriteFile(filepath.Join(filepath.Dir(file), "constants.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, rep, _ := replayVerdict(t, file)
	for _, d := range rep.Decided {
		if d.At == predict.DefaultThreads && (d.By != compare.ByPrediction || d.Prediction != compare.PredictionWorse) {
			t.Errorf("with the recorded constants, 16 threads decided by %q, prediction %s: want by the prediction", d.By, d.Prediction)
		}
	}
	os.WriteFile(filepath.Join(filepath.Dir(file), "constants.json"), []byte(`{"cpu": "x"}`), 0o644)
	if code, _, stderr := perfrun("ab", "-replay", file); code != subcommand.ExitUsage || !strings.Contains(stderr, "constants.json") {
		t.Errorf("a constants.json that is no record: exit %d, want %d naming it\n%s", code, subcommand.ExitUsage, stderr)
	}
}
