package campaign

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
)

// arms readies the three arms' runner — from prebuilt binaries, or by
// building base and head — with the binaries the counts use and the names
// the verdict gives the two sides.
func (c *Campaign) arms(ctx context.Context, dir, base, head string, pre *Prebuilt) (r *ab.Runner, counting [2]abcount.Arm, oldName, newName string, cleanup func(), err error) {
	if pre != nil {
		r = c.runner(dir, []string{pre.Base}, []string{pre.Head})
		r.BaseEnv, r.HeadEnv = pre.BaseEnv, pre.HeadEnv
		counting = [2]abcount.Arm{{Bin: pre.Base, Env: pre.BaseEnv}, {Bin: pre.Head, Env: pre.HeadEnv}}
		if c.Locks {
			c.noLocks = "prebuilt binaries have no source to build for lock profiles (ab BASE HEAD builds them)"
		}
		return r, counting, pre.BaseName, pre.HeadName, func() {}, nil
	}
	if r, counting, cleanup, err = c.buildArms(ctx, dir, base, head); err != nil {
		return nil, counting, "", "", nil, err
	}
	return r, counting, ab.Describe(ctx, c.Repo, base), ab.Describe(ctx, c.Repo, head), cleanup, nil
}

// buildArms checks both revisions out and compiles them. With fresh
// layouts the runner links every arm of every round a layout of its own;
// with N fixed ones each revision is linked N times now (seeds from
// Seed, different for base and head). It returns the runner and the
// binaries instructions are counted in.
func (c *Campaign) buildArms(ctx context.Context, dir, baseRev, headRev string) (*ab.Runner, [2]abcount.Arm, func(), error) {
	var none [2]abcount.Arm
	what := "a fresh code layout for every arm of every round"
	if c.Layouts >= 0 {
		what = fmt.Sprintf("%d code layouts each", max(c.Layouts, 1))
	}
	c.logf("building %s and %s (%s)", baseRev, headRev, what)
	base, head, err := c.checkoutBoth(ctx, dir, baseRev, headRev)
	if err != nil {
		return nil, none, nil, err
	}
	cleanup := func() { head.Close(); base.Close() }
	counting := [2]abcount.Arm{{Bin: base.Plain}, {Bin: head.Plain}}
	if c.Layouts < 0 {
		r := c.runner(dir, nil, nil)
		r.BaseRev, r.HeadRev = base, head
		return r, counting, cleanup, nil
	}
	var bins [2][]string
	for side, v := range []*ab.Revision{base, head} {
		for i := range uint64(c.Layouts) {
			bin := filepath.Join(dir, fmt.Sprintf("perfrun-%d-%d", side, i))
			if err := v.Link(ctx, bin, 1000*c.Seed+2*i+1+uint64(side)); err != nil {
				cleanup()
				return nil, none, nil, err
			}
			bins[side] = append(bins[side], bin)
		}
		if c.Layouts == 0 {
			bins[side] = []string{v.Plain}
		}
	}
	return c.runner(dir, bins[0], bins[1]), counting, cleanup, nil
}

// checkoutBoth checks both revisions out and builds them side by side
// (most of a build from go's cache is one core's work), each then for lock
// profiles (Locks). A revision that cannot be built fails the campaign;
// one that cannot be built for lock profiles leaves it without a lock
// verdict, not without one on time.
func (c *Campaign) checkoutBoth(ctx context.Context, dir, baseRev, headRev string) (base, head *ab.Revision, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		c.logf(format, args...)
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
			v, err := ab.Checkout(ctx, c.Repo, rev, c.Pkg, dir, []string{"base", "head"}[side])
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
			if !c.Locks {
				return
			}
			bin := filepath.Join(dir, fmt.Sprintf("perfrun-%d-locks", side))
			if lockErrs[side] = v.BuildLocks(ctx, bin); lockErrs[side] == nil {
				c.lockBins[side] = bin
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
	if c.Locks {
		if err := cmp.Or(lockErrs[0], lockErrs[1]); err != nil {
			c.noLocks = err.Error()
		} else {
			say("built both for lock profiles too, all four builds in %s", time.Since(t0).Round(100*time.Millisecond))
		}
	}
	return revs[0], revs[1], nil
}

// runner is the runner of arms whose binaries are base and head.
func (c *Campaign) runner(dir string, base, head []string) *ab.Runner {
	r := &ab.Runner{Base: base, Head: head, Windows: c.WindowPairing,
		RunArgs: append(append([]string(nil), c.ArmArgs...), "-plots", "none"), ArmArgs: append(append([]string(nil), c.ArmArgs...), "-pin="+strconv.FormatBool(c.Pin)),
		Rounds: c.rounds(), Inner: c.Inner, Seed: c.Seed, Dir: dir, Metric: c.Thresholds.Metric,
		Disturbed: harness.DefaultQuarantine.Window}
	if c.Log != nil {
		r.Progress = c.progress()
	}
	return r
}

// rounds are the rounds of each look: one where time decides nothing
// (TimeOff), enough to name the cells.
func (c *Campaign) rounds() int {
	if c.TimeOff != "" {
		return 1
	}
	return c.Rounds
}

// progress prints where the arms are: the look, the round of the look, the
// cell, and how long the look has left at its pace so far, reckoned as each
// round begins and counted down through it (reckoned at every cell, a
// round half done read as none done and the estimate grew cell by cell).
// A look starts when its first round does.
func (c *Campaign) progress() func(round, rounds int, what string) {
	look, lastRound := 0, 0
	var start, roundStart time.Time
	var left time.Duration
	return func(round, rounds int, what string) {
		if round < lastRound || look == 0 {
			look++
			start = time.Now()
		}
		if round != lastRound {
			roundStart, left = time.Now(), 0
			if done := round - 1; done > 0 {
				left = time.Since(start) / time.Duration(done) * time.Duration(rounds-done)
			}
		}
		lastRound = round
		eta := ""
		if left > 0 {
			eta = fmt.Sprintf(", about %s left in this look", max(left-time.Since(roundStart), 0).Round(time.Second))
		}
		c.logf("look %d of up to %d, round %d/%d, %s%s", look, c.Looks, round, rounds, what, eta)
	}
}
