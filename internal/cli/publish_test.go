package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestReportKeepsWhatIsNotPerfruns: a report folder may hold the user's
// files; a report replaces and removes only what an earlier report wrote
// (it removed images/*.png and overwrote report.md, whoever's they were).
func TestReportKeepsWhatIsNotPerfruns(t *testing.T) {
	dir := t.TempDir()
	res := resultsFile(t, dir, "r.txt", 4, map[string]float64{"Issuer/impl=a/threads=1": 100, "Issuer/impl=a/threads=2": 60})
	rep := filepath.Join(dir, "rep")
	os.MkdirAll(filepath.Join(rep, "images"), 0o755)
	mine := map[string]string{"images/diagram.png": "my png", "images/notes.svg": "my svg", "README.md": "mine"}
	for name, data := range mine {
		os.WriteFile(filepath.Join(rep, name), []byte(data), 0o644)
	}
	for i := range 2 { // the second report replaces the first's files
		if code, _, stderr := perfrun("report", "-o", rep, res); code != 0 {
			t.Fatalf("report %d: exit %d: %s", i+1, code, stderr)
		}
	}
	for name, data := range mine {
		if got, err := os.ReadFile(filepath.Join(rep, name)); err != nil || string(got) != data {
			t.Errorf("%s: %q, %v: the user's file was touched", name, got, err)
		}
	}
	if _, err := os.Stat(filepath.Join(rep, "images", "issuer-latency.svg")); err != nil {
		t.Errorf("the report's own plot is missing: %v", err)
	}
	// A report.md of the user's is refused, not overwritten.
	user := filepath.Join(dir, "user")
	os.MkdirAll(user, 0o755)
	os.WriteFile(filepath.Join(user, "report.md"), []byte("my report"), 0o644)
	code, _, stderr := perfrun("report", "-o", user, res)
	if code != subcommand.ExitUsage || !strings.Contains(stderr, "perfrun did not write it") {
		t.Errorf("report over the user's report.md: exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(user, "report.md")); string(got) != "my report" {
		t.Errorf("the user's report.md is now %.40q", got)
	}
	if entries, _ := os.ReadDir(user); len(entries) != 1 {
		t.Errorf("a refused report left files: %v", entries)
	}
}
