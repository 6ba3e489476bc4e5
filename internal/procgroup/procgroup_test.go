//go:build unix

package procgroup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestGentleLetsTheChildCleanUp: a child started with Gentle is asked to
// stop with SIGINT when the context ends and has time to clean up (a child
// perfrun removes its worktrees and temporary files); killed at once, as
// exec.CommandContext does, it left them.
func TestGentleLetsTheChildCleanUp(t *testing.T) {
	dir := t.TempDir()
	cleaned, started := filepath.Join(dir, "cleaned"), filepath.Join(dir, "started")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "sh", "-c", `trap 'sleep 0.2; touch "$1"; exit 130' INT; touch "$2"; while :; do sleep 0.05; done`, "sh", cleaned, started)
	Gentle(cmd, 10*time.Second)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(started); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	cmd.Wait()
	if _, err := os.Stat(cleaned); err != nil {
		t.Fatal("the child was not given the chance to clean up after the interrupt")
	}
}
