package terminal

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/harness"
)

// TestAnAddedRoundSaysItsBound: a planned round says its pace's ETA; an
// added one the most the added rounds may still take, never a pace that
// knows nothing of how many more come.
func TestAnAddedRoundSaysItsBound(t *testing.T) {
	var out bytes.Buffer
	show := Progress(&out)
	show(harness.Progress{Round: 2, Rounds: 6, Done: 10, Total: 60, Elapsed: 10 * time.Second})
	show(harness.Progress{Round: 7, Rounds: 6, Done: 60, Total: 63, Elapsed: 60 * time.Second, Extra: "re-measuring set-aside rounds", Left: 14 * time.Second})
	show(harness.Progress{Round: 8, Rounds: 6, Done: 63, Total: 66, Elapsed: 62 * time.Second, Extra: "re-measuring set-aside rounds"})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"perfrun: round 2/6 (10 cells done of 60) ETA 50s",
		"perfrun: added round 1, re-measuring set-aside rounds (60 cells done of 63) up to 14s more",
		"perfrun: added round 2, re-measuring set-aside rounds (63 cells done of 66)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
}
