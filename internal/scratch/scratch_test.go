package scratch

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPruneTakesWhatADeadProcessLeft: a scratch folder of a process that
// is gone goes; this process's, one kept on purpose, and one that names
// no process stay.
func TestPruneTakesWhatADeadProcessLeft(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	live, err := Dir("count-")
	if err != nil {
		t.Fatal(err)
	}
	dead, _ := Dir("locks-")
	kept, _ := Dir("ab-")
	// A pid no process has: past the kernel's limit.
	for _, d := range []string{dead, kept} {
		os.WriteFile(filepath.Join(d, pidFile), []byte("2147483646"), 0o644)
	}
	os.WriteFile(filepath.Join(kept, KeptFile), nil, 0o644)
	unmarked := filepath.Join(os.TempDir(), Prefix+"other")
	os.Mkdir(unmarked, 0o755)
	removed := Prune()
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("removed %v, want only %s", removed, dead)
	}
	for _, d := range []string{live, kept, unmarked} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed", d)
		}
	}
}
