package cli

import (
	"flag"
	"testing"
)

// TestTheRepairTakesTheRoundsUnlessTold: every run, the main job
// included, repairs for as long as its planned rounds of the short cells
// take (0: harness.Quarantine's default) unless -repair says otherwise.
func TestTheRepairTakesTheRoundsUnlessTold(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 0},
		{[]string{"-window", "100ms", "-o", ""}, 0},
		{[]string{"-rounds", "3"}, 0},
		{[]string{"-impl", "sorted"}, 0},
		{[]string{"-repair", "4"}, 4},
		{[]string{"-impl", "rcu", "-repair", "2"}, 2},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		f := newRunFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		opts, err := f.options()
		if err != nil {
			t.Fatalf("run %v: %v", tc.args, err)
		}
		if opts.Quarantine.Extra != tc.want {
			t.Errorf("run %v: the harness repairs for %d rounds, want %d", tc.args, opts.Quarantine.Extra, tc.want)
		}
	}
}
