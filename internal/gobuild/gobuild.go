// Package gobuild runs the go command for every build perfrun makes — a
// revision for ab, bisect and backfill, perfrun again for lock profiles or
// instruction counts — so that they all fail alike: go's environment is
// checked first and what it lacks is named, go's output is cut to its
// end, and an interrupt asks go to stop so that it ends its compilers and
// removes its work folder.
package gobuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/procgroup"
)

// Grace is how long an interrupted go may take to end its compilers and
// remove its work folder before it is killed.
const Grace = 10 * time.Second

// MostLines and MostBytes bound what a failed build quotes of go's
// output: its end, where go says why. A full disk or cache makes go print
// one line for every package it could not write.
const (
	MostLines = 20
	MostBytes = 4 << 10
)

// Run runs go with args in dir and returns nil when it succeeds; else an
// error with go's exit and the end of its output.
func Run(ctx context.Context, dir string, args ...string) error {
	_, err := goOutput(ctx, dir, args...)
	return err
}

// RunEnv is Run with env (KEY=value) set for go over this process's.
func RunEnv(ctx context.Context, dir string, env []string, args ...string) error {
	_, err := goOutputEnv(ctx, dir, env, args...)
	return err
}

// goOutput is Run that also returns go's output, whether it succeeded or
// not.
func goOutput(ctx context.Context, dir string, args ...string) (string, error) {
	return goOutputEnv(ctx, dir, nil, args...)
}

func goOutputEnv(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd, err := command(ctx, dir, env, args)
	if err != nil {
		return "", err
	}
	return output(ctx, cmd, "go "+args[0])
}

// command is go with args in dir, env set over this process's, its work
// folders in ctx's scratch folder where it has one; nil and why where go
// cannot build here (Ready). go sees dir by the path given, links and all.
func command(ctx context.Context, dir string, env, args []string) (*exec.Cmd, error) {
	if err := Ready(); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	// PWD names dir as given, so that go sees a folder reached through a
	// link by the link's path, as a shell that cd'd there would show it.
	cmd.Env = append(append(os.Environ(), "PWD="+dir), env...)
	if s, ok := ctx.Value(scratchKey{}).(string); ok {
		if err := os.MkdirAll(s, 0o755); err != nil {
			return nil, err
		}
		cmd.Env = append(cmd.Env, "GOTMPDIR="+s)
	}
	return cmd, nil
}

// scratchKey marks a context whose go commands keep their work folders in
// a scratch folder of perfrun's.
type scratchKey struct{}

// WithScratch has every go command run under ctx keep its work folders
// (GOTMPDIR) in dir, made when first needed: a folder perfrun prunes after
// a kill, where $TMPDIR would keep go-build folders for good.
func WithScratch(ctx context.Context, dir string) context.Context {
	return context.WithValue(ctx, scratchKey{}, dir)
}

// output runs cmd, stopped gently on an interrupt, and returns its
// output; a failure is named what, with its exit and the output's end.
func output(ctx context.Context, cmd *exec.Cmd, what string) (string, error) {
	procgroup.Gentle(cmd, Grace)
	out, err := cmd.CombinedOutput()
	return string(out), failure(ctx, what, err, string(out))
}

// failure is nil where err is; else what failed, with the interrupt or
// the exit and the end of what go said (said).
func failure(ctx context.Context, what string, err error, said string) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", what, ctx.Err())
	}
	if msg := Tail(said); msg != "" {
		return fmt.Errorf("%s: %w: %s", what, err, msg)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Ready says what go lacks to build here, before it is asked to: a home
// for its build cache and for its module cache. Without one go fails
// with a message about variables a user of perfrun never set.
func Ready() error {
	if os.Getenv("HOME") != "" {
		return nil
	}
	var missing []string
	if os.Getenv("GOCACHE") == "" && os.Getenv("XDG_CACHE_HOME") == "" {
		missing = append(missing, "GOCACHE (its build cache)")
	}
	if os.Getenv("GOMODCACHE") == "" && os.Getenv("GOPATH") == "" {
		missing = append(missing, "GOMODCACHE (its module cache)")
	}
	if len(missing) == 0 {
		return nil
	}
	return errors.New("go cannot build here: HOME is not set, and neither is " + strings.Join(missing, " nor ") + "; set HOME, or those")
}

// Tail is the end of a command's output: its last MostLines lines and at
// most MostBytes, saying how much it left out.
func Tail(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	cut := 0
	if len(lines) > MostLines {
		cut, lines = len(lines)-MostLines, lines[len(lines)-MostLines:]
	}
	for len(lines) > 1 && len(strings.Join(lines, "\n")) > MostBytes {
		cut, lines = cut+1, lines[1:]
	}
	msg := strings.Join(lines, "\n")
	if len(msg) > MostBytes {
		msg = "…" + msg[len(msg)-MostBytes:]
	}
	if cut > 0 {
		msg = fmt.Sprintf("(%d lines of go's output left out; the last %d:)\n%s", cut, len(lines), msg)
	}
	return msg
}

// Stdout runs go with args in dir and returns its standard output alone
// (what go list prints); a failure is Run's, with go's standard error.
func Stdout(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd, err := command(ctx, dir, nil, args)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	procgroup.Gentle(cmd, Grace)
	if err := failure(ctx, "go "+args[0], cmd.Run(), stderr.String()); err != nil {
		return nil, err
	}
	return stdout.Bytes(), nil
}
