package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestReplayWritesReport: ab -replay with -report writes the comparison's
// page — the verdict's forest plot and the windows' strips, from the
// recording alone — where it once wrote nothing and said nothing. The
// test builds its recording with a head 20% slower in every round:
// REGRESSION, exit 1, and the page says so.
func TestReplayWritesReport(t *testing.T) {
	dir := t.TempDir()
	const cell = "Issuer/impl=sorted/certs=64/hit=1/threads=1"
	var ws []compare.Window
	for round := range 30 {
		jitter := 1 + 0.002*float64(round%5)
		for _, w := range []struct {
			arm string
			v   float64
		}{{compare.ArmBase, 100e-9}, {compare.ArmHead, 120e-9}, {compare.ArmBase2, 100.5e-9}} {
			ws = append(ws, compare.Window{Round: round, Arm: w.arm, Value: w.v * jitter, Probe: 20e-9})
		}
	}
	file := filepath.Join(dir, "windows.csv")
	if err := os.WriteFile(file, ab.WriteWindows([]string{cell}, map[string][]compare.Window{cell: ws}, 2), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	code, stdout, stderr := perfrun("ab", "-replay", file, "-report", out)
	if code != subcommand.ExitRegression {
		t.Fatalf("exit %d, want %d (REGRESSION)\n%s\n%s", code, subcommand.ExitRegression, stdout, stderr)
	}
	for _, f := range []string{"report.html", "report.md", "windows.csv", "images/verdict-forest.svg", "images/windows.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("-replay -report wrote no %s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{"REGRESSION", "Judged again from " + file} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md does not say %q:\n%s", want, md)
		}
	}
}

// TestReplayMakesTheFolderOfItsJSON: -json into a folder not there yet
// makes it, as -report does, and as a live ab does, so the verdict file
// is never the output lost.
func TestReplayMakesTheFolderOfItsJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "new", "folder", "v.json")
	code, _, stderr := perfrun("ab", "-replay", "../../docs/testdata/c-hashmap/windows.csv", "-json", out)
	if _, err := os.Stat(out); err != nil || code != subcommand.ExitRegression {
		t.Errorf("exit %d, %v: want REGRESSION and the verdict in a folder made for it\n%s", code, err, stderr)
	}
}
