package cli

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/needs"
	"github.com/perfrun/perfrun/records"
)

// goRunCounts is one run -instructions of a small hashmap cell, five
// rounds, by a perfrun linked as go run links it (-s -w, no symbol table):
// its output and the five counts, one from each process -instructions
// runs. The two tests below read it.
var goRunCounts struct {
	sync.Once
	msg    string
	counts []float64
	err    error
}

func countedUnderGoRun(t *testing.T) (msg string, counts []float64) {
	t.Helper()
	bin := builtPerfrun(t, "-ldflags=-s -w")
	goRunCounts.Do(func() {
		out := filepath.Join(t.TempDir(), "r.txt")
		cmd := exec.Command(bin, "run", "-impl", "hashmap", "-threads", "1", "-rounds", "5", "-window", "20ms",
			"-warmup", "1ms", "-param", "certs=32", "-instructions", "-plots", "none", "-quarantine=false", "-predict", "0", "-o", out)
		b, err := cmd.CombinedOutput()
		goRunCounts.msg = string(b)
		if err != nil {
			goRunCounts.err = fmt.Errorf("perfrun run -instructions: %v\n%s", err, b)
			return
		}
		s, err := records.ReadFile(out)
		if err != nil {
			goRunCounts.err = err
			return
		}
		if c, _ := s.Cell("Issuer/impl=hashmap/certs=32/hit=1/cost=openssl/threads=1"); c != nil {
			goRunCounts.counts = c.Values["instructions/op"]
		}
	})
	if goRunCounts.err != nil {
		t.Fatal(goRunCounts.err)
	}
	return goRunCounts.msg, goRunCounts.counts
}

// TestInstructionsRepeatable wants the counts of one small cell in the
// five processes -instructions runs (each process's count on its own
// round) within 0.05% of each other: the hashed models hash with a fixed
// function, so every process runs the same code (with Go's per-process
// map seed they differed by up to 0.6%).
func TestInstructionsRepeatable(t *testing.T) {
	needs.Valgrind(t)
	if testing.Short() {
		t.Skip("slow: builds perfrun and runs valgrind five times")
	}
	t.Parallel()
	_, counts := countedUnderGoRun(t)
	if len(counts) != 5 || slices.Min(counts) < 50 {
		t.Fatalf("instructions/op = %v, want one count of at least 50 from each of 5 processes", counts)
	}
	if d := slices.Max(counts)/slices.Min(counts) - 1; d > 0.0005 {
		t.Fatalf("instructions/op of 5 processes %v differ by %.3f%%, want < 0.05%%", counts, 100*d)
	}
	t.Logf("instructions/op: %v", counts)
}

// TestInstructionsUnderGoRun: a perfrun linked as go run links it (-s -w,
// no symbol table) has nothing callgrind's --toggle-collect can find; its
// counts came out 0 instructions/op without a word. Countable says why,
// and run counts in a build of itself that has one.
func TestInstructionsUnderGoRun(t *testing.T) {
	needs.Valgrind(t)
	if testing.Short() {
		t.Skip("slow: builds perfrun and runs valgrind five times")
	}
	t.Parallel()
	bin := builtPerfrun(t, "-ldflags=-s -w")
	if err := callgrind.Countable(bin); err == nil || !strings.Contains(err.Error(), "no symbol table") {
		t.Errorf("Countable of a binary linked with -s: %v, want it to say it has no symbol table", err)
	}
	msg, counts := countedUnderGoRun(t)
	// From the folder its binary was built from, wherever it runs.
	src, _ := filepath.Abs("../../cmd/perfrun")
	if !strings.Contains(msg, "building github.com/perfrun/perfrun/cmd/perfrun from "+src+" with one") {
		t.Errorf("run did not say it builds itself to count:\n%s", msg)
	}
	if len(counts) == 0 || counts[0] < 50 {
		t.Fatalf("instructions/op of a perfrun linked as go run links it: %v", counts)
	}
}
