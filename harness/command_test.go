package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tool")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCommandCells runs a command as cells beside the control: each window
// runs it once on the cell's threads, gives it the corpus, and its
// printed figure is the window's ns/call. The tool here prints the
// number of certificates it was given, so the test sees the corpus
// arrive whole; its corpus directory is gone after the run.
func TestCommandCells(t *testing.T) {
	seen := filepath.Join(t.TempDir(), "dir")
	tool := script(t, `n=$(grep -c 'BEGIN CERTIFICATE' "$1/objects.pem")
test -d "$1/empty" && test -s "$1/servercert.pem" || exit 3
test "$(grep -c 'BEGIN CERTIFICATE' "$1/leaves.pem")" = 16 || exit 4
test "$3" = 1767225600 || exit 5
echo "$1" >`+seen+`
echo "$2 threads: ${n}ns"
`)
	cmd, err := foreign.Parse("tool="+tool+" {corpus} {threads} {at}", "")
	if err != nil {
		t.Fatal(err)
	}
	sweep, _ := ParseSweep([]string{"certs=16"})
	cells, err := PlanCommands([]*foreign.Command{cmd}, []workloads.Workload{workloads.Issuer}, sweep, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := cells[1].Name(); got != "Issuer/impl=tool/certs=16/hit=1/threads=2" {
		t.Fatalf("cell name %s", got)
	}
	opts := DefaultOptions
	opts.Rounds, opts.Window, opts.Warmup, opts.Quarantine = 2, 20*time.Millisecond, 0, Quarantine{}
	opts.Corpus = func(cas int) (*corpus.Corpus, error) {
		return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: cas / 4})
	}
	res, err := Run(context.Background(), cells, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if got := res.Values(c, records.NsPerCall); len(got) != 2 || got[0] != 16 || got[1] != 16 {
			t.Errorf("%s: ns/call %v, want [16 16] (the corpus's 16 CAs)", c.Name(), got)
		}
		if got := res.Values(c, records.NsPerOp); len(got) != 2 || got[0] != 16/float64(c.Threads) {
			t.Errorf("%s: ns/op %v, want ns/call over threads", c.Name(), got)
		}
	}
	b, err := os.ReadFile(seen)
	dir := strings.TrimSpace(string(b))
	if err != nil || dir == "" {
		t.Fatalf("the tool saw no corpus directory (%v)", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("corpus directory %s left behind (%v)", dir, err)
	}
}

// TestCommandCellFails: a command that fails, or prints no time, fails the
// run with what it printed.
func TestCommandCellFails(t *testing.T) {
	for body, want := range map[string]string{
		"echo 'Unexpected result from X509_STORE_CTX_get1_issuer'; exit 1\n": "exit status 1; it printed:\n\tUnexpected result",
		"echo done\n": "printed no number",
	} {
		cmd, _ := foreign.Parse("tool="+script(t, body)+" {threads}", "us")
		cells, _ := PlanCommands([]*foreign.Command{cmd}, []workloads.Workload{workloads.Issuer}, Sweep{}, []int{1})
		opts := DefaultOptions
		opts.Rounds, opts.Window, opts.Quarantine = 1, 20*time.Millisecond, Quarantine{}
		_, err := Run(context.Background(), cells, opts)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err %v, want %q", err, want)
		}
	}
}

// TestNsPerCallIsTheWorkersMean pins what the command contract's doc
// says a built-in cell's ns/call is: the mean of each worker's own time
// per call, not the aggregate a command prints (threads × wall ÷ all
// calls, which ns/op × threads is). With two workers in one second, one
// at 100 calls and one at 67 (worker-min/max 0.67, an unbalanced pair),
// ns/call exceeds the aggregate by 1 ÷ (4r ÷ (1+r)²), 4.1%.
func TestNsPerCallIsTheWorkersMean(t *testing.T) {
	workers := []workerResult{{ops: 100, elapsed: time.Second}, {ops: 67, elapsed: time.Second}}
	ms, err := windowMetrics(&workloads.Instance{}, workers, nil, time.Second, memory{}, runtimeCounters{}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, m := range ms {
		got[m.Unit] = m.Value
	}
	mean := (1e9/100.0 + 1e9/67.0) / 2
	aggregate := 2 * 1e9 / 167.0
	if d := got[records.NsPerCall] - mean; d > 1e-6 || d < -1e-6 {
		t.Errorf("ns/call %.1f, want the workers' mean %.1f", got[records.NsPerCall], mean)
	}
	if d := 2*got[records.NsPerOp] - aggregate; d > 1e-6 || d < -1e-6 {
		t.Errorf("2 × ns/op %.1f, want the aggregate %.1f", 2*got[records.NsPerOp], aggregate)
	}
	r := got[records.Fairness]
	if want := 1 / (4 * r / ((1 + r) * (1 + r))); got[records.NsPerCall]/aggregate-want > 1e-9 || want-got[records.NsPerCall]/aggregate > 1e-9 {
		t.Errorf("ns/call ÷ aggregate %.4f, want 1 ÷ (4r ÷ (1+r)²) = %.4f at r = %.2f", got[records.NsPerCall]/aggregate, want, r)
	}
}

// TestCommandLeavesNoChild: a command that leaves a background child
// holding its output open hung the run (and ignored an interrupt); now
// its window ends when it exits, within the wait delay, and the child is
// gone.
func TestCommandLeavesNoChild(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	pidFile := dir + "/child.pid"
	cmd, _ := foreign.Parse("tool="+script(t, "sleep 60 &\necho $! > "+pidFile+"\necho 100 ns\n")+" {threads}", "ns")
	cells, _ := PlanCommands([]*foreign.Command{cmd}, []workloads.Workload{workloads.Issuer}, Sweep{}, []int{1})
	opts := DefaultOptions
	opts.Rounds, opts.Window, opts.Quarantine = 1, 20*time.Millisecond, Quarantine{}
	start := time.Now()
	if _, err := Run(context.Background(), cells, opts); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("the run took %v: it waited for the child", d)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	// Gone, or a zombie no one has reaped yet: not running. A killed
	// process on a busy host needs a moment of a CPU to die, so it is
	// given 20 s of its 60 s sleep; one that was never killed outlives them.
	pid := strings.TrimSpace(string(data))
	var stat []byte
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		stat, err = os.ReadFile("/proc/" + pid + "/stat")
		if _, rest, _ := strings.Cut(string(stat), ") "); err != nil || strings.HasPrefix(rest, "Z") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %s outlived its window by 20 s: %s", pid, stat)
		}
	}
}
