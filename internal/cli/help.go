package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/perfrun/perfrun/harness"
)

var cmdHelp = &command{
	name: "help", args: "[-all] [command]", short: "show help",
	long: "Help prints the list of commands, or one command's usage and flags (-all: its whole description and every flag).",
}

var cmdVersion = &command{
	maxArgs: 0, name: "version", args: "", short: "print perfrun's version",
	long: "Version prints the perfrun revision and the Go toolchain that built it.",
}

func init() {
	cmdHelp.run = runHelp
	cmdVersion.define = versionFlags
}

func runHelp(ctx context.Context, o *streams, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		cmdHelp.helpOf(o.stdout, flag.NewFlagSet("help", flag.ContinueOnError), true)
		return nil
	}
	all := len(args) > 0 && (args[0] == "-all" || args[0] == "--all")
	if all {
		args = args[1:]
	}
	if len(args) == 0 {
		usage(o.stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] {
			c.helpOf(o.stdout, c.flagSet(), all || len(c.common) == 0)
			return nil
		}
	}
	return usageError("unknown command %q", args[0])
}

func versionFlags(*flag.FlagSet) runFunc {
	return func(_ context.Context, o *streams, args []string) error {
		fmt.Fprintf(o.stdout, "perfrun %s %s %s/%s\n", harness.Revision(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return nil
	}
}
