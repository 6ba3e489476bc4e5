package history

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/perfrun/perfrun/history/changepoint"
	"github.com/perfrun/perfrun/records"
)

// OverReference returns, for every store series with a reference series
// of the same machine and unit, the store's values divided by the
// reference's median at the same commit: what is left when the machine's
// speed, which moves a run's reference cells with its store cells, is
// taken out. The reference is the control cell of the same thread count
// where the runs have one, else a floor cell (the first by name). A
// commit the reference lacks is left out. The series keep their store
// series' ID, so steps found in them are recorded with the store's.
func OverReference(series, refs []*Series) []*Series {
	var out []*Series
	levels := make(map[*Series]map[string]float64) // each reference's, once
	for _, s := range series {
		if records.IsReferenceName(s.Cell) {
			continue
		}
		r := referenceOf(s, refs)
		if r == nil {
			continue
		}
		level, ok := levels[r]
		if !ok {
			level = make(map[string]float64, len(r.Points))
			for _, p := range r.Points {
				if m := records.Median(p.Values); m > 0 {
					level[p.Commit] = m
				}
			}
			levels[r] = level
		}
		over := &Series{ID: s.ID, Machine: s.Machine, Cell: s.Cell, Unit: s.Unit, Better: s.Better, Cores: s.Cores, Over: r.Cell, over: r}
		for _, p := range s.Points {
			l, ok := level[p.Commit]
			if !ok {
				continue
			}
			q := Point{Commit: p.Commit, Time: p.Time, Values: make([]float64, len(p.Values))}
			for i, v := range p.Values {
				q.Values[i] = v / l
			}
			over.Points = append(over.Points, q)
		}
		out = append(out, over)
	}
	return out
}

// referenceOf is s's reference series: the control cell of its thread
// count on its machine and unit, else the first floor cell there.
func referenceOf(s *Series, refs []*Series) *Series {
	threads := records.NameKey(s.Cell, "threads")
	var floor *Series
	for _, r := range refs {
		if r.Machine != s.Machine || r.Unit != s.Unit || !records.IsReferenceName(r.Cell) {
			continue
		}
		if strings.HasPrefix(r.Cell, "Control/") && records.NameKey(r.Cell, "threads") == threads {
			return r
		}
		if strings.HasPrefix(r.Cell, "Floor/") && (floor == nil || r.Cell < floor.Cell) {
			floor = r
		}
	}
	return floor
}

// HiddenSteps finds the steps of the store series over their references
// (OverReference) that no step of the store series itself tells: none
// within two commits, the same way, that is not the machine's (CommonMode
// marked it). These are a store's steps the machine's speed hid or took
// for its own; each is in its over-reference series, in the unit of a
// ratio, and at least minShift of the level before it. One where the
// reference itself stepped over the same commits is marked the machine's
// (Machine says why): there the two cannot be told apart.
func HiddenSteps(ctx context.Context, steps []Step, series, refs []*Series, o changepoint.Options, minShift float64) ([]Step, error) {
	over := OverReference(series, refs)
	found, err := FindSteps(ctx, over, o)
	if err != nil {
		return nil, err
	}
	var out []Step
	for _, h := range found {
		rel, _, _ := h.Relative()
		if math.IsNaN(rel) || math.Abs(rel) < minShift || toldBy(h, steps) {
			continue
		}
		// Where the reference itself stepped over the same commits, the
		// ratio's step may be the machine's, moving the two cells unequally.
		r := h.Series.over
		if refRel, sure := shiftOver(r, &h); sure && math.Abs(refRel) >= math.Abs(rel)/2 {
			h.Machine = fmt.Sprintf("%s moved %+.0f%% over the same commits: the store's step cannot be told from the machine's there", r.Cell, 100*refRel)
		}
		out = append(out, h)
	}
	return out, nil
}

// toldBy reports whether a store's own step that is not the machine's
// stands for h: the same series, the same way, within near commits.
func toldBy(h Step, steps []Step) bool {
	for _, st := range steps {
		if st.Series.ID != h.Series.ID || st.Machine != "" || st.Regression != h.Regression {
			continue
		}
		if at := st.Series.index(h.After); at >= 0 && abs(at-st.Index) <= near {
			return true
		}
	}
	return false
}
