package flagvalue

import (
	"flag"
	"io"
	"testing"
	"time"
)

// TestValuesOutOfBoundsAreRefused: each kind takes what it is for and
// refuses, by the flag package's error, what it is not.
func TestValuesOutOfBoundsAreRefused(t *testing.T) {
	var (
		n, f float64
		b    int
		d    time.Duration
	)
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	NumberVar(fs, &n, "n", 1, "a number")
	FractionVar(fs, &f, "f", 0.05, "a fraction")
	BoundedVar(fs, &b, "b", 5, 5, 10, "rounds")
	SpanVar(fs, &d, "d", time.Second, time.Millisecond, time.Minute, "a window")
	for _, args := range [][]string{{"-n", "NaN"}, {"-f", "5"}, {"-f", "500"}, {"-b", "4"}, {"-b", "11"}, {"-d", "2m"}, {"-d", "5"}} {
		if err := fs.Parse(args); err == nil {
			t.Errorf("%q was taken", args)
		}
	}
	if err := fs.Parse([]string{"-n", "2.5", "-f", "5%", "-b", "10", "-d", "150ms"}); err != nil {
		t.Fatal(err)
	}
	if n != 2.5 || f != 0.05 || b != 10 || d != 150*time.Millisecond {
		t.Errorf("read n %v, f %v, b %d, d %v", n, f, b, d)
	}
	for s, want := range map[string]float64{"": 0, "2%": 0.02, "0.3": 0.3} {
		if got, err := ParsePercent(s); err != nil || got != want {
			t.Errorf("ParsePercent(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParsePercent("100%"); err == nil {
		t.Error("ParsePercent took 100%")
	}
}
