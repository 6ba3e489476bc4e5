package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestHistoryBackfill: the last commit of this repository is built and
// measured with a small suite, with a reference after it, into a new
// history: both runs are filed (the reference under machine+reference),
// and a range that is none is a usage error.
func TestHistoryBackfill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds perfrun twice")
	}
	db := filepath.Join(t.TempDir(), "h.db")
	code, stdout, stderr := perfrun("history", "backfill", "-db", db, "-repo", "../..", "-reference", "HEAD~1",
		"-machine", "test-box", "HEAD~1..HEAD", "--",
		"-impl", "rcu", "-threads", "1", "-rounds", "2", "-window", "20ms", "-warmup", "5ms", "-param", "certs=16",
		"-quarantine=false") // plumbing, not a measurement: a loaded machine's set-aside rounds would end the run
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "1 commits measured") || !strings.Contains(stderr, "+reference:") {
		t.Errorf("stdout %q\nstderr %q", stdout, stderr)
	}
	code, info, stderr := perfrun("history", "info", "-db", db)
	if code != 0 || !strings.Contains(info, "2 files, 2 runs, 1 commits") || !strings.Contains(info, "test-box+reference") {
		t.Errorf("info: exit %d: %s %s", code, info, stderr)
	}
	if code, _, stderr := perfrun("history", "backfill", "-db", db, "-repo", "../..", "no-such..range"); code != subcommand.ExitUsage {
		t.Errorf("a range that is none: exit %d: %s", code, stderr)
	}
}
