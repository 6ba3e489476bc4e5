package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestANameANewlineIsPrintedEscaped: a name a user gave with a newline in
// it (an -exec name, an ab revision, a store, a file) is printed quoted,
// so the error is one line and nothing in it passes for a line of its own.
func TestANameANewlineIsPrintedEscaped(t *testing.T) {
	dir := t.TempDir()
	name := "x\nperfrun: PASS"
	for _, args := range [][]string{
		{"run", "-q", "-o", "", "-exec", name + "=true", "-exec", name + "=true"},
		{"run", "-q", "-o", "", "-exec", name},
		{"run", "-q", "-o", "", "-impl", name},
		{"run", "-q", "-o", "", "-workload", name},
		{"run", "-q", "-o", "", "-param", name + "=1"},
		{"run", "-q", "-o", "", "-corpus", filepath.Join(dir, name)},
		{"compare", filepath.Join(dir, name), filepath.Join(dir, name)},
		{"export", filepath.Join(dir, name)},
		{"ab", "-q", name, "HEAD"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(&stdout, &stderr, args)
		if code == subcommand.ExitOK || strings.Contains(stderr.String(), name) || strings.Count(strings.TrimSpace(stderr.String()), "\n") > 0 {
			t.Errorf("perfrun %q: exit %d, want one line naming it escaped:\n%s", args, code, &stderr)
		}
		t.Logf("%q: %s", args, &stderr)
	}
}

// TestARepairPastTheRoundsIsRefused: -repair is bounded by -rounds, the
// repair's own budget; a million repair rounds ran until killed.
func TestARepairPastTheRoundsIsRefused(t *testing.T) {
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(&stdout, &stderr, []string{"run", "-q", "-o", "", "-impl", "rcu", "-threads", "1", "-rounds", "2", "-window", "1ms", "-repair", "1000000"})
	if code != subcommand.ExitUsage || !strings.Contains(stderr.String(), `"1000000" for flag -repair`) {
		t.Errorf("run -repair 1000000: exit %d after %v, want 2 saying -repair is past its bound:\n%s", code, time.Since(start), &stderr)
	}
}
