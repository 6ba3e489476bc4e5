package campaign

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/scratch"
)

// TestABadRevisionTouchesNothing: a revision that names no commit is
// refused before any side effect — the scratch folder a killed perfrun
// left (which a campaign that starts prunes) is still there, and nothing
// was logged as removed.
func TestABadRevisionTouchesNothing(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	left, err := os.MkdirTemp("", scratch.Prefix+"count-")
	if err != nil {
		t.Fatal(err)
	}
	if err := scratch.Mark(left, 2147483646, 0); err != nil { // a pid no process has
		t.Fatal(err)
	}
	var log strings.Builder
	c := &Campaign{Repo: repo, Pkg: ".", Log: &log}
	_, err = c.Run(context.Background(), "nosuchrev", "HEAD", nil)
	if !errors.Is(err, ab.ErrBadSource) {
		t.Fatalf("Run(nosuchrev, HEAD) = %v, want a bad revision", err)
	}
	if _, err := os.Stat(left); err != nil || strings.Contains(log.String(), "removed") {
		t.Errorf("a refused revision pruned %s (%v); logged %q", left, err, log.String())
	}
}
