package predict

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfrun/perfrun/records"
)

// HeldTo is how far the model has missed what it was held to: the median
// and the largest of |predicted ÷ published − 1| over Rows rows of what
// What names, kept where Where says.
type HeldTo struct {
	What, Where   string
	Rows          int
	Median, Worst float64
}

// HeldOver is what a set of predictions was held to: each of ratios is
// one row's predicted ÷ what it was held to, its miss |ratio − 1|.
func HeldOver(what, where string, ratios []float64) HeldTo {
	misses := make([]float64, len(ratios))
	for i, r := range ratios {
		misses[i] = math.Abs(r - 1)
	}
	h := HeldTo{What: what, Where: where, Rows: len(ratios)}
	if len(misses) > 0 {
		h.Median, h.Worst = records.Median(misses), slices.Max(misses)
	}
	return h
}

func (h HeldTo) String() string {
	return fmt.Sprintf("held to %s: median miss %.0f%%, worst %.0f%% (%d rows, %s)", h.What, 100*h.Median, 100*h.Worst, h.Rows, h.Where)
}

// ManyCore is what the model past the cores was held to: the tables of
// machines with 16 or more cores whose benchmark code is public, each
// benchmark's work counted at one thread, each machine's constants taken
// from its own rows at two threads, every row from 4 threads up
// predicted. The results module's test there recomputes it and fails
// where it no longer says what the model does.
var ManyCore = HeldTo{What: "2 published many-core tables", Where: "results/many-core/published",
	Rows: 20, Median: 0.37, Worst: 0.65}

// ManyCoreApart is what the model past the cores misses on published
// rows kept apart from ManyCore's, never read while it was shaped: said
// beside ManyCore, since rows a model was shaped on flatter it. The
// results module's test recomputes it (held-apart.txt).
var ManyCoreApart = HeldTo{What: "1 published table's rows kept apart", Where: "results/many-core/published",
	Rows: 5, Median: 0.81, Worst: 0.91}

// WithinCores is what the model within the cores was held to: head ÷
// base at 2 threads, predicted with the runner's constants, over what the
// runner measured, for every change of the held set on each host the
// runner ran on (TestWithinTheCoresIsHeld recomputes it). Its worst,
// either way, is RunnerHeld.
var WithinCores = HeldTo{What: "26 changes measured on two hosts of this project's runner", Where: "results/scaling/runner",
	Rows: 26, Median: 0.16, Worst: 0.82}

// WithinCoresApart is what the model within the cores misses on changes
// kept apart from WithinCores's, on both hosts and both of the runner's
// pairs of cores (TestWithinTheCoresHoldsOutOfSample recomputes it): said
// beside WithinCores, since changes a model was shaped on flatter it.
var WithinCoresApart = HeldTo{What: "changes kept apart from them", Where: "results/scaling/runner",
	Rows: 128, Median: 0.18, Worst: 4.02}

// WithinCoresOne is WithinCores at 1 thread: head ÷ base predicted from
// the counts at the runner's time per instruction over what the runner
// measured at 1 thread, for every change of the held set
// (TestOneThreadIsHeld recomputes it).
var WithinCoresOne = HeldTo{What: "26 changes measured on two hosts of this project's runner, at 1 thread", Where: "results/scaling/runner",
	Rows: 26, Median: 0.05, Worst: 0.42}

// A Floor is the least miss any one prediction could have had on the
// changes a held set measured more than once (Again): the median and the
// largest over Changes changes, at 2 threads within the cores.
type Floor struct {
	Changes       int
	Median, Worst float64
	Where         string
}

func (f Floor) String() string {
	return fmt.Sprintf("%d changes measured more than once differ so much between campaigns that no prediction misses less than median %.0f%%, worst %.0f%% (%s)",
		f.Changes, 100*f.Median, 100*f.Worst, f.Where)
}

// FloorOver is the Floor of the least misses of changes (Again's).
func FloorOver(where string, least map[string]float64) Floor {
	f := Floor{Changes: len(least), Where: where}
	if len(least) > 0 {
		v := make([]float64, 0, len(least))
		for _, m := range least {
			v = append(v, m)
		}
		f.Median, f.Worst = records.Median(v), slices.Max(v)
	}
	return f
}

// WithinCoresAgain is the floor under WithinCores: every change of the
// held set and of the sets kept apart that the runner measured in more
// than one campaign, on one host or two (TestAMeasurementAgainIsAFloor
// recomputes it).
var WithinCoresAgain = Floor{Changes: 27, Median: 0.09, Worst: 0.40, Where: "results/scaling/runner"}

// Miss is the median miss the prediction at n threads within the cores
// was held to: how far from what time measured there it may be and still
// decide a count alone (compare.Rules.Miss).
func Miss(n int) float64 {
	if n <= 1 {
		return WithinCoresOne.Median
	}
	return WithinCores.Median
}

// HeldAt is what the prediction at n threads on a machine of cores was
// held to, in words a decision it gave is read beside.
func HeldAt(n, cores int) string {
	if n <= cores {
		return fmt.Sprintf("the prediction within the cores: %s; on %d changes kept apart from them, median miss %.0f%%, worst %.0f%%; %s",
			WithinCores, WithinCoresApart.Rows, 100*WithinCoresApart.Median, 100*WithinCoresApart.Worst, WithinCoresAgain)
	}
	return fmt.Sprintf("the prediction past the cores: %s; on %d rows kept apart from them, median miss %.0f%%, worst %.0f%%",
		ManyCore, ManyCoreApart.Rows, 100*ManyCoreApart.Median, 100*ManyCoreApart.Worst)
}
