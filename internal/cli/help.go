package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/subcommand"
)

var cmdHelp = &subcommand.Command{
	Name: "help", Args: "[-all] [command]", Short: "show help",
	Long: "Help prints the list of commands, or one command's usage and flags (-all: its whole description and every flag).",
}

var cmdVersion = &subcommand.Command{
	MaxArgs: 0, Name: "version", Args: "", Short: "print perfrun's version",
	Long: "Version prints the perfrun revision and the Go toolchain that built it.",
}

func init() {
	cmdHelp.Run = runHelp
	cmdVersion.Define = versionFlags
}

func runHelp(ctx context.Context, o *subcommand.Streams, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		cmdHelp.Help(o.Stdout, flag.NewFlagSet("help", flag.ContinueOnError), true)
		return nil
	}
	all := len(args) > 0 && (args[0] == "-all" || args[0] == "--all")
	if all {
		args = args[1:]
	}
	if len(args) == 0 {
		program.Usage(o.Stdout)
		return nil
	}
	for _, c := range program.Commands {
		if c.Name == args[0] {
			c.Help(o.Stdout, c.FlagSet(), all || len(c.Common) == 0)
			return nil
		}
	}
	return subcommand.UsageError("unknown command %q", args[0])
}

func versionFlags(*flag.FlagSet) subcommand.RunFunc {
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		fmt.Fprintf(o.Stdout, "perfrun %s %s %s/%s\n", harness.Revision(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return nil
	}
}
