package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// watchWriter records what is written and runs fn once when want appears.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	once sync.Once
	fn   func()
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	hit := strings.Contains(w.buf.String(), w.want)
	w.mu.Unlock()
	if hit {
		w.once.Do(w.fn)
	}
	return len(p), nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestInterruptKeepsCompletedRounds sends this process a real SIGINT while
// run is in its third round: run stops after the current cell, writes the
// completed rounds only, marks them incomplete and exits 1.
func TestInterruptKeepsCompletedRounds(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PERFRUN_BASELINES", filepath.Join(dir, "bl"))
	out := filepath.Join(dir, "results.txt")
	stderr := &watchWriter{want: "round 3/100", fn: func() {
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}}
	var stdout bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(&stdout, stderr, []string{"run", "-impl", "rcu", "-threads", "1,2", "-rounds", "100",
			"-window", "30ms", "-warmup", "1ms", "-param", "certs=32", "-plots", "none", "-o", out, "-save-baseline", "cut"})
	}()
	var code int
	select {
	case code = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("run did not stop after SIGINT")
	}
	if code != subcommand.ExitSignal+int(syscall.SIGINT) {
		t.Fatalf("exit %d, want 130 (interrupted)\n%s", code, stderr)
	}
	m := regexp.MustCompile(`interrupted: kept the (\d+) completed rounds`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no interruption message:\n%s", stderr)
	}
	// An interrupted run is no baseline, and says so (it said nothing).
	if !strings.Contains(stderr.String(), "baseline cut not saved") {
		t.Errorf("nothing says the baseline was not saved:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bl", "cut.txt")); err == nil {
		t.Error("an interrupted run was saved as a baseline")
	}
	rounds, _ := strconv.Atoi(m[1])
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(data), "\nBenchmarkIssuer/")
	if rounds < 2 || rounds > 3 || lines != 2*rounds {
		t.Fatalf("kept %d rounds with %d result lines (2 cells a round), want 2 or 3 whole rounds", rounds, lines)
	}
	if !strings.Contains(string(data), "\nincomplete: interrupted") {
		t.Fatal("the results are not marked incomplete")
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmp) > 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
}

// TestInterruptDuringCorpusGeneration: a SIGINT while a large corpus is
// being generated stops the run within a second or two, saying so,
// instead of generating to the end.
func TestInterruptDuringCorpusGeneration(t *testing.T) {
	var sent time.Time
	stderr := &watchWriter{want: "generating corpus:", fn: func() {
		sent = time.Now()
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}}
	var stdout bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(&stdout, stderr, []string{"run", "-impl", "rcu", "-threads", "1", "-rounds", "1",
			"-param", "certs=200000", "-plots", "none", "-o", ""})
	}()
	select {
	case code := <-done:
		if sent.IsZero() {
			t.Fatalf("exit %d before any progress was shown:\n%s", code, stderr)
		}
		if took := time.Since(sent); took > 3*time.Second {
			t.Errorf("stopped %v after the signal", took)
		}
		if !strings.Contains(stderr.String(), "interrupted") || code != subcommand.ExitSignal+int(syscall.SIGINT) {
			t.Errorf("exit %d, want 130, saying interrupted:\n%s", code, stderr)
		}
	case <-time.After(3 * time.Minute):
		t.Fatal("run did not stop after SIGINT during corpus generation")
	}
}

// TestInterruptBeforeFirstRound: a SIGINT before any round completes
// leaves the previous results file as it was (it was left at 0 bytes).
func TestInterruptBeforeFirstRound(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.txt")
	old := []byte("cores: 2\nBenchmarkIssuer/impl=rcu/threads=1 1 40 ns/op\n")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	stderr := &watchWriter{want: "round 1/100", fn: func() {
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}}
	var stdout bytes.Buffer
	code := run(&stdout, stderr, []string{"run", "-impl", "rcu", "-threads", "1,2", "-rounds", "100",
		"-window", "2s", "-warmup", "1ms", "-param", "certs=32", "-plots", "none", "-quarantine=false", "-o", out})
	if code != subcommand.ExitSignal+int(syscall.SIGINT) {
		t.Fatalf("exit %d, want 130 (interrupted)\n%s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(data, old) {
		t.Fatalf("results file after the interrupt: %q (%v), want it as it was", data, err)
	}
	if !strings.Contains(stderr.String(), "nothing written; "+out+" is as it was") {
		t.Errorf("no word of it:\n%s", stderr)
	}
}

// TestInterruptEndsAReplayAtOnce: SIGINT while ab judges a recording
// again (at its most looks, while it computes the boundary) exits 130
// within a second, where it once waited for the replay to end and exited
// 1.
func TestInterruptEndsAReplayAtOnce(t *testing.T) {
	stderr := &watchWriter{want: "\x00", fn: func() {}} // records, watches for nothing
	sentAt := make(chan time.Time, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		sentAt <- time.Now()
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	var stdout bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(&stdout, stderr, []string{"ab", "-looks", "100", "-replay", "../../docs/testdata/c-hashmap/windows.csv"})
	}()
	select {
	case code := <-done:
		if took := time.Since(<-sentAt); code != subcommand.ExitSignal+int(syscall.SIGINT) || took > time.Second {
			t.Errorf("exit %d %v after SIGINT, want 130 within a second\n%s", code, took, stderr)
		}
	case <-time.After(time.Minute):
		t.Fatal("the replay did not stop after SIGINT")
	}
}
