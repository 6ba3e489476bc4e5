package history

import (
	"strings"
	"testing"
	"time"
)

// TestCommitsOfOneTimeInTheRepositorysOrder: commits that share a commit
// time (a rebase gives many one) stand as Filter.Order says, not in hash
// order, which put a planted step's commits out of place; without an
// order that knows them the series counts them in Ties, so the commands
// can say so.
func TestCommitsOfOneTimeInTheRepositorysOrder(t *testing.T) {
	h := openOn(t, sqliteBackend)
	when := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	// In the repository's order c, a, b: hash order would give a, b, c.
	commits := []string{strings.Repeat("c", 40), strings.Repeat("a", 40), strings.Repeat("b", 40)}
	for i, c := range commits {
		data := resultsText(c, i, "ci", map[string]float64{"Issuer/impl=rcu/threads=1": float64(40 + i)}, 3, false)
		if _, err := h.Add(ctx, c+".txt", data, AddOptions{CommitTime: when}); err != nil {
			t.Fatal(err)
		}
	}
	rank := map[string]int{commits[0]: 1, commits[1]: 2, commits[2]: 3}
	order := func(a, b string) int { return rank[a] - rank[b] }
	ss, err := h.Series(ctx, Filter{Units: []string{"ns/op"}, Order: order})
	if err != nil || len(ss) != 1 {
		t.Fatalf("series: %v %v", ss, err)
	}
	for i, p := range ss[0].Points {
		if p.Commit != commits[i] {
			t.Errorf("point %d is %.7s, want %.7s: the repository's order", i, p.Commit, commits[i])
		}
	}
	if ss[0].Ties != 0 {
		t.Errorf("%d ties left though the order knew every commit", ss[0].Ties)
	}
	bare, _ := h.Series(ctx, Filter{Units: []string{"ns/op"}})
	if bare[0].Ties != 2 {
		t.Errorf("without an order: %d ties, want 2", bare[0].Ties)
	}
}

// TestNoTimeOfNothing: a time of 0 ns/op (a control cell's, forged or
// broken) is no measurement: not stored, and said; it once divided every
// ratio series by nothing.
func TestNoTimeOfNothing(t *testing.T) {
	h := openOn(t, sqliteBackend)
	data := resultsText(strings.Repeat("d", 40), 0, "ci", map[string]float64{"Control/threads=1": 0, "Issuer/impl=rcu/threads=1": 40}, 3, false)
	a, err := h.Add(ctx, "zero.txt", data, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Warnings) == 0 || !strings.Contains(a.Warnings[0].Error(), "0 or less") {
		t.Errorf("a time of 0 was stored without a word: %+v", a)
	}
	ss, _ := h.Series(ctx, Filter{Units: []string{"ns/op"}})
	for _, s := range ss {
		if s.Cell == "Control/threads=1" {
			t.Errorf("a series of 0 ns/op was stored: %+v", s.Points)
		}
	}
}
