package ab

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAStoppedArmIsEnded: an arm that stops answering mid-window (kill
// -STOP, a debugger) is ended once Stall passes, with a message that says
// so, where ab once waited on it with no word and no limit.
func TestAStoppedArmIsEnded(t *testing.T) {
	dir := t.TempDir()
	arm := filepath.Join(dir, "arm")
	// Speaks the protocol, announces one cell, then never answers.
	script := "#!/bin/sh\necho '" + ArmProtocol + "'\necho '" + ArmCell + " c'\necho '" + ArmReady + "'\nexec sleep 600\n"
	if err := os.WriteFile(arm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Dir: dir, Stall: 300 * time.Millisecond}
	p, err := r.startArm(context.Background(), arm, ArmBase, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := p.window("c"); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "no answer for c in 300ms") {
			t.Errorf("window of a stopped arm: %v, want it ended after Stall, saying so", err)
		}
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		t.Fatal("ab still waits on an arm that stopped answering, 20 s on")
	}
}
