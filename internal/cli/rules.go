package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/perfrun/perfrun/compare"
)

var cmdRules = &command{
	maxArgs: 0, name: "rules", args: "", short: "print the table ab, gate and -replay decide a verdict by",
	long: `Rules prints the decision table: what time, the exact counts and the
prediction say of a design at a declared thread count, the verdict at
that count, the witness it rests on, and why. The first row that matches
decides. A design worse at one declared count and better at another is a
TRADE; the overall verdict is the worst of the counts' (docs/compare.md).`,
}

func init() {
	cmdRules.define = func(fs *flag.FlagSet) runFunc {
		return func(_ context.Context, o *streams, _ []string) error {
			fmt.Fprint(o.stdout, compare.Table())
			return nil
		}
	}
}
