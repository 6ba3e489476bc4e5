package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// FreshLayout is the code layout of an arm in a round of a comparison with
// this seed: a different one for every seed, round and arm, never 0 (the
// linker's default), so no two arms of a campaign share a layout.
func FreshLayout(seed uint64, round int, arm string) uint64 {
	k := uint64(1)
	switch arm {
	case ArmHead:
		k = 2
	case ArmBase2:
		k = 3
	}
	return seed*1_000_000_000 + 3*uint64(round) + k
}

// linked is one round's three binaries, linked in the background.
type linked struct {
	round int
	bins  map[string]string
	done  chan struct{}
	err   error
}

// linkRound links the round's binaries (each arm a layout of its own) in
// the background.
func (r *Runner) linkRound(ctx context.Context, round int) *linked {
	l := &linked{round: round, bins: make(map[string]string), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		var mu sync.Mutex
		var wg sync.WaitGroup
		var errs []error
		for _, arm := range []string{ArmBase, ArmHead, ArmBase2} {
			v := r.BaseRev
			if arm == ArmHead {
				v = r.HeadRev
			}
			bin := filepath.Join(r.Dir, fmt.Sprintf("perfrun-%s-round%03d", arm, round))
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := v.Link(ctx, bin, FreshLayout(r.Seed, round, arm))
				mu.Lock()
				defer mu.Unlock()
				l.bins[arm] = bin
				errs = append(errs, err)
			}()
		}
		wg.Wait()
		l.err = errors.Join(errs...)
	}()
	return l
}

// prepare makes the round's binaries the current ones when every arm takes
// a fresh layout (BaseRev): those linked ahead while the last round's arms
// set up, else linked now. It removes the previous round's. Only the time
// spent waiting for a link counts as Linking. Otherwise it does nothing.
func (r *Runner) prepare(ctx context.Context, round, first int) error {
	if r.BaseRev == nil {
		return nil
	}
	l := r.ahead
	r.ahead = nil
	if l == nil || l.round != round {
		if l != nil {
			<-l.done
			removeBinaries(l.bins)
		}
		if r.Progress != nil {
			r.Progress(round-first+1, r.Rounds, "linking a fresh code layout for each arm")
		}
		l = r.linkRound(ctx, round)
	}
	t0 := time.Now()
	<-l.done
	r.Linking += time.Since(t0)
	removeBinaries(r.round)
	r.round = l.bins
	return l.err
}

// linkAhead starts linking the next round's binaries while this round's
// arms set up (nothing is measured then); settle waits for them before
// the first window.
func (r *Runner) linkAhead(ctx context.Context, round int) {
	if r.BaseRev != nil {
		r.ahead = r.linkRound(ctx, round)
	}
}

// settle waits for binaries linked ahead: no window is measured while a
// link runs.
func (r *Runner) settle() {
	if r.ahead == nil {
		return
	}
	t0 := time.Now()
	<-r.ahead.done
	r.Linking += time.Since(t0)
}

func removeBinaries(bins map[string]string) {
	for _, bin := range bins {
		os.Remove(bin)
	}
}
