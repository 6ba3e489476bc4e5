package locks

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// aModule writes a module named path with a main package in cmd/x, its
// go.mod ending in more, and returns its root.
func aModule(t *testing.T, path, more string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "cmd", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":        "module " + path + "\n\ngo 1.22\n" + more,
		"cmd/x/main.go": "package main\n\nfunc main() {}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// sameFolder says whether a and b are one folder, links followed.
func sameFolder(t *testing.T, a, b string) bool {
	t.Helper()
	sa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(sa, sb)
}

// TestEveryCopyOfAModuleIsBuiltInOneFolder: two clones of a module, one
// after the other, are built through the same link, pointed at each in
// turn; a clone built while another holds the link gets a link of its
// own.
func TestEveryCopyOfAModuleIsBuiltInOneFolder(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock here")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("GOWORK", "")
	ctx := context.Background()
	a := aModule(t, "example.com/store", "")
	b := aModule(t, "example.com/store", "")
	dirA := filepath.Join(a, "cmd", "x")
	dirB := filepath.Join(b, "cmd", "x")

	inA, releaseA := stableFolder(ctx, dirA)
	if inA == dirA || !sameFolder(t, inA, dirA) || filepath.Base(inA) != "x" {
		t.Fatalf("clone a is built in %s, want a link to %s", inA, dirA)
	}
	inB, releaseB := stableFolder(ctx, dirB)
	if inB == dirB || inB == inA || !sameFolder(t, inB, dirB) {
		t.Fatalf("clone b, while a holds its link, is built in %s (a in %s)", inB, inA)
	}
	releaseB()
	releaseA()

	again, release := stableFolder(ctx, dirB)
	defer release()
	if again != inA || !sameFolder(t, again, dirB) {
		t.Errorf("clone b, the link free, is built in %s, want %s pointed at it", again, inA)
	}
}

// TestAModuleALinkWouldChangeIsBuiltWhereItIs: a module that replaces a
// dependency by a relative folder, or one in a workspace, reads a folder
// relative to its own; through a link it would read another, so it is
// built where it is.
func TestAModuleALinkWouldChangeIsBuiltWhereItIs(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("GOWORK", "")
	ctx := context.Background()

	replaced := aModule(t, "example.com/store", "\nreplace example.com/dep => ../dep\n")
	dir := filepath.Join(replaced, "cmd", "x")
	if got, release := stableFolder(ctx, dir); got != dir {
		release()
		t.Errorf("a module with a relative replace is built in %s, want %s", got, dir)
	}

	work := aModule(t, "example.com/store", "")
	if err := os.WriteFile(filepath.Join(work, "go.work"), []byte("go 1.22\n\nuse .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(work, "cmd", "x")
	if got, release := stableFolder(ctx, dir); got != dir {
		release()
		t.Errorf("a module in a workspace is built in %s, want %s", got, dir)
	}

	plain := aModule(t, "example.com/store", "\nreplace example.com/dep => example.com/fork v1.0.0\n")
	dir = filepath.Join(plain, "cmd", "x")
	got, release := stableFolder(ctx, dir)
	defer release()
	if got == dir || !strings.HasPrefix(got, os.Getenv("XDG_CACHE_HOME")) {
		t.Errorf("a module replacing a dependency by another module is built in %s, want a link in the cache", got)
	}
}
