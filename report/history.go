package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"path"
	"strings"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/records"
)

// HistoryPage is the page of a history: what it holds, the steps found,
// and each series drawn over its commits (HistoryPlot).
type HistoryPage struct {
	Title  string
	Stats  history.Stats
	Method string // how the steps were found, in one line
	Steps  []history.Step
	Plots  []*Plot
	// ImageDir is where the Markdown's images are, relative to it.
	ImageDir string
	// Left says how many series were not drawn.
	Left int
	// Nearest, where no step passed the test, are the splits that came
	// nearest, and NearestWhy the line that says why none was reported.
	Nearest    []history.Step
	NearestWhy string
	// Testable says how many series are long enough for a step to pass
	// the test at all (history changes' summary).
	Testable string
}

// StepRow is a step as the pages print it.
type StepRow struct {
	New, Regression bool
	Kind            string // regression or improvement
	Cell, Unit      string
	Machine         string
	Commits         string // before..after
	Size            string // +8.1% [+6.0%, +10.2%]
	Levels          string // 40.1n → 43.4n
	P               string
	Note            string // the machine moved too, other machines stepped alike
}

// NewStepRow formats a step as the pages and history changes print it.
func NewStepRow(st history.Step) StepRow {
	r := StepRow{New: st.New, Regression: st.Regression, Kind: "improvement", Cell: st.Series.Cell, Unit: st.Series.Unit,
		Machine: st.Series.Machine, Commits: history.ShortCommit(st.Before) + ".." + history.ShortCommit(st.After),
		Levels: records.FormatValue(st.From, st.Series.Unit) + " → " + records.FormatValue(st.To, st.Series.Unit),
		P:      fmt.Sprintf("%.3f", st.P), Note: st.Machine}
	if st.Shared != "" {
		r.Note = strings.TrimPrefix(r.Note+"; "+st.Shared, "; ")
	}
	if records.IsReferenceName(st.Series.Cell) && st.Machine == "" {
		r.Note = strings.TrimPrefix(r.Note+"; a reference cell: the machine's speed, no store's", "; ")
	}
	if over := st.Series.Over; over != "" {
		// A ratio to the reference cell, which has no unit of its own.
		r.Unit = st.Series.Unit + " ÷ " + over
		r.Levels = fmt.Sprintf("%.3g → %.3g", st.From, st.To)
		r.Note = strings.TrimPrefix(r.Note+"; the store's own, once each commit is divided by "+over+" of the same runs: the machine's speed hid it", "; ")
	}
	if st.Series.Oversubscribed() {
		r.Note = strings.TrimPrefix(r.Note+"; oversubscribed (more threads than cores): never gated", "; ")
	}
	if st.Regression {
		r.Kind = "regression"
	}
	if rel, lo, hi := st.Relative(); !math.IsNaN(rel) {
		r.Size = fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]", 100*rel, 100*lo, 100*hi)
	} else {
		u := st.Series.Unit
		r.Size = fmt.Sprintf("%s [%s, %s] %s", records.FormatValue(st.Shift.Shift, u), records.FormatValue(st.Shift.Low, u), records.FormatValue(st.Shift.High, u), u)
	}
	return r
}

func (d *HistoryPage) rows() []StepRow { return stepRows(d.Steps) }

func stepRows(steps []history.Step) []StepRow {
	out := make([]StepRow, len(steps))
	for i, st := range steps {
		out[i] = NewStepRow(st)
	}
	return out
}

func (d *HistoryPage) summary() string {
	s := d.Stats
	return fmt.Sprintf("%d commits, %d runs from %d files, %d series on %d machine(s): %s.", s.Commits, s.Runs, s.Files, s.Series, len(s.Machines), strings.Join(s.Machines, ", "))
}

// WriteMarkdown writes the page for a CI summary or an issue.
func (d *HistoryPage) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# %s\n\n%s\n\n", mdEscape(d.Title), mdEscape(d.summary()))
	if d.Method != "" {
		fmt.Fprintf(w, "%s\n\n", d.Method)
	}
	if rows := d.rows(); len(rows) == 0 {
		fmt.Fprintf(w, "No steps found. %s\n\n", mdEscape(d.Testable))
	} else {
		writeStepTable(w, rows)
	}
	if len(d.Nearest) > 0 {
		fmt.Fprintf(w, "%s\n\n", mdEscape(d.NearestWhy))
		writeStepTable(w, stepRows(d.Nearest))
	}
	for _, p := range d.Plots {
		fmt.Fprintf(w, "![%s](%s)\n\n", mdEscape(p.Caption), path.Join(d.ImageDir, p.Name+".png"))
	}
	if d.Left > 0 {
		fmt.Fprintf(w, "%d more series without steps are not drawn (history plot draws them all).\n", d.Left)
	}
}

// writeStepTable writes steps as a Markdown table.
func writeStepTable(w io.Writer, rows []StepRow) {
	fmt.Fprintf(w, "| | step | cell | unit | machine | between | size (95%% interval) | levels | p | note |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		mark := ""
		if r.New {
			mark = "**new**"
		}
		esc := mdEscape
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mark, r.Kind, esc(r.Cell), esc(r.Unit), esc(r.Machine), esc(r.Commits), r.Size, esc(r.Levels), r.P, esc(r.Note))
	}
	fmt.Fprintln(w)
}

// WriteHTML writes a self-contained page: the plots inlined as SVG.
func (d *HistoryPage) WriteHTML(w io.Writer) error {
	plots, err := inline(d.Plots)
	if err != nil {
		return err
	}
	return writeVisible(w, historyTemplate, map[string]any{"Style": pageStyle, "D": d, "Summary": d.summary(), "Rows": d.rows(), "Nearest": stepRows(d.Nearest), "Plots": plots})
}

var historyTemplate = template.Must(template.New("history").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.D.Title}}</title>
<style>
{{.Style}}
tr.regression { background: #ffd9d6; } tr.improvement { background: #dcecff; }
.new { font-weight: 700; }
.nearest tr.regression, .nearest tr.improvement { background: none; }
.wide { overflow-x: auto; } .wide td.num { white-space: nowrap; }
</style></head><body>
<h1>{{.D.Title}}</h1>
<p>{{.Summary}}</p>
{{with .D.Method}}<p>{{.}}</p>{{end}}
{{define "steps"}}<div class="wide"><table><tr><th></th><th>step</th><th>cell</th><th>unit</th><th>machine</th><th>between</th><th>size (95% interval)</th><th>levels</th><th>p</th><th>note</th></tr>
{{range .}}<tr class="{{.Kind}}"><td class="new">{{if .New}}new{{end}}</td><td>{{.Kind}}</td><td><code>{{.Cell}}</code></td><td>{{.Unit}}</td><td>{{.Machine}}</td><td><code>{{.Commits}}</code></td><td class="num">{{.Size}}</td><td class="num">{{.Levels}}</td><td class="num">{{.P}}</td><td>{{.Note}}</td></tr>
{{end}}</table></div>{{end}}
{{if .Rows}}<h2>Steps</h2>{{template "steps" .Rows}}{{else}}<p>No steps found. {{.D.Testable}}</p>{{end}}
{{if .Nearest}}<h2>Nearest to a step</h2><p>{{.D.NearestWhy}}</p><div class="nearest">{{template "steps" .Nearest}}</div>{{end}}
{{range .Plots}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>
{{end}}
{{if .D.Left}}<p>{{.D.Left}} more series without steps are not drawn (history plot draws them all).</p>{{end}}
</body></html>
`))
