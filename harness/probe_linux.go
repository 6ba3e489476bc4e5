package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// runDelay is how long the calling thread has been runnable but waiting
// for a CPU (the second field of its schedstat). A worker blocked on a
// lock sleeps and does not count; a worker whose core the host or another
// process took does. Absent without CONFIG_SCHEDSTATS.
func runDelay() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(string(f[1]), 10, 64)
	return time.Duration(ns), err == nil
}

// userHz is the unit of /proc/stat's counters on every Linux perfrun runs
// on (USER_HZ is 100 on x86 and arm64 ABIs).
const userHz = 100

// stealTime is the time the hypervisor ran something else while this
// guest's CPUs wanted to run, summed over CPUs (/proc/stat's eighth
// column), in USER_HZ ticks: coarse, so read across whole windows.
func stealTime() (time.Duration, bool) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	fields := bytes.Fields(line)
	if len(fields) < 9 || string(fields[0]) != "cpu" {
		return 0, false
	}
	ticks, err := strconv.ParseInt(string(fields[8]), 10, 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ticks) * time.Second / userHz, true
}

// pinThread binds the calling OS thread to one CPU and returns what undoes
// it, so that a thread going back to the runtime's pool is not left bound.
// It does nothing (and says so) where the process may not use that CPU.
func pinThread(cpu int) (undo func(), ok bool) {
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil || !old.IsSet(cpu) {
		return func() {}, false
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return func() {}, false
	}
	return func() { unix.SchedSetaffinity(0, &old) }, true
}

// allowedCPUs lists the CPUs the process may run on, in order.
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var out []int
	for cpu := 0; cpu < 1024 && len(out) < set.Count(); cpu++ {
		if set.IsSet(cpu) {
			out = append(out, cpu)
		}
	}
	return out
}

// childCPU is the user and system time an exited child used.
func childCPU(ps *os.ProcessState) (time.Duration, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// runnable is how many threads of other processes are running or
// runnable now: the machine's (/proc/stat's procs_running) less this
// process's own in state R (/proc/self/task), the reader among them and
// the Go scheduler's threads spinning for work, which woke with it.
func runnable() (int, bool) {
	// A thread of ours may stop or start between the two reads: the more
	// of ours seen, before or after, is the safer count of ours.
	own := ownRunning()
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("procs_running ")); ok {
			n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			return max(n-max(own, ownRunning()), 0), err == nil
		}
	}
	return 0, false
}

// ownRunning counts this process's threads in state R, at least 1 (the
// reader).
func ownRunning() int {
	tasks, _ := filepath.Glob("/proc/self/task/*/stat")
	n := 0
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		// The state follows the command's closing parenthesis and a space.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'R' {
			n++
		}
	}
	return max(n, 1)
}
