package history

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/perfrun/perfrun/history/changepoint"
)

// host is how a host's speed changed over a history: commits from..to
// ran slow by slow (the store cell) and refSlow (the floor and control
// cells).
type host struct {
	commits, from, to int
	slow, refSlow     float64
}

// hostHistory is a history made on such a host; from commit plant on,
// the store is 25% slower (0: no planted step).
func hostHistory(t *testing.T, m host, plant int) (stores, all []*Series) {
	t.Helper()
	h := openTemp(t)
	rng := rand.New(rand.NewPCG(9, 9))
	noise := func() float64 { return 1 + 0.02*(2*rng.Float64()-1) }
	for i := range m.commits {
		store, ref := 100.0, 30.0
		if i >= m.from && i <= m.to {
			store, ref = store*m.slow, ref*m.refSlow
		}
		if plant > 0 && i >= plant {
			store *= 1.25
		}
		cells := map[string]float64{
			"Issuer/impl=rcu/threads=1":        store * noise(),
			"Floor/certs=1024/hit=1/threads=1": ref * noise(),
			"Control/threads=1":                ref * 1.1 * noise(),
		}
		if _, err := h.Add(ctx, fmt.Sprint(i), resultsText(fmt.Sprintf("%040x", i+1), i, "ci", cells, 3, false), AddOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	all, _ = h.Series(ctx, Filter{Units: []string{"ns/op"}})
	stores, _ = h.Series(ctx, Filter{Units: []string{"ns/op"}, Cell: regexp.MustCompile("^Issuer/")})
	return stores, all
}

// storeSteps is what history changes reports of the store cell at its
// defaults: its own steps, the machine's marked, and those only its ratio
// to the reference shows.
func storeSteps(t *testing.T, stores, all []*Series, hidden bool) []Step {
	t.Helper()
	o := changepoint.Options{MinSize: 3}
	steps, err := FindSteps(ctx, stores, o)
	if err != nil {
		t.Fatal(err)
	}
	CommonMode(steps, all)
	if hidden {
		more, err := HiddenSteps(ctx, steps, stores, all, o, 0.02)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, more...)
	}
	return steps
}

// storesOwn are the steps a gate counts: not the machine's.
func storesOwn(steps []Step) []Step {
	var out []Step
	for _, st := range steps {
		if st.Machine == "" {
			out = append(out, st)
		}
	}
	return out
}

// TestPlantedStepOnAHostThatChangedSpeed: the store's +25% at commit 6
// of 9, on a host that ran commits 2–4 1.8× slow, is found over the
// control cell, where the store's own series alone does not show it.
func TestPlantedStepOnAHostThatChangedSpeed(t *testing.T) {
	stores, all := hostHistory(t, host{commits: 9, from: 2, to: 4, slow: 1.8, refSlow: 1.8}, 6)
	for _, st := range storesOwn(storeSteps(t, stores, all, false)) {
		if st.After == fmt.Sprintf("%040x", 7) {
			t.Fatalf("the store's own series told the planted step (%s): this history no longer tests the ratio", st.Series.Name())
		}
	}
	own := storesOwn(storeSteps(t, stores, all, true))
	if len(own) != 1 || own[0].After != fmt.Sprintf("%040x", 7) || !own[0].Regression || own[0].Series.Over != "Control/threads=1" {
		for _, st := range own {
			t.Logf("step %s..%s in %s, regression %v", ShortCommit(st.Before), ShortCommit(st.After), st.Series.Name(), st.Regression)
		}
		t.Fatalf("%d steps of the store's own: want the planted one, a regression after commit 6, over the control cell", len(own))
	}
	if rel, lo, hi := own[0].Relative(); !(lo < 0.25 && 0.25 < hi) {
		t.Errorf("planted +25%%: found %+.3f [%+.3f, %+.3f]", rel, lo, hi)
	}
}

// TestHostAloneIsNoStoreStep: the host slowing every cell, for three
// commits or from one on, the store's and the references' by as much or
// by different amounts, is no step of the store's own; where the store's
// ratio to its reference steps with the host, it is shown as the
// machine's, with why.
func TestHostAloneIsNoStoreStep(t *testing.T) {
	marked := 0
	for _, m := range []host{
		{9, 2, 4, 1.8, 1.8}, {9, 2, 4, 1.8, 1.5}, {9, 2, 4, 1.5, 1.8},
		{12, 6, 11, 1.8, 1.8}, {12, 6, 11, 1.8, 1.5}, {12, 6, 11, 1.5, 1.8},
	} {
		stores, all := hostHistory(t, m, 0)
		steps := storeSteps(t, stores, all, true)
		for _, st := range steps {
			if st.Machine == "" {
				t.Errorf("%+v: step %s..%s in %s counted as the store's", m, ShortCommit(st.Before), ShortCommit(st.After), st.Series.Name())
			} else if st.Series.Over != "" {
				marked++
			}
		}
	}
	if marked == 0 {
		t.Error("no ratio step shown as the machine's: the hosts that slowed cells unequally should show one")
	}
}
