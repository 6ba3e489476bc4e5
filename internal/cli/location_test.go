package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/historycmd"
	"github.com/perfrun/perfrun/internal/subcommand"
)

// planted are history locations with a password in each form a location
// can carry one; the server (port 1 of this machine) refuses connections.
var planted = []string{
	"postgres://perfrun:pw-in-userinfo@127.0.0.1:1/h?sslmode=disable",
	"POSTGRESQL://perfrun@127.0.0.1:1/h?sslmode=disable&password=pw-in-query",
	"host=127.0.0.1 port=1 user=perfrun password=pw-in-keywords dbname=h sslmode=disable",
	"host=127.0.0.1 port=1 dbname=h password='pw in quotes' sslmode=disable",
}

// TestNoPasswordPrinted runs every command's help with a planted password
// in $PERFRUN_HISTORY, and every command that opens a history with it as
// -db, and finds it in no output.
func TestNoPasswordPrinted(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(res, []byte("commit: 0123456789abcdef0123456789abcdef01234567\ndate: 2026-12-01T10:00:00Z\ncores: 2\nBenchmarkIssuer/impl=rcu/threads=1 1 40 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, loc := range planted {
		t.Setenv("PERFRUN_HISTORY", loc)
		var runs [][]string
		for _, c := range append(program.Commands, program.Hidden...) {
			runs = append(runs, []string{c.Name, "-h"}, []string{"help", "-all", c.Name})
		}
		for _, c := range historycmd.Commands() {
			name := strings.TrimPrefix(c.Name, "history ")
			runs = append(runs, []string{"history", name, "-h"})
		}
		runs = append(runs,
			[]string{"history", "add", "-db", loc, res},
			[]string{"history", "add", res},
			[]string{"history", "info"},
			[]string{"history", "changes", "-db", loc},
			[]string{"history", "plot", "-o", dir},
			[]string{"history", "report", "-o", filepath.Join(dir, "rep")},
			[]string{"history", "copy", loc, filepath.Join(dir, "h.db")},
			[]string{"history", "copy", filepath.Join(dir, "none.db"), loc},
			[]string{"bisect", "-step", "1", "HEAD~1", "HEAD"},
		)
		for _, args := range runs {
			var stdout, stderr bytes.Buffer
			code := run(&stdout, &stderr, args)
			out := stdout.String() + stderr.String()
			if strings.Contains(out, "pw-in") || strings.Contains(out, "pw in") {
				t.Errorf("perfrun %s (exit %d) printed the password of %q:\n%s", strings.Join(args, " "), code, loc, out)
			}
		}
	}
}

// TestUnreachableServer: a server that refuses the connection is "cannot
// connect", the tool's failure (exit 4), not a file that is no history.
func TestUnreachableServer(t *testing.T) {
	for _, loc := range planted[:3] {
		var stdout, stderr bytes.Buffer
		code := run(&stdout, &stderr, []string{"history", "info", "-db", loc})
		if code != subcommand.ExitFailure || !strings.Contains(stderr.String(), "cannot connect") || strings.Contains(stderr.String(), "SQLite") {
			t.Errorf("history info -db %s: exit %d, want 4 and cannot connect:\n%s", loc, code, &stderr)
		}
	}
}

// TestHistoryLocations: a location is a SQLite file or a server, never a
// file named like a URL, nor a device or FIFO written beside; two
// spellings of one history are one.
func TestHistoryLocations(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	res := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(res, []byte("commit: 0123456789abcdef0123456789abcdef01234567\ndate: 2026-12-01T10:00:00Z\ncores: 2\nBenchmarkIssuer/impl=rcu/threads=1 1 40 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{"mysql://u@h/db", "sqlite://h.db", "file://" + dir + "/h.db", "/dev/null", dir} {
		var stdout, stderr bytes.Buffer
		code := run(&stdout, &stderr, []string{"history", "add", "-db", db, res})
		if code != subcommand.ExitUsage {
			t.Errorf("history add -db %s: exit %d, want 2:\n%s%s", db, code, &stdout, &stderr)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*:*")); len(left) > 0 {
		t.Errorf("files named like URLs were made: %v", left)
	}
	if _, err := os.Stat("/dev/null-journal"); err == nil {
		t.Log("/dev/null-journal exists (left by something else?)")
	}
	var stdout, stderr bytes.Buffer
	if code := run(&stdout, &stderr, []string{"history", "add", "-db", "h.db", res}); code != subcommand.ExitOK {
		t.Fatalf("history add: exit %d\n%s", code, &stderr)
	}
	if err := os.Symlink("h.db", "link.db"); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{"h.db", "./h.db"}, {"h.db", filepath.Join(dir, "h.db")}, {"link.db", "h.db"}} {
		stdout.Reset()
		stderr.Reset()
		code := run(&stdout, &stderr, []string{"history", "copy", pair[0], pair[1]})
		if code != subcommand.ExitUsage || !strings.Contains(stderr.String(), "same history") {
			t.Errorf("history copy %s %s: exit %d, want 2 (the same history):\n%s%s", pair[0], pair[1], code, &stdout, &stderr)
		}
	}
}
