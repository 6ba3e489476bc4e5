package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/harness/compare"
	"github.com/perfrun/perfrun/harness/report"
)

// TestMarkdownEscapesNames: labels, cell names, units and captions come
// from flags and files; in report.md none may become a link, an image, HTML,
// a new table row or a terminal escape.
func TestMarkdownEscapesNames(t *testing.T) {
	hostile := "x](https://evil.example)<img src=x>|\n| forged row\x1b[2J"
	doc := &report.Document{
		Title: "perfrun: " + hostile,
		Verdict: &compare.Report{Verdict: compare.Regression, Old: hostile, New: hostile, Cells: []compare.CellVerdict{
			{Name: hostile, Unit: hostile, Verdict: compare.Regression, Ratio: 1.2, Reason: hostile},
		}},
		Plots: []*report.Plot{{Name: "forest", Caption: hostile}},
	}
	var md bytes.Buffer
	doc.WriteMarkdown(&md)
	doc.WriteMarkdownFull(&md)
	out := md.String()
	for _, bad := range []string{"<img", "\x1b", "\n| forged row"} {
		if strings.Contains(out, bad) {
			t.Errorf("report.md holds %q unescaped:\n%s", bad, out)
		}
	}
	if link := regexp.MustCompile(`[^\\]\]\(https`); link.MatchString(out) {
		t.Errorf("report.md holds a link from a name:\n%s", out)
	}
}
