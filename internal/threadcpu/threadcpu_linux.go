// Package threadcpu reads the CPU time the calling OS thread has used:
// the one clock that tells a thread that ran from one that waited for a
// CPU, for the harness's workers and predict's spinning threads alike.
package threadcpu

import (
	"time"

	"golang.org/x/sys/unix"
)

// Used is the CPU time the calling OS thread has used; false where the
// kernel does not say. A goroutine must be locked to its thread for the
// difference across a window to be its own.
func Used() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
