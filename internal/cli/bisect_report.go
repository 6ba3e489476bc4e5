package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/historycmd"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"

	"github.com/perfrun/perfrun/internal/bisect"
	"github.com/perfrun/perfrun/internal/git"
	"github.com/perfrun/perfrun/records"
)

// fromHistory is the N-th step history changes prints: its commits, and
// its cell as the cells to look at.
func (b *bisectOptions) fromHistory(ctx context.Context) (good, bad string, err error) {
	st, err := historycmd.NthStep(ctx, *b.db, b.repo, b.step)
	if err != nil {
		return "", "", err
	}
	_, cell, _ := strings.Cut(st.Series.Cell, ":") // a go test cell's package
	if cell == "" {
		cell = st.Series.Cell
	}
	c := b.cells()
	c.Select(cell)
	b.impl, b.workload, b.threads, b.params = c.Impl, c.Workload, c.Threads, c.Params
	return st.Before, st.After, nil
}

// finish says what the search found on stdout, writes bisect.md and the
// JSON, and returns the exit code's error.
func (b *bisectOptions) finish(ctx context.Context, o *subcommand.Streams, r *bisect.Result) error {
	subject := func(commit string) string { return bisect.Subject(ctx, b.repo, commit) }
	show := func(commit string) string {
		out, _ := git.Output(ctx, b.repo, "show", "--stat", "--format=medium", commit)
		return string(out)
	}
	wall := time.Since(b.start)
	summary := r.Summary(b.probe.Tracked, wall, subject)
	var verdict error
	if !r.Found {
		verdict = &subcommand.ExitError{Code: subcommand.ExitInconclusive}
	}
	io.WriteString(o.Stdout, summary)
	md := filepath.Join(b.outDir, "bisect.md")
	if err := regularfile.Write(md, []byte(r.Markdown(summary, subject, show))); err != nil {
		return lostOutput(verdict, fmt.Errorf("writing %s: %w", md, err), o)
	}
	if b.jsonOut != "" {
		data, err := json.MarshalIndent(r.Record(b.probe.Tracked, wall), "", "  ")
		if err == nil {
			err = regularfile.Write(b.jsonOut, append(records.Visible(data), '\n'))
		}
		if err != nil {
			return lostOutput(verdict, fmt.Errorf("writing %s: %w", b.jsonOut, err), o)
		}
	}
	if !b.quiet {
		fmt.Fprintf(o.Stderr, "perfrun: bisect: wrote %s\n", md)
	}
	return verdict
}
