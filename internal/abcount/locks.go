package abcount

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/perfrun/perfrun/harness/locks"
)

// Profiles are each cell's lock profiles, by name: base's and head's.
type Profiles map[string][2]locks.Profile

// Locks counts the lock profile of every cell in base's and head's builds
// for lock profiles, on the same corpus (seed) and operations as the
// instruction counts, telling progress of each cell as it starts: one
// process a side, since a profile is exact, both at once (nothing is
// timed while they run).
func Locks(ctx context.Context, progress func(Cell), base, head Arm, cells []Cell, seed uint64) (Profiles, error) {
	out := make(Profiles)
	for _, c := range cells {
		argv := append(slices.Clone(c.Args), "-ops", strconv.Itoa(c.Ops), "-seed", strconv.FormatUint(seed, 10), "-locks")
		progress(c)
		var p [2]locks.Profile
		var errs [2]error
		var wg sync.WaitGroup
		for side, arm := range []Arm{base, head} {
			wg.Go(func() {
				p[side], errs[side] = locks.Count(ctx, append([]string{arm.Bin, "cell-ops"}, argv...), arm.Env)
			})
		}
		wg.Wait()
		for side, err := range errs {
			if err == nil {
				err = p[side].Check(c.Name)
			}
			if err != nil {
				return nil, fmt.Errorf("%s's lock profile of %s: %w", []string{"base", "head"}[side], c.Name, err)
			}
		}
		out[c.Name] = p
	}
	return out, nil
}
