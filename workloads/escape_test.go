package workloads

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestNoWorkerStateOnSharedHeap fails when the compiler moves a variable of
// this package to the heap. Every such variable here has been state that a
// worker's closure writes (a rotation index, a cached store, a counter);
// on the heap, small ones of different workers share cache lines and the
// workers' writes bounce those lines between cores. Per-worker state
// belongs on the stack or in a padded slot.
func TestNoWorkerStateOnSharedHeap(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "build", "-o", "/dev/null", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "moved to heap:") {
			t.Errorf("%s: per-worker state must live on the stack or in a padded slot", line)
		}
	}
}
