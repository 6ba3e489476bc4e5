package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// builds are the builds of perfrun the tests share, by their go build
// flags: a link of perfrun takes seconds, and several tests run the same
// build. The folder goes when the tests end (cleanupM).
var builds struct {
	sync.Mutex
	dir  string
	bins map[string]string
}

// builtPerfrun is perfrun's main built with flags, built once for every
// test that asks for it.
func builtPerfrun(t *testing.T, flags ...string) string {
	t.Helper()
	builds.Lock()
	defer builds.Unlock()
	key := strings.Join(flags, "\x00")
	if bin, ok := builds.bins[key]; ok {
		return bin
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "perfrun-cli-test-")
		if err != nil {
			t.Fatal(err)
		}
		builds.dir, builds.bins = dir, make(map[string]string)
	}
	bin := filepath.Join(builds.dir, fmt.Sprintf("perfrun-%d", len(builds.bins)))
	args := append(append([]string{"build"}, flags...), "-o", bin, "../../cmd/perfrun")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	builds.bins[key] = bin
	return bin
}

// cleanupM runs the tests, then removes the builds they shared. The
// tests keep no machine's constants but their own (hostconstants): a
// record this machine keeps would move their predictions.
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	constants, err := os.MkdirTemp("", "perfrun-cli-constants-")
	if err == nil {
		os.Setenv("PERFRUN_CONSTANTS", constants)
		defer os.RemoveAll(constants)
	}
	code := c.m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	return code
}
