package compare

import (
	"encoding"
	"fmt"
	"slices"
	"strings"
)

// The words of a decision: each witness's state in a clause of its own,
// so a row that matches several states says the one it met, then the
// row's conclusion. TestEveryRowSaysItsStates holds every combination to
// its clauses.

// clause is what a time state says in a decision's reason.
func (t Time) clause() string {
	return [...]string{
		TimeNone:        "",
		TimeMissing:     "an arm never ran",
		TimeNoWindow:    "time: too few complete rounds",
		TimeSlower:      "time: slower past the threshold",
		TimeVetoed:      "time: void, the same code moved as much",
		TimeCentrePast:  "time: spans the threshold, centre past it",
		TimeLeansSlower: "time: spans the threshold, leaning slower",
		TimePassSlower:  "time: within the threshold, leaning slower",
		TimeSame:        "time: within the threshold, no slower",
		TimeUndecided:   "time: spans the threshold, centre no slower",
		TimeLeansFaster: "time: faster, within the threshold",
		TimeFaster:      "time: faster past the threshold",
		TimeUnmeasured:  "time: not measured at this count",
	}[t]
}

// clause is what a counts state says in a decision's reason.
func (c Counts) clause() string {
	return [...]string{
		CountsNone:      "counts: none",
		CountsWorse:     "counts: one worse",
		CountsUndecided: "counts: one undecided",
		CountsSame:      "counts: within the threshold",
		CountsBetter:    "counts: one better, none worse",
	}[c]
}

// clause is what a prediction's state says in a decision's reason.
func (p Prediction) clause() string {
	return [...]string{
		PredictionNone:            "prediction: none",
		PredictionWorse:           "prediction: slower past the threshold",
		PredictionUndecided:       "prediction: band spans the threshold",
		PredictionSame:            "prediction: within the threshold",
		PredictionBetter:          "prediction: faster past the threshold",
		PredictionMissed:          "prediction: missed time, no witness alone",
		PredictionMiddleNotSlower: "prediction: undecided, middle not slower",
	}[p]
}

// verdict is the verdict a prediction gives where it decides.
func (p Prediction) verdict() Verdict {
	switch p {
	case PredictionWorse:
		return Regression
	case PredictionBetter:
		return Improved
	case PredictionSame:
		return Pass
	}
	return Inconclusive
}

// render is a decision's reason: the clauses of the witnesses that spoke
// (and, where nothing was decided, of those that did not), then the
// conclusion.
func render(t Time, c Counts, p Prediction, v Verdict, conclusion string) string {
	var said []string
	if w := t.clause(); w != "" {
		said = append(said, w)
	}
	if c != CountsNone || v == Inconclusive {
		said = append(said, c.clause())
	}
	if p != PredictionNone || v == Inconclusive {
		said = append(said, p.clause())
	}
	return strings.Join(said, "; ") + " — " + conclusion
}

// DecidedLine says what decided each declared count, a clause a count:
// "decided: at 1 thread by time; at 2 threads by the counts (time kept
// 0 rounds of the 5 a verdict needs in 4 of 4 designs)"; "" where nothing
// was decided. A PASS that rests on the counts alone says what they
// cannot see.
func (r *Report) DecidedLine() string {
	var at []int
	for _, d := range r.Decided {
		if !slices.Contains(at, d.At) {
			at = append(at, d.At)
		}
	}
	slices.Sort(at)
	var parts []string
	blind := false
	for _, n := range at {
		var of []Decided
		for _, d := range r.Decided {
			if d.At == n {
				of = append(of, d)
				blind = blind || d.By == ByCounts && d.Verdict == Pass
			}
		}
		var by []string
		for _, w := range []Witness{ByTime, ByCounted, ByCounts, ByPrediction, ByNone} {
			if k := countOf(of, func(d Decided) bool { return d.By == w }); k > 0 {
				by = append(by, witnessWords(w)+ofAll(k, len(of)))
			}
		}
		part := fmt.Sprintf("at %s %s", countWords(n), strings.Join(by, ", "))
		var host []string
		switch k := countOf(of, func(d Decided) bool { return d.Time == TimeNoWindow }); {
		case k > 0 && r.Untimed != "":
			host = append(host, "time not measured: "+r.Untimed)
		case k > 0:
			host = append(host, fmt.Sprintf("time kept %s of the %d a verdict needs in %d of %d designs", keptWords(of), MinPairedRounds, k, len(of)))
		}
		if k := countOf(of, func(d Decided) bool { return d.Time == TimeVetoed }); k > 0 {
			host = append(host, fmt.Sprintf("time void, the same code moving as much, in %d of %d designs", k, len(of)))
		}
		if len(host) > 0 {
			part += " (" + strings.Join(host, ", ") + ")"
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return ""
	}
	line := "decided: " + strings.Join(parts, "; ")
	if blind {
		line += "; the counts cannot see a change in code layout or false sharing"
	}
	return line
}

// keptWords are the complete rounds time kept where it kept too few, over
// the decisions of: "0 rounds", "1 to 3 rounds".
func keptWords(of []Decided) string {
	lo, hi := -1, 0
	for _, d := range of {
		if d.Time == TimeNoWindow {
			if lo < 0 || d.Kept < lo {
				lo = d.Kept
			}
			hi = max(hi, d.Kept)
		}
	}
	word := "rounds"
	if hi == 1 {
		word = "round"
	}
	if lo == hi {
		return fmt.Sprintf("%d %s", hi, word)
	}
	return fmt.Sprintf("%d to %d %s", lo, hi, word)
}

// countOf counts the decisions that hold.
func countOf(of []Decided, hold func(Decided) bool) int {
	n := 0
	for _, d := range of {
		if hold(d) {
			n++
		}
	}
	return n
}

// ofAll is " (k of all)" where k is not all, "" where it is.
func ofAll(k, all int) string {
	if k == all {
		return ""
	}
	return fmt.Sprintf(" (%d of %d)", k, all)
}

// witnessNames name a witness where a line says what decided.
var witnessNames = map[Witness]string{
	ByTime:       "time",
	ByCounted:    "an exact count",
	ByCounts:     "the counts",
	ByPrediction: "the prediction",
	ByNone:       "nothing",
}

// witnessWords are a witness as the decided line gives it: "by time",
// "undecided".
func witnessWords(w Witness) string {
	if w == ByNone {
		return "undecided"
	}
	return "by " + witnessNames[w]
}

// The states are written in JSON by their names.
var (
	_ encoding.TextMarshaler = Time(0)
	_ encoding.TextMarshaler = Counts(0)
	_ encoding.TextMarshaler = Prediction(0)
)

func (t Time) MarshalText() ([]byte, error)       { return []byte(t.String()), nil }
func (c Counts) MarshalText() ([]byte, error)     { return []byte(c.String()), nil }
func (p Prediction) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

func (t *Time) UnmarshalText(b []byte) error       { return unmarshalState(t, timeNames, b) }
func (c *Counts) UnmarshalText(b []byte) error     { return unmarshalState(c, countsNames, b) }
func (p *Prediction) UnmarshalText(b []byte) error { return unmarshalState(p, predictNames, b) }

// unmarshalState reads a state written by its name.
func unmarshalState[S ~int](s *S, names []string, b []byte) error {
	i := slices.Index(names, string(b))
	if i < 0 {
		return fmt.Errorf("no state is named %q", b)
	}
	*s = S(i)
	return nil
}
