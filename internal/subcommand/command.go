// Package subcommand is how perfrun's commands take their flags and end:
// a Command's flags parsed where they may follow its arguments, a typo
// answered with the nearest flag, help that fits a screen, and an exit
// code for every end, so CI never reads a crash or bad flags as a verdict.
package subcommand

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/perfrun/perfrun/internal/terminal"
)

// Command is one subcommand; a Program's slice of them is both the
// dispatch table and the help text, in order. A Command is a value that carries its flag
// set: Define puts its flags on a FlagSet and returns what runs once they
// are parsed, so help prints a Command's flags without running anything.
// A Command without flags of its own (help, history) has Run instead.
type Command struct {
	Name    string
	Args    string // usage line after the name
	Short   string
	Long    string
	MaxArgs int // positional arguments allowed after the flags; -1 any
	// Common, if set, are the flags -h shows, with the first paragraph of
	// Long, so the help fits a screen; "perfrun help -all NAME" shows all.
	Common []string
	Define func(fs *flag.FlagSet) RunFunc
	Run    func(ctx context.Context, o *Streams, args []string) error
}

// RunFunc runs a Command whose flags are parsed; args are its arguments
// as given (the command line, for the record), fs.Args() the positional
// ones.
type RunFunc func(ctx context.Context, o *Streams, args []string) error

// Execute parses args against the Command's flags and runs it.
func (c *Command) Execute(ctx context.Context, o *Streams, args []string) error {
	if c.Define == nil {
		return c.Run(ctx, o, args)
	}
	fs := c.Flags(o)
	run := c.Define(fs)
	if err := Parse(fs, args, c.MaxArgs); err != nil {
		return err
	}
	return run(ctx, o, args)
}

// safeExecute is Execute with a panic turned into the tool's failure: Go
// exits 2 on a panic, the usage code, and CI must never read a crash as
// bad flags. Panics in the goroutines the harness starts are brought here
// by the harness (see harness.Panic).
func (c *Command) safeExecute(ctx context.Context, o *Streams, args []string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &ExitError{ExitFailure, fmt.Errorf("panic (a bug in perfrun or in the store it ran; please report it with this message): %v\n%s", p, debug.Stack())}
		}
	}()
	return c.Execute(ctx, o, args)
}

// FlagSet is the Command's flags, defined and not parsed: what help prints.
func (c *Command) FlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	if c.Define != nil {
		c.Define(fs)
	}
	return fs
}

// Streams are a command's standard output and error.
type Streams struct{ Stdout, Stderr io.Writer }

// Program is perfrun's commands: those help lists, in its order, and
// hidden ones, which a perfrun runs in a child of its own.
type Program struct {
	Commands, Hidden []*Command
	// InputErrors mark, from the packages beneath the commands, an error
	// that is the user's to fix: each is a usage error (exit 2) wherever
	// it is returned, unless an ExitError around it says otherwise.
	InputErrors []error
}

// Run is perfrun with its arguments; it returns the exit code.
func (p *Program) Run(stdout, stderr io.Writer, args []string) int {
	out := &checkedWriter{w: stdout}
	stdout, stderr = terminal.New(out, args), terminal.New(stderr, args)
	o := &Streams{stdout, stderr}
	if len(args) == 0 {
		p.Usage(stderr)
		return ExitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		p.Usage(stdout)
		return ExitOK
	}
	for _, c := range append(p.Commands, p.Hidden...) {
		if c.Name == args[0] {
			if err := tempDirThere(); err != nil && c.Name != "version" && c.Name != "help" {
				fmt.Fprintf(stderr, "perfrun: %s: %v\n", c.Name, err)
				return ExitUsage
			}
			terminal.Forget()
			code := p.ExitCode(c, c.safeExecute(context.Background(), o, args[1:]), stderr)
			if out.err != nil && code == ExitOK {
				// The output is the result: lost, it is no success.
				fmt.Fprintf(stderr, "perfrun: %s: writing the output: %v\n", c.Name, out.err)
				return ExitFailure
			}
			return code
		}
	}
	fmt.Fprintf(stderr, "perfrun: unknown command %q\n\n", args[0])
	p.Usage(stderr)
	return ExitUsage
}

// tempDirThere refuses, before any work, a TMPDIR that names no folder:
// builds, counts and reports all write there, and each failed on it in
// words that did not name it.
func tempDirThere() error {
	dir := os.Getenv("TMPDIR")
	if dir == "" {
		return nil
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("TMPDIR=%s is not a folder: make it, or unset TMPDIR", dir)
	}
	return nil
}

// checkedWriter keeps the first error a write returned, so that output
// lost (a full disk, a closed pipe) is not an exit 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
