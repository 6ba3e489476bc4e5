package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// command is one subcommand; the slice of them is both the dispatch table
// and the help text, in order.
type command struct {
	name  string
	args  string
	short string
	run   func(stdout, stderr io.Writer, args []string) int
}

var commands []command

func init() {
	commands = []command{
		{"run", "[flags]", "measure implementations under workloads (the main job)", cmdRun},
		{"list", "", "list implementations, workloads and their parameters", cmdList},
		{"corpus", "[flags] -o DIR", "write the generated corpus as PEM files with a manifest", cmdCorpus},
		{"help", "[command]", "show help", cmdHelp},
	}
}

func run(stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(stdout, stderr, args[1:])
		}
	}
	fmt.Fprintf(stderr, "perfrun: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "perfrun benchmarks concurrent certificate stores.\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\tperfrun %-7s %-16s %s\n", c.name, c.args, c.short)
	}
	fmt.Fprintf(w, "\nRun \"perfrun help COMMAND\" or \"perfrun COMMAND -h\" for a command's flags.\n")
}

func cmdHelp(stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 {
		usage(stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] && c.name != "help" {
			return c.run(stdout, stderr, []string{"-h"})
		}
	}
	fmt.Fprintf(stderr, "perfrun: help: unknown command %q\n", args[0])
	return exitUsage
}

// newFlags makes a subcommand's flag set that reports to stderr.
func newFlags(name, args, doc string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: perfrun %s %s\n\n%s\n\nFlags:\n", name, args, doc)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and turns the outcome into an exit code: -1 to
// go on, 0 after -h, 2 on a usage error.
func parseFlags(fs *flag.FlagSet, args []string) int {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case err != nil:
		return exitUsage
	case fs.NArg() > 0:
		fmt.Fprintf(fs.Output(), "perfrun %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage
	}
	return -1
}

// errorf prints a one-line error prefixed with the program and command.
func errorf(stderr io.Writer, cmd, format string, args ...any) {
	fmt.Fprintf(stderr, "perfrun: %s: %s\n", cmd, fmt.Sprintf(format, args...))
}
