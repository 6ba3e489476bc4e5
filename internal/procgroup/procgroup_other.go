//go:build !unix

package procgroup

import (
	"os/exec"
	"time"
)

// Own bounds how long Wait waits for output pipes a child left
// behind holds open; process groups are Unix's.
func Own(cmd *exec.Cmd) { cmd.WaitDelay = 2 * time.Second }

func End(*exec.Cmd) {}
