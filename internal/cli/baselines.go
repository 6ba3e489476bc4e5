package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/perfrun/perfrun/internal/subcommand"

	"github.com/perfrun/perfrun/internal/baselines"
	"github.com/perfrun/perfrun/records"
)

var cmdBaselines = &subcommand.Command{
	MaxArgs: 0, Name: "baselines", Args: "", Short: "list the named baselines (run -save-baseline NAME, gate -baseline NAME, ab -baseline NAME)",
	Long: `Baselines lists the results saved under a name with "run -save-baseline
NAME": when each was measured, on what, by which command. "gate -baseline
NAME NEW" gates NEW against one, and "ab -baseline NAME" measures the build
that saved it again, beside this perfrun, interleaved. They live in one
folder, $PERFRUN_BASELINES or perfrun-out/baselines: a results file each
(NAME.txt) with its configuration, and the build that measured it
(NAME.build/).`,
}

func init() { cmdBaselines.Define = baselinesFlags }

func baselinesFlags(*flag.FlagSet) subcommand.RunFunc {
	return func(_ context.Context, o *subcommand.Streams, args []string) error {
		names := baselines.Names()
		if len(names) == 0 {
			fmt.Fprintf(o.Stderr, "perfrun: baselines: none in %s (run -save-baseline NAME)\n", baselines.Where())
			return nil
		}
		tw := tabwriter.NewWriter(o.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tDATE\tCELLS\tBUILD\tMACHINE\tCOMMAND")
		for _, name := range names {
			s, err := records.ReadFile(filepath.Join(baselines.Dir(), name+".txt"))
			if err != nil {
				fmt.Fprintf(tw, "%s\t(unreadable: %v)\t\t\t\t\n", name, err)
				continue
			}
			machine := s.Config("machine")
			if machine == "" {
				machine = s.Config("cpu") + " ×" + s.Config("cores")
			}
			build := "-"
			if baselines.KeptBuild(name) != "" {
				build = "kept"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", name, s.Config("date"), len(s.Cells()), build, machine, s.Config("command"))
		}
		fmt.Fprintf(tw, "\n(in %s)\n", baselines.Where())
		return tw.Flush()
	}
}
