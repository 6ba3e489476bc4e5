package compare

import (
	"strings"
	"testing"
)

// TestFiguresReadAsWords: a ratio past a million percent is written as a
// ratio, not as a 310-digit percentage; a decision with no cell of its
// own says better or worse, never "fewer " with no unit; and two designs
// of one implementation (other corpus sizes) answer on lines that tell
// them apart.
func TestFiguresReadAsWords(t *testing.T) {
	if got := Percent(1e308); len(got) > 12 || !strings.HasPrefix(got, "×") {
		t.Errorf("Percent(1e308) = %q, want a short ratio", got)
	}
	if got := figure(CellVerdict{Verdict: Improved}, 16, ByPrediction, ""); strings.Contains(got, "  ") || !strings.HasPrefix(got, "better at 16 threads") {
		t.Errorf("a decision with no cell of its own: %q", got)
	}
	r := &Report{Threshold: 0.05}
	for _, c := range []struct {
		certs string
		v     Verdict
		ratio float64
	}{{"64", Regression, 1.4}, {"4096", Improved, 0.6}} {
		name := "Issuer/impl=hashmap/certs=" + c.certs + "/threads=1"
		r.Cells = append(r.Cells, CellVerdict{Name: name, Unit: "sec/op", Verdict: c.v, Ratio: c.ratio, Lo: c.ratio - 0.01, Hi: c.ratio + 0.01, Rounds: 10})
	}
	r.finish()
	r.Decide(Rules{At: []int{1}, Cores: 2})
	if len(r.Answers) != 2 || strings.SplitN(r.Answers[0], ":", 2)[0] == strings.SplitN(r.Answers[1], ":", 2)[0] {
		t.Errorf("two designs of one implementation answer as one: %q", r.Answers)
	}
}
