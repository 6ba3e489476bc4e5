package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestOutputsDoNotFollowPlantedLinks: a symlink planted where perfrun
// writes a plot is replaced, one planted where it writes a report page is
// not perfrun's and is refused; the file either points to is left alone.
func TestOutputsDoNotFollowPlantedLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	res := resultsFile(t, dir, "r.txt", 4, map[string]float64{"Issuer/impl=a/threads=1": 100, "Issuer/impl=a/threads=2": 60})
	plots := filepath.Join(dir, "plots")
	os.MkdirAll(plots, 0o755)
	planted := filepath.Join(plots, "issuer-latency.svg")
	if err := os.Symlink(victim, planted); err != nil {
		t.Skip(err)
	}
	rep := filepath.Join(dir, "rep")
	os.MkdirAll(rep, 0o755)
	os.Symlink(victim, filepath.Join(rep, "report.md"))
	if code, _, stderr := perfrun("plot", "-o", plots, res); code != 0 {
		t.Fatalf("plot: exit %d: %s", code, stderr)
	}
	if code, _, stderr := perfrun("report", "-o", rep, res); code != subcommand.ExitUsage || !strings.Contains(stderr, "perfrun did not write it") {
		t.Fatalf("report over a planted link: exit %d: %s", code, stderr)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Fatalf("the link's target was written: %q", data)
	}
	if info, err := os.Lstat(planted); err != nil || info.Mode()&os.ModeSymlink != 0 {
		t.Fatalf("the planted link is still there: %v", err)
	}
}

// TestLongNamesFit: a benchmark name far longer than a file name may be
// still gets its plots, under a shortened stable name.
func TestLongNamesFit(t *testing.T) {
	dir := t.TempDir()
	long := "Issuer/impl=a/" + strings.Repeat("k", 300) + "=1"
	res := resultsFile(t, dir, "r.txt", 3, map[string]float64{long + "/threads=1": 100, long + "/threads=2": 60})
	code, stdout, stderr := perfrun("plot", "-o", filepath.Join(dir, "p"), res)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "p", "*.svg"))
	if len(files) == 0 || len(filepath.Base(files[0])) > 120 {
		t.Fatalf("plots %v", files)
	}
}
