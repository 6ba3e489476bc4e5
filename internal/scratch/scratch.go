// Package scratch makes the temporary folders perfrun and the processes
// it starts work in (a count's callgrind output, an overlay, a build of
// itself, a comparison's worktrees), each marked as perfrun's with the
// process that made it, and prunes those certainly perfrun's whose
// process is certainly gone: a perfrun killed before its deferred
// removals ran (SIGKILL, a lost runner) leaves none behind for good, and
// nothing else in a shared temporary folder can pass for one of them.
//
// A live process holds a lock (flock) on its folder's mark for as long as
// the folder is its: a lock is the kernel's, so it holds across pid
// namespaces (a container's perfrun beside the host's), where a pid and a
// start time name another process. A folder whose mark is locked is never
// pruned, whatever its pid says.
package scratch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Prefix begins every scratch folder's name in the temporary folder.
const Prefix = "perfrun-"

// markFile is the mark perfrun writes in every scratch folder it makes,
// and markHead its first line: a folder without it is not perfrun's.
const (
	markFile = "perfrun-scratch"
	markHead = "perfrun scratch folder"
)

// maxMark is the most a mark may hold: a larger file is not perfrun's.
const maxMark = 256

// KeptFile marks a scratch folder kept on purpose (ab -keep): Prune
// leaves it.
const KeptFile = "kept"

// Dir makes a scratch folder named Prefix+name+random in the temporary
// folder, only its owner's to read (os.MkdirTemp), and marks it as this
// process's.
func Dir(name string) (string, error) {
	dir, err := os.MkdirTemp("", Prefix+name)
	if err != nil {
		return "", err
	}
	if err := Mark(dir, os.Getpid(), started(os.Getpid())); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if err := hold(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// holds are the marks this process holds locked, by folder.
var holds sync.Map

// hold locks dir's mark for this process until Remove (or its exit).
func hold(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, markFile), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return fmt.Errorf("scratch folder %s: locking its mark: %w", dir, err)
	}
	holds.Store(dir, f)
	return nil
}

// Remove removes a scratch folder and lets go of this process's lock on
// it (Dir): what a maker defers.
func Remove(dir string) error {
	if f, ok := holds.LoadAndDelete(dir); ok {
		f.(*os.File).Close()
	}
	return os.RemoveAll(dir)
}

// Mark writes dir's mark: the process pid that made it, started at start
// (its start time as the kernel counts it, 0 where unknown).
func Mark(dir string, pid int, start uint64) error {
	return os.WriteFile(filepath.Join(dir, markFile), fmt.Appendf(nil, "%s\npid %d\nstart %d\n", markHead, pid, start), 0o600)
}

// Prune removes the scratch folders that are certainly perfrun's and
// certainly abandoned, and returns them. Certainly perfrun's: a folder,
// not a link, its owner this user, holding a regular file of perfrun's
// mark, this user's too, opened so that a FIFO or a link in its place can
// neither block the prune nor lead it elsewhere. Certainly abandoned: the
// process its mark names is gone, or its pid is another process's now (a
// start time other than the mark's) and no process holds its mark locked
// (Dir), in this pid namespace or another. A folder kept on purpose
// (KeptFile), one of this process's, or one marked otherwise (an older
// perfrun's, or another program's) stays.
func Prune() []string {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), Prefix) {
			continue
		}
		d := filepath.Join(tmp, e.Name())
		pid, start, ok := owner(d)
		if !ok || pid == os.Getpid() || !abandoned(pid, start) || locked(d) {
			continue
		}
		if os.RemoveAll(d) == nil {
			removed = append(removed, d)
		}
	}
	return removed
}

// owner reads the mark of d, where d is certainly a scratch folder of
// this user's perfrun: the pid and start time it names.
func owner(d string) (pid int, start uint64, ok bool) {
	info, err := os.Lstat(d)
	if err != nil || !info.IsDir() || !mine(info) {
		return 0, 0, false
	}
	if kept, err := os.Lstat(filepath.Join(d, KeptFile)); err == nil && kept.Mode().IsRegular() {
		return 0, 0, false
	}
	data, ok := readMark(filepath.Join(d, markFile))
	if !ok {
		return 0, 0, false
	}
	return parseMark(data)
}

// locked says whether a process holds d's mark locked: a live perfrun,
// whichever pid namespace it runs in. A mark that cannot be opened or
// locked for another reason counts as held: the prune leaves it.
func locked(d string) bool {
	f, err := os.OpenFile(filepath.Join(d, markFile), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return true
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// readMark reads a mark without following a link or waiting on a FIFO:
// only a regular file of this user's, at most maxMark bytes.
func readMark(path string) ([]byte, bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || !mine(info) || info.Size() > maxMark {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMark))
	return data, err == nil
}

// parseMark reads a mark's pid and start time; a pid that no process can
// have (0 or below) is no mark.
func parseMark(data []byte) (pid int, start uint64, ok bool) {
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || lines[0] != markHead {
		return 0, 0, false
	}
	ps, pidOK := strings.CutPrefix(lines[1], "pid ")
	ss, startOK := strings.CutPrefix(lines[2], "start ")
	p, err1 := strconv.Atoi(ps)
	s, err2 := strconv.ParseUint(ss, 10, 64)
	if !pidOK || !startOK || err1 != nil || err2 != nil || p <= 0 {
		return 0, 0, false
	}
	return p, s, true
}

// mine says whether info is of a file this user owns.
func mine(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// abandoned says whether the process pid started at start is gone: no
// process has the pid, or the one that has it started at another time.
func abandoned(pid int, start uint64) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	if err := p.Signal(syscall.Signal(0)); err != nil && !errors.Is(err, syscall.EPERM) {
		return true // no such process; EPERM: another user's, alive
	}
	now := started(pid)
	return start != 0 && now != 0 && now != start
}

// started is the start time of process pid as the kernel counts it
// (Linux: /proc/PID/stat's 22nd field, in clock ticks since boot); 0
// where it cannot be read.
func started(pid int) uint64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name is in parentheses and may hold anything: the
	// fields are counted from the last ")".
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 20 {
		return 0
	}
	s, err := strconv.ParseUint(fields[19], 10, 64)
	if err != nil {
		return 0
	}
	return s
}
