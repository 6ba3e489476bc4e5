package ab

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/internal/scratch"
	"github.com/perfrun/perfrun/records"
)

// inCheckout is what a test that builds this repository's HEAD needs: the
// repository (skipped outside a git checkout), a context that bounds the
// builds and runs, and a scratch directory.
func inCheckout(t *testing.T) (repo string, ctx context.Context, dir string) {
	t.Helper()
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return strings.TrimSpace(string(top)), ctx, t.TempDir()
}

// TestBuildAndRun builds this repository's HEAD in a worktree and runs a
// tiny interleaved comparison of it against itself.
func TestBuildAndRun(t *testing.T) {
	repo, ctx, dir := inCheckout(t)
	bins, cleanup, err := Build(ctx, repo, "HEAD", "./cmd/perfrun", dir, "base")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if _, _, err := Build(ctx, repo, "no-such-revision", "./cmd/perfrun", dir, "bad"); err == nil {
		t.Fatal("built a revision that does not exist")
	}
	bin := bins[0]
	r := &Runner{Base: []string{bin}, Head: []string{bin}, Rounds: 3, Inner: 1, Seed: 1, Dir: dir, Metric: "sec/op",
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
	dead := leftBy(t, deadPid)
	// One kept with -keep, whose process is gone too: it stays (it was
	// removed as left by a killed comparison).
	kept := leftBy(t, deadPid)
	defer os.RemoveAll(kept)
	if err := Keep(kept); err != nil {
		t.Fatal(err)
	}
	removed := PruneStale(".")
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a kept comparison's directory was removed")
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("a killed comparison's directory is still there (removed %v)", removed)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live comparison's directory was removed")
	}
}

// TestWindowPairing builds HEAD and runs a tiny comparison of it against
// itself paired at the window: every round has all three arms, each arm
// measured Inner windows of every cell, the A/A arm from the other layout.
func TestWindowPairing(t *testing.T) {
	repo, ctx, dir := inCheckout(t)
	bins, cleanup, err := Build(ctx, repo, "HEAD", "./cmd/perfrun", dir, "base", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if len(bins) != 2 || bins[0] == bins[1] {
		t.Fatalf("two layouts built %v", bins)
	}
	r := &Runner{Base: bins, Head: bins[:1], Windows: true, Rounds: 2, Inner: 2, Seed: 1, Dir: dir, Metric: "sec/op",
		ArmArgs: []string{"-impl", "rcu,hashmap", "-threads", "1", "-window", "20ms", "-warmup", "5ms", "-param", "certs=64"}}
	cells, arms, cores, err := r.Run(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2 || cores < 1 || r.Measuring <= 0 {
		t.Fatalf("cells %v, cores %d, measuring %v", cells, cores, r.Measuring)
	}
	for _, c := range cells {
		a := arms[c.Name]
		if len(a.Base) != 2 || len(a.Head) != 2 || len(a.Base2) != 2 {
			t.Fatalf("%s: %d/%d/%d rounds per arm, want 2 each", c.Name, len(a.Base), len(a.Head), len(a.Base2))
		}
		if a.Base[0] <= 0 || a.Base[0] > 1e-3 {
			t.Fatalf("%s: %g sec/op", c.Name, a.Base[0])
		}
	}
	// Every arm process wrote its windows, each with its speed probe.
	set, err := records.ReadFile(filepath.Join(dir, "round001-base-again.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range set.Cells() {
		if n := len(c.Values["sec/op"]); n < 2 {
			t.Errorf("%s: %d windows in the A/A arm's file, want at least 2", c.Name, n)
		}
		if len(c.Values[records.Tidy(records.Probe)]) == 0 {
			t.Errorf("%s: no speed probe recorded", c.Name)
		}
	}
	// A binary that does not speak the arm protocol is named as such.
	r.Head = []string{"/bin/true"}
	if _, _, _, err := r.Run(ctx, "", 2); err == nil || !strings.Contains(err.Error(), "arm protocol") {
		t.Fatalf("an arm that is not perfrun: %v", err)
	}
}

// TestDisturbedTriple: a triple is set aside when its arms' probes differ
// by more than the limit, or when one window says the machine disturbed
// it; a triple whose probes agree is kept.
func TestDisturbedTriple(t *testing.T) {
	probe := records.Tidy(records.Probe)
	r := &Runner{SpeedLimit: 0.10, Disturbed: func(value func(string) (float64, bool)) string {
		if w, ok := value(records.RunQueue); ok && w > 0.25 {
			return "a worker waited"
		}
		return ""
	}}
	triple := func(p1, p2, p3, wait float64) map[string]window {
		return map[string]window{
			ArmBase:  {probe: p1, "sec/op": 1e-8},
			ArmHead:  {probe: p2, "sec/op": 1e-8, records.RunQueue: wait},
			ArmBase2: {probe: p3, "sec/op": 1e-8},
		}
	}
	for _, c := range []struct {
		p1, p2, p3, wait float64
		aside            bool
	}{
		{33e-9, 34e-9, 33.5e-9, 0, false},
		{33e-9, 40e-9, 33e-9, 0, true}, // the head's window ran on a slower machine
		{33e-9, 33e-9, 36.5e-9, 0, true},
		{33e-9, 33e-9, 33e-9, 0.5, true},
	} {
		why := r.disturbed(triple(c.p1, c.p2, c.p3, c.wait), probe)
		if (why != "") != c.aside {
			t.Errorf("probes %g %g %g, wait %g: set aside %q, want %v", c.p1, c.p2, c.p3, c.wait, why, c.aside)
		}
	}
}

// TestFreshLayout: no two arms of a campaign, and no two campaigns of
// different seeds, share a layout, and none is the linker's default.
func TestFreshLayout(t *testing.T) {
	seen := make(map[uint64]string)
	for seed := uint64(0); seed < 4; seed++ {
		for round := range 100 {
			for _, arm := range []string{ArmBase, ArmHead, ArmBase2} {
				l := FreshLayout(seed, round, arm)
				what := fmt.Sprintf("seed %d round %d %s", seed, round, arm)
				if l == 0 {
					t.Fatalf("%s: the default layout", what)
				}
				if prev, ok := seen[l]; ok {
					t.Fatalf("%s and %s share layout %d", what, prev, l)
				}
				seen[l] = what
			}
		}
	}
}

// TestFreshLayouts runs two rounds with a fresh layout for every arm: the
// three binaries of a round differ from each other and from the last
// round's, and every arm measured every round.
func TestFreshLayouts(t *testing.T) {
	repo, ctx, dir := inCheckout(t)
	v, err := Checkout(ctx, repo, "HEAD", "./cmd/perfrun", dir, "base")
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	r := &Runner{BaseRev: v, HeadRev: v, Windows: true, Rounds: 1, Inner: 1, Seed: 7, Dir: dir, Metric: "sec/op",
		ArmArgs: []string{"-impl", "rcu", "-threads", "1", "-window", "10ms", "-warmup", "2ms", "-param", "certs=64"}}
	digests := make(map[string]string)
	for round := range 2 {
		_, arms, _, err := r.Run(ctx, "", round)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range arms {
			if len(a.Base) != 1 || len(a.Head) != 1 || len(a.Base2) != 1 {
				t.Fatalf("round %d: %d/%d/%d values per arm, want 1 each", round, len(a.Base), len(a.Head), len(a.Base2))
			}
		}
		for arm, bin := range r.round {
			data, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			d := fmt.Sprintf("%x", sha256.Sum256(data))
			if prev, ok := digests[d]; ok {
				t.Fatalf("round %d %s runs the binary of %s", round, arm, prev)
			}
			digests[d] = fmt.Sprintf("round %d %s", round, arm)
		}
	}
	if len(digests) != 6 || r.Linking <= 0 {
		t.Fatalf("%d distinct binaries, linking %v", len(digests), r.Linking)
	}
}

// TestPruneLeavesTheUsersWorktrees: cleaning up after a killed comparison
// unregisters the worktree inside its scratch folder and no other: a
// worktree of the user's whose folder was moved (which "git worktree
// prune" drops) keeps its registration.
func TestPruneLeavesTheUsersWorktrees(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "one")
	mine := filepath.Join(t.TempDir(), "mine")
	git("worktree", "add", "-q", "--detach", mine)
	if err := os.Rename(mine, mine+"-moved"); err != nil {
		t.Fatal(err)
	}
	dead := leftBy(t, deadPid)
	defer os.RemoveAll(dead)
	git("worktree", "add", "-q", "--detach", filepath.Join(dead, "base"))
	PruneStale(repo)
	list := git("worktree", "list", "--porcelain")
	if !strings.Contains(list, mine) {
		t.Errorf("the user's moved worktree lost its registration:\n%s", list)
	}
	if strings.Contains(list, dead) {
		t.Errorf("the killed comparison's worktree is still registered:\n%s", list)
	}
}

// TestPruneLeavesNoEmptyAdminFolder: the last worktree of a killed
// comparison goes with its registration folder, as git's own removal of a
// last worktree leaves no empty .git/worktrees behind.
func TestPruneLeavesNoEmptyAdminFolder(t *testing.T) {
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	dead := leftBy(t, deadPid)
	defer os.RemoveAll(dead)
	if out, err := exec.Command("git", "-C", repo, "worktree", "add", "-q", "--detach", filepath.Join(dead, "base")).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	PruneStale(repo)
	if _, err := os.Stat(filepath.Join(repo, ".git", "worktrees")); err == nil {
		t.Errorf("an empty .git/worktrees is left behind")
	}
}

// TestCheckoutKeepsARelativeReplace: a store's module that depends on a
// checkout beside it through a relative replace (the docs' "-replace=
// …=../perfrun") builds at a revision: ab's worktree lies elsewhere, and
// the relative path once named nothing there ("replacement directory
// ../lib does not exist").
func TestCheckoutKeepsARelativeReplace(t *testing.T) {
	root := t.TempDir()
	lib, repo := filepath.Join(root, "lib"), filepath.Join(root, "app")
	write := func(path, text string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(lib, "go.mod"), "module example.com/lib\n\ngo 1.22\n")
	write(filepath.Join(lib, "lib.go"), "package lib\n\nfunc Answer() int { return 42 }\n")
	write(filepath.Join(repo, "go.mod"), "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n")
	write(filepath.Join(repo, "main.go"), "package main\n\nimport \"example.com/lib\"\n\nfunc main() { println(lib.Answer()) }\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "app"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	dir := t.TempDir()
	v, err := Checkout(context.Background(), repo, "HEAD", ".", dir, "base")
	if err != nil {
		t.Fatalf("a module with a relative replace does not build at a revision: %v", err)
	}
	defer v.Close()
	if out, err := exec.Command(v.Plain).CombinedOutput(); err != nil || !strings.Contains(string(out), "42") {
		t.Errorf("the built revision: %v %s", err, out)
	}
	if data, _ := os.ReadFile(filepath.Join(repo, "go.mod")); !strings.Contains(string(data), "=> ../lib") {
		t.Errorf("the user's go.mod changed:\n%s", data)
	}
}

// TestAGoThatBuildsNothingIsNamed: a go that writes no binary (GOFLAGS=-n
// prints the build's commands and runs none) or answers nothing at all is
// the tool's fault, said as such before anything runs; neither is the
// user's package "not a main package".
func TestAGoThatBuildsNothingIsNamed(t *testing.T) {
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/app\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "app"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Run("GOFLAGS=-n", func(t *testing.T) {
		t.Setenv("GOFLAGS", "-n")
		v, err := Checkout(context.Background(), repo, "HEAD", ".", t.TempDir(), "base")
		if err == nil {
			v.Close()
			t.Fatal("a build that wrote no binary was taken as built")
		}
		if !strings.Contains(err.Error(), "wrote no binary") || errors.Is(err, ErrBadSource) {
			t.Errorf("err = %v, want the missing binary named, not the user's source blamed", err)
		}
	})
	t.Run("a silent go", func(t *testing.T) {
		bin := t.TempDir()
		os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\nexit 0\n"), 0o755)
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		err := checkMain(context.Background(), repo, ".", "HEAD")
		if err == nil || errors.Is(err, ErrBadSource) || !strings.Contains(err.Error(), "named no package") {
			t.Errorf("err = %v, want go named, not the user's package", err)
		}
	})
}

// leftBy makes a comparison's scratch folder as a process pid that
// ended left it: marked, and held by no one.
func leftBy(t *testing.T, pid int) string {
	t.Helper()
	dir, err := os.MkdirTemp("", scratch.Prefix+"ab-")
	if err != nil {
		t.Fatal(err)
	}
	if err := scratch.Mark(dir, pid, 0); err != nil {
		t.Fatal(err)
	}
	return dir
}

// deadPid is a pid no process has: past the kernel's limit.
const deadPid = 2147483646
