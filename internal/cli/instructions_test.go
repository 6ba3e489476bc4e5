package cli

import (
	"math"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestInstructionsRepeatable builds perfrun, counts instructions/op of one
// small cell under callgrind twice, and wants the counts within 0.05%: the
// hashed models hash with a fixed function, so every process runs the same
// code (with Go's per-process map seed they differed by up to 0.6%).
func TestInstructionsRepeatable(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("no valgrind")
	}
	if testing.Short() {
		t.Skip("slow: runs valgrind four times")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "perfrun")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/perfrun").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var counts []float64
	for i := range 2 {
		out := filepath.Join(dir, "r"+string(rune('a'+i))+".txt")
		cmd := exec.Command(bin, "run", "-impl", "hashmap", "-threads", "1", "-rounds", "1", "-window", "20ms",
			"-warmup", "1ms", "-param", "certs=32", "-instructions", "-q", "-plots", "none", "-quarantine=false", "-o", out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("perfrun run -instructions: %v\n%s", err, msg)
		}
		s, err := records.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := s.Cell("Issuer/impl=hashmap/certs=32/hit=1/cost=openssl/threads=1")
		var v []float64
		if c != nil {
			v = c.Values["instructions/op"]
		}
		if len(v) != 1 || v[0] < 50 {
			t.Fatalf("instructions/op = %v", v)
		}
		counts = append(counts, v[0])
	}
	if d := math.Abs(counts[1]/counts[0] - 1); d > 0.0005 {
		t.Fatalf("instructions/op %v and %v differ by %.3f%%, want < 0.05%%", counts[0], counts[1], 100*d)
	}
	t.Logf("instructions/op: %.1f and %.1f", counts[0], counts[1])
}
