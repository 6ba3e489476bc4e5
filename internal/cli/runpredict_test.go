package cli

import (
	"flag"
	"os/exec"
	"regexp"
	"strconv"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
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
