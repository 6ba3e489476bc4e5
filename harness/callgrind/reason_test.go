package callgrind

import (
	"errors"
	"testing"
)

// TestReasonSaysWhetherToTryAgain holds the retry rule on typed values:
// an abort of callgrind's or the runtime's is tried again, a program that
// refuses its arguments is not.
func TestReasonSaysWhetherToTryAgain(t *testing.T) {
	exit := errors.New("exit status 1")
	for _, c := range []struct {
		stderr string
		again  bool
	}{
		{"==12== valgrind: m_mallocfree.c:303 (get_bszB_as_is): Assertion 'bszB_lo == bszB_hi' failed.\n", true},
		{"fatal error: unexpected signal during runtime execution\n", true},
		{"==12== Callgrind, a call-graph generating cache profiler\nflag provided but not defined: -nosuch\n", false},
	} {
		why, again := Reason(exit, []byte(c.stderr))
		if again != c.again || why == "" {
			t.Errorf("Reason(%q) = %q, again %v; want again %v", c.stderr, why, again, c.again)
		}
	}
}
