//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
	"time"
)

// Own runs cmd in a process group of its own, so that everything it
// starts can be stopped with it: an interrupt (the context) kills the
// whole group, and Wait gives up on output pipes a child it left behind
// still holds open after waitDelay.
func Own(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
}

// End kills what is left of cmd's process group once cmd has ended:
// a child it left running would use the machine through later windows.
func End(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

const waitDelay = 2 * time.Second

// Gentle runs cmd in a process group of its own that an interrupt (the
// context) asks to stop with SIGINT, as Ctrl-C would, and kills only if
// it has not ended after grace: a child perfrun that is interrupted
// removes its worktrees and temporary files before it exits.
func Gentle(cmd *exec.Cmd, grace time.Duration) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	cmd.WaitDelay = grace
}
