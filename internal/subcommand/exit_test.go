package subcommand

import (
	"errors"
	"testing"
)

// TestInterruptMessage: whatever a command made of its cancelled context
// or its interrupted child, the user reads "interrupted" and what was kept,
// never the raw words of the cancellation alone.
func TestInterruptMessage(t *testing.T) {
	for _, tc := range []struct{ err, want string }{
		{"", "interrupted"},
		{"context canceled", "interrupted"},
		{"building head: signal: interrupt: ", "interrupted: building head"},
		{"interrupted: kept the 2 completed rounds", "interrupted: kept the 2 completed rounds"},
		{"copy: context canceled", "interrupted: copy"},
		{"add: interrupted: 3 files added, x.txt and the rest not", "interrupted: add: 3 files added, x.txt and the rest not"},
	} {
		var err error
		if tc.err != "" {
			err = errors.New(tc.err)
		}
		if got := interruptMessage(err); got != tc.want {
			t.Errorf("interruptMessage(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
