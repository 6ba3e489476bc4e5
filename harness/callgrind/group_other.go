//go:build !unix

package callgrind

import (
	"os/exec"
	"time"
)

func ownGroup(cmd *exec.Cmd) { cmd.WaitDelay = 2 * time.Second }
