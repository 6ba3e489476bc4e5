package historycmd

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/perfrun/perfrun/history"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"
	"github.com/perfrun/perfrun/internal/terminal"
)

func historyCopy(fs *flag.FlagSet) subcommand.RunFunc {
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		if len(args) != 2 {
			return subcommand.UsageError("history copy wants SRC and DST: two histories, each a SQLite file or a postgres:// URL")
		}
		if history.Same(args[0], args[1]) {
			return subcommand.UsageError("history copy: SRC and DST are the same history")
		}
		ctx, stop := terminal.Interruptible(ctx)
		defer stop()
		src, err := openExisting(ctx, args[0], false)
		if err != nil {
			return err
		}
		defer src.Close()
		dst, err := openHistory(ctx, args[1])
		if err != nil {
			return err
		}
		defer dst.Close()
		c, err := history.Copy(ctx, src, dst, sweep.ProgressAfter(o.Stderr, "history copy", "files"))
		if err != nil {
			// Each file is copied whole or not at all, however the copy
			// was cut: by an interrupt, or by a server that went away.
			kept := fmt.Sprintf("the %d files copied so far are in %s, whole (copy again to go on)", c.Files, dst.Path)
			if errors.Is(err, context.Canceled) {
				return errors.New(kept)
			}
			return fmt.Errorf("%w; %s", err, kept)
		}
		fmt.Fprintf(o.Stdout, "copied %d files (%d runs, %d values) and %d recorded steps from %s to %s; %d files were there already\n",
			c.Files, c.Runs, c.Samples, c.Steps, src.Path, dst.Path, c.Duplicates)
		return nil
	}
}
