package predict

import (
	"testing"

	"github.com/perfrun/perfrun/records"
)

// family are the stripe family's designs (results/locks/stripes), the
// read/write lock first, then 1, 4, 16 and 64 stripes.
var family = []string{"rwlock", "stripes1", "stripes4", "stripes16", "stripes64"}

// familyAt16 is each design's predicted time per call at 16 threads from
// the family's counts (testdata/stripes.txt.bz2, a copy of the family's
// 1-thread cells), as the main job predicts: the reference constants and
// time per instruction. spread, when false, predicts with every lock but
// the busiest as one queue, as the model did before it queued each lock.
func familyAt16(t *testing.T, spread bool) map[string]float64 {
	t.Helper()
	in := readTestdata(t, "stripes.txt")
	if !spread {
		for _, c := range in.Cells() {
			delete(c.Values, records.Tidy(records.OtherLocks))
			delete(c.AsideValues, records.Tidy(records.OtherLocks))
		}
	}
	m := Reference
	m.FromCounts = true
	out, err := Results(in, []int{1, 16}, m, "test")
	if err != nil {
		t.Fatal(err)
	}
	at := make(map[string]float64)
	for _, c := range out.Cells() {
		if c.Threads == 16 {
			at[c.Impl] = records.Median(c.Values[records.Tidy(records.NsPerCall)])
		}
	}
	return at
}

// TestStripesScale: the family's time per call at 16 threads falls as the
// stripes grow, and from 16 stripes on it is no REGRESSION against the
// read/write lock (64 well below it). With every lock but the busiest as
// one queue, as the model had it, the family does not fall: the check
// fails there.
func TestStripesScale(t *testing.T) {
	falls := func(at map[string]float64) bool {
		for i := 2; i < len(family); i++ {
			if !(at[family[i]] < at[family[i-1]]) {
				return false
			}
		}
		return at["stripes16"] <= 1.05*at["rwlock"] && at["stripes64"] < 0.75*at["rwlock"]
	}
	at := familyAt16(t, true)
	t.Logf("per(16): %v", at)
	if !falls(at) {
		t.Errorf("per call at 16 threads %v: want falling from 1 to 64 stripes, 16 within 5%% of the read/write lock, 64 well below", at)
	}
	if old := familyAt16(t, false); falls(old) {
		t.Errorf("with the other locks as one queue %v: the family still falls, so the check cannot fail", old)
	}
}
