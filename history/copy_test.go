package history

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/history/changepoint"
)

// stepsText is every step found in h, as a report lists them.
func stepsText(t *testing.T, h *DB) string {
	t.Helper()
	ss, err := h.Series(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	steps, err := FindSteps(ctx, ss, changepoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Mark(ctx, steps); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, st := range steps {
		rel, lo, hi := st.Relative()
		fmt.Fprintf(&b, "%s %s..%s %+.6f [%+.6f, %+.6f] p=%.4f new=%v\n", st.Series.Name(), st.Before, st.After, rel, lo, hi, st.P, st.New)
	}
	for _, s := range ss {
		fmt.Fprintf(&b, "%s: %d points\n", s.Name(), len(s.Points))
	}
	return b.String()
}

// TestCopyRoundTrip: a history copied from a file onto a server (or
// another file) and back gives the same steps, and the same counts; a
// second copy adds nothing.
func TestCopyRoundTrip(t *testing.T) { eachBackend(t, testCopyRoundTrip) }

func testCopyRoundTrip(t *testing.T, mid backend) {
	src := openOn(t, sqliteBackend)
	addSeries(t, src, "ci-a", 40, 20, 0.10, 1)
	addSeries(t, src, "ci-b", 40, 40, 0, 2)
	want := stepsText(t, src)
	ss, _ := src.Series(ctx, Filter{})
	steps, _ := FindSteps(ctx, ss, changepoint.Options{})
	if len(steps) == 0 {
		t.Fatal("the planted step was not found")
	}
	if err := src.Record(ctx, steps, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	want = stepsText(t, src)

	server, back := openOn(t, mid), openOn(t, sqliteBackend)
	c, err := Copy(ctx, src, server, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Files != 80 || c.Steps != len(steps) {
		t.Errorf("copied %+v, want 80 files and %d steps", c, len(steps))
	}
	if _, err := Copy(ctx, server, back, nil); err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]*DB{"copy": server, "copy of the copy": back} {
		if got := stepsText(t, h); got != want {
			t.Errorf("%s: steps differ from the original's:\n%s\nwant:\n%s", name, got, want)
		}
		if a, b := stats(t, src), stats(t, h); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s holds %+v, the original %+v", name, b, a)
		}
	}
	again, err := Copy(ctx, src, server, nil)
	if err != nil || again.Files != 0 || again.Duplicates != 80 || again.Steps != 0 {
		t.Errorf("copying again: %+v, %v; want every file there already", again, err)
	}
}

// TestFleet: a step that every machine's series of a cell took over the
// same commits is said to be shared by all; one that two of three took,
// by two; a lone machine's step by none.
func TestFleet(t *testing.T) {
	for _, tc := range []struct {
		thirdAt int
		want    string
	}{{20, "on every machine (3)"}, {40, "on 2 of 3 machines"}} {
		h := openTemp(t)
		addSeries(t, h, "a", 40, 20, 0.10, 1)
		addSeries(t, h, "b", 40, 20, 0.10, 2)
		addSeries(t, h, "c", 40, tc.thirdAt, 0.10, 3)
		ss, _ := h.Series(ctx, Filter{Units: []string{"ns/op"}})
		steps, err := FindSteps(ctx, ss, changepoint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		Fleet(steps, ss)
		for _, st := range steps {
			if st.Index != 20 {
				continue // a's noise has a small step of its own
			}
			if st.Shared != tc.want {
				t.Errorf("third machine steps at %d: %s's step says %q, want %q", tc.thirdAt, st.Series.Name(), st.Shared, tc.want)
			}
		}
	}
	h := openTemp(t)
	addSeries(t, h, "a", 40, 20, 0.10, 1)
	addSeries(t, h, "b", 40, 40, 0, 2)
	ss, _ := h.Series(ctx, Filter{Units: []string{"ns/op"}})
	steps, _ := FindSteps(ctx, ss, changepoint.Options{})
	Fleet(steps, ss)
	for _, st := range steps {
		if st.Shared != "" {
			t.Errorf("one machine's step at %d says %q, want it its own", st.Index, st.Shared)
		}
	}
}
