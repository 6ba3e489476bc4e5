package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/report"
)

// TestThePredictionSaysWhatItWasHeldTo: the pull request's comment and
// report.md say, under the answers, what each prediction that gave one
// was held to; a report without one says nothing of it.
func TestThePredictionSaysWhatItWasHeldTo(t *testing.T) {
	held := "the prediction past the cores: held to 2 published many-core tables: median miss 129%, worst 1323%"
	rep := &compare.Report{Verdict: compare.Regression, Old: "main", New: "head",
		Answers: []string{"hashmap: +1353.6% a call at 16 threads (predicted)"}, Held: []string{held}}
	for _, w := range []func(*report.Document, *bytes.Buffer){
		func(d *report.Document, b *bytes.Buffer) { d.WriteComment(b) },
		func(d *report.Document, b *bytes.Buffer) { d.WriteMarkdown(b) },
	} {
		var out bytes.Buffer
		w(&report.Document{Verdict: rep}, &out)
		answer := strings.Index(out.String(), "- hashmap:")
		said := strings.Index(out.String(), "_"+held+"_\n")
		if answer < 0 || said < answer {
			t.Errorf("what the prediction was held to is not under its answer:\n%s", out.String())
		}
		rep.Held = nil
		out.Reset()
		w(&report.Document{Verdict: rep}, &out)
		if strings.Contains(out.String(), "held to") {
			t.Errorf("a report with no predicted answer says what a prediction was held to:\n%s", out.String())
		}
		rep.Held = []string{held}
	}
}
