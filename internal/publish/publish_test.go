package publish

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPublishFailsWhole: a folder that cannot be written whole (a full
// disk, here a write that fails halfway) is left as it was — a report
// once deleted the old one first.
func TestPublishFailsWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	first := New(dir)
	for _, name := range []string{"report.md", "report.html", "images/a.svg", "images/b.svg"} {
		first.Add(name, []byte("first "+name))
	}
	if err := first.Publish(); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	n := 0
	stage = func(name string, data []byte) error {
		if n++; n > 3 {
			return errors.New("no space left on device")
		}
		return writeStaged(name, data)
	}
	defer func() { stage = writeStaged }()
	second := New(dir)
	for _, name := range []string{"report.md", "report.html", "images/a.svg", "images/c.svg"} {
		second.Add(name, []byte("second "+name))
	}
	if err := second.Publish(); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("publishing on a full disk: %v", err)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the previous folder changed:\nbefore %s\nafter  %s", before, after)
	}
}

// TestPublishRefusesAnotherFile: a file perfrun did not write is refused,
// as ErrRefused, and left alone.
func TestPublishRefusesAnotherFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "report.md"), []byte("mine"), 0o644)
	p := New(dir)
	p.Add("report.md", []byte("perfrun's"))
	if err := p.Publish(); !errors.Is(err, ErrRefused) {
		t.Fatalf("over the user's report.md: %v, want ErrRefused", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "report.md")); string(got) != "mine" {
		t.Errorf("the user's report.md is now %q", got)
	}
}

// snapshot is every file under dir with its first bytes.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
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

// TestStaysInItsFolder: a symbolic link to a folder outside, planted where
// the report keeps its images, with a forged manifest naming files there,
// made a report overwrite and delete files outside its folder.
func TestStaysInItsFolder(t *testing.T) {
	dir := t.TempDir()
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
	p := New(rep)
	p.Add("images/issuer-latency.svg", []byte("perfrun's"))
	if err := p.Publish(); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("%v; want a refusal of the link", err)
	}
	for name, data := range victims {
		if got, err := os.ReadFile(filepath.Join(outside, name)); err != nil || string(got) != data {
			t.Errorf("%s outside the report folder: %q, %v", name, got, err)
		}
	}
}

// TestStaleStagingRemoved: the staging folder a killed report left behind
// was never removed; the next publication in the folder removes it.
func TestStaleStagingRemoved(t *testing.T) {
	rep := filepath.Join(t.TempDir(), "rep")
	stale := filepath.Join(rep, stagingPrefix+"killed")
	os.MkdirAll(stale, 0o755)
	old := time.Now().Add(-2 * staleStaging)
	os.Chtimes(stale, old, old)
	p := New(rep)
	p.Add("report.md", []byte("r"))
	if err := p.Publish(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the killed report's staging folder is still there")
	}
}

// TestAFifoManifestDoesNotHang: a FIFO where the manifest goes is read as
// no manifest, at once; a plain read of it waited for a writer forever.
func TestAFifoManifestDoesNotHang(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	os.MkdirAll(dir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, manifestName), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		p := New(dir)
		p.Add("report.md", []byte("x"))
		done <- p.Publish()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("publishing into a folder whose manifest is a FIFO hung")
	}
}
