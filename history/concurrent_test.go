package history

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
)

const (
	writers       = 4
	filesEach     = 12 // distinct to each writer
	filesShared   = 6  // the same bytes, added by every writer
	samplesInFile = 2 * 3 * 2
)

func fileOf(writer, i int) []byte {
	return resultsText(fmt.Sprintf("%040x", writer*1000+i), i, "ci", map[string]float64{"A/impl=x": 1 + float64(i), "B/impl=x": 2}, 3, false)
}

// TestWriterProcess is one writer of TestConcurrentWriters, run as its own
// process; it does nothing in a normal test run.
func TestWriterProcess(t *testing.T) {
	path := os.Getenv("PERFRUN_HISTORY_TEST_DB")
	k, _ := strconv.Atoi(os.Getenv("PERFRUN_HISTORY_TEST_WRITER"))
	if path == "" {
		t.Skip("run by TestConcurrentWriters")
	}
	h, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for i := 0; i < filesEach; i++ {
		if i < filesShared {
			if _, err := h.Add(ctx, "shared.txt", fileOf(99, i), AddOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := h.Add(ctx, "own.txt", fileOf(k, i), AddOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConcurrentWriters: four processes add to one new history at once —
// each its own files, and all of them the same shared files. Nothing is
// lost, nothing stored twice, and the database is intact.
func TestConcurrentWriters(t *testing.T) {
	if os.Getenv("PERFRUN_HISTORY_TEST_DB") != "" {
		t.Skip("a writer")
	}
	eachBackend(t, testConcurrentWriters)
}

func testConcurrentWriters(t *testing.T, b backend) {
	path := b.path(t)
	var wg sync.WaitGroup
	outs := make([][]byte, writers)
	errs := make([]error, writers)
	for k := range writers {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), "PERFRUN_HISTORY_TEST_DB="+path, "PERFRUN_HISTORY_TEST_WRITER="+strconv.Itoa(k))
			outs[k], errs[k] = cmd.CombinedOutput()
		})
	}
	wg.Wait()
	for k := range writers {
		if errs[k] != nil {
			t.Fatalf("writer %d: %v\n%s", k, errs[k], outs[k])
		}
	}
	h, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s := stats(t, h)
	wantFiles := writers*filesEach + filesShared
	if s.Files != wantFiles || s.Runs != wantFiles || s.Samples != wantFiles*samplesInFile {
		t.Errorf("after %d concurrent writers: %+v, want %d files and runs, %d samples", writers, s, wantFiles, wantFiles*samplesInFile)
	}
	if h.d.postgres {
		return
	}
	var check string
	if err := h.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity check: %q, %v", check, err)
	}
}
