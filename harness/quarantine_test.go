package harness_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/workloads"
)

// TestHogHelper is the CPU hog of TestQuarantineSetsAsideHoggedRounds when
// the test binary runs as its child: it says so, then spins until killed.
func TestHogHelper(t *testing.T) {
	if os.Getenv("PERFRUN_HOG") == "" {
		t.Skip("the hog of another test")
	}
	runtime.GOMAXPROCS(1)
	os.Stdout.WriteString("spinning\n")
	x := uint64(1)
	for {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
}

// startHog runs a CPU hog pinned to CPU 1 (taskset -c 1) and returns once
// it spins.
func startHog(t *testing.T) *exec.Cmd {
	cmd := exec.Command("taskset", "-c", "1", os.Args[0], "-test.run=^TestHogHelper$")
	cmd.Env = append(os.Environ(), "PERFRUN_HOG=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "spinning\n" {
		cmd.Process.Kill()
		t.Fatalf("hog: %q, %v", line, err)
	}
	return cmd
}

// TestQuarantineSetsAsideHoggedRounds runs a CPU hog pinned to the second
// CPU during rounds 2 and 3 of a run: every 2-thread sample measured while
// it spun is set aside, and the run measures those cells again until each
// has its planned rounds — with the default rules, with the control's rule
// alone (the workers' own waits not looked at), and with the speed probe's
// alone.
func TestQuarantineSetsAsideHoggedRounds(t *testing.T) {
	if harness.Cores() < 2 {
		t.Skip("needs 2 CPUs")
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("needs taskset (util-linux)")
	}
	controlOnly := harness.DefaultQuarantine
	controlOnly.MaxWait, controlOnly.MaxSteal, controlOnly.MaxSlow = 0, 0, 0
	// The speed probe alone: the hog slows the probe run after each
	// window as it slows the window. The probe runs 10 ms, shorter than
	// the scheduler's slice, so a probe thread just woken beside the hog
	// can get its CPU for most of it: most of the hogged windows are set
	// aside by the probe alone, not always all. The probe flags a window
	// on its own, so a control it sets aside is not re-measured unless a
	// store cell of its round is.
	probeOnly := harness.Quarantine{MaxSlow: harness.DefaultQuarantine.MaxSlow}
	for _, c := range []struct {
		name string
		q    harness.Quarantine
		want hogWant
	}{
		{"default", harness.DefaultQuarantine, hogWant{all: true, controlsBack: true}},
		{"control", controlOnly, hogWant{all: true, controlsBack: true}},
		{"probe", probeOnly, hogWant{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name != "default" && raceEnabled {
				// The control's speed is the race detector's, not the
				// machine's: its reference drifts with the instrumentation.
				t.Skip("the control's and the probe's timing under the race detector mean nothing")
			}
			hoggedRun(t, c.q, c.want)
		})
	}
}

// hogWant is what a hogged run must show: every 2-thread sample beside the
// hog set aside (else most of them), and the controls back to their
// planned rounds too.
type hogWant struct{ all, controlsBack bool }

func hoggedRun(t *testing.T, q harness.Quarantine, want hogWant) {
	cs := cells(t, workloads.Issuer, map[string]string{"certs": "64"}, 1, 2)
	cs = ofImpl(cs, "rcu") // at 1 and 2 threads
	opts := options(6)
	opts.Window, opts.Warmup = 100*time.Millisecond, 10*time.Millisecond
	opts.Quarantine = q
	opts.Quarantine.Extra = 12
	res, on, off := runBesideAHog(t, cs, opts)
	hogged, flagged, quiet, quietFlagged := 0, 0, 0, 0
	var missed []string
	for _, s := range res.Samples {
		during := !s.Start.Before(on) && s.Start.Before(off)
		switch {
		case during && s.Cell.Threads == 2:
			hogged++
			if s.Quarantine == "" {
				missed = append(missed, fmt.Sprintf("round %d, %s: measured beside the hog, not set aside: %v", s.Round, s.Cell.Name(), s.Metrics))
			} else {
				flagged++
				t.Logf("round %d, %s: set aside: %s", s.Round, s.Cell.Name(), s.Quarantine)
			}
		case !during:
			quiet++
			if s.Quarantine != "" {
				quietFlagged++
				t.Logf("round %d, %s: set aside without the hog: %s", s.Round, s.Cell.Name(), s.Quarantine)
			}
		}
	}
	if hogged < 4 {
		t.Fatalf("only %d 2-thread samples measured beside the hog", hogged)
	}
	for _, m := range missed {
		t.Log(m)
	}
	if fell := want.all && len(missed) > 0 || 2*flagged <= hogged; fell && 10*quietFlagged >= quiet {
		// The quarantine is judged against a quiet machine: where a tenth
		// of the samples without the hog were set aside too, another job
		// shares the machine and the hog's own effect cannot be told.
		t.Skipf("the machine was busy without the hog too (%d of %d samples set aside): this run cannot tell the hog's effect", quietFlagged, quiet)
	}
	if want.all && len(missed) > 0 {
		t.Errorf("%d of %d 2-thread samples measured beside the hog were not set aside", len(missed), hogged)
	}
	if 2*flagged <= hogged {
		t.Errorf("%d of %d 2-thread samples beside the hog set aside: want most", flagged, hogged)
	}
	if res.ExtraRounds == 0 {
		t.Error("no round added to measure the set-aside cells again")
	}
	// With the hog gone, the added rounds bring every cell back to its
	// planned rounds — unless the machine stayed busy (other packages'
	// tests beside this one), which the quarantine rightly keeps saying.
	check := cs
	if want.controlsBack {
		check = append(check, res.Controls...)
	}
	for _, c := range check {
		if n := len(res.Values(c, "ns/op")); n < opts.Rounds && quietFlagged == 0 {
			t.Errorf("%s: %d rounds count after re-measuring, want %d", c.Name(), n, opts.Rounds)
		}
	}
	n, why := res.SetAside()
	t.Logf("hog on CPU 1: %d of %d 2-thread samples set aside; without it %d of %d (the machine is shared with other tests); %d set aside in all %v; %d rounds added",
		flagged, hogged, quietFlagged, quiet, n, why, res.ExtraRounds)
}

// runBesideAHog runs cs with a CPU hog from round 2 to round 4, and says
// when it ran.
func runBesideAHog(t *testing.T, cs []harness.Cell, opts harness.Options) (res *harness.Outcome, on, off time.Time) {
	var err error
	t.Helper()
	var hog *exec.Cmd
	opts.Progress = func(p harness.Progress) {
		switch {
		case p.Round == 2 && hog == nil:
			hog, on = startHog(t), time.Now()
		case p.Round == 4 && off.IsZero():
			hog.Process.Kill()
			hog.Wait()
			off = time.Now()
		}
	}
	res, err = harness.Run(context.Background(), cs, opts)
	if hog != nil && off.IsZero() {
		hog.Process.Kill()
		hog.Wait()
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, on, off
}

// TestSetAsideNamesWholeReasons: the summary counts samples per reason and
// prints each reason whole (it cut them at their first digit, printing
// "2: the machine ran more than").
func TestSetAsideNamesWholeReasons(t *testing.T) {
	slow := "the machine ran more than 25% slower than usual (speed probe)"
	wait := "a worker waited for a CPU more than 25% of the window"
	res := &harness.Outcome{Samples: []harness.Sample{{Quarantine: slow}, {Quarantine: slow}, {Quarantine: wait}, {}}}
	n, why := res.SetAside()
	if n != 3 || len(why) != 2 || why[0] != "2: "+slow || why[1] != "1: "+wait {
		t.Errorf("SetAside() = %d, %q", n, why)
	}
}
