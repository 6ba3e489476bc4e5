package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/internal/subcommand"
)

// TestEveryBudgetFlagHasABound: a budget a command spends — rounds, looks,
// windows, a time limit — past its bound is refused at once, exit 2,
// naming the flag, on every path of its command (a replay reads -looks
// as a live campaign does); and a limit that bounds nothing it was given
// (-max-time without -precision) is refused, not ignored.
func TestEveryBudgetFlagHasABound(t *testing.T) {
	replay := "../../docs/testdata/c-hashmap/windows.csv"
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"ab", "-looks", "500", "-replay", replay}, `"500" for flag -looks`},
		{[]string{"ab", "-rounds", "20000", "-replay", replay}, `"20000" for flag -rounds`},
		{[]string{"ab", "-inner", "99999", "HEAD", "HEAD"}, `"99999" for flag -inner`},
		{[]string{"ab", "-budget", "900h", "HEAD", "HEAD"}, `"900h" for flag -budget`},
		{[]string{"ab", "-warmup", "2h", "HEAD", "HEAD"}, `"2h" for flag -warmup`},
		{[]string{"run", "-rounds", "200000"}, `"200000" for flag -rounds`},
		{[]string{"run", "-precision", "2%", "-max-time", "900h"}, `"900h" for flag -max-time`},
		{[]string{"run", "-max-time", "5m"}, "-max-time bounds the rounds -precision adds"},
		{[]string{"arm", "-window", "1h"}, `"1h" for flag -window`},
		{[]string{"bisect", "-budget", "900h", "HEAD~1", "HEAD"}, `"900h" for flag -budget`},
		{[]string{"predict", "-windows", "5000", "x.txt"}, `"5000" for flag -windows`},
		{[]string{"history", "changes", "-min-size", "5000"}, `"5000" for flag -min-size`},
		{[]string{"history", "backfill", "-every", "0", "HEAD~2..HEAD"}, `"0" for flag -every`},
	} {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := run(&stdout, &stderr, c.args)
		if code != subcommand.ExitUsage || !strings.Contains(stderr.String(), c.says) {
			t.Errorf("perfrun %q: exit %d after %v, want 2 saying %q:\n%s", c.args, code, time.Since(start), c.says, &stderr)
		}
	}
}

// TestAHugeFractionIsRefusedInWords: a fraction flag given 1e308 says it
// is no fraction, never suggests "+Inf%".
func TestAHugeFractionIsRefusedInWords(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(&stdout, &stderr, []string{"gate", "-threshold", "1e308", "a.txt", "b.txt"})
	if code != subcommand.ExitUsage || strings.Contains(stderr.String(), "Inf") || !strings.Contains(stderr.String(), "1e308 is no fraction") {
		t.Errorf("gate -threshold 1e308: exit %d\n%s", code, &stderr)
	}
}
