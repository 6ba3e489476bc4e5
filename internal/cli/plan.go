package cli

import (
	"flag"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
)

// commandFlags are the flags that add foreign commands as cells, shared by
// run, ab and arm.
type commandFlags struct {
	specs subcommand.ListFlag
	unit  string
}

func (f *commandFlags) define(fs *flag.FlagSet) {
	fs.Var(&f.specs, "exec", "a foreign benchmark as a cell: `NAME=COMMAND ARGS` run once per window, {threads}, {corpus} and $VAR filled in; it prints one call's time as its last number (repeatable; -impl none for the commands alone; docs/exec.md)")
	fs.StringVar(&f.unit, "exec-unit", "", "unit of a bare number a -exec command prints: ns, us, ms or s")
}

// commands parses the -exec values.
func (f *commandFlags) commands() ([]*foreign.Command, error) {
	return sweep.ParseCommands(f.specs, f.unit)
}

// args gives the flags back, for an arm's command line.
func (f *commandFlags) args() []string {
	var out []string
	for _, s := range f.specs {
		out = append(out, "-exec", s)
	}
	if f.unit != "" {
		out = append(out, "-exec-unit", f.unit)
	}
	return out
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string { return harness.SplitList(s) }
