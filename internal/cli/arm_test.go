package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/records"
)

// TestArmProtocol drives an arm in-process: it names its cells, says
// ready, answers each window request with the window's values (the speed
// probe among them), and writes every window at the end.
func TestArmProtocol(t *testing.T) {
	out := filepath.Join(t.TempDir(), "arm.txt")
	cell := "Issuer/impl=rcu/certs=64/hit=1/threads=1"
	in := strings.NewReader("window " + cell + "\nwindow " + cell + "\nquit\n")
	var stdout, stderr strings.Builder
	args := []string{"-impl", "rcu", "-threads", "1", "-param", "certs=64", "-window", "5ms", "-warmup", "1ms", "-o", out}
	if err := driveArm(context.Background(), &subcommand.Streams{Stdout: &stdout, Stderr: &stderr}, in, args); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	sc := bufio.NewScanner(strings.NewReader(stdout.String()))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 5 || lines[0] != ab.ArmProtocol || lines[1] != "cell "+cell || lines[2] != "ready" {
		t.Fatalf("arm said:\n%s", stdout.String())
	}
	for _, l := range lines[3:] {
		rest, ok := strings.CutPrefix(l, "sample "+cell+" ")
		var values map[string]float64
		if !ok || json.Unmarshal([]byte(rest), &values) != nil || values[records.NsPerOp] <= 0 || values[records.Probe] <= 0 {
			t.Fatalf("sample line %q", l)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\nBenchmark"+cell+" "); n != 2 {
		t.Errorf("%d windows in the results file, want 2:\n%s", n, data)
	}
	// A request it does not know is refused, naming the ones it knows.
	err = driveArm(context.Background(), &subcommand.Streams{Stdout: &stdout, Stderr: &stderr}, strings.NewReader("measure x\n"), args)
	if err == nil || !strings.Contains(err.Error(), `want "window NAME" or "quit"`) {
		t.Errorf("unknown request: %v", err)
	}
	// So is a window of a cell it does not have.
	err = driveArm(context.Background(), &subcommand.Streams{Stdout: &stdout, Stderr: &stderr}, strings.NewReader("window Issuer/impl=none\n"), args)
	if err == nil || !strings.Contains(err.Error(), "no cell") {
		t.Errorf("unknown cell: %v", err)
	}
}
