package locks

import (
	"context"
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestRebuiltProvesTheSource: a binary with no VCS stamp (as
// -buildvcs=false builds it) is proven to come from a folder's source by a
// build of that source with its recorded settings; once the source changes
// (a write lock patched in after the build), the proof fails and counting
// is refused, where it once counted the patched source as the binary's.
func TestRebuiltProvesTheSource(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program three times")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"sync\"\n\nvar mu sync.RWMutex\n\nfunc main() { mu.RLock(); mu.RUnlock() }\n"), 0o644)
	exe := filepath.Join(t.TempDir(), "m")
	cmd := exec.Command("go", "build", "-buildvcs=false", "-ldflags=-X=main.v=1", "-o", exe, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := Rebuilt(ctx, exe, info, dir, ".", t.TempDir()); err != nil {
		t.Fatalf("the binary's own source: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"sync\"\n\nvar mu sync.RWMutex\n\nfunc main() { mu.Lock(); mu.Unlock() }\n"), 0o644)
	if err := Rebuilt(ctx, exe, info, dir, ".", t.TempDir()); err == nil || !strings.Contains(err.Error(), "builds another binary") {
		t.Errorf("source changed after the build: %v, want it refused", err)
	}
}

// TestRebuiltProvesAGoRunBinary: go run strips the binary it runs without
// recording so; such a binary is proven by its code, and refused once its
// source changes.
func TestRebuiltProvesAGoRunBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program three times")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.26\n"), 0o644)
	// The program keeps a copy of itself: go run removes its binary.
	src := "package main\n\nimport (\n\t\"os\"\n\t\"sync\"\n)\n\nvar mu sync.RWMutex\n\nfunc main() {\n\tmu.RLock()\n\tmu.RUnlock()\n\te, _ := os.Executable()\n\tb, _ := os.ReadFile(e)\n\tos.WriteFile(os.Getenv(\"KEEP\")+\"/m\", b, 0o755)\n}\n"
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
	keep := t.TempDir()
	cmd := exec.Command("go", "run", ".")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "KEEP="+keep)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	exe := filepath.Join(keep, "m")
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := Rebuilt(ctx, exe, info, dir, ".", t.TempDir()); err != nil {
		t.Fatalf("go run's binary and its own source: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(strings.Replace(src, "mu.RLock()\n\tmu.RUnlock()", "mu.Lock()\n\tmu.Unlock()", 1)), 0o644)
	if err := Rebuilt(ctx, exe, info, dir, ".", t.TempDir()); err == nil {
		t.Error("source changed after go run built it: proven all the same")
	}
}

// TestUnrecordedCgoIsSaid: a cgo program built with -trimpath, whose
// build info leaves its C flags out, is told to run with them set; a
// program that recorded them, or no cgo, or no -trimpath, is told nothing.
func TestUnrecordedCgoIsSaid(t *testing.T) {
	info := func(kv ...string) *debug.BuildInfo {
		b := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			b.Settings = append(b.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return b
	}
	if h := unrecordedCgo(info("-trimpath", "true", "CGO_ENABLED", "1")); !strings.Contains(h, "CGO_LDFLAGS") {
		t.Errorf("a -trimpath cgo build: %q, want the C flags named", h)
	}
	for _, b := range []*debug.BuildInfo{
		info("-trimpath", "true", "CGO_ENABLED", "1", "CGO_LDFLAGS", "-L/x"),
		info("-trimpath", "true", "CGO_ENABLED", "0"),
		info("CGO_ENABLED", "1"),
	} {
		if h := unrecordedCgo(b); h != "" {
			t.Errorf("%v: %q, want nothing", b.Settings, h)
		}
	}
}
