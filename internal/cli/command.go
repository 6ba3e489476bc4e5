package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/internal/publish"
	"github.com/perfrun/perfrun/internal/terminal"
)

// Exit codes, so CI never reads a crash as a regression. A verdict's
// (exitOK, exitRegression, exitInconclusive) is compare.Verdict.Exit's.
const (
	exitOK           = 0 // success; a gate that says PASS or IMPROVED
	exitRegression   = 1 // a gate that says REGRESSION, MISSING or TRADE
	exitUsage        = 2 // bad flags, arguments or input files
	exitInconclusive = 3 // a gate whose data cannot decide
	exitFailure      = 4 // the tool failed: a revision that does not build, an I/O error, a wrong answer
	// An interrupted command exits 128 + the signal's number (130 for
	// Ctrl-C, 143 for SIGTERM), as the shell reports it, never a verdict's code.
	exitSignal = 128
)

// command is one subcommand; the slice of them is both the dispatch table
// and the help text, in order. A command is a value that carries its flag
// set: define puts its flags on a FlagSet and returns what runs once they
// are parsed, so help prints a command's flags without running anything.
// A command without flags of its own (help, history) has run instead.
type command struct {
	name    string
	args    string // usage line after the name
	short   string
	long    string
	maxArgs int // positional arguments allowed after the flags; -1 any
	// common, if set, are the flags -h shows, with the first paragraph of
	// long, so the help fits a screen; "perfrun help -all NAME" shows all.
	common []string
	define func(fs *flag.FlagSet) runFunc
	run    func(ctx context.Context, o *streams, args []string) error
}

// runFunc runs a command whose flags are parsed; args are its arguments
// as given (the command line, for the record), fs.Args() the positional
// ones.
type runFunc func(ctx context.Context, o *streams, args []string) error

// execute parses args against the command's flags and runs it.
func (c *command) execute(ctx context.Context, o *streams, args []string) error {
	if c.define == nil {
		return c.run(ctx, o, args)
	}
	fs := c.flags(o)
	run := c.define(fs)
	if err := parse(fs, args, c.maxArgs); err != nil {
		return err
	}
	return run(ctx, o, args)
}

// safeExecute is execute with a panic turned into the tool's failure: Go
// exits 2 on a panic, the usage code, and CI must never read a crash as
// bad flags. Panics in the goroutines the harness starts are brought here
// by the harness (see harness.Panic).
func (c *command) safeExecute(ctx context.Context, o *streams, args []string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &exitError{exitFailure, fmt.Errorf("panic (a bug in perfrun or in the store it ran; please report it with this message): %v\n%s", p, debug.Stack())}
		}
	}()
	return c.execute(ctx, o, args)
}

// flagSet is the command's flags, defined and not parsed: what help prints.
func (c *command) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	if c.define != nil {
		c.define(fs)
	}
	return fs
}

// streams are a command's standard output and error.
type streams struct{ stdout, stderr io.Writer }

var commands, hidden []*command

func init() {
	commands = []*command{cmdRun, cmdList, cmdPlot, cmdReport, cmdCompare, cmdGate, cmdRules, cmdAB, cmdBisect, cmdPredict, cmdExport, cmdImport, cmdCorpus, cmdBaselines, cmdHistory, cmdVersion, cmdHelp}
	hidden = []*command{cmdCellOps, cmdArm}
}

// run is perfrun with its arguments; it returns the exit code.
func run(stdout, stderr io.Writer, args []string) int {
	out := &checkedWriter{w: stdout}
	stdout, stderr = terminal.New(out, args), terminal.New(stderr, args)
	o := &streams{stdout, stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	for _, c := range append(commands, hidden...) {
		if c.name == args[0] {
			if err := tempDirThere(); err != nil && c.name != "version" && c.name != "help" {
				fmt.Fprintf(stderr, "perfrun: %s: %v\n", c.name, err)
				return exitUsage
			}
			terminal.Forget()
			code := exitCode(c, c.safeExecute(context.Background(), o, args[1:]), stderr)
			if out.err != nil && code == exitOK {
				// The output is the result: lost, it is no success.
				fmt.Fprintf(stderr, "perfrun: %s: writing the output: %v\n", c.name, out.err)
				return exitFailure
			}
			return code
		}
	}
	fmt.Fprintf(stderr, "perfrun: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
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

func usage(w io.Writer) {
	fmt.Fprintf(w, "perfrun benchmarks concurrent certificate stores.\n\nUsage:\n\n\tperfrun COMMAND [flags] [arguments]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.short)
	}
	fmt.Fprintf(w, "\nRun \"perfrun help COMMAND\" or \"perfrun COMMAND -h\" for a command's flags.\n"+
		"Exit codes: 0 success (PASS, IMPROVED), 1 REGRESSION, 2 usage, 3 INCONCLUSIVE, 4 the tool failed.\n")
}

// exitError carries an exit code; a nil err means the message was already
// printed (by the flag package, or as a verdict).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError reports bad flags, arguments or input.
func usageError(format string, args ...any) error {
	return &exitError{exitUsage, fmt.Errorf(format, args...)}
}

// asUsage marks err, if any, as the user's to fix.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{exitUsage, err}
}

// verdictError is the exit of a gate, the verdict's own code
// (compare.Verdict.Exit: exitRegression or exitInconclusive): nil for
// PASS and IMPROVED.
func verdictError(v compare.Verdict) error {
	if code := v.Exit(); code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// inputErrors mark, from the packages beneath the commands, an error that
// is the user's to fix: a source ab cannot build, a baseline the store
// refuses, a report folder with a file perfrun did not write. Each is a
// usage error (exit 2) wherever it is returned, unless an exitError around
// it says otherwise.
var inputErrors = []error{ab.ErrBadSource, baselines.ErrInput, publish.ErrRefused, history.ErrNoSeries}

// errHelp is -h: the usage was printed; exit 0.
var errHelp = &exitError{code: exitOK}

// exitCode prints err, prefixed with the program and command, and turns
// it into the exit code: 4 for any error that does not say otherwise.
func exitCode(c *command, err error, stderr io.Writer) int {
	if sig := terminal.InterruptedBy(); sig != 0 {
		fmt.Fprintf(stderr, "perfrun: %s: %s\n", c.name, interruptMessage(err))
		return exitSignal + int(sig)
	}
	if err == nil {
		return exitOK
	}
	code := exitFailure
	var e *exitError
	if errors.As(err, &e) {
		code = e.code
		if e.err == nil {
			return code
		}
	} else if slices.ContainsFunc(inputErrors, func(s error) bool { return errors.Is(err, s) }) {
		code = exitUsage
	}
	fmt.Fprintf(stderr, "perfrun: %s: %s\n", c.name, message(err))
	return code
}

// flags makes the command's flag set; its usage, asked for with -h, goes
// to standard output, as every command's help does (exit 0).
func (c *command) flags(o *streams) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(o.stderr)
	fs.Usage = func() { c.help(o.stdout, fs) }
	return fs
}

// help prints the command's usage, long help and flags (when it has any).
func (c *command) help(w io.Writer, fs *flag.FlagSet) { c.helpOf(w, fs, false) }

// helpOf prints the usage, then the whole description and every flag, or,
// short of all, the description's first paragraph, the common flags and
// the other flags' names.
func (c *command) helpOf(w io.Writer, fs *flag.FlagSet, all bool) {
	long := c.long
	if !all {
		long, _, _ = strings.Cut(long, "\n\n")
	}
	fmt.Fprintf(w, "usage: perfrun %s %s\n\n%s\n", c.name, c.args, long)
	shown := flag.NewFlagSet(c.name, flag.ContinueOnError)
	var others []string
	fs.VisitAll(func(f *flag.Flag) {
		if all || len(c.common) == 0 || slices.Contains(c.common, f.Name) {
			shown.Var(f.Value, f.Name, f.Usage)
		} else {
			others = append(others, "-"+f.Name)
		}
	})
	any := false
	shown.VisitAll(func(*flag.Flag) { any = true })
	switch {
	case any && all:
		fmt.Fprintf(w, "\nFlags:\n")
		shown.SetOutput(w)
		shown.PrintDefaults()
	case any:
		// A screen's help: each common flag on a line of its own.
		fmt.Fprintf(w, "\nFlags:\n")
		shown.VisitAll(func(f *flag.Flag) { fmt.Fprintln(w, flagLine(f)) })
	}
	if len(others) > 0 {
		fmt.Fprintf(w, "\nMore flags: %s\n(perfrun help -all %s: the whole description and every flag)\n", strings.Join(others, " "), c.name)
	}
}

// flagLine is a flag in one line: its name, its usage's first clause and
// its default; help -all prints the whole usage.
func flagLine(f *flag.Flag) string {
	name, usage := flag.UnquoteUsage(f)
	if i := strings.Index(usage, " ("); i > 0 {
		usage = usage[:i]
	}
	if i := strings.Index(usage, "; "); i > 0 {
		usage = usage[:i]
	}
	line := "  -" + f.Name
	if name != "" {
		line += " " + name
	}
	line = fmt.Sprintf("%-22s %s", line, usage)
	if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
		line += " (default " + d + ")"
	}
	return line
}

// parse parses a command's arguments; flags may follow positional
// arguments. maxArgs < 0 allows any number of them.
func parse(fs *flag.FlagSet, args []string, maxArgs int) error {
	// The flag package would print the whole help after an error; a typo
	// gets one line and a suggestion instead, -h the help.
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(interleaveFlags(fs, args))
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage()
		return errHelp
	case err != nil:
		return usageError("%v%s (perfrun %s -h lists its flags)", err, didYouMean(fs, args), fs.Name())
	case maxArgs >= 0 && fs.NArg() > maxArgs:
		return usageError("unexpected argument %q", fs.Arg(maxArgs))
	}
	return nil
}

// didYouMean suggests, for the first flag in args the command does not
// define, the defined flag closest to it: a typo (-thread for -threads) is
// at most two edits from what was meant.
func didYouMean(fs *flag.FlagSet, args []string) string {
	name := ""
	for _, a := range args {
		if a == "--" {
			break
		}
		n, ok := strings.CutPrefix(a, "-")
		if !ok || n == "" || strings.IndexByte("0123456789.", n[0]) >= 0 {
			continue // a negative number is a flag's value, never a flag
		}
		n, _, _ = strings.Cut(strings.TrimPrefix(n, "-"), "=")
		if n != "h" && n != "help" && fs.Lookup(n) == nil {
			name = n
			break
		}
	}
	if name == "" {
		return ""
	}
	best, bestD := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean -%s?", best)
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
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
	if len(pos) == 0 {
		return flags
	}
	// The positional arguments after "--": one that begins with "-" (a
	// revision named -x after --) is an argument, never read as a flag.
	return append(append(flags, "--"), pos...)
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// interruptMessage is what an interrupted command says: "interrupted",
// then what it kept, without the cancelled context's or the interrupted
// child's own words for the interrupt.
func interruptMessage(err error) string {
	msg := ""
	if err != nil {
		msg = message(err)
	}
	for _, raw := range []string{"context canceled", "signal: interrupt", "signal: terminated"} {
		msg = strings.ReplaceAll(msg, ": "+raw, "")
		msg = strings.TrimPrefix(msg, raw)
	}
	// "interrupted" once, at the front, wherever a command said it.
	msg = strings.ReplaceAll(msg, "interrupted: ", "")
	msg = strings.Trim(strings.TrimSuffix(strings.TrimPrefix(strings.Trim(msg, " :"), "interrupted"), "interrupted"), " :")
	if msg == "" {
		return "interrupted"
	}
	return "interrupted: " + msg
}
