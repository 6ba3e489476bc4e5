package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// The targets of the docs: a mean of at most MeanMost words, at most
// LongMost of sentences past Long words.
const (
	MeanMost = 25
	Long     = 40
	LongMost = 0.10
)

// A Count is what one page (or all) holds.
type Count struct {
	Sentences, Words, Long int
}

// Mean is the mean sentence length in words.
func (c Count) Mean() float64 {
	if c.Sentences == 0 {
		return 0
	}
	return float64(c.Words) / float64(c.Sentences)
}

// LongShare is the share of sentences past Long words.
func (c Count) LongShare() float64 {
	if c.Sentences == 0 {
		return 0
	}
	return float64(c.Long) / float64(c.Sentences)
}

// Meets says whether c is within the docs' targets.
func (c Count) Meets() bool { return c.Mean() <= MeanMost && c.LongShare() <= LongMost }

func (c *Count) add(o Count) {
	c.Sentences += o.Sentences
	c.Words += o.Words
	c.Long += o.Long
}

var (
	link   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	code   = regexp.MustCompile("`[^`]*`")
	ending = regexp.MustCompile(`([.?!])(\s+|$)`)
	// Abbreviations whose point ends no sentence.
	abbrev = strings.NewReplacer("e.g.", "eg", "i.e.", "ie", "etc.", "etc", "vs.", "vs", "cf.", "cf")
)

// Paragraphs gives a Markdown page's prose: each paragraph, list item or
// table cell of three words or more as one line of text, without code or
// headings.
func Paragraphs(page string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
			cur = nil
		}
	}
	fenced := false
	for _, line := range strings.Split(page, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
			flush()
			continue
		}
		switch {
		case fenced:
			continue
		case strings.HasPrefix(trimmed, "|"):
			flush()
			out = append(out, tableCells(trimmed)...)
			continue
		case trimmed == "", strings.HasPrefix(trimmed, "#"),
			strings.HasPrefix(line, "    ") && len(cur) == 0, strings.HasPrefix(line, "\t") && len(cur) == 0,
			strings.HasPrefix(trimmed, "<"):
			flush()
			continue
		}
		if item := listItem(trimmed); item != trimmed {
			flush()
			trimmed = item
		}
		cur = append(cur, trimmed)
	}
	flush()
	return out
}

// tableCells are a table row's cells of three words or more: the prose a
// table holds (a number or a name is not a sentence); a header's rule
// has none.
func tableCells(row string) []string {
	var out []string
	for _, cell := range strings.Split(strings.ReplaceAll(row, `\|`, "/"), "|") {
		if cell = strings.TrimSpace(cell); Words(cell) >= 3 {
			out = append(out, cell)
		}
	}
	return out
}

var listMark = regexp.MustCompile(`^([-*+]|\d+\.)\s+`)

func listItem(line string) string { return listMark.ReplaceAllString(line, "") }

// Split gives a paragraph's sentences.
func Split(paragraph string) []string {
	p := link.ReplaceAllString(paragraph, "$1")
	p = code.ReplaceAllStringFunc(p, func(c string) string {
		// A code span is as many words as it shows, and its points end nothing.
		return strings.NewReplacer(".", "·", "?", "·", "!", "·", ":", "·").Replace(c)
	})
	p = abbrev.Replace(p)
	var out []string
	for _, s := range ending.Split(p, -1) {
		if s = strings.TrimSpace(s); len(strings.Fields(s)) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// Words is how many words s has.
func Words(s string) int { return len(strings.Fields(s)) }

// Measure counts a page's sentences; long, when not nil, gets each
// sentence past Long words.
func Measure(page string, long func(words int, sentence string)) Count {
	var c Count
	for _, p := range Paragraphs(page) {
		for _, s := range Split(p) {
			n := Words(s)
			c.Sentences++
			c.Words += n
			if n > Long {
				c.Long++
				if long != nil {
					long(n, s)
				}
			}
		}
	}
	return c
}

// reportSentences prints each page's count and the pages' together, and
// says whether together they meet the targets.
func reportSentences(w io.Writer, pages []string, showLong bool) (bool, error) {
	var all Count
	for _, name := range pages {
		b, err := readPage(name)
		if err != nil {
			return false, err
		}
		var long func(int, string)
		if showLong {
			long = func(n int, s string) { fmt.Fprintf(w, "  %d words: %s\n", n, s) }
		}
		c := Measure(string(b), long)
		fmt.Fprintf(w, "%-22s %4d sentences, mean %4.1f words, %3.0f%% past %d\n", name, c.Sentences, c.Mean(), 100*c.LongShare(), Long)
		all.add(c)
	}
	fmt.Fprintf(w, "%-22s %4d sentences, mean %4.1f words, %3.0f%% past %d (targets: mean <= %d, <= %.0f%% past %d)\n",
		"all", all.Sentences, all.Mean(), 100*all.LongShare(), Long, MeanMost, 100*LongMost, Long)
	return all.Meets(), nil
}
