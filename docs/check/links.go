package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// MostDepth is how many folders deep results/ may go (results/a/b/c),
// but for its archive.
const MostDepth = 3

var (
	mdLink      = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	resultsPath = regexp.MustCompile("(?:^|[^A-Za-z0-9_./-])(results/(?:[A-Za-z0-9_.-]*[A-Za-z0-9_-]/?)*)")
)

// Links gives a Markdown page's relative link targets, anchors dropped,
// and its file: links, which name a path on the writer's machine.
func Links(page string) []string {
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(page, -1) {
		t := m[1]
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = t[:i]
		}
		if t == "" || strings.Contains(t, "://") && !strings.HasPrefix(strings.ToLower(t), "file:") || strings.HasPrefix(t, "mailto:") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// ResultsPaths gives the results/ paths a page names, from the
// repository's root; a path with a wildcard or an ellipsis is a pattern,
// not a path, and is left out.
func ResultsPaths(page string) []string {
	var out []string
	for _, m := range resultsPath.FindAllStringSubmatchIndex(page, -1) {
		p := page[m[2]:m[3]]
		if next := page[m[3]:min(m[3]+3, len(page))]; strings.HasPrefix(next, "*") || strings.HasPrefix(next, "…") {
			continue
		}
		out = append(out, strings.TrimSuffix(p, "/"))
	}
	return out
}

// Problems lists what breaks the promises of the docs of the repository
// at root: links that do not resolve, results/ paths the README and docs/
// name that are not there or have no README.md in their folder, and
// folders of results/ that no page above them names or that lie too deep.
func Problems(root string) ([]string, error) { return problems(root, true) }

// ModuleProblems is Problems of perfrun's module alone: the README's and
// docs/' pages, their links and code paths, but nothing of results/, a
// module of its own that a module download does not hold.
func ModuleProblems(root string) ([]string, error) { return problems(root, false) }

func problems(root string, repository bool) ([]string, error) {
	var problems []string
	say := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	pages, err := markdownPages(root, repository)
	if err != nil {
		return nil, err
	}
	docs, err := DocPages(root)
	if err != nil {
		return nil, err
	}
	isDoc := map[string]bool{}
	for _, d := range docs {
		isDoc[d] = true
	}
	text := map[string]string{}
	for _, p := range pages {
		b, err := readPage(p)
		if err != nil {
			return nil, err
		}
		text[p] = string(b)
		if !strings.HasPrefix(rel(root, p), filepath.Join("results", "archive")) {
			for _, stale := range StalePaths(root, p, string(b)) {
				say("%s: %s names a path that is not there", rel(root, p), stale)
			}
		}
		for _, l := range Links(string(b)) {
			if why := notOfTheTree(root, p, l); why != "" {
				say("%s: the link %s %s", rel(root, p), l, why)
				continue
			}
			target := filepath.Join(filepath.Dir(p), l)
			if !repository && inResults(root, target) {
				continue
			}
			if !existsInside(root, target) {
				say("%s: the link %s resolves to nothing in the repository", rel(root, p), l)
			}
		}
		if repository && unsaidVerdicts(root, p, string(b)) {
			say("%s states verdicts and does not say in its first %d lines which are current (a line that opens **Current**)", rel(root, p), currentWithin)
		}
		if !isDoc[p] || !repository {
			continue
		}
		resultsPathProblems(root, p, string(b), say)
	}
	if !repository {
		sort.Strings(problems)
		return slices.Compact(problems), nil
	}
	folders, err := resultsFolders(root)
	if err != nil {
		return nil, err
	}
	for _, f := range folders {
		parts := strings.Split(f, "/")
		archived := len(parts) > 2 && parts[1] == "archive"
		if depth := len(parts) - 1; depth > MostDepth && parts[1] != "archive" {
			say("%s is %d folders deep in results/ (at most %d outside results/archive/)", f, depth, MostDepth)
		}
		if archived {
			continue
		}
		if !named(root, f, text, isDoc) {
			say("%s is named by no page above it (nor by the README or docs/)", f)
		}
	}
	sort.Strings(problems)
	return slices.Compact(problems), nil
}

// notOfTheTree says why link l of page p names nothing a reader of the
// repository has, where it does not: a file: URL (the writer's machine),
// a path into a hidden folder (.git/) or into one the root's .gitignore
// names (perfrun-out/, what a run writes); "" for a link into the tree.
func notOfTheTree(root, p, l string) string {
	if strings.HasPrefix(strings.ToLower(l), "file:") {
		return "is a file: URL, a path on one machine: link by a path inside the repository"
	}
	r, err := filepath.Rel(root, filepath.Join(filepath.Dir(p), l))
	if err != nil || !filepath.IsLocal(r) {
		return ""
	}
	top, _, _ := strings.Cut(filepath.ToSlash(r), "/")
	switch {
	case strings.HasPrefix(top, "."):
		return "leads into " + top + "/, which no clone holds as a page"
	case rootIgnores(root)[top]:
		return "leads into " + top + "/, which .gitignore leaves out: what a run writes, no clone has"
	}
	return ""
}

// resultsPathProblems says, of each results/ path doc page p names, that
// it is not there or has no README.md to say how it was made.
func resultsPathProblems(root, p, text string, say func(string, ...any)) {
	for _, r := range ResultsPaths(text) {
		full := filepath.Join(root, r)
		info, err := os.Stat(full)
		if err != nil || !existsInside(root, full) {
			say("%s: %s is not there", rel(root, p), r)
			continue
		}
		folder := full
		if !info.IsDir() {
			folder = filepath.Dir(full)
		}
		if !hasReadme(root, folder) {
			say("%s: %s has no README.md in its folder or above it to say how it was made", rel(root, p), r)
		}
	}
}

// unsaidVerdicts says whether p, a page of results/ outside its archive,
// states verdicts and does not say which are current (SaysWhatIsCurrent).
func unsaidVerdicts(root, p, text string) bool {
	return inResults(root, p) && !strings.HasPrefix(rel(root, p), filepath.Join("results", "archive")) &&
		filepath.Base(p) == "README.md" && verdictWord.MatchString(text) && !SaysWhatIsCurrent(text)
}

// verdictWord is a verdict as perfrun prints it.
var verdictWord = regexp.MustCompile(`\b(REGRESSION|INCONCLUSIVE|IMPROVED|TRADE|PASS)\b`)

// currentWithin is how many lines of a results page may come before the
// line that says which of its verdicts are current.
const currentWithin = 6

// SaysWhatIsCurrent says whether a results page opens, within its first
// currentWithin lines, with a line that says which of its verdicts are
// current and how to get them again ("**Current** ..."): a reader must
// not take a verdict of an older perfrun for today's.
func SaysWhatIsCurrent(text string) bool {
	for i, line := range strings.SplitN(text, "\n", currentWithin+1) {
		if i < currentWithin && strings.HasPrefix(line, "**Current") {
			return true
		}
	}
	return false
}

// named says whether a page of an enclosing folder names folder f, by its
// path from that page or by its name with a slash, or a doc page names it
// from the root; a top-level folder must be named by the README, docs/ or
// results/README.md.
func named(root, f string, text map[string]string, isDoc map[string]bool) bool {
	for page, t := range text {
		from := filepath.ToSlash(rel(root, filepath.Dir(page)))
		var want string
		switch {
		case isDoc[page]:
			want = f
		case strings.HasPrefix(f, from+"/"):
			want = strings.TrimPrefix(f, from+"/")
		default:
			continue
		}
		// A page may name a folder below it by its path from the page, or
		// by its own name as a folder ("set-d/").
		if mentions(t, want) || (!isDoc[page] && mentions(t, filepath.Base(f)+"/")) {
			return true
		}
	}
	return false
}

// mentions says whether text names path as a whole path: not as the
// start of a longer name.
func mentions(text, path string) bool {
	end := `(?:[^A-Za-z0-9_.-]|\.[^A-Za-z0-9_-]|\.?$)`
	if strings.HasSuffix(path, "/") {
		end = ""
	}
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(path) + end).MatchString(text)
}

// markdownPages are the README and the pages under docs/ and, for the
// repository, results/.
func markdownPages(root string, repository bool) ([]string, error) {
	var pages []string
	dirs := []string{"docs"}
	if repository {
		dirs = append(dirs, "results")
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".md") {
				pages = append(pages, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return append(pages, filepath.Join(root, "README.md")), nil
}

// resultsFolders are the folders under results/, as results/a/b.
func resultsFolders(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "results"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != filepath.Join(root, "results") {
			out = append(out, filepath.ToSlash(rel(root, p)))
		}
		return nil
	})
	return out, err
}

// inResults says whether p, lexically, lies under root's results/.
func inResults(root, p string) bool {
	r, err := filepath.Rel(filepath.Join(root, "results"), p)
	return err == nil && (r == "." || filepath.IsLocal(r))
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return r
}

// hasReadme says whether folder, or a folder of results/ above it, has a
// README.md: the page that says how what the folder holds was made.
// results/README.md says it only of the files at the top of results/;
// for the folders it is the index.
func hasReadme(root, folder string) bool {
	top := filepath.Join(root, "results")
	if folder == top {
		_, err := os.Stat(filepath.Join(top, "README.md"))
		return err == nil
	}
	for f := folder; strings.HasPrefix(f, top+string(filepath.Separator)); f = filepath.Dir(f) {
		if _, err := os.Stat(filepath.Join(f, "README.md")); err == nil {
			return true
		}
	}
	return false
}
