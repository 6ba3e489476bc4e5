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
