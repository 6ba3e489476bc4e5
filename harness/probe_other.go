//go:build !linux

package harness

import (
	"os"
	"time"
)

// Elsewhere than Linux the kernel's per-thread accounting is not read:
// the metrics that need it are left out of the results.

func runDelay() (time.Duration, bool)                 { return 0, false }
func stealTime() (time.Duration, bool)                { return 0, false }
func pinThread(cpu int) (undo func(), ok bool)        { return func() {}, false }
func allowedCPUs() []int                              { return nil }
func childCPU(*os.ProcessState) (time.Duration, bool) { return 0, false }
func runnable() (int, bool)                           { return 0, false }
