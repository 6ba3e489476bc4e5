package cli

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness/callgrind"
	"github.com/perfrun/perfrun/internal/needs"
	"github.com/perfrun/perfrun/records"
)

// TestInstructionsRepeatable builds perfrun, counts instructions/op of one
// small cell under callgrind in the five processes -instructions runs
// (each process's count on its own round), and wants them within 0.05%
// of each other: the hashed models hash with a fixed function, so every
// process runs the same code (with Go's per-process map seed they
// differed by up to 0.6%).
func TestInstructionsRepeatable(t *testing.T) {
	needs.Valgrind(t)
	if testing.Short() {
		t.Skip("slow: runs valgrind five times")
	}
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.txt")
	cmd := exec.Command(builtPerfrun(t), "run", "-impl", "hashmap", "-threads", "1", "-rounds", "5", "-window", "20ms",
		"-warmup", "1ms", "-param", "certs=32", "-instructions", "-q", "-plots", "none", "-quarantine=false", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("perfrun run -instructions: %v\n%s", err, msg)
	}
	s, err := records.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.Cell("Issuer/impl=hashmap/certs=32/hit=1/cost=openssl/threads=1")
	var counts []float64
	if c != nil {
		counts = c.Values["instructions/op"]
	}
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
		t.Skip("slow: builds perfrun twice and runs valgrind")
	}
	t.Parallel()
	dir := t.TempDir()
	bin := builtPerfrun(t, "-ldflags=-s -w")
	if err := callgrind.Countable(bin); err == nil || !strings.Contains(err.Error(), "no symbol table") {
		t.Errorf("Countable of a binary linked with -s: %v, want it to say it has no symbol table", err)
	}
	out := filepath.Join(dir, "r.txt")
	cmd := exec.Command(bin, "run", "-impl", "hashmap", "-threads", "1", "-rounds", "1", "-window", "20ms",
		"-warmup", "1ms", "-param", "certs=32", "-instructions", "-plots", "none", "-quarantine=false", "-predict", "0", "-o", out)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("perfrun run -instructions: %v\n%s", err, msg)
	}
	// From the folder its binary was built from, wherever it runs.
	src, _ := filepath.Abs("../../cmd/perfrun")
	if !strings.Contains(string(msg), "building github.com/perfrun/perfrun/cmd/perfrun from "+src+" with one") {
		t.Errorf("run did not say it builds itself to count:\n%s", msg)
	}
	s, err := records.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.Cell("Issuer/impl=hashmap/certs=32/hit=1/cost=openssl/threads=1")
	if c == nil || len(c.Values["instructions/op"]) != 1 || c.Values["instructions/op"][0] < 50 {
		t.Fatalf("instructions/op of a perfrun linked as go run links it: %v", c)
	}
}
