package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/subcommand"
)

var cmdRules = &subcommand.Command{
	MaxArgs: 0, Name: "rules", Args: "", Short: "print the table ab, gate and -replay decide a verdict by",
	Long: `Rules prints the decision table: what time, the exact counts and the
prediction say of a design at a declared thread count, the verdict at
that count, the witness it rests on, and why. The first row that matches
decides. A design worse at one declared count and better at another is a
TRADE; the overall verdict is the worst of the counts' (docs/compare.md).`,
}

func init() {
	cmdRules.Define = func(fs *flag.FlagSet) subcommand.RunFunc {
		return func(_ context.Context, o *subcommand.Streams, _ []string) error {
			fmt.Fprint(o.Stdout, compare.Table())
			return nil
		}
	}
}
