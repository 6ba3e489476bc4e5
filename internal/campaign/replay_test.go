package campaign

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
)

// TestEveryCountFileIsUsedOrRefused: traffic.csv is counted in the pass
// that counts instructions. Recorded of the same cells in another order it
// is used; beside no instructions.csv, of fewer cells, or with a header
// alone it is refused by name, where it was once left out without a word
// (a syscalls REGRESSION recorded there became INCONCLUSIVE).
func TestEveryCountFileIsUsedOrRefused(t *testing.T) {
	a, b := "Issuer/impl=rcu/threads=1", "Issuer/impl=hashmap/threads=1"
	data, rec := recording(t, a, b)
	counts := abcount.Counts{a: {{100}, {100}}, b: {{200}, {200}}}
	side := []callgrind.Traffic{{L1Misses: 1, LLMisses: 0.1}}
	traffic := abcount.Traffic{a: {side, side}, b: {side, side}}
	for _, tc := range []struct {
		name            string
		instr, traffics []string // nil: no such file
		refused         bool
	}{
		{"the same cells", []string{a, b}, []string{a, b}, false},
		{"another order", []string{a, b}, []string{b, a}, false},
		{"no traffic file", []string{a, b}, nil, false},
		{"no instructions file", nil, []string{a, b}, true},
		{"fewer cells", []string{a, b}, []string{a}, true},
		{"a header alone", []string{a, b}, []string{}, true},
	} {
		dir := t.TempDir()
		file := filepath.Join(dir, "windows.csv")
		os.WriteFile(file, data, 0o644)
		if tc.instr != nil {
			os.WriteFile(filepath.Join(dir, "instructions.csv"), abcount.WriteInstructions(tc.instr, counts), 0o644)
		}
		if tc.traffics != nil {
			os.WriteFile(filepath.Join(dir, "traffic.csv"), abcount.WriteTraffic(tc.traffics, traffic), 0o644)
		}
		set, err := replayCounts(file, rec)
		switch {
		case tc.refused && (err == nil || !strings.Contains(err.Error(), "traffic.csv")):
			t.Errorf("%s: %v, want traffic.csv refused by name", tc.name, err)
		case !tc.refused && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !tc.refused && tc.traffics != nil && len(set.traffic) != 2:
			t.Errorf("%s: %d cells of traffic used, want 2", tc.name, len(set.traffic))
		}
	}
}

// TestCountsOfCellsNoRunCountsAreRefused: ab counts 1-thread cells alone;
// a count file that names a cell of more threads is no recording of ab's.
func TestCountsOfCellsNoRunCountsAreRefused(t *testing.T) {
	one, four := "Issuer/impl=rcu/threads=1", "Issuer/impl=rcu/threads=4"
	data, rec := recording(t, one, four)
	dir := t.TempDir()
	file := filepath.Join(dir, "windows.csv")
	os.WriteFile(file, data, 0o644)
	os.WriteFile(filepath.Join(dir, "instructions.csv"), abcount.WriteInstructions([]string{one, four}, abcount.Counts{one: {{100}, {100}}, four: {{100}, {100}}}), 0o644)
	if _, err := replayCounts(file, rec); err == nil || !strings.Contains(err.Error(), "4 threads") {
		t.Errorf("counts of a 4-thread cell: %v, want them refused", err)
	}
}

// recording is a windows.csv of three even rounds of cells on a 2-core
// machine, and the recording it reads back as.
func recording(t *testing.T, cells ...string) ([]byte, *ab.Recording) {
	t.Helper()
	windows := map[string][]compare.Window{}
	for round := range 3 {
		for _, arm := range []string{compare.ArmBase, compare.ArmHead, compare.ArmBase2} {
			for _, c := range cells {
				windows[c] = append(windows[c], compare.Window{Round: round, Arm: arm, Value: 100e-9, Probe: 20e-9})
			}
		}
	}
	data := ab.WriteWindows(cells, windows, 2)
	rec, err := ab.ReadWindows(bytes.NewReader(data), 2)
	if err != nil {
		t.Fatal(err)
	}
	return data, rec
}

// TestWindowsPastTheLooksAreTold: a recording with rounds past those its
// looks read (rounds 40-44, head a third faster, appended to 10 rounds
// that decide at the first look) is judged on the rounds read, and the
// rounds left out are named in a note, where they were once dropped
// without a word.
func TestWindowsPastTheLooksAreTold(t *testing.T) {
	cell := "Issuer/impl=rcu/threads=1"
	windows := map[string][]compare.Window{}
	add := func(round int, head float64) {
		for arm, v := range map[string]float64{compare.ArmBase: 100e-9, compare.ArmHead: head, compare.ArmBase2: 100e-9} {
			windows[cell] = append(windows[cell], compare.Window{Round: round, Arm: arm, Value: v * (1 + 0.001*float64(round%3)), Probe: 20e-9})
		}
	}
	for round := range 10 {
		add(round, 100e-9)
	}
	for round := 40; round < 45; round++ {
		add(round, 67e-9)
	}
	data := ab.WriteWindows([]string{cell}, windows, 2)
	c := &Campaign{Thresholds: compare.DefaultThresholds, Rounds: 10, Looks: 3}
	res, _, err := c.Replay("windows.csv", data, 2)
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(res.Report.Warnings, "\n")
	if !strings.Contains(said, "windows.csv holds rounds 40-44 (15 windows) past the rounds this replay's looks read") {
		t.Errorf("the rounds past the looks are not told:\n%s", said)
	}
}

// TestACellCutFromTheLockProfilesIsTold: a recording whose locks.csv
// lost a counted cell's rows (here: every row, the header kept) predicts
// nothing for it, and says so, where its 16-thread verdict once vanished
// without a word (cutting its instructions was told).
func TestACellCutFromTheLockProfilesIsTold(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"windows.csv", "instructions.csv"} {
		data, err := os.ReadFile(filepath.Join("../../docs/testdata/c-hashmap", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "locks.csv"), []byte("cell,arm,unit,value\n"), 0o644)
	data, _ := os.ReadFile(filepath.Join(dir, "windows.csv"))
	c := &Campaign{Thresholds: compare.DefaultThresholds, Rounds: 10, Looks: 3, At: []int{1, 2, 16}}
	res, _, err := c.Replay(filepath.Join(dir, "windows.csv"), data, 2)
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(res.Report.Warnings, "\n")
	if !strings.Contains(said, "no prediction at 16 threads: Issuer/impl=hashmap/certs=1024/hit=1/threads=1: no lock profile") {
		t.Errorf("a counted cell with no lock profile is not told:\n%s", said)
	}
}
