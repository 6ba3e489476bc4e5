//go:build !linux

// Package threadcpu reads the CPU time the calling OS thread has used:
// elsewhere than Linux it is not read.
package threadcpu

import "time"

// Used is not read elsewhere than Linux.
func Used() (time.Duration, bool) { return 0, false }
