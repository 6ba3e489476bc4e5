package locks

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookedImportsProfileAsTheStandardOverlay: handcount built with its
// imports hooked (how perfrun's own builds are) and built with the
// standard sync overlaid (how a perfrun from the module cache is) gives
// the same profile (the hand counts hold the hooked build to every other
// variant): locks, atomics and lines, and held
// instructions to within the compiler's reload of a lock's address.
func TestHookedImportsProfileAsTheStandardOverlay(t *testing.T) {
	bin := handcount(t)
	if howHooked(mustList(t)) != hookImports {
		t.Fatal("perfrun's own build of handcount is not hooked by its imports")
	}
	std := filepath.Join(t.TempDir(), "handcount-std")
	if err := build(context.Background(), ".", "./testdata/handcount", std, nil, func([]listed) int { return hookStandard }); err != nil {
		t.Fatal(err)
	}
	// A read lock, its reader count and a counter; a lock of the program's
	// own on an atomic.Bool; a write lock tried and refused under a read
	// lock.
	for _, variant := range []string{"read100", "own100", "tryunder"} {
		a, err := Count(context.Background(), []string{bin, variant, "320"}, nil)
		if err != nil {
			t.Fatalf("%s, imports hooked: %v", variant, err)
		}
		b, err := Count(context.Background(), []string{std, variant, "320"}, nil)
		if err != nil {
			t.Fatalf("%s, standard sync overlaid: %v", variant, err)
		}
		if !sameProfile(a, b) {
			t.Errorf("%s: imports hooked %+v; standard sync overlaid %+v", variant, a, b)
		}
	}
}

// sameProfile says whether a and b count the same locks, atomics and
// lines, and held instructions within 2 an acquisition of each other: the
// compiler's reload of a lock's address after a call, which the hand
// counts allow too (heldNear), may differ between the two builds.
func sameProfile(a, b Profile) bool {
	near := func(x, y, acquisitions float64) bool { return math.Abs(x-y) <= 2*acquisitions }
	if a.ExclusiveLocks != b.ExclusiveLocks || a.SharedLocks != b.SharedLocks || a.Atomics != b.Atomics || a.Lines != b.Lines ||
		!near(a.LockedInstructions, b.LockedInstructions, a.ExclusiveLocks) || !near(a.SharedLockedInstructions, b.SharedLockedInstructions, a.SharedLocks) ||
		len(a.Locks) != len(b.Locks) {
		return false
	}
	for i, l := range a.Locks {
		m := b.Locks[i]
		if l.Kind != m.Kind || l.Exclusive != m.Exclusive || l.Shared != m.Shared ||
			!near(l.HeldExclusive, m.HeldExclusive, l.Exclusive) || !near(l.HeldShared, m.HeldShared, l.Shared) {
			return false
		}
	}
	return true
}

func mustList(t *testing.T) []listed {
	t.Helper()
	pkgs, err := buildPackages(context.Background(), ".", "./testdata/handcount", []string{Tag})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestRewriteImportsKeepsTheRest: sync and sync/atomic, named or not,
// become the hooked packages under the same names, on the same lines; a
// file that imports neither is left alone.
func TestRewriteImportsKeepsTheRest(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n\tat \"sync/atomic\"\n)\n\nvar mu sync.Mutex\nvar n at.Int64\n\nfunc f() { fmt.Println(&mu, &n) }\n"
	path := filepath.Join(dir, "p.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, changed, err := rewriteImports(path)
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	want := strings.NewReplacer(`"sync"`, `sync "`+hookedRoot+`/sync"`, `"sync/atomic"`, `"`+hookedRoot+`/sync/atomic"`).Replace(src)
	if string(out) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", out, want)
	}
	plain := filepath.Join(dir, "q.go")
	if err := os.WriteFile(plain, []byte("package p\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := rewriteImports(plain); changed || err != nil {
		t.Errorf("a file without sync: changed %v, %v", changed, err)
	}
}

// TestModuleCacheIsNotRewritten: go build refuses an overlay of the
// module cache, so only the user's folders are rewritten; where perfrun
// itself is in the module cache the build overlays the standard sync.
func TestModuleCacheIsNotRewritten(t *testing.T) {
	cached := listed{ImportPath: hookedRoot, Imports: []string{"sync"}}
	cached.Module = &struct {
		Main    bool
		Replace *struct{ Version string }
	}{}
	if howHooked([]listed{cached}) != hookStandard {
		t.Error("perfrun from the module cache is not hooked by the standard overlay")
	}
	if howHooked([]listed{{ImportPath: "github.com/perfrun/perfrun/store"}}) != hookLegacy {
		t.Error("a tree without package hooked is not hooked the legacy way")
	}
	replace := map[string]string{}
	dep := listed{ImportPath: "example.com/dep", Dir: t.TempDir(), GoFiles: []string{"d.go"}, Imports: []string{"sync"}, Module: cached.Module}
	if err := hookedOverlay([]listed{dep}, t.TempDir(), replace); err != nil || len(replace) != 0 {
		t.Errorf("a module cache package was rewritten: %v, %v", replace, err)
	}
}
