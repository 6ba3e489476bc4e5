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

// prepare links the round's binaries when every arm takes a fresh layout
// (BaseRev), removing the previous round's; otherwise it does nothing.
// The time it takes is Linking's, not Measuring's.
func (r *Runner) prepare(ctx context.Context, round, first int) error {
	if r.BaseRev == nil {
		return nil
	}
	if r.Progress != nil {
		r.Progress(round-first+1, r.Rounds, "linking a fresh code layout for each arm")
	}
	for _, bin := range r.round {
		os.Remove(bin)
	}
	t0 := time.Now()
	defer func() { r.Linking += time.Since(t0) }()
	r.round = make(map[string]string)
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
			r.round[arm] = bin
			errs = append(errs, err)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
