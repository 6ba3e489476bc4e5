package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/historycmd"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// docFiles are the README and the manual: every perfrun command they show
// is checked here, so none can name a flag or command that is gone.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manual in docs/: %v", err)
	}
	return append([]string{"../../README.md"}, files...)
}

// perfrunCall matches how the docs invoke perfrun: the installed command,
// a build of it (perfrun-4.0, ./perfrun), go run of its main, or a store's
// own main that calls perfrun.Main (go run .).
var perfrunCall = regexp.MustCompile(`^(?:[A-Z_]+=\S+ )*(?:\./)?(?:perfrun(?:-[\w.]+)?|go run(?: -tags \w+)? (?:\./cmd/perfrun|\.))\s+(.*)$`)

// shownCommands are the perfrun command lines of a document's code blocks
// (indented or fenced), each with the line it is on, without comments,
// pipes and redirections.
func shownCommands(doc string) (lines []int, calls [][]string) {
	fenced := false
	for i, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced && !strings.HasPrefix(line, "    ") {
			continue
		}
		m := perfrunCall.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		args := shellWords(m[1])
		if len(args) == 0 || !regexp.MustCompile(`^[a-z]+$`).MatchString(args[0]) {
			continue // prose that happens to start with the word
		}
		lines, calls = append(lines, i+1), append(calls, args)
	}
	return lines, calls
}

// shellWords splits s as a shell would for the docs' purposes: quotes
// group, and a comment, pipe, redirection or && ends the command.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words, in = append(words, cur.String()), false
				cur.Reset()
			}
		case (r == '#' || r == '|' || r == '>' || r == '&') && !in:
			return words
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	if n := len(words); n > 0 && words[n-1] == "\\" {
		words = words[:n-1] // the command goes on on the next line
	}
	return words
}

// TestDocsCommandsParse: every perfrun command the README and the manual
// show names a command perfrun has and flags that command takes, with
// values its flags accept.
func TestDocsCommandsParse(t *testing.T) {
	total := 0
	for _, path := range docFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines, calls := shownCommands(string(data))
		for i, args := range calls {
			total++
			if err := parseShown(args); err != nil {
				t.Errorf("%s:%d: perfrun %s: %v", filepath.Base(path), lines[i], strings.Join(args, " "), err)
			}
		}
	}
	if total < 40 {
		t.Errorf("found %d perfrun commands in the docs; the reader finds more (is the pattern stale?)", total)
	}
}

// parseShown parses a shown command's flags as perfrun would, without
// running it.
func parseShown(args []string) error {
	name, rest := args[0], args[1:]
	if name == "history" && len(rest) > 0 {
		name, rest = "history "+rest[0], rest[1:]
	}
	for _, c := range append(append(program.Commands, historycmd.Commands()...), program.Hidden...) {
		if c.Name != name {
			continue
		}
		if c.Define == nil {
			return nil
		}
		fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c.Define(fs)
		return subcommand.Parse(fs, rest, c.MaxArgs)
	}
	return errUnknownCommand
}

// update rewrites the docs' output blocks from their results files.
var update = flag.Bool("update", false, "rewrite the output blocks of the README and docs/ from their results files")

// repository has the output blocks that show a file of results/ (a
// module of its own, not in a module download) checked too; CI passes it
// (.ci/run). Without it they are left as they are, and named.
var repository = flag.Bool("repository", false, "check the output blocks that show a file of results/ too, not perfrun's module alone")

// showsResults says whether an output block's arguments name a file of
// results/.
func showsResults(args string) bool {
	return slices.ContainsFunc(strings.Fields(args), func(w string) bool { return strings.HasPrefix(w, "results/") })
}

var errUnknownCommand = subcommand.UsageError("no such command")

// TestDocsCommandsCheckFails: the check finds a flag that is gone and a
// command that never was.
func TestDocsCommandsCheckFails(t *testing.T) {
	doc := "text\n\n    perfrun run -thread 2      # a typo\n    go run ./cmd/perfrun frobnicate\n    perfrun gate a.txt b.txt\n"
	lines, calls := shownCommands(doc)
	if len(calls) != 3 || lines[0] != 3 {
		t.Fatalf("found %v at %v", calls, lines)
	}
	if parseShown(calls[0]) == nil || parseShown(calls[1]) == nil || parseShown(calls[2]) != nil {
		t.Errorf("want the typo and the unknown command refused, the gate accepted")
	}
}

// outputBlock matches an output the docs show: <!-- output: KIND ARGS -->
// then the block, then <!-- end output -->. KIND tables or side-by-side
// takes a results file; KIND perfrun is a command line whose standard
// output is the block, run in-process with its files taken from the
// repository's root, and shown in a code block of the same page; KIND
// markdown is such a command line whose output is Markdown the page
// shows as it is (a table that renders).
var outputBlock = regexp.MustCompile(`(?s)<!-- output: (\S+) ([^\n]+?) -->\n(.*?)<!-- end output -->`)

// TestDocsOutputsAreToday: every output block the docs show is what
// today's perfrun prints for what it names (-update writes it), so no
// figure in them can go stale.
func TestDocsOutputsAreToday(t *testing.T) {
	found, left := 0, 0
	for _, path := range docFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := outputBlock.ReplaceAllFunc(data, func(m []byte) []byte {
			found++
			sub := outputBlock.FindSubmatch(m)
			if showsResults(string(sub[2])) && !*repository {
				left++
				return m
			}
			if kind := string(sub[1]); kind == "markdown" && !commandShown(data, strings.TrimPrefix(string(sub[2]), "perfrun ")) {
				t.Errorf("%s: the output of %s is shown, but not the command", path, sub[2])
			}
			if string(sub[1]) == "perfrun" && !commandShown(data, string(sub[2])) {
				t.Errorf("%s: the output of perfrun %s is shown, but not the command", path, sub[2])
			}
			want, err := shownOutput(string(sub[1]), string(sub[2]))
			if err != nil {
				t.Errorf("%s: %s: %v", path, sub[0][:40], err)
				return m
			}
			return []byte("<!-- output: " + string(sub[1]) + " " + string(sub[2]) + " -->\n" + want + "<!-- end output -->")
		})
		if bytes.Equal(out, data) {
			continue
		}
		if *update {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s shows output that today's perfrun does not print for its file: go test ./internal/cli -run DocsOutputs -args -update -repository", path)
	}
	if found == 0 {
		t.Error("the README shows no checked output")
	}
	if left > 0 {
		t.Logf("%d output blocks show a file of results/, left unchecked: -args -repository checks them", left)
	}
}

// commandShown says whether doc shows perfrun with args as a line of a
// code block, so a reader sees the command whose output follows.
func commandShown(doc []byte, args string) bool {
	return bytes.Contains(doc, []byte("\n    perfrun "+args+"\n"))
}

// TestCommandShownFails: an output block's command that its page does
// not show, or shows with other arguments, is found.
func TestCommandShownFails(t *testing.T) {
	doc := []byte("text\n\n    perfrun gate a.txt b.txt\n\n<!-- output: perfrun gate a.txt b.txt -->\n")
	if !commandShown(doc, "gate a.txt b.txt") || commandShown(doc, "gate a.txt c.txt") || commandShown(doc, "gate a.txt") {
		t.Error("want the shown command found, and another's arguments or a prefix of them not")
	}
}

// shownOutput is what the docs show for an output block, indented as a
// code block: kind tables is what run prints of a results file,
// side-by-side its side-by-side table and what follows it, perfrun what
// the command line args prints.
func shownOutput(kind, args string) (string, error) {
	var text string
	switch kind {
	case "tables", "side-by-side":
		s, err := records.ReadFile(filepath.Join("../..", args))
		if err != nil {
			return "", err
		}
		var b strings.Builder
		report.WriteThreadTables(&b, s, s.Cores())
		text = b.String()
		if kind == "side-by-side" {
			i := strings.Index(text, "side by side:")
			if i < 0 {
				return "", subcommand.UsageError("no side-by-side table")
			}
			text = text[i:]
		}
	case "markdown":
		text, err := shownOutput("perfrun", strings.TrimPrefix(args, "perfrun "))
		if err != nil {
			return "", err
		}
		var out strings.Builder
		for _, line := range strings.Split(text, "\n") {
			out.WriteString(strings.TrimPrefix(line, "    ") + "\n")
		}
		return strings.TrimSuffix(out.String(), "\n"), nil
	case "perfrun":
		var stdout, stderr bytes.Buffer
		words := shellWords(args)
		for i, w := range words {
			// The command's name is never a path, though a folder may share it.
			if _, err := os.Stat(filepath.Join("../..", w)); err == nil && i > 0 && !strings.HasPrefix(w, "-") {
				words[i] = filepath.Join("../..", w)
			}
		}
		if code := run(&stdout, &stderr, words); code != subcommand.ExitOK && code != subcommand.ExitInconclusive && code != subcommand.ExitRegression {
			return "", subcommand.UsageError("perfrun %s: exit %d: %s", args, code, stderr.String())
		}
		text = strings.ReplaceAll(stdout.String(), "../../", "")
	default:
		return "", subcommand.UsageError("unknown output kind %q", kind)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			out.WriteString("\n")
			continue
		}
		out.WriteString("    " + line + "\n")
	}
	return out.String(), nil
}

// TestCIShowsTheCallersFiles: docs/ci.md opens with the caller's
// workflow files that arch's step-runner test runs, as they are.
func TestCIShowsTheCallersFiles(t *testing.T) {
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"caller-perf.yml", "caller-perf-verdict.yml"} {
		data, err := os.ReadFile(filepath.Join("../../docs/testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		var shown strings.Builder
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if strings.TrimSpace(l) != "" {
				shown.WriteString("    ")
			}
			shown.WriteString(l)
		}
		if !strings.Contains(string(doc), shown.String()) {
			t.Errorf("docs/ci.md does not show docs/testdata/%s as it is", name)
		}
	}
}

// firstOutputWithin is how far down a page its first checked output may
// start: a reader sees what a command prints on the page's first screen.
const firstOutputWithin = 40

// pageOutputProblem says what is wrong with a page's checked output: none
// at all, or none on its first screen; "" when it opens with one.
func pageOutputProblem(data []byte) string {
	loc := outputBlock.FindIndex(data)
	switch {
	case loc == nil:
		return "shows no checked output (<!-- output: … -->)"
	case bytes.Count(data[:loc[0]], []byte("\n")) >= firstOutputWithin:
		return fmt.Sprintf("shows its first checked output at line %d, past the first %d", bytes.Count(data[:loc[0]], []byte("\n"))+1, firstOutputWithin)
	}
	return ""
}

// TestEveryPageOpensWithItsOutput: the README and every page of docs/ but
// the glossary (words, not commands) show a command's checked output on
// their first screen.
func TestEveryPageOpensWithItsOutput(t *testing.T) {
	for _, path := range docFiles(t) {
		if filepath.Base(path) == "glossary.md" {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if p := pageOutputProblem(data); p != "" {
			t.Errorf("%s %s", path, p)
		}
	}
	late := strings.Repeat("text\n", firstOutputWithin) + "<!-- output: perfrun list -->\n<!-- end output -->\n"
	if pageOutputProblem([]byte("# A page\n\n    perfrun list\n")) == "" || pageOutputProblem([]byte(late)) == "" {
		t.Error("a page without output, or with it past the first screen, passed")
	}
}
