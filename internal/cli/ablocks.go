package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/harness/locks"
	"github.com/perfrun/perfrun/records"
)

// abLocks counts the lock profile of every single-threaded store cell in
// base's and head's builds for lock profiles, on the same corpus and
// operations as the instruction counts: one process a side, since a
// profile is exact, both at once (nothing is timed while they run).
func (a *abOptions) abLocks(ctx context.Context, stderr io.Writer, base, head string, cells []*records.Cell, arms map[string]compare.Arms) (map[string][2]locks.Profile, error) {
	out := make(map[string][2]locks.Profile)
	for _, c := range a.countedCells(cells, arms) {
		argv := append(c.args, "-ops", strconv.Itoa(c.ops), "-seed", strconv.FormatUint(a.seed, 10), "-locks")
		if !a.quiet {
			fmt.Fprintf(stderr, "perfrun: ab: counting the lock profile of %s in both revisions (%d ops under callgrind)\n", c.name, c.ops)
		}
		var p [2]locks.Profile
		var errs [2]error
		var wg sync.WaitGroup
		for side, bin := range []string{base, head} {
			wg.Go(func() { p[side], errs[side] = locks.Count(ctx, append([]string{bin, "cell-ops"}, argv...), nil) })
		}
		wg.Wait()
		for side, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("%s's lock profile of %s: %w", []string{"base", "head"}[side], c.name, err)
			}
		}
		out[c.name] = p
	}
	return out, nil
}

// lockVerdicts judges each cell's lock profiles (base's, head's), unit by
// unit, in the order of names, at the time threshold.
func lockVerdicts(th compare.Thresholds, names []string, profiles map[string][2]locks.Profile) []compare.CellVerdict {
	th.InstructionsRatio = th.MinEffect
	var out []compare.CellVerdict
	for _, name := range names {
		p, ok := profiles[name]
		if !ok {
			continue
		}
		old, new := p[0].Values(), p[1].Values()
		for i, unit := range locks.Units {
			v := compare.LockVerdict(name, unit, old[i], new[i], th)
			if which := lockKinds(p, unit); which != "" && v.Verdict != compare.Pass && v.Verdict != compare.NotGated {
				v.Reason += " (" + which + ")"
			}
			out = append(out, v)
		}
	}
	return out
}

// lockKinds names the locks a unit of the profiles speaks of, base's and
// head's: the kinds taken exclusively for the exclusive units, shared for
// the shared ones, every lock for atomics.
func lockKinds(p [2]locks.Profile, unit string) string {
	var kinds []string
	for _, side := range p {
		for _, l := range side.Locks {
			var took bool
			switch unit {
			case records.ExclusiveLocks, records.LockedInstructions:
				took = l.Exclusive > 0
			case records.SharedLocks, records.SharedLockedInstructions:
				took = l.Shared > 0
			default:
				took = true
			}
			if took && !slices.Contains(kinds, l.Kind) {
				kinds = append(kinds, l.Kind)
			}
		}
	}
	return strings.Join(kinds, ", ")
}
