package history

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"

	"github.com/perfrun/perfrun/history/changepoint"
)

// ErrNoSeries is a search that chose no series: an empty history, or
// filters that match none of its series. It is the user's to fix.
var ErrNoSeries = errors.New("no series to search")

// A Search is what a search of a history's chosen series found: the
// series, their machines' reference cells' series (which tell a step of
// a store from one of the machine), and the steps, each marked new or
// known (Mark).
type Search struct {
	Series, Refs []*Series
	Steps        []Step
	// Options and MinShift are the test's and the least step's that found
	// them.
	Options  changepoint.Options
	MinShift float64
}

// Search reads the series filter chooses and finds their steps: those
// the permutation test keeps at opts, no smaller than minShift of the
// level before them, each told as common to its machine's reference
// cells or to the fleet, and those a division by a reference cell shows.
func (h *DB) Search(ctx context.Context, filter Filter, opts changepoint.Options, minShift float64) (Search, error) {
	series, err := h.Series(ctx, filter)
	if err != nil {
		return Search{}, err
	}
	if len(series) == 0 {
		st, _ := h.Stats(ctx)
		if st.Series == 0 {
			return Search{}, fmt.Errorf("%w: history %s is empty: add results with perfrun history add", ErrNoSeries, h.Path)
		}
		return Search{}, fmt.Errorf("%w: no series of the %d in %s match -machine, -cell and -unit", ErrNoSeries, st.Series, h.Path)
	}
	steps, err := FindSteps(ctx, series, opts)
	if err != nil {
		return Search{}, err
	}
	steps = slices.DeleteFunc(steps, func(st Step) bool {
		rel, _, _ := st.Relative()
		return !math.IsNaN(rel) && math.Abs(rel) < minShift
	})
	// The reference cells of the machines filter chooses, chosen by its
	// cell or not.
	filter.Cell = regexp.MustCompile(`^(Control|Floor)/`)
	refs, err := h.Series(ctx, filter)
	if err != nil {
		return Search{}, err
	}
	CommonMode(steps, refs)
	Fleet(steps, series)
	hidden, err := HiddenSteps(ctx, steps, series, refs, opts, minShift)
	if err != nil {
		return Search{}, err
	}
	steps = append(steps, hidden...)
	s := Search{Series: series, Refs: refs, Steps: steps, Options: opts, MinShift: minShift}
	return s, h.Mark(ctx, steps)
}

// Testable says how many of the series are long enough for a step in them
// to pass the test, and from how many commits on: at least twice the
// fewest commits between steps.
func (s Search) Testable() (long, shortest int) {
	shortest = max(2*s.Options.MinSize, changepoint.Shortest(s.Options))
	for _, series := range s.Series {
		if len(series.Points) >= shortest {
			long++
		}
	}
	return long, shortest
}

// Nearest are, of a search where no step passed the test, the splits
// that came nearest (three at most), with a line that says why none was
// reported: their p-values are above the level, and a series of fewer
// commits than Testable's shortest cannot go below it.
func (s Search) Nearest(ctx context.Context) ([]Step, string, error) {
	near := NearestSteps(ctx, s.Series, s.Refs, s.Options, s.MinShift)
	if len(near) == 0 {
		return nil, "", ctx.Err()
	}
	_, shortest := s.Testable()
	why := fmt.Sprintf("No step passed -alpha %g; nearest to one, not reported", s.Options.Alpha)
	first := near[0]
	n := len(first.Series.Points)
	if floor := changepoint.Floor(n, first.Index, s.Options); floor > s.Options.Alpha {
		why += fmt.Sprintf(" (the first's %d commits split %d | %d: there even a step no noise hides gets p ≈ %.3f on average; %d commits or more can show one at this level)",
			n, first.Index, n-first.Index, floor, shortest)
	}
	return near[:min(3, len(near))], why + ":", nil
}
