package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportOfTheMainJobShowsItsPrediction: the report of a run with lock
// profiles (the main job's baseline) says what they predict at 16 threads,
// a design a line with its cause, and draws the predicted curves; a run
// with none (the same file without its counts) gets no such section.
func TestReportOfTheMainJobShowsItsPrediction(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "with")
	if code, _, stderr := perfrun("report", "-o", out, "../../docs/testdata/baseline.txt"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{"At 16 threads, one core a thread", "- Issuer/impl=sorted/certs=1024/hit=1/cost=openssl: ",
		"Why: 1.28 exclusive locks a call", "Why: no lock or shared line to wait on", "images/predicted-issuer_certs-1024_hit-1_cost-openssl-latency.png"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md does not say %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "images/predicted-issuer_certs-1024_hit-1_cost-openssl-latency.png")); err != nil {
		t.Error(err)
	}
	data, err := os.ReadFile("../../docs/testdata/baseline.txt")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "locks/op") { // the lock profile's lines
			continue
		}
		kept = append(kept, line)
	}
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := perfrun("report", "-o", filepath.Join(dir, "without"), plain); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "without", "report.md")); strings.Contains(string(md), "At 16 threads") {
		t.Error("a run without lock profiles got a prediction")
	}
}
