package ab

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAKilledArmSaysSo: an arm whose process was killed (SIGKILL, as a
// runner's out-of-memory killer does) while ab asked it for a window is
// said to have ended so, not as the broken pipe it left.
func TestAKilledArmSaysSo(t *testing.T) {
	arm := filepath.Join(t.TempDir(), "arm")
	script := "#!/bin/sh\necho '" + ArmProtocol + "'\necho 'cell X'\necho 'ready'\nread line\nkill -9 $$\n"
	if err := os.WriteFile(arm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Dir: t.TempDir()}
	p, err := r.startArm(context.Background(), arm, ArmBase2, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.window("X")
	if err == nil || !strings.Contains(err.Error(), "killed") || strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("%v: want the arm said killed, not a broken pipe", err)
	}
}

// TestAnInterruptedCheckoutSaysSo: a checkout an interrupt cut short says
// it was interrupted, not that git failed or the revision is not one; and
// where git fails, the message quotes its last line, not its progress.
func TestAnInterruptedCheckoutSaysSo(t *testing.T) {
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Checkout(ctx, repo, "HEAD", ".", t.TempDir(), "base")
	if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "not a revision") || strings.Contains(err.Error(), "killed") {
		t.Errorf("%v: want it interrupted", err)
	}
	progress := strings.Repeat("Updating files:  50% (1/2)\r", 80) + "\nfatal: '/x' already exists\n"
	if got := lastLine([]byte(progress)); got != "fatal: '/x' already exists" {
		t.Errorf("lastLine = %q", got)
	}
}
