package regularfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteNeverFollowsALink: a link planted where perfrun writes is
// replaced by the file, and what it pointed to is left as it was.
func TestWriteNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	target, path := filepath.Join(dir, "target"), filepath.Join(dir, "results.txt")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	if err := os.Symlink(target, path); err != nil {
		t.Skip("no symlinks here:", err)
	}
	for _, write := range []func(string, []byte) error{Write, WriteOwned} {
		if err := write(path, []byte("new\n")); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(target); string(got) != "keep\n" {
			t.Errorf("the link's target was written: %q", got)
		}
		if info, _ := os.Lstat(path); !info.Mode().IsRegular() {
			t.Errorf("%s is still a link", path)
		}
		os.Remove(path)
		os.Symlink(target, path)
	}
}
