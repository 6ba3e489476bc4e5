package subcommand

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Usage prints the program's commands.
func (p *Program) Usage(w io.Writer) {
	fmt.Fprintf(w, "perfrun benchmarks concurrent certificate stores.\n\nUsage:\n\n\tperfrun COMMAND [flags] [arguments]\n\nCommands:\n\n")
	for _, c := range p.Commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.Name, c.Short)
	}
	fmt.Fprintf(w, "\nRun \"perfrun help COMMAND\" or \"perfrun COMMAND -h\" for a Command's flags.\n"+
		"Exit codes: 0 success (PASS, IMPROVED), 1 REGRESSION, 2 usage, 3 INCONCLUSIVE, 4 the tool failed.\n")
}

// Flags makes the command's flag set; its usage, asked for with -h, goes
// to standard output, as every command's help does (exit 0).
func (c *Command) Flags(o *Streams) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	fs.Usage = func() { c.help(o.Stdout, fs) }
	return fs
}

// help prints the command's usage, long help and flags (when it has any).
func (c *Command) help(w io.Writer, fs *flag.FlagSet) { c.Help(w, fs, false) }

// Help prints the usage, then the whole description and every flag, or,
// short of all, the description's first paragraph, the common flags and
// the other flags' names.
func (c *Command) Help(w io.Writer, fs *flag.FlagSet, all bool) {
	long := c.Long
	if !all {
		long, _, _ = strings.Cut(long, "\n\n")
	}
	fmt.Fprintf(w, "usage: perfrun %s %s\n\n%s\n", c.Name, c.Args, long)
	shown := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	var others []string
	fs.VisitAll(func(f *flag.Flag) {
		if all || len(c.Common) == 0 || slices.Contains(c.Common, f.Name) {
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
		fmt.Fprintf(w, "\nMore flags: %s\n(perfrun help -all %s: the whole description and every flag)\n", strings.Join(others, " "), c.Name)
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
