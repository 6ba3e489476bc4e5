package hostconstants

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/predict"
)

// measured are constants as a quiet machine's Measure gives them.
var measured = predict.Measured{Windows: 9, Parallel: 1.98,
	Low:  predict.Constants{Handoff: 30e-6, Spin: 200e-9, Transfer: 40e-9},
	Mid:  predict.Constants{Handoff: 40e-6, Spin: 300e-9, Transfer: 50e-9},
	High: predict.Constants{Handoff: 60e-6, Spin: 400e-9, Transfer: 70e-9}}

// TestAMachineKeepsItsOwnConstants: constants kept for one machine are
// the ones it predicts with, named; another processor or another count
// of cores gets the runner's, and says whose; a busy machine's are not
// kept; a record that is no record is not used, and says so.
func TestAMachineKeepsItsOwnConstants(t *testing.T) {
	t.Setenv("PERFRUN_CONSTANTS", t.TempDir())
	const cpu = "Some CPU @ 2.00GHz"
	if k, r, note := For(cpu, 2); r != nil || k.CPU != predict.Runner.CPU || !strings.Contains(note, "another processor") {
		t.Errorf("no record: %v %q, want the runner's constants and a note naming them", r, note)
	}
	busy := measured
	busy.Parallel = 1.2
	if _, err := Save(busy, cpu, 2, time.Now()); err == nil {
		t.Error("a busy machine's constants were kept")
	}
	p, err := Save(measured, cpu, 2, time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	k, r, note := For(cpu, 2)
	if r == nil || !strings.Contains(note, "this machine's own constants (Some CPU @ 2.00GHz ×2), measured on 2026-12-06") || k.Mid.Spin != 300e-9 || k.Mid.Transfer != 50e-9 || k.MeasuredOn != 2 || k.Mid.Instruction == 0 ||
		!strings.Contains(k.Source, "measured on this machine on 2026-12-06") || !strings.Contains(k.Source, p) {
		t.Errorf("this machine's record: %+v, %q: want its constants, named", k, note)
	}
	if k.Mid.SpinFor != 4*300e-9 {
		t.Errorf("SpinFor %g, want four spinning hand-offs at the middle's", k.Mid.SpinFor)
	}
	for _, other := range []struct {
		cpu   string
		cores int
	}{{"Another CPU", 2}, {cpu, 4}} {
		if k, r, _ := For(other.cpu, other.cores); r != nil || k.CPU == cpu {
			t.Errorf("%s ×%d used the record of %s ×2", other.cpu, other.cores, cpu)
		}
	}
	os.WriteFile(p, []byte(`{"cpu": "Some CPU @ 2.00GHz", "cores": 2}`), 0o644)
	if _, r, note := For(cpu, 2); r != nil || !strings.Contains(note, "no record of this machine's constants") {
		t.Errorf("a record without constants was used, or not named: %q", note)
	}
	// A record kept before a transfer was one move holds a whole turn.
	os.WriteFile(p, []byte(`{"cpu": "Some CPU @ 2.00GHz", "cores": 2, "windows": 9,
		"mid": {"Handoff": 4e-5, "Spin": 3e-7, "Transfer": 1e-7}}`), 0o644)
	if _, r, note := For(cpu, 2); r != nil || !strings.Contains(note, "a whole turn") || !strings.Contains(note, "measure again") {
		t.Errorf("a record of turns was used, or not named: %q", note)
	}
}
