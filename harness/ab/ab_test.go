package ab

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBuildAndRun builds this repository's HEAD in a worktree and runs a
// tiny interleaved comparison of it against itself.
func TestBuildAndRun(t *testing.T) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout")
	}
	repo := strings.TrimSpace(string(top))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bins, cleanup, err := Build(ctx, repo, "HEAD", "./cmd/perfrun", dir, "base")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if _, _, err := Build(ctx, repo, "no-such-revision", "./cmd/perfrun", dir, "bad"); err == nil {
		t.Fatal("built a revision that does not exist")
	}
	bin := bins[0]
	r := &Runner{Base: bin, Head: bin, Rounds: 3, Inner: 1, Seed: 1, Dir: dir, Metric: "sec/op",
		RunArgs: []string{"-impl", "rcu,hashmap", "-threads", "1", "-window", "20ms", "-warmup", "5ms", "-param", "certs=64",
			"-quarantine=false"}} // the plumbing, not the machine: no round set aside
	var arms []string
	r.Progress = func(round, rounds int, arm string) { arms = append(arms, arm) }
	names, got, cores, err := r.Run(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || cores < 1 || len(arms) != 9 {
		t.Fatalf("names %v, cores %d, arms run %v", names, cores, arms)
	}
	for _, c := range names {
		n := c.Name
		a := got[n]
		if len(a.Base) > 0 && (a.Base[0] <= 0 || a.Base[0] > 1e-3) {
			t.Fatalf("%s: %g sec/op", n, a.Base[0])
		}
		if len(a.Base) != 3 || len(a.Head) != 3 || len(a.Base2) != 3 {
			t.Fatalf("%s: %d/%d/%d rounds per arm, want 3 each", n, len(a.Base), len(a.Head), len(a.Base2))
		}
	}
	// Re-running one cell by name measures only that cell.
	only, more, _, err := r.Run(ctx, "^"+regexp.QuoteMeta(names[0].Name)+"$", 3)
	if err != nil || len(only) != 1 || only[0].Name != names[0].Name {
		t.Fatalf("matched re-run gave %v, %v", only, err)
	}
	// Its rounds are numbered after the first look's, so they merge.
	a := got[names[0].Name]
	a.Merge(more[names[0].Name])
	if len(a.Head) != 6 || len(a.Base) != 6 || len(a.Base2) != 6 {
		t.Fatalf("after merging: %d/%d/%d rounds, want 6 each", len(a.Base), len(a.Head), len(a.Base2))
	}
	// Three rounds run three different arm orders, and the six orders of a
	// block are all different.
	seen := make(map[[3]string]bool)
	for i := 0; i+3 <= 9; i += 3 { // the first Run's three rounds
		seen[[3]string{arms[i], arms[i+1], arms[i+2]}] = true
	}
	if len(seen) != 3 {
		t.Fatalf("arm orders %v: want three different orders in three rounds", arms)
	}
}

// TestPruneStale: the scratch directory of a killed comparison goes, that
// of a live one stays.
func TestPruneStale(t *testing.T) {
	live, err := TempDir()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(live)
	dead, err := TempDir()
	if err != nil {
		t.Fatal(err)
	}
	// A pid no process has: past the kernel's limit.
	os.WriteFile(filepath.Join(dead, "pid"), []byte("2147483646"), 0o644)
	removed := PruneStale(".")
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("a killed comparison's directory is still there (removed %v)", removed)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live comparison's directory was removed")
	}
}
