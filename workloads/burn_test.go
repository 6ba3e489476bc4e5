package workloads

import (
	"strconv"
	"testing"
)

// TestBurnFromTheMeasuringProcess: a process given BurnEnv sizes its
// work by it, not by its own timing (under valgrind some fifty times
// slower), and BurnSetting hands on what this process uses.
func TestBurnFromTheMeasuringProcess(t *testing.T) {
	own := nsPerRound()
	t.Setenv(BurnEnv, strconv.FormatFloat(50*own, 'g', -1, 64))
	if got := nsPerRound(); got != 50*own {
		t.Errorf("with %s=%g: a round takes %g ns, want the given %g", BurnEnv, 50*own, got, 50*own)
	}
	if got, _ := strconv.ParseFloat(BurnSetting(), 64); got != 50*own {
		t.Errorf("BurnSetting %q, want the round in use, %g", BurnSetting(), 50*own)
	}
	t.Setenv(BurnEnv, "nonsense")
	if got := nsPerRound(); got != own {
		t.Errorf("with a malformed %s: %g ns, want this process's own %g", BurnEnv, got, own)
	}
}
