package cli

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/perfrun/perfrun/internal/ab"
)

// checkoutBoth checks both revisions out and builds them side by side
// (most of a build from go's cache is one core's work), each then for lock
// profiles (-locks). A revision that cannot be built fails ab; one that
// cannot be built for lock profiles leaves ab without a lock verdict, not
// without one on time.
func (a *abOptions) checkoutBoth(ctx context.Context, o *streams, dir, baseRev, headRev string) (base, head *ab.Revision, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if !a.quiet {
			fmt.Fprintf(o.stderr, "perfrun: ab: "+format+"\n", args...)
		}
	}
	t0 := time.Now()
	var revs [2]*ab.Revision
	var lockErrs [2]error
	var firstErr error
	var wg sync.WaitGroup
	for side, rev := range []string{baseRev, headRev} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := ab.Checkout(ctx, a.repo, rev, a.pkg, dir, []string{"base", "head"}[side])
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err // the other's is then only the cancel's
					cancel()
				}
				mu.Unlock()
				return
			}
			revs[side] = v
			say("built %s in %s", rev, time.Since(t0).Round(100*time.Millisecond))
			if !a.locks {
				return
			}
			bin := filepath.Join(dir, fmt.Sprintf("perfrun-%d-locks", side))
			if lockErrs[side] = v.BuildLocks(ctx, bin); lockErrs[side] == nil {
				a.lockBins[side] = bin
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		for _, v := range revs {
			if v != nil {
				v.Close()
			}
		}
		return nil, nil, firstErr
	}
	if a.locks {
		if err := cmp.Or(lockErrs[0], lockErrs[1]); err != nil {
			a.noLocks = err.Error()
		} else {
			say("built both for lock profiles too, all four builds in %s", time.Since(t0).Round(100*time.Millisecond))
		}
	}
	return revs[0], revs[1], nil
}
