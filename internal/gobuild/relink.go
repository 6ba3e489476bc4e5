package gobuild

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Relinker links one main package again and again with other linker
// flags (a code layout each) by running go's linker itself, as a build of
// the package ran it: a go build that only relinks spends most of its
// time finding that nothing needs compiling.
type Relinker struct {
	env  []string // the link step's settings, after this process's
	argv []string // the linker and its arguments
	out  int      // argv's index of the output file
	work string   // go's work folder, which holds the link's importcfg
}

// NewRelinker builds the main package in dir into out with go build's
// args (such as -trimpath and -ldflags) and keeps its link step for Link;
// the error is the build's. Where the link step is not one perfrun can
// repeat (an external link) it returns nil and no error: the binary is
// built, and a layout then takes a go build. Close removes what the link
// step reads.
func NewRelinker(ctx context.Context, dir, out string, args ...string) (*Relinker, error) {
	built, err := goOutput(ctx, dir, append(append([]string{"build", "-x", "-work"}, args...), "-o", out, ".")...)
	work := workFolder(built)
	if err != nil {
		if work != "" {
			os.RemoveAll(work)
		}
		return nil, err
	}
	l, err := linkStep(built, work)
	if err != nil {
		os.RemoveAll(work)
		return nil, nil
	}
	return l, nil
}

var workLine = regexp.MustCompile(`(?m)^WORK=(\S+)$`)

// workFolder is the work folder go build -work names, "" if none.
func workFolder(output string) string {
	if m := workLine.FindStringSubmatch(output); m != nil {
		return m[1]
	}
	return ""
}

// linkStep reads the link step of go build -x's output: its settings, the
// linker and its arguments, with $WORK made the work folder.
func linkStep(output, work string) (*Relinker, error) {
	if work == "" {
		return nil, errors.New("go build -work named no work folder")
	}
	for line := range strings.Lines(output) {
		words, err := shellWords(strings.TrimSpace(line))
		if err != nil || len(words) == 0 {
			continue
		}
		l := &Relinker{work: work, out: -1}
		i := 0
		for i < len(words) && isSetting(words[i]) {
			l.env = append(l.env, words[i])
			i++
		}
		if i == len(words) || !strings.HasSuffix(words[i], "/link") {
			continue
		}
		for _, w := range words[i:] {
			l.argv = append(l.argv, strings.ReplaceAll(w, "$WORK", work))
		}
		if k := slices.Index(l.argv, "-o"); k > 0 && k+2 < len(l.argv) {
			l.out = k + 1
		}
		if l.out < 0 || slices.ContainsFunc(l.argv, func(a string) bool { return strings.HasPrefix(a, "-tmpdir") }) {
			// An external link writes into a folder of its own; such a
			// step is not one links may repeat side by side.
			return nil, fmt.Errorf("go build's link step is not one perfrun can repeat: %s", strings.TrimSpace(line))
		}
		return l, nil
	}
	return nil, errors.New("go build -x printed no link step")
}

var setting = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func isSetting(word string) bool { return setting.MatchString(word) }

// shellWords splits a command line as go build -x prints it: words
// separated by blanks, quoted with '…' (taken as is) or "…" (Go's
// quoting).
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	in := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("an unclosed '")
			}
			w.WriteString(line[i+1 : i+1+end])
			i, in = i+1+end, true
		case c == '"':
			q, err := strconv.QuotedPrefix(line[i:])
			if err != nil {
				return nil, err
			}
			s, _ := strconv.Unquote(q)
			w.WriteString(s)
			i, in = i+len(q)-1, true
		case c == '#' && !in:
			return words, nil // go's "# internal" remarks
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// Link links the package again into out, with flags added to the
// linker's (before its input, as the linker wants them).
func (l *Relinker) Link(ctx context.Context, out string, flags ...string) error {
	argv := slices.Clone(l.argv)
	argv[l.out] = out
	argv = slices.Insert(argv, len(argv)-1, flags...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), l.env...)
	_, err := output(ctx, cmd, "link")
	return err
}

// Close removes go's work folder the link step reads.
func (l *Relinker) Close() { os.RemoveAll(l.work) }
