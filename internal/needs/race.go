package needs

import (
	"os"
	"strings"
	"testing"
)

// NoRace skips t under the race detector, saying why: for a test that
// the detector only slows, since it shares no memory between goroutines
// (a simulation of thousands of campaigns runs nine times slower under
// it) or its goroutines are the same code other tests run under the
// detector. .ci/run runs such tests again without it, so CI never skips
// them.
func NoRace(t testing.TB, why string) {
	t.Helper()
	if raceDetector {
		t.Skipf("skipped under -race: %s (.ci/run runs it without -race)", why)
	}
}

// QuickChildExit makes the children of a test binary built with -race
// exit when they end: such a process sleeps a second at exit (GORACE's
// atexit_sleep_ms, 1000 by default), and a test that runs its own binary
// as perfrun again runs hundreds of children. It sets GORACE for every
// child started after it; settings already in GORACE come after, so they
// win.
func QuickChildExit() {
	if raceDetector {
		os.Setenv("GORACE", strings.TrimSpace("atexit_sleep_ms=0 "+os.Getenv("GORACE")))
	}
}
