package cli

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/perfrun/perfrun/harness"
)

var cmdHelp = &command{
	name: "help", args: "[command]", short: "show help",
	long: "Help prints the list of commands, or one command's usage and flags.",
}

var cmdVersion = &command{
	name: "version", args: "", short: "print perfrun's version",
	long: "Version prints the perfrun revision and the Go toolchain that built it.",
}

func init() {
	cmdHelp.run = runHelp
	cmdVersion.run = runVersion
}

func runHelp(ctx context.Context, o *streams, args []string) error {
	if len(args) == 0 {
		usage(o.stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] {
			// A command's -h prints its usage and flags; here, to stdout.
			if err := c.run(ctx, &streams{o.stdout, o.stdout}, []string{"-h"}); !errors.Is(err, errHelp) {
				return err
			}
			return nil
		}
	}
	return usageError("unknown command %q", args[0])
}

func runVersion(_ context.Context, o *streams, args []string) error {
	if err := parse(cmdVersion.flags(o), args, 0); err != nil {
		return err
	}
	fmt.Fprintf(o.stdout, "perfrun %s %s %s/%s\n", harness.Revision(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
