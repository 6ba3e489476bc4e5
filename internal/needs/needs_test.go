package needs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestABrokenToolIsNotThere: a program on PATH that does not work (a stub
// that exits 127, as a broken install does) is said to be so, not used;
// a missing one is named.
func TestABrokenToolIsNotThere(t *testing.T) {
	dir := t.TempDir()
	stub := filepath.Join(dir, "valgrind")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\nexit 127\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if p, why := Works("valgrind"); p != "" || !strings.Contains(why, "does not work") {
		t.Errorf("a stub that exits 127: %q, %q", p, why)
	}
	if p, why := Works("chromium"); p != "" || !strings.Contains(why, "no chromium on PATH") {
		t.Errorf("a missing program: %q, %q", p, why)
	}
	ok := filepath.Join(dir, "works")
	os.WriteFile(ok, []byte("#!/bin/sh\necho works 1.0\n"), 0o755)
	if p, why := Works("works"); p != ok || why != "" {
		t.Errorf("a program that works: %q, %q", p, why)
	}
}
