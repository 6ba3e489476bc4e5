// Package needs lets a test say which program of the machine it needs —
// valgrind, Chromium — and skips the test, saying why, where that program
// is missing or does not work (a stub, a broken install); on CI, which
// must install them (.ci/run does), it fails the test instead. Tests alone
// use it.
package needs

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Works says why the first of names on PATH that runs "--version" within
// ten seconds and exits 0 cannot be had: "" and its path where one works.
func Works(names ...string) (path, why string) {
	why = "no " + strings.Join(names, " or ") + " on PATH"
	for _, name := range names {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := exec.CommandContext(ctx, p, "--version").CombinedOutput()
		cancel()
		if err == nil {
			return p, ""
		}
		why = p + " does not work (" + name + " --version: " + err.Error() + ": " + strings.TrimSpace(firstLine(out)) + ")"
	}
	return "", why
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

// Tool returns the path of the first of names that works; where none
// does, it skips t with the reason and what installs it (install), or,
// on CI, fails it.
func Tool(t testing.TB, install string, names ...string) string {
	t.Helper()
	p, why := Works(names...)
	if why == "" {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s: CI must install it (.ci/run does)", why)
	}
	t.Skipf("%s; %s", why, install)
	return ""
}

// Valgrind is Tool for valgrind, which counts instructions and locks.
func Valgrind(t testing.TB) string {
	t.Helper()
	return Tool(t, "apt-get install valgrind", "valgrind")
}
