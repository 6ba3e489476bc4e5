package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"golang.org/x/exp/trace"
)

// workerRegion names the workers' goroutines in a trace.
const workerRegion = "worker"

// account reads the trace back and prints, over the two workers, how
// much of the window both ran, one ran and neither ran; and, for every
// time one worker readied the other, how long the readied one waited
// for a core, and whether the one that readied it had blocked first.
func account(file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		return err
	}
	workers := map[trace.GoID]bool{}
	running := map[trace.GoID]bool{}
	readied := map[trace.GoID]trace.Time{} // when the other worker readied it
	by := map[trace.GoID]trace.GoID{}
	blockedSince := map[trace.GoID]trace.Time{}
	var spans [3]time.Duration // time with 0, 1 and 2 workers running
	var waits []time.Duration
	afterWaker := 0
	var last trace.Time // the last event that moved spans
	for {
		ev, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		switch ev.Kind() {
		case trace.EventRegionBegin:
			if ev.Region().Type == workerRegion {
				workers[ev.Goroutine()] = true
				running[ev.Goroutine()] = true
				if last == 0 {
					last = ev.Time()
				}
			}
			continue
		case trace.EventStateTransition:
		default:
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		g := st.Resource.Goroutine()
		if !workers[g] || len(workers) < 2 {
			continue
		}
		n := 0
		for w := range workers {
			if running[w] {
				n++
			}
		}
		spans[n] += ev.Time().Sub(last)
		last = ev.Time()
		from, to := st.Goroutine()
		switch {
		case to == trace.GoRunning:
			running[g] = true
			if t, ok := readied[g]; ok {
				waits = append(waits, ev.Time().Sub(t))
				if b, ok := blockedSince[by[g]]; ok && b > t {
					afterWaker++
				}
				delete(readied, g)
			}
		case from == trace.GoRunning:
			running[g] = false
			if to == trace.GoWaiting {
				blockedSince[g] = ev.Time()
			}
		}
		if from == trace.GoWaiting && to == trace.GoRunnable && workers[ev.Goroutine()] && ev.Goroutine() != g {
			readied[g], by[g] = ev.Time(), ev.Goroutine()
		}
	}
	whole := spans[0] + spans[1] + spans[2]
	if whole == 0 || len(waits) == 0 {
		return errors.New("the trace holds no worker readied by the other")
	}
	slices.Sort(waits)
	fmt.Printf("over %v of two workers: both ran %.0f%% of it, one %.0f%%, neither %.0f%%\n", whole.Round(time.Microsecond),
		100*spans[2].Seconds()/whole.Seconds(), 100*spans[1].Seconds()/whole.Seconds(), 100*spans[0].Seconds()/whole.Seconds())
	fmt.Printf("a worker readied by the other waited for a core %d times: median %v, quartiles %v and %v;\n"+
		"  %d of them ran only after the worker that readied it had blocked\n",
		len(waits), waits[len(waits)/2].Round(100*time.Nanosecond), waits[len(waits)/4].Round(100*time.Nanosecond),
		waits[3*len(waits)/4].Round(100*time.Nanosecond), afterWaker)
	return nil
}
