package history

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestCreateProcess is one creator of TestConcurrentCreation, run as its
// own process; it does nothing in a normal test run.
func TestCreateProcess(t *testing.T) {
	path := os.Getenv("PERFRUN_HISTORY_CREATE_DB")
	if path == "" {
		t.Skip("run by TestConcurrentCreation")
	}
	k, _ := strconv.Atoi(os.Getenv("PERFRUN_HISTORY_CREATE_K"))
	h, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Add(ctx, "f.txt", fileOf(k, 0), AddOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentCreation: processes that create one new history at the
// same moment all succeed. Each opener took the schema from the others
// half-made, or met "database is locked" (1 in 40 pairs, 3 in 10 in an
// attack) before openers took turns.
func TestConcurrentCreation(t *testing.T) {
	if os.Getenv("PERFRUN_HISTORY_CREATE_DB") != "" {
		t.Skip("a creator")
	}
	for trial := range 6 {
		path := filepath.Join(t.TempDir(), "h.db")
		var wg sync.WaitGroup
		errs := make([]error, 3)
		outs := make([][]byte, 3)
		for k := range 3 {
			wg.Go(func() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestCreateProcess$", "-test.count=1")
				cmd.Env = append(os.Environ(), "PERFRUN_HISTORY_CREATE_DB="+path, "PERFRUN_HISTORY_CREATE_K="+strconv.Itoa(trial*10+k))
				outs[k], errs[k] = cmd.CombinedOutput()
			})
		}
		wg.Wait()
		for k, err := range errs {
			if err != nil {
				t.Fatalf("trial %d, creator %d: %v\n%s", trial, k, err, outs[k])
			}
		}
	}
}

// TestOpenReadWritesNothing: reading a history creates no file beside it
// and changes none (so a read-only folder can be read), and a history
// that is not there is not created.
func TestOpenReadWritesNothing(t *testing.T) {
	h := openTemp(t)
	if _, err := h.Add(ctx, "a.txt", fileOf(1, 0), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	h.Close()
	dir := filepath.Dir(h.Path)
	before := listing(t, dir)
	time.Sleep(10 * time.Millisecond)
	r, err := OpenRead(ctx, h.Path)
	if err != nil {
		t.Fatal(err)
	}
	if s := stats(t, r); s.Files != 1 {
		t.Errorf("read %+v", s)
	}
	r.Close()
	if after := listing(t, dir); after != before {
		t.Errorf("reading changed the folder:\nbefore %s\nafter  %s", before, after)
	}
	if _, err := OpenRead(ctx, filepath.Join(dir, "none.db")); err == nil {
		t.Error("OpenRead of a missing history succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("OpenRead created a history")
	}
}

// TestDamagedRefused: a history with damaged pages is refused when it is
// opened, naming the damage — it passed info and made changes say "out of
// memory".
func TestDamagedRefused(t *testing.T) {
	h := openTemp(t)
	for i := range 40 {
		if _, err := h.Add(ctx, "a.txt", fileOf(1, i), AddOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	h.Close()
	data, err := os.ReadFile(h.Path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 4096 + 100; i < len(data)-100; i += 4096 {
		copy(data[i:], []byte("perfrun damaged this page on purpose"))
	}
	os.WriteFile(h.Path, data, 0o644)
	for name, open := range map[string]func() (*DB, error){
		"read":  func() (*DB, error) { return OpenRead(ctx, h.Path) },
		"write": func() (*DB, error) { return Open(ctx, h.Path) },
	} {
		if d, err := open(); !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrNotHistory) {
			if d != nil {
				d.Close()
			}
			t.Errorf("%s: opened a damaged history: %v", name, err)
		}
	}
}

func listing(t *testing.T, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := ""
	for _, e := range entries {
		info, _ := e.Info()
		s += e.Name() + "@" + info.ModTime().String() + strconv.FormatInt(info.Size(), 10) + " "
	}
	return s
}

// TestEmptyIsNotOlder: reading a database that holds nothing yet (a
// server's new schema, an empty file) says it holds no history, not that
// an older perfrun wrote it.
func TestEmptyIsNotOlder(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		path := b.path(t)
		if b.name == "sqlite" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := OpenRead(ctx, path)
		if !errors.Is(err, ErrEmpty) || errors.Is(err, ErrOlder) {
			t.Errorf("OpenRead of an empty database: %v, want %v", err, ErrEmpty)
		}
	})
}
