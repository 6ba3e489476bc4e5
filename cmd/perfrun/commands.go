package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
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

var commands, hidden []command

func init() {
	commands = []command{
		{"run", "[flags]", "measure implementations under workloads (the main job)", cmdRun},
		{"list", "", "list implementations, workloads and their parameters", cmdList},
		{"plot", "[flags] FILE...", "draw latency, throughput, speedup and load plots (SVG, PNG) from results", cmdPlot},
		{"report", "[flags] FILE|OLD NEW", "write a Markdown comment and a self-contained HTML page", cmdReport},
		{"compare", "OLD NEW", "compare two results files, benchstat style, and rank implementations", cmdCompare},
		{"gate", "[flags] OLD NEW", "decide PASS / IMPROVED / REGRESSION / INCONCLUSIVE between two results files", cmdGate},
		{"ab", "[flags] BASE HEAD", "build two git revisions and gate them, interleaved, with an A/A noise arm", cmdAB},
		{"corpus", "[flags] -o DIR", "write the generated corpus as PEM files with a manifest", cmdCorpus},
		{"help", "[command]", "show help", cmdHelp},
	}
	hidden = []command{{"cell-ops", "[flags]", "run N operations of one cell (for callgrind)", cmdCellOps}}
}

func run(stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	for _, c := range append(commands, hidden...) {
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

// parseFlags parses args of a command that takes no arguments and turns
// the outcome into an exit code: -1 to go on, 0 after -h, 2 on a usage
// error.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if code := parseFlagsArgs(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "perfrun %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage
	}
	return -1
}

// parseFlagsArgs is parseFlags for commands with positional arguments;
// flags may come after them.
func parseFlagsArgs(fs *flag.FlagSet, args []string) int {
	err := fs.Parse(interleaveFlags(fs, args))
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case err != nil:
		return exitUsage
	}
	return -1
}

// interleaveFlags moves flags written after positional arguments to the
// front, so "perfrun gate old.txt new.txt -json v.json" works.
func interleaveFlags(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) == 1 {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		f := fs.Lookup(name)
		isBool := false
		if f != nil {
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok {
				isBool = bf.IsBoolFlag()
			}
		}
		if !strings.Contains(name, "=") && !isBool && f != nil && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return append(flags, pos...)
}

// errorf prints a one-line error prefixed with the program and command.
func errorf(stderr io.Writer, cmd, format string, args ...any) {
	fmt.Fprintf(stderr, "perfrun: %s: %s\n", cmd, fmt.Sprintf(format, args...))
}
