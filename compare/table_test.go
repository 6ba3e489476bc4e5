package compare

import (
	"strings"
	"testing"
)

// TestTheTableIsWhole walks every combination of the witnesses' states:
// the table decides each, and each decision keeps the rules a reviewer
// expects.
func TestTheTableIsWhole(t *testing.T) {
	n := 0
	for tm := TimeNone; tm <= TimeUnmeasured; tm++ {
		for c := CountsNone; c <= CountsBetter; c++ {
			for p := PredictionNone; p <= PredictionMiddleNotSlower; p++ {
				for _, strict := range []bool{false, true} {
					n++
					d := Case{tm, c, p, strict}.Decision()
					fail := func(why string) {
						t.Errorf("time %s, counts %s, prediction %s, strict %v: %s %s (%s): %s", tm, c, p, strict, d.Verdict, d.By, d.Why, why)
					}
					unmeasuredTime := tm == TimeNone || tm == TimeNoWindow || tm == TimeUnmeasured
					switch {
					case tm == TimeMissing && d.Verdict != Missing:
						fail("a missing arm must be MISSING")
					case tm != TimeMissing && tm != TimeNone && c == CountsWorse && d.Verdict != Regression:
						fail("a counted regression must be a REGRESSION whatever time measured")
					case tm == TimeSlower && d.Verdict != Regression:
						fail("time slower past the threshold must be a REGRESSION")
					case tm == TimeNoWindow && p == PredictionWorse && c != CountsWorse && d.Verdict != Regression:
						fail("where time could not measure, a prediction worse must be a REGRESSION")
					case !strict && tm == TimeNone && (p == PredictionWorse || p == PredictionSame || p == PredictionBetter) && d.By != ByPrediction:
						fail("past the cores the prediction weighs every count, and no count outvotes it")
					case tm == TimeVetoed && c != CountsWorse && d.Verdict != Inconclusive:
						fail("a void time, in either direction, decides nothing")
					case tm == TimeCentrePast && d.Verdict == Pass:
						fail("a centre past the threshold is never a PASS")
					case d.Verdict == Improved && (tm == TimeSlower || tm == TimeVetoed || tm == TimeCentrePast || tm == TimeLeansSlower || tm == TimePassSlower):
						fail("time that leans slower never stands beside IMPROVED")
					case d.Verdict == Improved && tm != TimeNone && (c == CountsWorse || c == CountsUndecided && d.By != ByTime):
						fail("a count worse, or undecided where time did not decide, never stands beside IMPROVED")
					case d.Verdict == Improved && p == PredictionWorse && tm != TimeFaster:
						fail("a prediction worse is outvoted only by time that measured faster")
					case d.Verdict == Improved && p == PredictionMiddleNotSlower && d.By != ByTime && c != CountsBetter:
						fail("an undecided prediction is no IMPROVED by itself")
					case tm == TimeNone && p == PredictionMiddleNotSlower && c != CountsWorse && d.Verdict != Inconclusive:
						fail("past the cores an undecided prediction decides nothing")
					case (d.Verdict == Pass || d.Verdict == Improved) && unmeasuredTime && c == CountsNone && p == PredictionNone:
						fail("no witness is no verdict")
					case strict && (d.Verdict == Pass || d.Verdict == Improved) && d.By != ByTime && !(tm == TimeNone && d.By == ByPrediction):
						fail("-strict gives no PASS or IMPROVED within the cores but time's")
					case d.Verdict == Regression && d.By == ByCounted && (tm == TimeSlower || p == PredictionWorse):
						fail("a REGRESSION time or the prediction also gives is shown by it")
					case d.Why == "" || len(d.Why) > 160:
						fail("every decision says why in at most 160 characters")
					case d.Verdict != Inconclusive && d.Verdict != Missing && d.By == ByNone:
						fail("a verdict names the witness it rests on")
					}
				}
			}
		}
	}
	if want := 13 * 5 * 7 * 2; n != want {
		t.Errorf("walked %d combinations, want %d", n, want)
	}
}

// TestEveryRowSaysItsStates renders every combination's reason and holds
// it to the states it met: the clause of each state that spoke is there,
// and no other state's clause is. A row that matches several states (a
// PASS by counts whether they moved or not) must say the one it met.
func TestEveryRowSaysItsStates(t *testing.T) {
	for tm := TimeNone; tm <= TimeUnmeasured; tm++ {
		for c := CountsNone; c <= CountsBetter; c++ {
			for p := PredictionNone; p <= PredictionMiddleNotSlower; p++ {
				d := Case{tm, c, p, false}.Decision()
				check := func(clause string, want bool) {
					if clause != "" && strings.Contains(d.Why, clause) != want {
						t.Errorf("time %s, counts %s, prediction %s: %q says %q: %v, want %v", tm, c, p, d.Why, clause, !want, want)
					}
				}
				for x := TimeNone; x <= TimeUnmeasured; x++ {
					check(x.clause(), x == tm)
				}
				for x := CountsNone; x <= CountsBetter; x++ {
					check(x.clause(), x == c && (c != CountsNone || d.Verdict == Inconclusive))
				}
				for x := PredictionNone; x <= PredictionBetter; x++ {
					check(x.clause(), x == p && (p != PredictionNone || d.Verdict == Inconclusive))
				}
			}
		}
	}
}

// TestTheTableShown: the Markdown the docs show has a row a rule, and
// names every verdict the table can give.
func TestTheTableShown(t *testing.T) {
	md := Table()
	if got, want := strings.Count(md, "\n"), len(table)+2; got != want {
		t.Errorf("the table has %d lines, want %d", got, want)
	}
	for _, v := range []Verdict{Missing, Regression, Improved, Pass, Inconclusive} {
		if !strings.Contains(md, "| "+string(v)+" |") {
			t.Errorf("the table shows no %s", v)
		}
	}
}

// TestExitCodes: one place decides a verdict's exit code.
func TestExitCodes(t *testing.T) {
	for v, want := range map[Verdict]int{Pass: 0, Improved: 0, Regression: 1, Trade: 1, Missing: 1, Inconclusive: 3} {
		if got := v.Exit(); got != want {
			t.Errorf("%s exits %d, want %d", v, got, want)
		}
	}
}

// TestACountWithinTheCoresIsExactWithoutTime: where no time cell exists
// at a count within the cores (the run measured 1 thread, -at 1,2), a
// count that says worse is a REGRESSION, counted, as it is where time
// measured; past the cores the prediction weighs it. The two once shared
// one state, and the prediction outvoted the exact count within the
// cores too.
func TestACountWithinTheCoresIsExactWithoutTime(t *testing.T) {
	within := Case{Time: TimeUnmeasured, Counts: CountsWorse, Prediction: PredictionBetter}.Decision()
	past := Case{Time: TimeNone, Counts: CountsWorse, Prediction: PredictionBetter}.Decision()
	if within.Verdict != Regression || within.By != ByCounted {
		t.Errorf("within the cores, no time cell: %s by %s, want REGRESSION, counted", within.Verdict, within.By)
	}
	if past.Verdict != Improved || past.By != ByPrediction {
		t.Errorf("past the cores: %s by %s, want the prediction's IMPROVED", past.Verdict, past.By)
	}
}
