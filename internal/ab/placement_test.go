package ab

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
)

// pairs are a fixture: ten rounds of a change whose cost is a shared
// line, at 2 threads, on a near pair of cores (probes of nearTransfer,
// head ÷ base 1.1) in the rounds near says and on a far pair (probes of
// 130e-9, head ÷ base 2.9) in the others. probe false
// leaves every window without a transfer probe, as an earlier ab wrote.
func pairs(near func(round int) bool, nearTransfer float64, probe bool) []compare.Window {
	var ws []compare.Window
	for r := range 10 {
		t, ratio := 130e-9, 2.9
		if near(r) {
			t, ratio = nearTransfer, 1.1
		}
		if !probe {
			t = -1
		}
		for _, arm := range []struct {
			name string
			v    float64
		}{{ArmBase, 16e-9}, {ArmHead, 16e-9 * ratio}, {ArmBase2, 16e-9}} {
			ws = append(ws, compare.Window{Round: r, Arm: arm.name, Value: arm.v, Probe: 3e-8, Transfer: t})
		}
	}
	return ws
}

// ratioOf is head ÷ base over the arms' rounds (median of the rounds'),
// and how many rounds have both.
func ratioOf(a compare.Arms) (float64, int) {
	var rs []float64
	for r, h := range a.Head {
		if b, ok := a.Base[r]; ok {
			rs = append(rs, h/b)
		}
	}
	if len(rs) == 0 {
		return math.NaN(), 0
	}
	slices.Sort(rs)
	return rs[len(rs)/2], len(rs)
}

// TestALookKeepsOnePairOfCores: a look that ran some rounds on a pair of
// cores where a line moves fast and the rest on a far pair keeps the
// rounds of the pair most of them ran on, whichever it is, and says why
// it set the others aside; two windows of a near pair, 0 and 10
// ns, are one pair; windows set aside already (a worker waited for a CPU)
// do not make the majority; without probes every round counts, as before.
func TestALookKeepsOnePairOfCores(t *testing.T) {
	for _, c := range []struct {
		what   string
		near   func(int) bool
		nearNs float64
		probe  bool
		ratio  float64
		rounds int
	}{
		{"three rounds near", func(r int) bool { return r >= 3 && r < 6 }, 10e-9, true, 2.9, 7},
		{"seven rounds near", func(r int) bool { return r < 7 }, 10e-9, true, 1.1, 7},
		{"near at 0 and 10 ns", func(r int) bool { return r < 7 }, 0, true, 1.1, 7},
		{"no probes", func(r int) bool { return r >= 3 && r < 6 }, 10e-9, false, 2.9, 10},
		{"one pair", func(int) bool { return false }, 10e-9, true, 2.9, 10},
		{"disturbed near", func(r int) bool { return r < 7 }, 10e-9, true, 2.9, 3},
	} {
		ws := pairs(c.near, c.nearNs, c.probe)
		if c.what == "near at 0 and 10 ns" {
			for i := range ws {
				if ws[i].Round%2 == 0 && ws[i].Transfer < 100e-9 {
					ws[i].Transfer = 10e-9
				}
			}
		}
		if c.what == "disturbed near" {
			for i := range ws {
				if ws[i].Round < 7 {
					ws[i].Aside = "a worker waited for a CPU"
				}
			}
		}
		a := armsOf(ws, 0, 10)
		ratio, rounds := ratioOf(a)
		if math.Abs(ratio-c.ratio) > 1e-9 || rounds != c.rounds {
			t.Errorf("%s: head ÷ base %.2f over %d rounds, want %.2f over %d", c.what, ratio, rounds, c.ratio, c.rounds)
		}
		if c.rounds == 7 && !strings.Contains(a.Why, "another pair of cores") {
			t.Errorf("%s: set aside as %q", c.what, a.Why)
		}
	}
}

// TestOtherPairsSaysSo: a cell some of whose windows ran on another pair
// says how many were set aside and what a line cost on each pair; one
// without probes, or on one pair, says nothing.
func TestOtherPairsSaysSo(t *testing.T) {
	near := func(r int) bool { return r >= 3 && r < 6 }
	got := OtherPairs("c", pairs(near, 10e-9, true), 10)
	for _, want := range []string{"c: 9 windows set aside", "another pair of cores", "in 10 ns", "in 130 ns in the 21 windows kept"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q, want %q in it", got, want)
		}
	}
	if got := OtherPairs("c", pairs(near, 10e-9, false), 10); got != "" {
		t.Errorf("no probes: %q", got)
	}
	if got := OtherPairs("c", pairs(func(int) bool { return false }, 10e-9, true), 10); got != "" {
		t.Errorf("one pair: %q", got)
	}
}
