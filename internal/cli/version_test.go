package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOfAGoRun: a perfrun built as go run builds it (no VCS stamp)
// names the revision of the clone it was built from — the folder its
// binary recorded — and not that of the repository it runs in, which may
// be any other; it once said "unknown".
func TestVersionOfAGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds perfrun")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "perfrun")
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-ldflags=-s -w", "-o", bin, "../../cmd/perfrun").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	elsewhere := filepath.Join(dir, "other")
	for _, args := range [][]string{{"init", "-q", elsewhere}, {"-C", elsewhere, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "other"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cmd := exec.Command(bin, "version")
	cmd.Dir = elsewhere
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("perfrun version: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), strings.TrimSpace(string(head))) {
		t.Errorf("perfrun version run elsewhere printed %q, want this clone's revision %s", out, head)
	}
}
