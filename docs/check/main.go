// Check holds perfrun's docs to what the project promises of them: that
// a reader can follow their sentences and that the evidence they quote is
// one hop away.
//
//	go run ./docs/check                  # from the repository's root: both checks
//	go run ./docs/check -long docs/run.md   # one page's sentences, and each one past 40 words
//
// Sentences: the mean length in words of the README's and docs/*.md's
// sentences, and the share that run past 40, page by page and over all of
// them; the docs aim at a mean of at most 25 words and at most 10% past 40.
// Prose only: code blocks, indented blocks and headings are not
// sentences; a table's cells of three words or more are. A sentence ends at '.', '?' or '!' followed by a space, or at
// the end of its paragraph or list item.
//
// Links and results: every relative link of every Markdown page resolves;
// every results/ path the README and docs/ name exists, with a README.md in
// its folder; every folder of results/ is named by a page above it and is
// at most three deep, but for results/archive/, whose README indexes it;
// every path into the code a page names in a code span is there.
//
// It exits 1 when a check fails, 2 on bad usage.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perfrun/perfrun/internal/regularfile"
)

func main() {
	showLong := flag.Bool("long", false, "print each sentence past 40 words")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: check [-long] [PAGE.md...]   (run from the repository's root; with pages, their sentences alone)")
		flag.PrintDefaults()
	}
	flag.Parse()
	ok, err := run(os.Stdout, ".", flag.Args(), *showLong)
	if err != nil {
		fmt.Fprintln(os.Stderr, "check:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// run checks the repository at root: the sentences of pages (the README
// and docs/*.md when none are given) and, when none are given, its links
// and results/ folders.
func run(w io.Writer, root string, pages []string, showLong bool) (bool, error) {
	whole := len(pages) == 0
	if whole {
		var err error
		if pages, err = DocPages(root); err != nil {
			return false, err
		}
	}
	ok, err := reportSentences(w, pages, showLong)
	if err != nil || !whole {
		return ok, err
	}
	problems, err := Problems(root)
	if err != nil {
		return false, err
	}
	for _, p := range problems {
		fmt.Fprintln(w, p)
	}
	fmt.Fprintf(w, "links and results/: %d problems\n", len(problems))
	return ok && len(problems) == 0, nil
}

// DocPages are the pages the sentence targets hold: the README and
// docs/*.md.
func DocPages(root string) ([]string, error) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	return append([]string{filepath.Join(root, "README.md")}, pages...), nil
}

// maxPage bounds a page the check reads: the longest page is a few
// hundred KiB.
const maxPage = 4 << 20

// readPage reads a page only if it is a regular file, and at most
// maxPage of it: a FIFO named like a page would block the check, and a
// link to /dev/zero would feed it until memory runs out.
func readPage(name string) ([]byte, error) {
	return regularfile.ReadFile(name, maxPage)
}
