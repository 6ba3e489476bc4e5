package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// TestPredictionSaysWhereTheMeasurementSits: each thread count the input
// measured is held against the band, and one outside is named OUTSIDE.
func TestPredictionSaysWhereTheMeasurementSits(t *testing.T) {
	band := readSet(t, "predicted: yes\n"+
		"BenchmarkIssuer/impl=sorted/threads=1 1 100 ns/call 100 low-ns/call 100 high-ns/call\n"+
		"BenchmarkIssuer/impl=sorted/threads=2 1 170 ns/call 150 low-ns/call 200 high-ns/call\n"+
		"BenchmarkIssuer/impl=sorted/threads=4 1 300 ns/call 250 low-ns/call 380 high-ns/call\n")
	for _, tc := range []struct {
		two  string
		want string
	}{{"180", "inside the predicted band: 2 of 2"}, {"240", "inside the predicted band: 1 of 2"}} {
		in := readSet(t, "BenchmarkIssuer/impl=sorted/threads=1 1 100 ns/call\nBenchmarkIssuer/impl=sorted/threads=2 1 "+tc.two+" ns/call\n")
		var out bytes.Buffer
		report.WritePrediction(&out, band, in, predict.Measured{})
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("measured %s ns at 2 threads: want %q in\n%s", tc.two, tc.want, &out)
		}
		if tc.two == "240" && !strings.Contains(out.String(), "240.0 [240.0, 240.0] OUTSIDE") {
			t.Errorf("the point outside the band is not named:\n%s", &out)
		}
	}
}

// TestPredictionJudgesTheInterval: a band of one value (nothing shared)
// holds a measurement whose rounds jitter around it; rounds all well off it
// do not.
func TestPredictionJudgesTheInterval(t *testing.T) {
	band, err := records.Read(strings.NewReader("predicted: yes\n"+
		"BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/call 100 low-ns/call 100 high-ns/call\n"+
		"BenchmarkIssuer/impl=rcu/threads=2 1 100 ns/call 100 low-ns/call 100 high-ns/call\n"), "p.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rounds []string
		want   string
	}{
		{[]string{"97", "99", "101", "98", "102", "100", "99"}, "2 of 2"},
		{[]string{"90", "91", "89", "92", "90", "91", "90"}, "1 of 2"},
	} {
		text := "BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/call\n"
		for _, r := range tc.rounds {
			text += "BenchmarkIssuer/impl=rcu/threads=2 1 " + r + " ns/call\n"
		}
		in, err := records.Read(strings.NewReader(text), "r.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		report.WritePrediction(&out, band, in, predict.Measured{})
		if !strings.Contains(out.String(), "inside the predicted band: "+tc.want) {
			t.Errorf("rounds %v: want %s inside:\n%s", tc.rounds, tc.want, &out)
		}
	}
}

// TestPredictRefusesWhatCannotBe: a results file no prediction can come
// from is refused (exit 2) before the machine is measured: a profile
// holding a lock for more instructions than it executes, a prediction
// given as a measurement; and -as without -against says so, not ": <nil>".
func TestPredictRefusesWhatCannotBe(t *testing.T) {
	dir := t.TempDir()
	const profile = "Unit instructions/op assume=exact\ncores: 2\nBenchmarkIssuer/impl=sorted/threads=1 1 700 ns/op 700 ns/call 688 instructions/op 1 exclusive-locks/op 0 shared-locks/op %s locked-instructions/op 0 shared-locked-instructions/op 2 atomics/op\n"
	held := filepath.Join(dir, "held.txt")
	os.WriteFile(held, []byte(fmt.Sprintf(profile, "20005")), 0o644)
	forged := filepath.Join(dir, "forged.txt")
	os.WriteFile(forged, []byte("predicted: yes\n"+fmt.Sprintf(profile, "300")), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "-windows", "1", held}, "holds a lock for 2e+04 instructions of the 688"},
		{[]string{"predict", "-windows", "1", forged}, "is a prediction, not a measurement"},
		{[]string{"predict", "-as", "sorted=x", forged}, "go together"},
		{[]string{"predict", "-keep", held}, "-keep keeps constants measured here"},
	} {
		code, stdout, stderr := perfrun(tc.args...)
		if code != subcommand.ExitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "<nil>") || strings.Contains(stderr, "measuring the machine") {
			t.Errorf("perfrun %v: exit %d, want %d saying %q before measuring\n%s%s", tc.args, code, subcommand.ExitUsage, tc.want, stdout, stderr)
		}
	}
}

// TestPredictRefusesAnotherMachine: constants measured here say nothing
// of another machine's results, nor of two machines' pooled in one file:
// refused, naming both, under -constants measure; the default, the
// reference constants, predicts either.
func TestPredictRefusesAnotherMachine(t *testing.T) {
	dir := t.TempDir()
	const cell = "BenchmarkIssuer/impl=rcu/threads=1 1 700 ns/op 700 ns/call 688 instructions/op 0 exclusive-locks/op 0 shared-locks/op 0 locked-instructions/op 0 shared-locked-instructions/op 0 atomics/op\n"
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, []byte("cpu: Some Other CPU\ncores: 64\n"+cell), 0o644)
	pooled := filepath.Join(dir, "pooled.txt")
	os.WriteFile(pooled, []byte("cpu: A\ncores: 2\n"+cell+"cpu: B\n"+cell), 0o644)
	for file, want := range map[string]string{other: "measured on Some Other CPU ×64 and this machine is", pooled: "pools runs of several machines"} {
		code, _, stderr := perfrun("predict", "-constants", "measure", "-windows", "1", file)
		if code != subcommand.ExitUsage || !strings.Contains(stderr, want) {
			t.Errorf("predict %s: exit %d, want %d saying %q\n%s", file, code, subcommand.ExitUsage, want, stderr)
		}
	}
	if code, _, stderr := perfrun("predict", other); code != subcommand.ExitOK {
		t.Errorf("predict -constants reference of another machine's results: exit %d\n%s", code, stderr)
	}
}

// TestPredictionOfASetAsideDesignScalesFromItsOwnTime: a design whose
// every 1-thread sample was set aside has per(n)/per(1) from its own
// predicted 1-thread time (its instructions), not NaN.
func TestPredictionOfASetAsideDesignScalesFromItsOwnTime(t *testing.T) {
	band := readSet(t, "predicted: yes\n"+
		"BenchmarkIssuer/impl=sorted/threads=1 1 100 ns/call 100 low-ns/call 100 high-ns/call\n"+
		"BenchmarkIssuer/impl=sorted/threads=2 1 170 ns/call 150 low-ns/call 200 high-ns/call\n")
	in := readSet(t, "quarantined: the machine ran more than 25% slower than usual (speed probe)\n"+
		"BenchmarkIssuer/impl=sorted/threads=1 1 190 ns/call\n")
	var out bytes.Buffer
	report.WritePrediction(&out, band, in, predict.Measured{})
	if !strings.Contains(out.String(), "1.70") || strings.Contains(out.String(), "NaN") {
		t.Errorf("sorted at 2 threads, its 1-thread time set aside: want per(2)/per(1) 1.70 from its predicted 100 ns in\n%s", &out)
	}
}

// readSet is the results file text, read.
func readSet(t *testing.T, text string) *records.Set {
	t.Helper()
	s, err := records.Read(strings.NewReader(text), "f.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
