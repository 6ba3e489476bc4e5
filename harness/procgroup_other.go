//go:build !unix

package harness

import (
	"os/exec"
	"time"
)

// ownGroup bounds how long Wait waits for output pipes a child left
// behind holds open; process groups are Unix's.
func ownGroup(cmd *exec.Cmd) { cmd.WaitDelay = 2 * time.Second }

func endGroup(*exec.Cmd) {}
