package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
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

// TestThreadTableSetAsideCell: a cell whose every sample was set aside has no
// number; the tables say so rather than print 0.00000 ± 0.00 and an
// efficiency of 0% (±+Inf% of it).
func TestThreadTableSetAsideCell(t *testing.T) {
	s := records.New("r", "r.txt")
	cfg := []benchfmt.Config{{Key: "cores", Value: []byte("2"), File: true}}
	aside := append(append([]benchfmt.Config(nil), cfg...), benchfmt.Config{Key: records.QuarantineKey, Value: []byte("the host took a core away"), File: true})
	for i := range 5 {
		for _, c := range []struct {
			name string
			cfg  []benchfmt.Config
		}{{"Issuer/impl=rcu/threads=1", cfg}, {"Issuer/impl=rcu/threads=2", aside}} {
			s.Add(&benchfmt.Result{Config: c.cfg, Name: benchfmt.Name(c.name), Iters: 1, Values: []benchfmt.Value{
				records.Value(40+float64(i), records.NsPerCall), records.Value(40+float64(i), records.NsPerOp), records.Value(2.5e7, records.OpsPerSec)}})
		}
	}
	var buf bytes.Buffer
	report.WriteThreadTables(&buf, s, 2)
	out := buf.String()
	for _, bad := range []string{"0.00000", "± 0.00 ", "Inf", "NaN", " 0%"} {
		if strings.Contains(out, bad) {
			t.Errorf("per-thread tables print %q for a cell with no sample left:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "set aside") {
		t.Errorf("per-thread tables do not say the cell was set aside:\n%s", out)
	}
}

// TestNoEfficiencyOversubscribed: above the cores threads time-slice, so a
// row there shows the speedup and no efficiency (it showed 124% with
// p(4) = 0.95).
func TestNoEfficiencyOversubscribed(t *testing.T) {
	text := "cores: 2\n"
	for range 3 {
		text += "BenchmarkIssuer/impl=rcu/threads=1 1 100 ns/op 100 ns/call 1e7 ops/s\n" +
			"BenchmarkIssuer/impl=rcu/threads=4 1 85 ns/op 340 ns/call 1.18e7 ops/s\n" +
			"BenchmarkControl/threads=1 1 40 ns/op 2.5e7 ops/s\nBenchmarkControl/threads=4 1 42 ns/op 2.37e7 ops/s\n"
	}
	s, err := records.Read(strings.NewReader(text), "o.txt", "o")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	report.WriteThreadTables(&buf, s, 2)
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(line, "|       4 |") && strings.Contains(line, "(1.18x") && strings.Contains(line, "%)") {
			t.Errorf("an oversubscribed row shows an efficiency: %s", line)
		}
	}
	if !strings.Contains(buf.String(), "(1.18x)") {
		t.Errorf("the oversubscribed row lost its speedup:\n%s", buf.String())
	}
}

// TestBenchstatTables: every record says whose cells it holds, so that
// benchstat, which makes one table per configuration, keeps Control and
// Floor out of the designs' table (they were an unlabelled fifth column);
// set-aside samples name a class of disturbance, not a figure, so they
// make at most a few tables, not one per sample; and every record carries
// the quarantine key (kept ones "no"), so no table's header has an empty
// "quarantined: " line.
func TestBenchstatTables(t *testing.T) {
	res := smallRun(t)
	res.Samples[0].Quarantine = "the machine ran more than 25% slower than usual (speed probe)"
	var buf bytes.Buffer
	if err := res.Set().Write(&buf); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&buf, "r.txt")
	n, aside := 0, 0
	for r.Scan() {
		rec, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		n++
		want := records.CellsDesigns
		if records.IsReferenceName(string(rec.Name)) {
			want = records.CellsReference
		}
		if got := rec.GetConfig(records.CellsKey); got != want {
			t.Fatalf("%s: cells: %q, want %q", rec.Name, got, want)
		}
		switch why := rec.GetConfig(records.QuarantineKey); {
		case why == "":
			t.Fatalf("%s: no quarantined: key (benchstat shows it empty over this record's table)", rec.Name)
		case why != records.QuarantineKept:
			aside++
		}
	}
	if aside == 0 || aside == n {
		t.Fatalf("%d records, %d set aside: want some kept, some set aside", n, aside)
	}
	// The filter perfrun and the README give benchstat keeps exactly
	// the kept samples, of the per-thread tables' unit.
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "benchstat -filter '"+records.BenchstatFilter+"'") {
		t.Errorf("the README's benchstat command does not use -filter '%s'", records.BenchstatFilter)
	}
	f, err := benchproc.NewFilter(records.BenchstatFilter)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Set().Write(&buf); err != nil {
		t.Fatal(err)
	}
	r = benchfmt.NewReader(&buf, "r.txt")
	shown, shownAside := 0, 0
	for r.Scan() {
		rec, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		m, err := f.Match(rec)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range rec.Values {
			if !m.Test(i) {
				continue
			}
			if v.Unit != "sec/call" && v.OrigUnit != "ns/call" {
				t.Errorf("%s: the filter shows %s", rec.Name, v.Unit)
			}
			shown++
			if rec.GetConfig(records.QuarantineKey) != records.QuarantineKept {
				shownAside++
			}
		}
	}
	if shown != n-aside || shownAside != 0 {
		t.Errorf("the filter shows %d values, %d of them set aside; want one for each of the %d kept records and none set aside", shown, shownAside, n-aside)
	}
}

// TestSideBySideSpeedupFromItsMeans: the speedup beside a mean is the one
// that mean implies (it was the median throughput's: 0.83x beside means
// implying 0.73x).
func TestSideBySideSpeedupFromItsMeans(t *testing.T) {
	text := "cores: 2\n"
	for _, v := range []struct{ ns1, ns2, ops1, ops2 string }{{"30", "40", "3.3e7", "5.9e7"}, {"30", "40", "3.3e7", "4e7"}, {"30", "40", "3.3e7", "6e7"}} {
		text += "BenchmarkIssuer/impl=rcu/threads=1 1 30 ns/op " + v.ns1 + " ns/call " + v.ops1 + " ops/s\n" +
			"BenchmarkIssuer/impl=rcu/threads=2 1 20 ns/op " + v.ns2 + " ns/call " + v.ops2 + " ops/s\n"
	}
	s, err := records.Read(strings.NewReader(text), "m.txt", "m")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	report.WriteThreadTables(&buf, s, 2)
	if !regexp.MustCompile(`40\.00 ± 0\.00 +\(1\.50x\)`).MatchString(buf.String()) || !strings.Contains(buf.String(), "from these means") {
		t.Errorf("2 × 30/40 = 1.50x from the means:\n%s", buf.String())
	}
}

// TestLatencyPlotInTheTablesUnit: the latency plot shows what the
// per-thread tables print, ns/call (it showed ns/op, half of it at 2 threads); plain
// go test -bench results, which have no ns/call, keep ns/op.
func TestLatencyPlotInTheTablesUnit(t *testing.T) {
	for unit, want := range map[string]string{"ns/call": "ns/call against threads", "ns/op": "ns/op against threads"} {
		text := "cores: 2\n"
		for range 3 {
			text += "BenchmarkIssuer/impl=rcu/threads=1 1 30 " + unit + " 3e7 ops/s\nBenchmarkIssuer/impl=rcu/threads=2 1 31 " + unit + " 6e7 ops/s\n"
		}
		s, err := records.Read(strings.NewReader(text), "l.txt", "l")
		if err != nil {
			t.Fatal(err)
		}
		plots, err := report.Plots([]*records.Set{s}, report.PlotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range plots {
			found = found || strings.HasSuffix(p.Name, "-latency") && strings.Contains(p.Caption, want)
		}
		if !found {
			t.Errorf("%s results: no latency plot captioned %q", unit, want)
		}
	}
}

// TestForestPlotKeepsTheBand: one interval of +425% must not stretch the
// axis until the ±5% band is a sliver: it is clipped, and the axis spans
// the estimates and the band with room.
func TestForestPlotKeepsTheBand(t *testing.T) {
	rep := &compare.Report{Verdict: compare.Inconclusive, Old: "a", New: "b", Threshold: 0.05, Cells: []compare.CellVerdict{
		{Name: "Issuer/impl=a/threads=1", Unit: "sec/op", Verdict: compare.Inconclusive, Ratio: 0.817, Lo: 0.127, Hi: 5.255},
		{Name: "Issuer/impl=b/threads=1", Unit: "sec/op", Verdict: compare.Pass, Ratio: 1.004, Lo: 0.98, Hi: 1.03},
	}}
	p, err := report.ForestPlot(rep)
	if err != nil || p == nil {
		t.Fatal(err)
	}
	lo, hi := report.ForestRange(p)
	if width := hi - lo; width > 100 { // unclipped it was 512 wide
		t.Errorf("axis %.0f%% .. %.0f%% (%.0f wide): the ±5%% band is a sliver", lo, hi, width)
	}
	if lo > -25 || hi < 10 {
		t.Errorf("axis %.0f%% .. %.0f%% leaves out an estimate or the band", lo, hi)
	}
}

// TestSideBySideOneRound: a cell with one kept round shows its number and
// says so; it printed "274.74 ± 0.00" and an efficiency "±+Inf% of it".
func TestSideBySideOneRound(t *testing.T) {
	text := "cores: 2\n" +
		"BenchmarkIssuer/impl=rcu/threads=1 1 30 ns/op 30 ns/call 3.3e7 ops/s\n" +
		"BenchmarkIssuer/impl=rcu/threads=2 1 20 ns/op 40 ns/call 5e7 ops/s\n" +
		"BenchmarkControl/threads=1 1 10 ns/op 10 ns/call 1e8 ops/s\n" +
		"BenchmarkControl/threads=2 1 5 ns/op 10 ns/call 2e8 ops/s\n"
	s, err := records.Read(strings.NewReader(text), "one.txt", "one")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	report.WriteThreadTables(&buf, s, 2)
	out := buf.String()
	if !strings.Contains(out, "(1 round)") || strings.Contains(out, "± 0.00") || strings.Contains(out, "Inf") {
		t.Errorf("one kept round:\n%s", out)
	}
}

// TestReportSetAsideRow: a single run's table says a cell was set aside
// whole, and why; it printed a blank row.
func TestReportSetAsideRow(t *testing.T) {
	text := "cores: 2\nquarantined: no\nBenchmarkIssuer/impl=rcu/threads=1 1 40 ns/op\nBenchmarkIssuer/impl=rcu/threads=1 1 41 ns/op\n" +
		"quarantined: a worker waited for a CPU\nBenchmarkIssuer/impl=rcu/threads=2 1 30 ns/op\n"
	s, err := records.Read(strings.NewReader(text), "r.txt", "r")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	(&report.Document{Title: "r", New: s}).WriteMarkdown(&buf)
	if !strings.Contains(buf.String(), "set aside: a worker waited for a CPU") {
		t.Errorf("the set-aside cell's row:\n%s", buf.String())
	}
}

// TestCSVNeutralisesFormulas: a name that begins as a spreadsheet formula
// is written as text; it was a formula a spreadsheet would run.
func TestCSVNeutralisesFormulas(t *testing.T) {
	for _, name := range []string{`=HYPERLINK("http://evil.example")`, "@SUM(A1)", "+1", "-1"} {
		set, err := records.Read(strings.NewReader("cores: 2\nBenchmark"+strings.ReplaceAll(name, " ", "_")+" 1 40 ns/op\n"), "f.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := report.WriteCSV(&b, set, 2); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(b.String(), "\n")[1:] {
			if line == "" {
				continue
			}
			first := strings.TrimPrefix(line, `"`)
			if strings.ContainsRune("=+-@", rune(first[0])) {
				t.Errorf("%s: a row begins as a formula: %s", name, line)
			}
		}
	}
}

// TestReportsSayWhyACountIsMissing: a count that could not be had is said
// where the verdict is, in report.md and report.html as in the terminal;
// the reports said nothing of it.
func TestReportsSayWhyACountIsMissing(t *testing.T) {
	why := "no instruction verdict: valgrind: exit status 2: I refs: 0"
	doc := &report.Document{Title: "t", Verdict: &compare.Report{Verdict: compare.Pass, Old: "a", New: "b", Warnings: []string{why}}}
	var md, html bytes.Buffer
	doc.WriteMarkdown(&md)
	if err := doc.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"report.md": md.String(), "report.html": html.String()} {
		if !strings.Contains(out, "no instruction verdict") || !strings.Contains(out, "I refs: 0") {
			t.Errorf("%s does not say why the count is missing:\n%s", name, out)
		}
	}
}

// TestPublishedInItsOwnForm: a hyperfine summary prints as hyperfine
// printed it, a JMH score with its error says whether the intervals are
// apart, and a file without both sides is refused.
func TestPublishedInItsOwnForm(t *testing.T) {
	read := func(text string) *records.Set {
		s, err := records.Read(strings.NewReader(text), "p.txt", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	hf := read("published-error: sd\n" +
		"BenchmarkDedup/n=1000/side=before 1 6.685 sec/op 0.017 published-error-sec/op 10 published-runs\n" +
		"BenchmarkDedup/n=1000/side=after 1 1.256 sec/op 0.013 published-error-sec/op 10 published-runs\n")
	var b bytes.Buffer
	if err := report.WritePublished(&b, hf, "side", "before", "after"); err != nil || !strings.Contains(b.String(), "after is 5.32 ± 0.06 times faster than before") {
		t.Errorf("hyperfine's form: %v\n%s", err, &b)
	}
	jmh := read("published-error: ci99.9\n" +
		"BenchmarkH/side=before 1 280.003 ops/s 69.273 published-error-ops/s 5 published-runs\n" +
		"BenchmarkH/side=after 1 340.275 ops/s 72.833 published-error-ops/s 5 published-runs\n")
	b.Reset()
	if err := report.WritePublished(&b, jmh, "side", "before", "after"); err != nil || !strings.Contains(b.String(), "overlap") {
		t.Errorf("JMH's form: %v\n%s", err, &b)
	}
	if err := report.WritePublished(&b, hf, "side", "before", "later"); err == nil {
		t.Error("a file without the after side printed nothing and no error")
	}
}

// TestOneRoundHasNoVariance: a cell with one kept round shows no variance
// in the per-thread table; it showed var 0.00, as if it had not varied.
func TestOneRoundHasNoVariance(t *testing.T) {
	set, err := records.Read(strings.NewReader("cores: 2\nBenchmarkIssuer/impl=rcu/threads=1 1 500 ns/call 2e6 ops/s\n"+
		"BenchmarkIssuer/impl=rcu/threads=2 1 520 ns/call 3.8e6 ops/s\nBenchmarkIssuer/impl=rcu/threads=2 1 530 ns/call 3.7e6 ops/s\n"), "f.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	report.WriteThreadTables(&b, set, 2)
	if !strings.Contains(b.String(), "(1 round)") {
		t.Errorf("the one-round cell shows a variance:\n%s", &b)
	}
}

// TestRunReportAsTheTerminal: a run's report shows time per call as the
// terminal does, marks the oversubscribed cells, and says a cell of too few
// rounds has no interval; it showed ns/op, no marks, and "± ∞".
func TestRunReportAsTheTerminal(t *testing.T) {
	text := "cores: 2\n"
	for i := 0; i < 6; i++ {
		text += "BenchmarkIssuer/impl=rcu/threads=1 1 400 ns/op 400 ns/call 2.5e6 ops/s\n"
	}
	text += "BenchmarkIssuer/impl=rcu/threads=3 1 150 ns/op 450 ns/call 6.6e6 ops/s\n"
	set, err := records.Read(strings.NewReader(text), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	(&report.Document{Title: "t", New: set}).WriteMarkdown(&md)
	for _, want := range []string{"| time/call |", "threads=3 \\*", "1 rounds: too few for an interval", "more threads than cores"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report.md lacks %q:\n%s", want, &md)
		}
	}
	if strings.Contains(md.String(), "∞") {
		t.Errorf("report.md shows an infinite interval:\n%s", &md)
	}
}

// TestAllSetAsideHeadedInNanoseconds: a table whose every sample was set
// aside is headed in ns, not "mean/s" (read as a rate).
func TestAllSetAsideHeadedInNanoseconds(t *testing.T) {
	set, err := records.Read(strings.NewReader("cores: 2\nquarantined: a worker waited for a CPU more than 25% of the window\n"+
		"BenchmarkIssuer/impl=rcu/threads=1 1 400 ns/call\nBenchmarkIssuer/impl=rcu/threads=2 1 420 ns/call\n"), "r.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	report.WriteThreadTables(&b, set, 2)
	if strings.Contains(b.String(), "mean/s ") || strings.Contains(b.String(), "mean/s|") {
		t.Errorf("headed in seconds:\n%s", &b)
	}
}

// TestPagesAndJSONShowControls: a commit subject with an ESC or a U+202E
// (which reverses the text after it) reaches report.html and the verdict
// JSON as a visible \u escape, as report.md shows it escaped; the JSON
// still decodes to the same name.
func TestPagesAndJSONShowControls(t *testing.T) {
	hostile := "fix\x1b[2J lookups \u202egnp.exe"
	rep := &compare.Report{Verdict: compare.Regression, Old: hostile, New: hostile, Cells: []compare.CellVerdict{
		{Name: "Issuer/impl=rcu/threads=1", Unit: "sec/op", Verdict: compare.Regression, Ratio: 1.2, Reason: hostile},
	}}
	doc := &report.Document{Title: "perfrun: " + hostile, Verdict: rep}
	var html, js bytes.Buffer
	if err := doc.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"report.html": html.String(), "the JSON": js.String()} {
		if strings.ContainsAny(out, "\x1b\u202e") {
			t.Errorf("%s holds a control raw", what)
		}
		if !strings.Contains(out, `\u202e`) {
			t.Errorf("%s does not show the U+202E as \\u202e", what)
		}
	}
	var back compare.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Old != hostile {
		t.Errorf("the JSON decodes to %q, %v; want the name as it was", back.Old, err)
	}
}

// TestTheAnswerLeadsThePage: the line a design moved at the declared
// thread counts (a trade's two sides) comes right under the verdict, in
// report.md and report.html, before any table.
func TestTheAnswerLeadsThePage(t *testing.T) {
	answer := "sorted: a trade: +218.5% a call at 1 thread (time), -92.9% a call at 16 threads (predicted: calls take no exclusive lock)"
	rep := &compare.Report{Verdict: compare.Trade, Old: "main", New: "head", Answers: []string{answer}, Cells: []compare.CellVerdict{
		{Name: "Issuer/impl=sorted/threads=1", Unit: "sec/op", Verdict: compare.Regression, Ratio: 3.185, Reason: "slower"},
	}}
	doc := &report.Document{Title: "perfrun ab", Verdict: rep}
	var md, html bytes.Buffer
	doc.WriteMarkdown(&md)
	if err := doc.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	want := report.MarkdownText(answer)
	if i, j := strings.Index(md.String(), want), strings.Index(md.String(), "| "); i < 0 || j >= 0 && j < i {
		t.Errorf("report.md does not open with the answer:\n%s", md.String())
	}
	if i, j := strings.Index(html.String(), "<li>sorted: a trade"), strings.Index(html.String(), "<table"); i < 0 || j >= 0 && j < i {
		t.Errorf("report.html does not open with the answer")
	}
}

// TestCommentChartHoldsNoName: the comment's chart is drawn from the
// comment's own text, so a design's name in it is cut to what a Mermaid
// label may hold: a name cannot end the label, the chart or its block.
func TestCommentChartHoldsNoName(t *testing.T) {
	hostile := "x\"]\n```\n<img src=x>"
	rep := &compare.Report{Verdict: compare.Regression, Old: "main", New: "head",
		Answers: []string{hostile + ": +826.0% a call at 16 threads (predicted)"},
		Figures: []compare.Figure{{Design: hostile, At: 16, Ratio: 9.26, Unit: "predicted-sec/call@16threads"}, {Design: "rcu", At: 1, Ratio: 1.2, Unit: "sec/op"}},
		Cells:   []compare.CellVerdict{{Name: hostile, Unit: "sec/op", Verdict: compare.Regression, Ratio: 1.2, Reason: hostile}}}
	var md bytes.Buffer
	(&report.Document{Verdict: rep}).WriteComment(&md)
	out := md.String()
	if strings.Count(out, "```") != 2 || !strings.Contains(out, "```mermaid\nxychart-beta\n") || !strings.Contains(out, `"x________img src=x_ 16t predicted"`) {
		t.Errorf("the chart's block was ended or its label kept the name:\n%s", out)
	}
	if strings.Contains(out, "<img") || strings.Contains(out, "![") {
		t.Errorf("the comment holds markup from a name:\n%s", out)
	}
}
