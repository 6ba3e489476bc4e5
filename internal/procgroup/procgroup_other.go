//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
	"time"
)

// Own bounds how long Wait waits for output pipes a child left
// behind holds open; process groups are Unix's.
func Own(cmd *exec.Cmd) { cmd.WaitDelay = 2 * time.Second }

func End(*exec.Cmd) {}

// Gentle asks cmd to stop on an interrupt and kills it after grace.
func Gentle(cmd *exec.Cmd, grace time.Duration) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = grace
}
