package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
)

// Document is a report of a run, or of a comparison with its gate verdict:
// what a pull-request comment (Markdown) or a self-contained page (HTML)
// shows.
type Document struct {
	Title   string
	Verdict *compare.Report // nil for the report of a single run
	Rows    []compare.Row   // comparison rows, nil for a single run
	Old     *records.Set    // nil for a single run
	New     *records.Set
	Plots   []*Plot
	// Extra are pictures drawn by the caller, shown after the verdict's.
	Extra []*Plot
	// ImageDir is where the Markdown's images are, relative to it; the
	// caller saves the plots there.
	ImageDir string
	// Notes are extra lines shown under the verdict (e.g. the ab setup).
	Notes []string
	// PredictedAt is the thread count a comparison's prediction speaks
	// of, 0 where none was made; Leads are the cells a change moved, each
	// with its answer there, which the page opens with.
	PredictedAt int
	Leads       []Lead
	// Unmoved are the 1-thread cells whose counts and prediction base and
	// head share: their undecided time verdicts are the host's, not the
	// change's, and are left to the full table.
	Unmoved map[string]bool
}

// unmoved says whether a verdict's cell is one the change did not move.
func (d *Document) unmoved(c compare.CellVerdict) bool {
	return d.Unmoved[records.AtThreads(c.Name, 1)]
}

// writeLeads writes the answer past the cores: a line and a picture for
// each cell the change moved, or that none moved.
func (d *Document) writeLeads(w io.Writer) {
	if d.PredictedAt == 0 {
		return
	}
	fmt.Fprintf(w, "### At %d threads\n\n", d.PredictedAt)
	if len(d.Leads) == 0 {
		fmt.Fprintf(w, "No cell's prediction moved: base and head have the same lock profiles and instructions (head ÷ base 1.000 at %d threads).\n\n", d.PredictedAt)
		return
	}
	for _, l := range d.Leads {
		fmt.Fprintf(w, "%s **%s** %s: %s\n\n", verdictMark[l.Verdict], l.Verdict, mdEscape(cellLabel(l.Cell)), mdEscape(l.Line))
		fmt.Fprintf(w, "![%s](%s)\n\n", mdEscape(l.Plot.Caption), path.Join(d.ImageDir, l.Plot.Name+".png"))
		writeHeld(w, l.Held)
	}
}

// writeHeld writes a lead's prediction beside what the runner measured:
// the model held to the run.
func writeHeld(w io.Writer, held []Held) {
	if len(held) == 0 {
		return
	}
	fmt.Fprintf(w, "The prediction held to what this runner measured (within its cores with its own constants):\n\n| threads | | measured | predicted | predicted ÷ measured |\n|---:|---|---:|---:|---:|\n")
	for _, h := range held {
		for _, r := range h.Rows() {
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s |\n", h.Threads, r[0], r[1], r[2], r[3])
		}
	}
	fmt.Fprintln(w)
}

// resultsHeading names a results table for what its values are: medians
// over rounds, or a prediction's middles.
func resultsHeading(s *records.Set) string {
	if s != nil {
		for _, c := range s.Cells() {
			if predicted(c) {
				return "Predicted, not measured (perfrun predict: the model's middle; its band in low-ns/call and high-ns/call)"
			}
		}
	}
	return "Results (median ± 95% CI over rounds)"
}

// summary is one cell of a single run's table.
type summary struct {
	Name                  string
	NsMedian, NsRange     string
	OpsMedian, OpsRange   string
	LockWait, AllocsPerOp string
}

// timeOf is the time unit a results table shows, as the terminal does:
// one worker's time per call where the results have it, else per op.
func timeOf(s *records.Set) (unit, head string) {
	for _, c := range s.Cells() {
		if len(c.Values[records.Tidy(records.NsPerCall)]) > 0 {
			return records.Tidy(records.NsPerCall), "time/call"
		}
	}
	return records.Tidy(records.NsPerOp), "time/op"
}

// oversubscribedNote explains the mark summaries puts on a cell with more
// threads than cores.
const oversubscribedNote = "* more threads than cores: they only time-slice, and are never gated."

func summaries(s *records.Set) []summary {
	var out []summary
	unit, _ := timeOf(s)
	cores := s.Cores()
	for _, c := range s.Cells() {
		sm := summary{Name: c.Name}
		if cores > 0 && c.Threads > cores {
			sm.Name += " *"
		}
		if len(c.Values) == 0 && c.Aside > 0 {
			// Measured, then set aside whole: said, not a blank row.
			sm.NsMedian = fmt.Sprintf("— (all %d rounds set aside: %s)", c.Aside, c.Why)
			out = append(out, sm)
			continue
		}
		sm.NsMedian, sm.NsRange = fmtMedian(c.Values, unit)
		sm.OpsMedian, sm.OpsRange = fmtMedian(c.Values, records.OpsPerSec)
		sm.LockWait, _ = fmtMedian(c.Values, records.Tidy(records.LockWait))
		sm.AllocsPerOp, _ = fmtMedian(c.Values, records.AllocsPerOp)
		out = append(out, sm)
	}
	return out
}

// fmtMedian formats the median of a unit's values, scaled as benchstat
// scales it, and its confidence interval; empty where there are none.
func fmtMedian(values map[string][]float64, unit string) (string, string) {
	v := values[unit]
	if len(v) == 0 {
		return "", ""
	}
	sum := records.Summarize(v)
	if math.IsInf(sum.Lo, 0) || math.IsInf(sum.Hi, 0) {
		return records.FormatValue(sum.Median, unit), fmt.Sprintf("(%d rounds: too few for an interval)", sum.N)
	}
	return records.FormatValue(sum.Median, unit), sum.PctRange()
}

// changed returns the verdict cells that are not PASS or NOT-GATED, worst
// first, leaving out the undecided time of cells the change did not move.
func (d *Document) changed() []compare.CellVerdict {
	if d.Verdict == nil {
		return nil
	}
	var out []compare.CellVerdict
	for _, c := range d.Verdict.Cells {
		if c.Verdict == compare.Inconclusive && d.unmoved(c) {
			continue
		}
		if c.Verdict != compare.Pass && c.Verdict != compare.NotGated {
			out = append(out, c)
		}
	}
	rank := map[compare.Verdict]int{compare.Regression: 0, compare.Missing: 0, compare.Inconclusive: 1, compare.Improved: 2}
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i].Verdict] < rank[out[j].Verdict] })
	return out
}

// undecidedUnmoved counts the undecided time verdicts of cells the change
// did not move, which changed leaves out.
func (d *Document) undecidedUnmoved() int {
	n := 0
	if d.Verdict != nil {
		for _, c := range d.Verdict.Cells {
			if c.Verdict == compare.Inconclusive && d.unmoved(c) {
				n++
			}
		}
	}
	return n
}

var verdictMark = map[compare.Verdict]string{
	compare.Pass: "✅", compare.Improved: "🚀", compare.Regression: "❌", compare.Inconclusive: "⚠️", compare.NotGated: "·",
	compare.Missing: "⛔", compare.Trade: "⚖️",
}

// WriteMarkdown writes the pull-request comment: the verdict first, then
// the changed cells, then everything else collapsed, then the images.
func (d *Document) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "## %s\n\n", mdEscape(d.Title))
	if d.Verdict != nil {
		fmt.Fprintf(w, "**%s %s** — %s vs %s\n\n", verdictMark[d.Verdict.Verdict], d.Verdict.Verdict, mdEscape(d.Verdict.Old), mdEscape(d.Verdict.New))
		// The answer at the declared thread counts, a line a design moved.
		for _, a := range d.Verdict.Answers {
			fmt.Fprintf(w, "- %s\n", mdEscape(a))
		}
		if len(d.Verdict.Answers) > 0 {
			fmt.Fprintln(w)
		}
		writeHeldTo(w, d.Verdict.Held)
		// What the verdict could not judge (a count that failed, with its
		// reason) is said where the verdict is, as the terminal says it.
		d.writeLeads(w)
		for _, n := range d.Verdict.Warnings {
			fmt.Fprintf(w, "> note: %s\n\n", mdEscape(n))
		}
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "%s\n", n)
	}
	if len(d.Notes) > 0 {
		fmt.Fprintln(w)
	}
	if d.Verdict != nil && len(d.Plots) > 0 {
		p := d.Plots[0] // the forest plot: the verdict at a glance
		fmt.Fprintf(w, "![%s](%s)\n\n", mdEscape(p.Caption), path.Join(d.ImageDir, p.Name+".png"))
	}
	if ch := d.changed(); len(ch) > 0 {
		fmt.Fprintf(w, "| | cell | unit | new/old | why |\n|---|---|---|---|---|\n")
		for i, c := range ch {
			if i == maxCommentRows {
				fmt.Fprintf(w, "| | … and %d more | | | |\n", len(ch)-i)
				break
			}
			fmt.Fprintf(w, "| %s %s | %s | %s | %s | %s |\n", verdictMark[c.Verdict], c.Verdict, mdEscape(c.Name), mdEscape(c.Unit), c.RatioText(), mdEscape(c.Reason))
		}
		fmt.Fprintln(w)
	} else if d.Verdict != nil && d.Verdict.Verdict == compare.Pass {
		fmt.Fprintf(w, "%s\n\n", d.passLine())
	}
	if n := d.undecidedUnmoved(); n > 0 {
		fmt.Fprintf(w, "%d time verdicts INCONCLUSIVE on cells whose counts did not move (the host's noise, not the change): in the full table.\n\n", n)
	}
	if d.Verdict != nil {
		what := "the benchstat-style comparison"
		if len(d.Rows) == 0 {
			what = "the results with their intervals"
		}
		if n := len(d.Plots); n > 1 {
			what += fmt.Sprintf(" and %d plots", n)
		}
		fmt.Fprintf(w, "All %d results, %s: `%s` and `report.html` beside this page.\n", len(d.Verdict.Cells), what, FullMarkdown)
		return
	}
	d.WriteMarkdownFull(w)
}

// FullMarkdown is the file with a comparison's full tables: report.md stays
// short enough for a pull-request comment.
const FullMarkdown = "report-full.md"

// maxCommentRows caps the changed cells listed in report.md.
const maxCommentRows = 20

// WriteMarkdownFull writes every table: all gated results, the
// benchstat-style comparison, the results with their intervals, and the
// plots.
func (d *Document) WriteMarkdownFull(w io.Writer) {
	if d.Verdict != nil {
		fmt.Fprintf(w, "## %s: all results\n\n", mdEscape(d.Title))
		fmt.Fprintf(w, "<details open><summary>All %d gated results</summary>\n\n| | cell | unit | new/old | why |\n|---|---|---|---|---|\n", len(d.Verdict.Cells))
		for _, c := range d.Verdict.Cells {
			fmt.Fprintf(w, "| %s %s | %s | %s | %s | %s |\n", verdictMark[c.Verdict], c.Verdict, mdEscape(c.Name), mdEscape(c.Unit), c.RatioText(), mdEscape(c.Reason))
		}
		if note := d.Verdict.LayoutNote(); note != "" {
			fmt.Fprintf(w, "\n%s.\n", mdEscape(note))
		}
		fmt.Fprintf(w, "\n</details>\n\n")
	}
	if d.Rows != nil {
		fmt.Fprintf(w, "<details><summary>benchstat-style comparison</summary>\n\n| cell | unit | old | new | delta | p |\n|---|---|---|---|---|---|\n")
		for _, r := range d.Rows {
			delta := "~"
			if r.Significant {
				delta = fmt.Sprintf("%+.2f%%", 100*r.Delta)
			}
			fmt.Fprintf(w, "| %s | %s | %s %s | %s %s | %s | %s |\n", mdEscape(r.Name), mdEscape(r.Unit),
				records.FormatValue(r.Old.Center, r.Unit), compare.IntervalText(r.Old), records.FormatValue(r.New.Center, r.Unit), compare.IntervalText(r.New), delta, r.Cmp.String())
		}
		fmt.Fprintf(w, "\n</details>\n\n")
	}
	if d.New != nil {
		open := ""
		if d.Verdict == nil {
			open = " open"
		}
		_, head := timeOf(d.New)
		fmt.Fprintf(w, "<details%s><summary>%s</summary>\n\n| cell | %s | ops/s | lock wait/op | allocs/op |\n|---|---|---|---|---|\n", open, resultsHeading(d.New), head)
		for _, s := range summaries(d.New) {
			fmt.Fprintf(w, "| %s | %s %s | %s %s | %s | %s |\n", mdEscape(s.Name), s.NsMedian, s.NsRange, s.OpsMedian, s.OpsRange, s.LockWait, s.AllocsPerOp)
		}
		fmt.Fprintf(w, "\n%s Lock wait counts only time blocked in the runtime; a shared read lock costs cache-line traffic, which shows in ops/s instead.\n\n</details>\n\n", mdEscape(oversubscribedNote))
	}
	for _, p := range d.Plots {
		fmt.Fprintf(w, "![%s](%s)\n", mdEscape(p.Caption), path.Join(d.ImageDir, p.Name+".png"))
	}
}

// mdEscaper is what mdEscape replaces.
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;", "|", "\\|", "`", "\\`", "*", "\\*", "_", "\\_",
	"[", "\\[", "]", "\\]", "\\", "\\\\", "\n", " ", "\r", " ")

// mdEscape makes text safe in Markdown (a GitHub comment) outside code
// spans: HTML is shown, not interpreted, and no character can end a table
// cell, a link or a span. Names are shown as escaped text rather than in a
// code span, which a backtick in the name would end.
func mdEscape(s string) string { return mdEscaper.Replace(records.OneLine(s)) }

// MarkdownText is s made safe as text in Markdown, as every report page
// writes a name: no HTML, link, image, span or table cell it can open or
// end, on one line.
func MarkdownText(s string) string { return mdEscape(s) }

// pageStyle is the style every report page shares: type, tables, figures.
const pageStyle template.CSS = `body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #1d1d1f; }
h1 { font-size: 1.5em; margin-bottom: .2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 12px; }
figure { margin: 1.5em 0; } figcaption { color: #555; font-size: 13px; }
figure svg { width: 100%; height: auto; border: 1px solid #eee; }
`

// inlined is a plot as an HTML page holds it: its SVG inline.
type inlined struct {
	Caption string
	SVG     template.HTML
}

// inline renders plots as SVG to inline in a page.
func inline(plots []*Plot) ([]inlined, error) {
	var out []inlined
	for _, p := range plots {
		svg, err := p.Encode("svg")
		if err != nil {
			return nil, err
		}
		// Drop the XML prologue: the SVG is inlined in HTML.
		s := string(svg)
		if i := strings.Index(s, "<svg"); i > 0 {
			s = s[i:]
		}
		out = append(out, inlined{p.Caption, template.HTML(s)})
	}
	return out, nil
}

// WriteHTML writes one self-contained page: styles and plots (SVG) inline,
// nothing fetched from the network, readable offline.
func (d *Document) WriteHTML(w io.Writer) error {
	plots, err := inline(d.Plots)
	if err != nil {
		return err
	}
	var changed, all []compare.CellVerdict
	if d.Verdict != nil {
		changed, all = d.changed(), d.Verdict.Cells
	}
	var sums []summary
	head := "time/op"
	if d.New != nil {
		sums = summaries(d.New)
		_, head = timeOf(d.New)
	}
	type lead struct {
		Lead
		SVG inlined
	}
	var leads []lead
	for _, l := range d.Leads {
		svg, err := inline([]*Plot{l.Plot})
		if err != nil {
			return err
		}
		leads = append(leads, lead{l, svg[0]})
	}
	return writeVisible(w, pageTemplate, map[string]any{
		"Style": pageStyle, "D": d, "Changed": changed, "All": all, "Summaries": sums, "Plots": plots,
		"TimeHead": head, "Oversubscribed": oversubscribedNote, "Leads": leads, "Unmoved": d.undecidedUnmoved(),
		"Heading": resultsHeading(d.New), "PassLine": d.passLine(),
	})
}

// writeVisible executes a page's template with no control character left
// raw in it: html/template escapes markup, not an ESC or a U+202E that a
// commit subject or a name brings.
func writeVisible(w io.Writer, t *template.Template, data any) error {
	var page bytes.Buffer
	if err := t.Execute(&page, data); err != nil {
		return err
	}
	_, err := w.Write(records.Visible(page.Bytes()))
	return err
}

// passLine says what a PASS of every gated cell promises: by time, that
// no slowdown as large as the threshold can have been missed; by counts,
// that head does the same work as base in every way a count sees. Where
// the decision table decided (ab), its decisions say which witness gave
// each PASS; else the cells do.
func (d *Document) passLine() string {
	if d.Verdict == nil {
		return ""
	}
	if len(d.Verdict.Decided) > 0 {
		timed, other := 0, 0
		for _, dec := range d.Verdict.Decided {
			if dec.By == compare.ByTime {
				timed++
			} else {
				other++
			}
		}
		return passPromise("declared count of a design", timed, other)
	}
	timed, counted := 0, 0
	for _, c := range d.Verdict.Cells {
		switch {
		case c.ByCounts:
			counted++
		case c.Verdict == compare.Pass && !compare.Counted(c.Unit):
			timed++
		}
	}
	return passPromise("gated cell", timed, counted)
}

// passPromise is passLine's sentence: of every what that passed, timed
// by time and counted by the counts or the prediction.
func passPromise(what string, timed, counted int) string {
	const missed = "no slowdown as large as the threshold can have been missed"
	const unseen = "What only time sees (memory bandwidth, a cache line two threads share by accident, the scheduler) is not promised for those."
	switch {
	case counted == 0:
		return fmt.Sprintf("Every %s passed: %s.", what, missed)
	case timed == 0:
		return fmt.Sprintf("Every %s passed by counts or by the prediction: time decided none, and instructions, cache misses, system calls and locks did not move. %s", what, unseen)
	}
	return fmt.Sprintf("Every %s passed: %d by time, where %s, "+
		"and %d by counts or by the prediction, where time could not decide and instructions, cache misses, system calls and locks did not move. %s", what, timed, missed, counted, unseen)
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"ratio": compare.CellVerdict.RatioText,
	"delta": func(r compare.Row) string {
		if !r.Significant {
			return "~"
		}
		return fmt.Sprintf("%+.2f%%", 100*r.Delta)
	},
	"val":   records.FormatValue,
	"label": cellLabel,
	"lower": func(v compare.Verdict) string { return strings.ToLower(string(v)) },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.D.Title}}</title>
<style>
{{.Style}}
.verdict { display: inline-block; padding: .3em .8em; border-radius: 6px; font-weight: 700; font-size: 1.2em; }
.pass { background: #dff5e1; } .improved { background: #dcecff; } .regression, .trade { background: #ffd9d6; } .inconclusive { background: #fff1c2; } .not-gated { background: #eee; }
details { margin: 1em 0; } summary { cursor: pointer; font-weight: 600; }
</style></head><body>
<h1>{{.D.Title}}</h1>
{{with .D.Verdict}}<p><span class="verdict {{lower .Verdict}}">{{.Verdict}}</span> {{.Old}} vs {{.New}}</p>
{{if .Answers}}<ul>{{range .Answers}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range .Held}}<p class="held">{{.}}</p>{{end}}
{{if $.D.PredictedAt}}<h2>At {{$.D.PredictedAt}} threads</h2>
{{range $.Leads}}<p><span class="verdict {{lower .Verdict}}">{{.Verdict}}</span> <code>{{label .Cell}}</code>: {{.Line}}</p>
<figure>{{.SVG.SVG}}<figcaption>{{.SVG.Caption}}</figcaption></figure>
{{if .Held}}<table><tr><th>threads</th><th></th><th>measured</th><th>predicted</th><th>predicted ÷ measured</th></tr>{{range $h := .Held}}{{range .Rows}}<tr><td>{{$h.Threads}}</td><td>{{index . 0}}</td><td>{{index . 1}}</td><td>{{index . 2}}</td><td>{{index . 3}}</td></tr>{{end}}{{end}}</table>{{end}}
{{else}}<p>No cell's prediction moved: base and head have the same lock profiles and instructions (head ÷ base 1.000 at {{$.D.PredictedAt}} threads).</p>{{end}}{{end}}
{{range .Warnings}}<p class="note">note: {{.}}</p>{{end}}{{end}}
{{range .D.Notes}}<p>{{.}}</p>{{end}}
{{if .Changed}}<h2>Changed cells</h2><table><tr><th>verdict</th><th>cell</th><th>unit</th><th>new/old</th><th>why</th></tr>
{{range .Changed}}<tr class="{{lower .Verdict}}"><td>{{.Verdict}}</td><td><code>{{.Name}}</code></td><td>{{.Unit}}</td><td class="num">{{ratio .}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>{{else if .D.Verdict}}{{if eq .D.Verdict.Verdict "PASS"}}<p>{{.PassLine}}</p>{{end}}{{end}}
{{if .Unmoved}}<p>{{.Unmoved}} time verdicts INCONCLUSIVE on cells whose counts did not move (the host's noise, not the change): in the full table.</p>{{end}}
{{if .All}}<details><summary>All {{len .All}} gated results</summary><table><tr><th>verdict</th><th>cell</th><th>unit</th><th>new/old</th><th>why</th></tr>
{{range .All}}<tr class="{{lower .Verdict}}"><td>{{.Verdict}}</td><td><code>{{.Name}}</code></td><td>{{.Unit}}</td><td class="num">{{ratio .}}</td><td>{{.Reason}}</td></tr>
{{end}}</table></details>{{end}}
{{if .D.Rows}}<details><summary>benchstat-style comparison</summary><table><tr><th>cell</th><th>unit</th><th>old</th><th>new</th><th>delta</th><th>p</th></tr>
{{range .D.Rows}}<tr><td><code>{{.Name}}</code></td><td>{{.Unit}}</td><td class="num">{{val .Old.Center .Unit}} {{.Old.PctRangeString}}</td><td class="num">{{val .New.Center .Unit}} {{.New.PctRangeString}}</td><td>{{delta .}}</td><td>{{.Cmp.String}}</td></tr>
{{end}}</table></details>{{end}}
{{range .Plots}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>
{{end}}
{{if .Summaries}}<details{{if not .D.Verdict}} open{{end}}><summary>{{.Heading}}</summary>
<table><tr><th>cell</th><th>{{.TimeHead}}</th><th>ops/s</th><th>lock wait/op</th><th>allocs/op</th></tr>
{{range .Summaries}}<tr><td><code>{{.Name}}</code></td><td class="num">{{.NsMedian}} {{.NsRange}}</td><td class="num">{{.OpsMedian}} {{.OpsRange}}</td><td class="num">{{.LockWait}}</td><td class="num">{{.AllocsPerOp}}</td></tr>
{{end}}</table>
<p>{{.Oversubscribed}} Lock wait counts only time blocked in the runtime; a shared read lock costs cache-line traffic, which shows in ops/s instead.</p></details>{{end}}
</body></html>
`))
