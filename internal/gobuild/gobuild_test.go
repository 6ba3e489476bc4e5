package gobuild

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeGo puts a go on PATH that runs script, and returns a file it
// touches when it runs.
func fakeGo(t *testing.T, script string) (ran string) {
	t.Helper()
	dir := t.TempDir()
	ran = filepath.Join(dir, "ran")
	body := "#!/bin/sh\ntouch " + ran + "\n" + script + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return ran
}

// TestAFloodOfOutputIsCutToItsEnd: a build that fails with a line for
// every package (a full cache) is quoted by its end, in a few KB.
func TestAFloodOfOutputIsCutToItsEnd(t *testing.T) {
	fakeGo(t, `i=0; while [ $i -lt 3000 ]; do echo "go: writing cache entry $i: no space left on device"; i=$((i+1)); done; echo "the last line says why"; exit 1`)
	err := Run(context.Background(), t.TempDir(), "build", ".")
	if err == nil {
		t.Fatal("a failing go build gave no error")
	}
	msg := err.Error()
	if len(msg) > MostBytes+200 || !strings.Contains(msg, "the last line says why") || !strings.Contains(msg, "lines of go's output left out") {
		t.Errorf("%d bytes: %.300s …", len(msg), msg)
	}
}

// TestNoHomeIsNamedBeforeGoRuns: without HOME and the variables that
// stand for it, perfrun says so and never runs go to hear go's riddle.
func TestNoHomeIsNamedBeforeGoRuns(t *testing.T) {
	ran := fakeGo(t, "exit 0")
	for _, k := range []string{"HOME", "GOCACHE", "XDG_CACHE_HOME", "GOMODCACHE", "GOPATH"} {
		t.Setenv(k, "")
	}
	err := Run(context.Background(), t.TempDir(), "build", ".")
	if err == nil || !strings.Contains(err.Error(), "HOME is not set") || !strings.Contains(err.Error(), "GOMODCACHE") {
		t.Fatalf("got %v", err)
	}
	if _, statErr := os.Stat(ran); statErr == nil {
		t.Error("go ran without a home for its caches")
	}
	t.Setenv("GOCACHE", "/tmp/c")
	t.Setenv("GOMODCACHE", "/tmp/m")
	if err := Run(context.Background(), t.TempDir(), "build", "."); err != nil {
		t.Errorf("with GOCACHE and GOMODCACHE set: %v", err)
	}
}

// TestAnInterruptIsSaidAsOne: a build the context ended says so, without
// go's complaint about its signal.
func TestAnInterruptIsSaidAsOne(t *testing.T) {
	fakeGo(t, "echo 'signal: interrupt'; exit 2")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Run(ctx, t.TempDir(), "build", ".")
	if err == nil || !strings.Contains(err.Error(), "context canceled") || strings.Contains(err.Error(), "signal: interrupt") {
		t.Errorf("got %v", err)
	}
}

func TestShortOutputIsKeptWhole(t *testing.T) {
	if got := Tail("a\nb\n"); got != "a\nb" {
		t.Errorf("got %q", got)
	}
}

// TestAFolderThroughALinkIsBuiltByTheLinksPath: go builds a folder
// reached through a link as the link's path, not the folder's own, so a
// link that stays put keys go's cache the same for every folder it points
// at (the lock profile build's stable folder).
func TestAFolderThroughALinkIsBuiltByTheLinksPath(t *testing.T) {
	real, links := t.TempDir(), t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(real, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/linked\n\ngo 1.22\n")
	write("main.go", "package main\n\nfunc main() { panic(\"where am I\") }\n")
	link := filepath.Join(links, "stable")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no links here: %v", err)
	}
	out := filepath.Join(t.TempDir(), "linked")
	if err := Run(context.Background(), link, "build", "-o", out, "."); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	realMain, _ := filepath.EvalSymlinks(filepath.Join(real, "main.go"))
	if !strings.Contains(string(bin), filepath.Join(link, "main.go")) || strings.Contains(string(bin), realMain) {
		t.Errorf("the binary built in %s (a link to %s) does not name its source by the link's path", link, real)
	}
}

// TestLocalReplacesAreTheRelativeFolders: of a go.mod's replaces, those
// by ./ or ../ folders are listed, with the version replaced; a module
// version or an absolute folder is not. A folder in no module has no
// go.mod.
func TestLocalReplacesAreTheRelativeFolders(t *testing.T) {
	t.Setenv("GOWORK", "")
	root := t.TempDir()
	abs := filepath.Join(t.TempDir(), "abs")
	mod := "module example.com/m\n\ngo 1.22\n\nreplace (\n\texample.com/a v1.2.0 => ../a\n\texample.com/b => ./b\n\texample.com/c => example.com/fork v1.0.0\n\texample.com/d => " + abs + "\n)\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	gomod, _, err := ModuleFile(ctx, root)
	if err != nil || gomod != filepath.Join(root, "go.mod") {
		t.Fatalf("ModuleFile: %q, %v", gomod, err)
	}
	path, local, err := LocalReplaces(ctx, gomod)
	want := []Replace{{"example.com/a@v1.2.0", "../a"}, {"example.com/b", "./b"}}
	if err != nil || path != "example.com/m" || !slices.Equal(local, want) {
		t.Errorf("LocalReplaces: %q %v %v, want example.com/m %v", path, local, err, want)
	}
	if gomod, _, err := ModuleFile(ctx, t.TempDir()); err != nil || gomod != "" {
		t.Errorf("ModuleFile of a folder in no module: %q, %v", gomod, err)
	}
}
