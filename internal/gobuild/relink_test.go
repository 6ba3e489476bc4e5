package gobuild

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRelinkerLinksLayouts: a main package built once is linked again by
// the linker alone, each link with its own layout: both binaries run, and
// their code differs; a build that fails is the error, not a fallback.
func TestRelinkerLinksLayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nvar name = \"unset\"\n\nfunc a() int { return 1 }\n\nfunc b() int { return 2 }\n\nfunc main() { fmt.Println(name, a()+b()) }\n"), 0o644)
	ctx := context.Background()
	plain := filepath.Join(dir, "plain")
	l, err := NewRelinker(ctx, dir, plain, "-trimpath", "-ldflags=-X=main.name=stamped")
	if err != nil || l == nil {
		t.Fatalf("NewRelinker: %v, %v", l, err)
	}
	defer l.Close()
	var bins [][]byte
	for _, seed := range []string{"1", "2"} {
		bin := filepath.Join(dir, "layout"+seed)
		if err := l.Link(ctx, bin, "-s", "-w", "-randlayout="+seed); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin).Output()
		if err != nil || string(out) != "stamped 3\n" {
			t.Fatalf("layout %s printed %q, %v", seed, out, err)
		}
		data, _ := os.ReadFile(bin)
		bins = append(bins, data)
	}
	if bytes.Equal(bins[0], bins[1]) {
		t.Error("two layouts linked the same binary")
	}
	l.Close()
	if _, err := os.Stat(l.work); !os.IsNotExist(err) {
		t.Errorf("Close left go's work folder %s: %v", l.work, err)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { undefined() }\n"), 0o644)
	if l, err := NewRelinker(ctx, dir, plain); err == nil {
		l.Close()
		t.Error("a package that does not compile gave no error")
	}
}

func TestShellWords(t *testing.T) {
	got, err := shellWords(`GOROOT='/usr/local/go' /x/link -o "$WORK/b 1/a.out" -X=a.b=c # internal`)
	want := []string{"GOROOT=/usr/local/go", "/x/link", "-o", "$WORK/b 1/a.out", "-X=a.b=c"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("shellWords = %q, %v; want %q", got, err, want)
	}
}

// TestGoWorksInTheScratchItIsGiven: a relinker's work folder, which lives
// as long as its campaign, lies in the scratch folder the context names,
// not in $TMPDIR, where a killed campaign would leave it for good.
func TestGoWorksInTheScratchItIsGiven(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	dir, scratch, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	ctx := WithScratch(context.Background(), filepath.Join(scratch, "go"))
	l, err := NewRelinker(ctx, dir, filepath.Join(dir, "plain"), "-trimpath")
	if err != nil || l == nil {
		t.Fatalf("NewRelinker: %v, %v", l, err)
	}
	defer l.Close()
	if !strings.HasPrefix(l.work, filepath.Join(scratch, "go")+string(filepath.Separator)) {
		t.Errorf("go's work folder is %s, want it under %s", l.work, scratch)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "go-build*")); len(left) > 0 {
		t.Errorf("go worked in $TMPDIR: %v", left)
	}
}
