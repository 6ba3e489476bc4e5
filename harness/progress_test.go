package harness

import (
	"context"
	"testing"
	"time"
)

// TestAddedRoundsSayTheirBudget: a round that repairs set-aside samples
// says the most the repair may still take, its budget's rest: within the
// budget, never growing, where its pace would say a second or less.
func TestAddedRoundsSayTheirBudget(t *testing.T) {
	c, o := repairCell(t, 3, DefaultQuarantine)
	var seen []Progress
	o.Progress = func(p Progress) { seen = append(seen, p) }
	// The host stays in its other state: every added round is probes alone.
	r := setAsideOne(c, o, 21.3)
	budget := r.repairBudget(r.short(), 3)
	if _, err := r.extraRounds(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no progress in the added rounds")
	}
	last := budget
	for _, p := range seen {
		switch {
		case p.Extra != repairing:
			t.Errorf("added round %d says %q, want %q", p.Round-p.Rounds, p.Extra, repairing)
		case !(p.Left > 0) || p.Left > budget+time.Second:
			t.Errorf("added round %d: %v left, want within the repair's budget %v", p.Round-p.Rounds, p.Left, budget)
		case p.Left > last:
			t.Errorf("added round %d: %v left, more than the round before's %v", p.Round-p.Rounds, p.Left, last)
		}
		last = p.Left
	}
}
