package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/flagvalue"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/internal/subcommand"
	"github.com/perfrun/perfrun/internal/sweep"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/ab"
)

var cmdArm = &subcommand.Command{
	Name: "arm", Args: "[flags]", Short: "measure cells one window at a time, as ab asks (an A/B arm)",
	Long: `Arm sets up the cells that run's flags select (corpus made, stores filled)
and then measures one window of a cell, followed by the speed and floor probes, each
time a line "window NAME" arrives on standard input. It answers on standard
output: first a line "cell NAME" per cell it can measure and "ready", then
for each window "sample NAME" and the window's values as a JSON object of
unit to value. "quit" or the end of input writes -o (every window, in the
Go benchmark format) and exits. ab drives three of these at once — base,
head and base again — so a cell is measured in all three arms within a
fraction of a second. Not listed in help.`,
}

func init() {
	cmdArm.Define = func(fs *flag.FlagSet) subcommand.RunFunc { return armFlags(fs, os.Stdin) }
}

// driveArm runs an arm on args whose requests come from stdin (tests
// drive it in-process).
func driveArm(ctx context.Context, o *subcommand.Streams, stdin io.Reader, args []string) error {
	fs := cmdArm.Flags(o)
	run := armFlags(fs, stdin)
	if err := subcommand.Parse(fs, args, 0); err != nil {
		return err
	}
	return run(ctx, o, args)
}

// armFlags defines arm's flags; the arm reads its requests from stdin.
func armFlags(fs *flag.FlagSet, stdin io.Reader) subcommand.RunFunc {
	def := harness.DefaultOptions
	var choice cellChoice
	choice.define(fs, cellDefaults{impl: allImpls(), threadsTop: harness.Cores(), threadNote: " (default to the cores, as ab)"})
	var cmd commandFlags
	cmd.define(fs)
	window, warmup := new(time.Duration), new(time.Duration)
	flagvalue.SpanVar(fs, window, "window", def.Window, harness.MinWindow, mostWindow, "measured time per window", windowWhy)
	flagvalue.SpanVar(fs, warmup, "warmup", def.Warmup, 0, mostWindow, "unmeasured warm-up before each window")
	seed := fs.Uint64("seed", def.Seed, "seed of the generated corpus")
	match := fs.String("match", "", "only cells whose benchmark name matches this regular expression")
	out := fs.String("o", "", "results file written at the end (Go benchmark format); empty for none")
	pin := fs.Bool("pin", false, "pin worker i of every window to the i-th CPU the process may use")
	return func(ctx context.Context, o *subcommand.Streams, args []string) error {
		cmds, err := cmd.commands()
		if err != nil {
			return subcommand.AsUsage(err)
		}
		cells, err := sweep.Plan(choice.impl, choice.workload, choice.threads, choice.params, cmds...)
		if err != nil {
			return subcommand.AsUsage(err)
		}
		if cells, err = harness.Match(cells, *match); err != nil {
			return subcommand.AsUsage(err)
		}
		provider, _, err := sweep.CorpusProvider(ctx, "", false, *seed, io.Discard)
		if err != nil {
			return err
		}
		opts := def
		opts.Window, opts.Warmup, opts.Seed, opts.Corpus, opts.Pin = *window, *warmup, *seed, provider, *pin
		d := harness.NewDriver(cells, opts)
		if err := d.Setup(ctx); err != nil {
			return err
		}
		if err := serveArm(ctx, d, stdin, o.Stdout); err != nil {
			return err
		}
		if *out == "" {
			return nil
		}
		res := d.Outcome()
		res.Command = "perfrun arm " + strings.Join(args, " ")
		var buf bytes.Buffer
		if err := res.Set().Write(&buf); err != nil {
			return err
		}
		return regularfile.Write(*out, buf.Bytes())
	}
}

// serveArm speaks the arm protocol on stdin and stdout: it names the
// cells, then measures a window of each cell asked for, until told to quit
// or stdin ends.
func serveArm(ctx context.Context, d *harness.Driver, stdin io.Reader, stdout io.Writer) error {
	w := bufio.NewWriter(stdout)
	fmt.Fprintln(w, ab.ArmProtocol)
	for _, c := range d.Cells() {
		fmt.Fprintf(w, "%s %s\n", ab.ArmCell, c.Name())
	}
	fmt.Fprintln(w, ab.ArmReady)
	if err := w.Flush(); err != nil {
		return err
	}
	in := bufio.NewScanner(stdin)
	for in.Scan() {
		verb, name, _ := strings.Cut(strings.TrimSpace(in.Text()), " ")
		if verb == ab.ArmQuit {
			break
		}
		if verb != ab.ArmWindow {
			return subcommand.UsageError("arm: unknown request %q (want %q or %q)", in.Text(), ab.ArmWindow+" NAME", ab.ArmQuit)
		}
		s, err := d.Window(ctx, name)
		if err != nil {
			return err
		}
		values := make(map[string]float64, len(s.Metrics))
		for _, m := range s.Metrics {
			values[m.Unit] = m.Value
		}
		js, err := json.Marshal(values)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s %s %s\n", ab.ArmSample, name, js)
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}
