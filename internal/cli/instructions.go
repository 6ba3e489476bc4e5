package cli

import (
	"context"
	"errors"
	"flag"

	"github.com/perfrun/perfrun/internal/cellops"
)

var cmdCellOps = &command{
	maxArgs: 0, name: cellops.Name, args: "[flags]", short: "run N operations of one cell (for callgrind)",
	long: `Cell-ops performs exactly -ops operations of one cell on one thread after
its setup, and nothing else: what "run -instructions" counts under
callgrind. Not listed in help.`,
}

func init() { cmdCellOps.define = cellOpsFlags }

func cellOpsFlags(fs *flag.FlagSet) runFunc {
	f := cellops.Define(fs)
	return func(ctx context.Context, o *streams, args []string) error {
		err := f.Run(ctx, o.stdout)
		if u := (*cellops.UsageError)(nil); errors.As(err, &u) {
			return usageError("%s", u.Error())
		}
		return err
	}
}
