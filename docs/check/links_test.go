package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLinksAndResultsPaths(t *testing.T) {
	page := "See [run](run.md#flags), ![plot](../results/a/p.png), [site](https://x.org/a) and [top](#top).\n" +
		"The figure is in `results/fidelity/README.md`, from results/main-job/. Not perfrun-out/results.txt, not results/x-*.txt.\n"
	if got := strings.Join(Links(page), " "); got != "run.md ../results/a/p.png" {
		t.Errorf("links %q", got)
	}
	if got := strings.Join(ResultsPaths(page), " "); got != "results/fidelity/README.md results/main-job" {
		t.Errorf("results paths %q", got)
	}
}

// write makes files under root, each path with its content.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProblemsAreFound: each promise broken once in a scratch repository
// is named, and the same repository mended has none.
func TestProblemsAreFound(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"README.md":                         "Figures: `results/good/`, `results/gone/`, `results/bare/x.txt`. [docs](docs/run.md) [lost](docs/lost.md)\n",
		"docs/run.md":                       "See [the figure](../results/good/README.md). Run `go run ./docs/check` and `go run ./docs/sentences`; read `docs/run.md`, `github.com/perfrun/perfrun/harness/compare`, `docs/*.md` and `impls/NAME/`.\n",
		"docs/check/main.go":                "package main\n",
		"results/README.md":                 "Index: `good/`, `bare/`, `archive/`.\n",
		"results/good/README.md":            "The command, the figure and its date. `kept/a/b/` `said/` `unsaid/`.\n",
		"results/good/said/README.md":       "# A campaign\n\n**Current** (perfrun at abc1234): PASS, replayed with the command below.\n",
		"results/good/unsaid/README.md":     "# A campaign\n\n`unsaid/`: the change was a REGRESSION.\n",
		"results/good/kept/a/b/deep.txt":    "",
		"results/good/unnamed/x.txt":        "",
		"results/bare/x.txt":                "",
		"results/orphan/README.md":          "",
		"results/archive/README.md":         "old/",
		"results/archive/old/x/y/z/deep.md": "",
	})
	problems, err := Problems(root)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{
		"README.md: the link docs/lost.md resolves to nothing",
		"README.md: results/gone is not there",
		"README.md: results/bare/x.txt has no README.md in its folder or above it",
		"results/orphan is named by no page above it",
		"results/good/unnamed is named by no page above it",
		"results/good/kept/a/b is 4 folders deep",
		"results/good/unsaid/README.md states verdicts and does not say in its first 6 lines which are current",
		"docs/run.md: ./docs/sentences names a path that is not there",
		"docs/run.md: github.com/perfrun/perfrun/harness/compare names a path that is not there",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("want %q among:\n%s", want, all)
		}
	}
	if strings.Contains(all, "archive/old") {
		t.Errorf("the archive's own folders were held to the rules:\n%s", all)
	}
	if len(problems) != 9 {
		t.Errorf("%d problems, want 9:\n%s", len(problems), all)
	}
}

// repository has the docs' tests check the whole repository, results/
// (a module of its own) included; without it they read perfrun's module
// alone, as a module download holds it. CI passes it (.ci/run).
var repository = flag.Bool("repository", false, "check the repository's results/ too, not perfrun's module alone")

// TestDocsLinksAndResultsHold runs the check on this module, or with
// -repository on the whole repository.
func TestDocsLinksAndResultsHold(t *testing.T) {
	check := ModuleProblems
	if *repository {
		check = Problems
	}
	problems, err := check("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestPagesAreReadWithABound: a FIFO named like a page and a link to
// /dev/zero are refused by name, where reading them would block the check
// or feed it without end.
func TestPagesAreReadWithABound(t *testing.T) {
	for _, mk := range []func(string) error{
		func(p string) error { return syscall.Mkfifo(p, 0o644) },
		func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		root := t.TempDir()
		write(t, root, map[string]string{"README.md": "A page.\n", "docs/run.md": "A page.\n", "results/README.md": "Index.\n"})
		if err := mk(filepath.Join(root, "docs", "x.md")); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := Problems(root); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "x.md") {
				t.Errorf("Problems = %v, want x.md refused", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("the check still reads docs/x.md after a minute")
		}
	}
}

// TestPathsOutOfTheTreeAreRefused: a code span or a link that leaves the
// repository (by .., or through a link in the tree to a folder outside)
// names nothing of it, however much is there.
func TestPathsOutOfTheTreeAreRefused(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.txt": "x"})
	escape := strings.Repeat("../", strings.Count(root, "/")+1)
	write(t, root, map[string]string{
		"README.md":         "[out](" + escape + "etc/passwd) [through](docs/out/secret.txt)\n",
		"docs/run.md":       "Read `docs/" + escape + "etc/passwd` and `docs/out/secret.txt`.\n",
		"results/README.md": "Nothing yet.\n",
	})
	if err := os.Symlink(outside, filepath.Join(root, "docs", "out")); err != nil {
		t.Fatal(err)
	}
	problems, err := Problems(root)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{
		"README.md: the link " + escape + "etc/passwd resolves to nothing",
		"README.md: the link docs/out/secret.txt resolves to nothing",
		"docs/run.md: docs/" + escape + "etc/passwd names a path that is not there",
		"docs/run.md: docs/out/secret.txt names a path that is not there",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("want %q among:\n%s", want, all)
		}
	}
}

// TestWhatARunWroteIsNoPartOfTheTree: a page may name a file a run writes
// in a folder the .gitignore keeps out of the repository (perfrun-out/):
// with that folder there, empty or not, the page names no stale path,
// where the README's tests failed after its main job. A folder the
// repository holds is still checked.
func TestWhatARunWroteIsNoPartOfTheTree(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		".gitignore":              "/perfrun\n/perfrun-out/\n*.out\n",
		"README.md":               "Nothing.\n",
		"docs/compare.md":         "It saves `perfrun-out/baselines/main.txt` and reads `docs/gone.md`.\n",
		"perfrun-out/results.txt": "x\n",
		"results/README.md":       "Nothing yet.\n",
	})
	problems, err := Problems(root)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(problems, "\n")
	if strings.Contains(all, "perfrun-out") || !strings.Contains(all, "docs/gone.md names a path that is not there") {
		t.Errorf("problems:\n%s\nwant docs/gone.md alone", all)
	}
}

// TestTheModuleCheckLeavesResultsOut: the module's check reads no page of
// results/ and follows no link into it, and still finds a broken link of
// its own pages; the repository's check finds them all.
func TestTheModuleCheckLeavesResultsOut(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"README.md":              "See [a run](results/gone/README.md) and [run](docs/gone.md).\n",
		"docs/run.md":            "Nothing.\n",
		"results/README.md":      "Nothing yet.\n",
		"results/lost/README.md": "A folder no page names.\n",
	})
	module, err := ModuleProblems(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(module) != 1 || !strings.Contains(module[0], "docs/gone.md") {
		t.Errorf("the module's check found %q, want docs/gone.md alone", module)
	}
	whole, err := Problems(root)
	if err != nil {
		t.Fatal(err)
	}
	if all := strings.Join(whole, "\n"); len(whole) != 4 || !strings.Contains(all, "results/gone/README.md") || !strings.Contains(all, "results/lost") {
		t.Errorf("the repository's check found:\n%s\nwant results/gone/README.md (as a link and as a path), results/lost and docs/gone.md", all)
	}
}

// TestLinksOutOfTheTreeAreProblems: a link into .git/, into a folder
// .gitignore leaves out, or a file: URL names nothing a reader of the
// repository has, though it resolves on the writer's machine.
func TestLinksOutOfTheTreeAreProblems(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		".gitignore":              "/perfrun-out/\n",
		".git/HEAD":               "ref: refs/heads/main\n",
		"perfrun-out/results.txt": "x\n",
		"README.md":               "[head](.git/HEAD), [results](perfrun-out/results.txt), [mine](file:///etc/hostname), [ok](docs/run.md)\n",
		"docs/run.md":             "[back](../README.md)\n",
		"results/README.md":       "Nothing yet.\n",
	})
	problems, err := Problems(root)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{"the link .git/HEAD leads into .git/", "the link perfrun-out/results.txt leads into perfrun-out/", "the link file:///etc/hostname is a file: URL"} {
		if !strings.Contains(all, want) {
			t.Errorf("want %q among:\n%s", want, all)
		}
	}
	if len(problems) != 3 {
		t.Errorf("%d problems, want 3:\n%s", len(problems), all)
	}
}
