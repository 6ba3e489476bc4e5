package main

import (
	"os"
	"strings"
	"testing"
)

// TestSplitCountsProseOnly: paragraphs, list items and a table's cells of
// three words or more are prose (the docs' longest sentences were in
// cells); headings, code and short cells are not.
func TestSplitCountsProseOnly(t *testing.T) {
	page := "# A heading is no sentence\n\n" +
		"One short sentence. And a second one, e.g. with an abbreviation!\n" +
		"It goes on over a line break?\n\n" +
		"    perfrun run -o out.txt   # an indented block is code\n\n" +
		"```\nfenced. code. too.\n```\n\n" +
		"| a | table cell of prose. And more. |\n|---|---|\n| 0.65 | two words |\n\n" +
		"- a list item without a point\n- [a link's text](docs/run.md) and `code.with.points` count as words.\n"
	var got []string
	for _, p := range Paragraphs(page) {
		got = append(got, Split(p)...)
	}
	want := []string{
		"One short sentence",
		"And a second one, eg with an abbreviation",
		"It goes on over a line break",
		"table cell of prose",
		"And more",
		"a list item without a point",
		"a link's text and `code·with·points` count as words",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sentences:\n%q\nwant\n%q", got, want)
	}
}

func TestLongSentencesFailTheTargets(t *testing.T) {
	long := strings.Repeat("word ", 41) + "end."
	short := "Five words make this sentence. "
	if c := Measure(long+" "+strings.Repeat(short, 8), nil); c.Meets() {
		t.Errorf("one sentence in nine past %d words (%.0f%%) met the targets", Long, 100*c.LongShare())
	}
	if c := Measure(strings.Repeat("word ", 30)+"end. "+strings.Repeat("word ", 25)+"end.", nil); c.Meets() {
		t.Errorf("a mean of %.1f words met the target of %d", c.Mean(), MeanMost)
	}
	if c := Measure(long+" "+strings.Repeat(short, 9), nil); !c.Meets() {
		t.Errorf("one sentence in ten past %d words, mean %.1f, missed the targets", Long, c.Mean())
	}
}

// TestDocsReadAloud holds the README and the pages of docs/ to the
// targets, together and page by page.
func TestDocsReadAloud(t *testing.T) {
	pages, err := DocPages("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if c := Measure(string(b), nil); !c.Meets() {
			t.Errorf("%s: mean %.1f words, %.0f%% past %d: run go run ./docs/check -long %s", p, c.Mean(), 100*c.LongShare(), Long, p)
		}
	}
	var b strings.Builder
	ok, err := reportSentences(&b, pages, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if !ok {
		t.Errorf("the docs' sentences are too long:\n%s", b.String())
	}
}
