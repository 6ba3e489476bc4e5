package cli

import (
	"context"
	"errors"
	"flag"

	"github.com/perfrun/perfrun/internal/cellops"
	"github.com/perfrun/perfrun/internal/subcommand"
)

var cmdCellOps = &subcommand.Command{
	MaxArgs: 0, Name: cellops.Name, Args: "[flags]", Short: "run N operations of one cell (for callgrind)",
	Long: `Cell-ops performs exactly -ops operations of one cell on one thread after
its setup, and nothing else: what "run -instructions" counts under
callgrind. Not listed in help.`,
}

func init() { cmdCellOps.Define = cellOpsFlags }

func cellOpsFlags(fs *flag.FlagSet) subcommand.RunFunc {
	f := cellops.Define(fs)
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		err := f.Run(ctx, o.Stdout)
		if u := (*cellops.UsageError)(nil); errors.As(err, &u) {
			return subcommand.UsageError("%s", u.Error())
		}
		return err
	}
}
