package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	if code != exitUsage || !strings.Contains(stderr, "perfrun did not write it") {
		t.Errorf("report over the user's report.md: exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(user, "report.md")); string(got) != "my report" {
		t.Errorf("the user's report.md is now %.40q", got)
	}
	if entries, _ := os.ReadDir(user); len(entries) != 1 {
		t.Errorf("a refused report left files: %v", entries)
	}
}

// TestReportFailsWhole: a report that cannot be written whole (a full
// disk, here a write that fails halfway) leaves the previous report as it
// was — it deleted the old one first.
func TestReportFailsWhole(t *testing.T) {
	dir := t.TempDir()
	res := resultsFile(t, dir, "r.txt", 4, map[string]float64{"Issuer/impl=a/threads=1": 100, "Issuer/impl=a/threads=2": 60})
	rep := filepath.Join(dir, "rep")
	if code, _, stderr := perfrun("report", "-o", rep, res); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	before := snapshot(t, rep)
	n := 0
	stage = func(name string, data []byte) error {
		if n++; n > 3 {
			return errors.New("no space left on device")
		}
		return writeStaged(name, data)
	}
	defer func() { stage = writeStaged }()
	if code, _, stderr := perfrun("report", "-o", rep, "-title", "another", res); code != exitFailure || !strings.Contains(stderr, "no space left") {
		t.Fatalf("report on a full disk: exit %d: %s", code, stderr)
	}
	if after := snapshot(t, rep); after != before {
		t.Errorf("the previous report changed:\nbefore %s\nafter  %s", before, after)
	}
}

// snapshot is every file under dir with its size and first bytes.
func snapshot(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			b.WriteString(rel + ":" + string(data[:min(len(data), 16)]) + ";")
		}
		return nil
	})
	return b.String()
}

// TestReportStaysInItsFolder: a symbolic link to a folder outside, planted
// where the report keeps its images, with a forged manifest naming files
// there, made report -o overwrite and delete files outside the folder.
func TestReportStaysInItsFolder(t *testing.T) {
	dir := t.TempDir()
	res := resultsFile(t, dir, "r.txt", 4, map[string]float64{"Issuer/impl=a/threads=1": 100, "Issuer/impl=a/threads=2": 60})
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(outside, 0o755)
	victims := map[string]string{"issuer-latency.svg": "someone's svg", "precious.txt": "keep me"}
	for name, data := range victims {
		os.WriteFile(filepath.Join(outside, name), []byte(data), 0o644)
	}
	rep := filepath.Join(dir, "rep")
	os.MkdirAll(rep, 0o755)
	if err := os.Symlink(outside, filepath.Join(rep, "images")); err != nil {
		t.Skip(err)
	}
	os.WriteFile(filepath.Join(rep, manifestName), []byte("images/issuer-latency.svg\nimages/precious.txt\n"), 0o644)
	code, _, stderr := perfrun("report", "-o", rep, res)
	if code != exitUsage || !strings.Contains(stderr, "not a folder") {
		t.Errorf("exit %d: %s; want a usage error about the link", code, stderr)
	}
	for name, data := range victims {
		if got, err := os.ReadFile(filepath.Join(outside, name)); err != nil || string(got) != data {
			t.Errorf("%s outside the report folder: %q, %v", name, got, err)
		}
	}
}

// TestStaleStagingRemoved: the staging folder a killed report left behind
// was never removed; the next report in the folder removes it.
func TestStaleStagingRemoved(t *testing.T) {
	dir := t.TempDir()
	res := resultsFile(t, dir, "r.txt", 4, map[string]float64{"Issuer/impl=a/threads=1": 100, "Issuer/impl=a/threads=2": 60})
	rep := filepath.Join(dir, "rep")
	stale := filepath.Join(rep, stagingPrefix+"killed")
	os.MkdirAll(stale, 0o755)
	old := time.Now().Add(-2 * staleStaging)
	os.Chtimes(stale, old, old)
	if code, _, stderr := perfrun("report", "-o", rep, res); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the killed report's staging folder is still there")
	}
}
