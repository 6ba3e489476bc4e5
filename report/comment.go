package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/perfrun/perfrun/compare"
)

// CommentFile is the pull request's comment a comparison's report folder
// holds: what a verdict job posts, written by its own perfrun.
const CommentFile = "comment.md"

// WriteComment writes the pull request's comment: the verdict, the answer
// at the declared thread counts a line a design, a chart GitHub draws
// from the comment's own text (Mermaid: a comment cannot show the
// report's image files), then the changed cells. Every name in it is
// escaped as report.md escapes it.
func (d *Document) WriteComment(w io.Writer) {
	v := d.Verdict
	if v == nil {
		return
	}
	fmt.Fprintf(w, "**%s %s** — %s vs %s\n\n", verdictMark[v.Verdict], v.Verdict, mdEscape(v.Old), mdEscape(v.New))
	if line := v.DecidedLine(); line != "" {
		fmt.Fprintf(w, "%s\n\n", mdEscape(line))
	}
	for _, a := range v.Answers {
		fmt.Fprintf(w, "- %s\n", mdEscape(a))
	}
	if len(v.Answers) > 0 {
		fmt.Fprintln(w)
	}
	writeHeldTo(w, v.Held)
	writeChart(w, v.Figures)
	for _, n := range v.Warnings {
		fmt.Fprintf(w, "> note: %s\n\n", mdEscape(compare.Shorten(n, compare.MaxShortReason)))
	}
	if ch := d.changed(); len(ch) > 0 {
		fmt.Fprintf(w, "<details><summary>%d changed cells</summary>\n\n| | cell | unit | new/old | why |\n|---|---|---|---|---|\n", len(ch))
		for i, c := range ch {
			if i == maxCommentRows {
				fmt.Fprintf(w, "| | … and %d more | | | |\n", len(ch)-i)
				break
			}
			fmt.Fprintf(w, "| %s %s | %s | %s | %s | %s |\n", verdictMark[c.Verdict], c.Verdict, mdEscape(c.Name), mdEscape(c.Unit), c.RatioText(), mdEscape(c.ShortReason()))
		}
		fmt.Fprintf(w, "\n</details>\n\n")
	} else if v.Verdict == compare.Pass {
		fmt.Fprintf(w, "%s\n\n", d.passLine())
	}
}

// writeHeldTo writes what each prediction that gave an answer was held
// to, under the answers it gave.
func writeHeldTo(w io.Writer, held []string) {
	for _, h := range held {
		fmt.Fprintf(w, "_%s_\n\n", mdEscape(h))
	}
}

// writeChart draws figures as bars of head ÷ base, a line at 1 (no
// change) beside them: a bar above the line is slower.
func writeChart(w io.Writer, figures []compare.Figure) {
	if len(figures) == 0 {
		return
	}
	var labels, bars, ones []string
	top := 1.0
	for _, f := range figures {
		how := ""
		if compare.Predicted(f.Unit) {
			how = " predicted"
		} else if compare.Counted(f.Unit) {
			how = " " + strings.SplitN(f.Unit, "/", 2)[0]
		}
		labels = append(labels, fmt.Sprintf("%q", chartLabel(fmt.Sprintf("%s %dt%s", f.Design, f.At, how))))
		bars = append(bars, fmt.Sprintf("%.3g", f.Ratio))
		ones = append(ones, "1")
		top = max(top, f.Ratio)
	}
	fmt.Fprintf(w, "```mermaid\nxychart-beta\n    title \"head ÷ base a call at the declared thread counts (1: unchanged, higher: slower)\"\n")
	fmt.Fprintf(w, "    x-axis [%s]\n    y-axis \"head ÷ base\" 0 --> %.3g\n    bar [%s]\n    line [%s]\n```\n\n",
		strings.Join(labels, ", "), 1.1*top, strings.Join(bars, ", "), strings.Join(ones, ", "))
}

// chartLabel keeps of s what a Mermaid label may hold whatever it says:
// letters, digits, spaces and . _ = / + -; a name cannot end the label,
// the chart or the code block around it.
func chartLabel(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(" ._=/+-", r):
			return r
		}
		return '_'
	}, s)
}
