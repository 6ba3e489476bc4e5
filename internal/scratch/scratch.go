// Package scratch makes the temporary folders perfrun and the processes
// it starts work in (a count's callgrind output, an overlay, a build of
// itself, a comparison's worktrees), each marked with the process that
// made it, and prunes those whose process is gone: a perfrun killed
// before its deferred removals ran (SIGKILL, a lost runner) leaves none
// behind for good.
package scratch

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Prefix begins every scratch folder's name in the temporary folder.
const Prefix = "perfrun-"

// pidFile names the process that made a scratch folder.
const pidFile = "pid"

// KeptFile marks a scratch folder kept on purpose (ab -keep): Prune
// leaves it.
const KeptFile = "kept"

// Dir makes a scratch folder named Prefix+name+random in the temporary
// folder and records this process in it.
func Dir(name string) (string, error) {
	dir, err := os.MkdirTemp("", Prefix+name)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, pidFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// Prune removes the scratch folders whose process is gone, but those
// kept on purpose and those of no recorded process (a folder older than
// this, or another program's), and returns them.
func Prune() []string {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), Prefix+"*"))
	var removed []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, KeptFile)); err == nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d, pidFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		if os.RemoveAll(d) == nil {
			removed = append(removed, d)
		}
	}
	return removed
}

// alive reports whether a process with this pid exists.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}
