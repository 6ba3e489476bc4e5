//go:build unix

package callgrind

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup runs cmd in a process group of its own, killed whole when ctx
// ends.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
}
