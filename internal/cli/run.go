package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/report"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/workloads"
)

var cmdRun = &command{
	name: "run", args: "[flags]", short: "measure implementations under workloads (the main job)",
	long: `Run measures every implementation under every workload on every thread
count, R rounds in shuffled order, checks every answer, prints a summary and
writes the results in the Go benchmark format (benchstat reads them:
benchstat -col /impl -row /threads FILE).

With no flags it runs the default suite: all implementations, the issuer
workload on 1024 generated CAs, threads 1 to 2x the cores, in about a minute,
and writes perfrun-out/results.txt with its plots beside it. Cells with more
threads than cores are marked oversubscribed.

Every round also measures a control cell per thread count (Control/threads=N):
perfectly parallel private work whose throughput over one thread, p(N), is the
parallelism the machine delivered. The tables give each design's efficiency,
its speedup over p(N). A round in which the control got less than 85% of N
cores, or a worker waited for a CPU a quarter of its window, or the
hypervisor stole 5% of the machine, is set aside (kept in the file under a
"quarantined:" line, left out of tables, plots and verdicts) and measured
again at the end (-quarantine=false to keep every round).`,
}

func init() { cmdRun.run = runRun }

// longRun is how long a run may take before run says so up front.
const longRun = 10 * time.Minute

// printers are run's -format choices; each prints a results set.
var printers = map[string]func(io.Writer, *records.Set, int) error{
	"table":    func(w io.Writer, s *records.Set, cores int) error { report.WriteSeedTables(w, s, cores); return nil },
	"benchfmt": func(w io.Writer, s *records.Set, _ int) error { return s.Write(w) },
	"jmh":      report.WriteJMH,
	"csv":      report.WriteCSV,
	"json":     report.WriteJSON,
}

func runRun(ctx context.Context, o *streams, args []string) error {
	fs := cmdRun.flags(o)
	def := harness.DefaultOptions
	implFlag := fs.String("impl", strings.Join(impls.Names(), ","), "implementations, comma-separated")
	workloadFlag := fs.String("workload", "issuer", "workloads, comma-separated (see perfrun list)")
	threadsFlag := fs.String("threads", fmt.Sprintf("1-%d", 2*harness.Cores()), "thread counts: 1,2,4,8 or ranges like 1-18/2")
	var params listFlag
	fs.Var(&params, "param", "workload parameter `name=v1,v2,...` (repeatable; several values sweep)")
	rounds := fs.Int("rounds", def.Rounds, "rounds; each measures every cell once")
	window := fs.Duration("window", def.Window, "measured time per cell and round")
	warmup := fs.Duration("warmup", def.Warmup, "unmeasured warm-up before each window")
	corpusPath := fs.String("corpus", "", "PEM bundle or directory of PEM/DER files (default: generated)")
	strict := fs.Bool("strict", false, "refuse a corpus with bad blocks instead of skipping them")
	seed := fs.Uint64("seed", def.Seed, "seed of the generated corpus and of the round order")
	orderSeed := fs.Uint64("order-seed", 0, "seed of the round order alone (0: -seed)")
	match := fs.String("match", "", "only cells whose benchmark name matches this regular expression")
	instructions := fs.Bool("instructions", false, "also count instructions/op of 1-thread cells under valgrind (callgrind)")
	out := fs.String("o", defaultOutput, "results file (Go benchmark format); empty for none")
	format := fs.String("format", "table", "what to print: table, benchfmt, jmh, csv, json")
	quiet := fs.Bool("q", false, "no progress on stderr")
	var labels listFlag
	fs.Var(&labels, "label", "extra configuration line `key=value` for the results, e.g. machine=arm64 (repeatable)")
	plotDir := fs.String("plots", "", "directory for plots (default: beside -o, as NAME-plots; \"none\" for none)")
	pin := fs.Bool("pin", def.Pin, "pin each worker to a CPU of its own when the threads fit the CPUs")
	quarantine := fs.Bool("quarantine", true, "set aside and re-measure rounds the machine disturbed (see above)")
	precision := fs.String("precision", "", "add rounds until every gated cell's median is known to within this, e.g. 2%")
	maxTime := fs.Duration("max-time", def.MaxTime, "with -precision: stop adding rounds when the run has taken this long")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of each cell into `DIR` (an extra window after round 1)")
	mutexProfile := fs.String("mutexprofile", "", "write a mutex contention profile of each cell into `DIR`")
	blockProfile := fs.String("blockprofile", "", "write a blocking profile of each cell into `DIR`")
	saveAs := fs.String("save-baseline", "", "also save the results as the named baseline `NAME` (see perfrun baselines)")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	cells, err := planCells(*implFlag, *workloadFlag, *threadsFlag, params)
	if err != nil {
		return asUsage(err)
	}
	printer, ok := printers[*format]
	if !ok {
		return usageError("unknown format %q (have table, benchfmt, jmh, csv, json)", *format)
	}
	if *rounds < 1 || *window <= 0 || *warmup < 0 {
		return usageError("-rounds and -window must be positive, -warmup not negative")
	}
	if *window < harness.MinWindow {
		return usageError("-window %v is shorter than %v: a worker reads the clock once per batch of about 100µs, so a shorter window measures a batch, not a rate", *window, harness.MinWindow)
	}
	if *out != "" {
		if err := checkOutput(*out); err != nil {
			return asUsage(err)
		}
	}
	if *saveAs != "" {
		if err := checkBaselineName(*saveAs); err != nil {
			return err
		}
	}
	prec, err := parsePercent(*precision)
	if err != nil {
		return usageError("bad -precision %q: want a percentage above 0 and below 100, e.g. 2%%", *precision)
	}
	if *maxTime <= 0 {
		return usageError("-max-time must be positive")
	}
	profiles := harness.Profiles{CPU: *cpuProfile, Mutex: *mutexProfile, Block: *blockProfile, Write: writeOwned}
	for _, dir := range []string{*cpuProfile, *mutexProfile, *blockProfile} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var kvs []workloads.KV
	for _, l := range labels {
		kv, err := harness.ParseLabel(l)
		if err != nil {
			return asUsage(err)
		}
		kvs = append(kvs, kv)
	}
	// Flags are checked; now the corpus, which may take a while to load:
	// an interrupt stops that too.
	ctx, stop := interruptible(ctx)
	defer stop()
	provider, loaded, err := corpusProvider(ctx, *corpusPath, *strict, *seed, o.stderr)
	if err != nil {
		return err
	}
	if loaded > 0 {
		// A loaded corpus has the size it has: say so in every cell name.
		for _, p := range params {
			if strings.HasPrefix(p, "certs=") {
				fmt.Fprintf(o.stderr, "perfrun: run: -param %s ignored: the loaded corpus has %d CAs\n", p, loaded)
			}
		}
		params = append(withoutParam(params, "certs"), fmt.Sprintf("certs=%d", loaded))
		params = fitLoad(params, provider, o.stderr)
		if cells, err = planCells(*implFlag, *workloadFlag, *threadsFlag, params); err != nil {
			return asUsage(err)
		}
	}
	if cells, err = filterCells(cells, *match); err != nil {
		return asUsage(err)
	}
	if loaded == 0 {
		// A generated corpus this machine cannot hold is refused before
		// any of it is made.
		for _, c := range cells {
			if v := c.Params.Get("certs"); v != "" {
				if err := fitsMemory(c.Params.Int("certs")); err != nil {
					return asUsage(err)
				}
			}
		}
	}
	cells = withFloors(cells)
	if est := time.Duration(*rounds) * time.Duration(len(cells)) * (*window + *warmup); est > longRun && !*quiet {
		fmt.Fprintf(o.stderr, "perfrun: run: %d cells × %d rounds × %v will take at least %v; Ctrl-C keeps the rounds completed by then\n",
			len(cells), *rounds, *window+*warmup, est.Round(time.Minute))
	}
	opts := def
	opts.Rounds, opts.Window, opts.Warmup, opts.Seed, opts.Corpus = *rounds, *window, *warmup, *seed, provider
	opts.OrderSeed = *orderSeed
	opts.Pin, opts.Precision, opts.MaxTime, opts.Profiles = *pin, prec, *maxTime, profiles
	if !*quarantine {
		opts.Quarantine = harness.Quarantine{}
	}
	if !*quiet {
		opts.Progress = progressPrinter(o.stderr)
	}
	res, err := harness.Run(ctx, cells, opts)
	if !*quiet && isTerminal(o.stderr) {
		fmt.Fprint(o.stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	res.Labels = kvs
	res.Command = "perfrun " + strings.Join(os.Args[1:], " ")
	if *instructions && !res.Incomplete {
		if err := countInstructions(ctx, res, res.Periods, cellOpsArgs(*corpusPath, *strict, *seed), o.stderr, *quiet); err != nil {
			return fmt.Errorf("instructions: %v", err)
		}
	}
	set := res.Set()
	if *out != "" || *saveAs != "" {
		var buf bytes.Buffer
		if err := set.Write(&buf); err != nil {
			return err
		}
		if *out != "" {
			if err := writeFile(*out, buf.Bytes()); err != nil {
				return err
			}
		}
		if *saveAs != "" && !res.Incomplete {
			path, err := saveBaseline(*saveAs, buf.Bytes())
			if err != nil {
				return err
			}
			if !*quiet {
				fmt.Fprintf(o.stderr, "perfrun: saved baseline %s (%s); gate against it with: perfrun gate -baseline %s NEW\n", *saveAs, path, *saveAs)
			}
		}
	}
	if dir := *plotDir; dir != "none" && (dir != "" || *out != "") {
		if dir == "" {
			dir = plotsDir(*out)
		}
		files, err := drawPlots([]*records.Set{set}, dir)
		if err != nil {
			return fmt.Errorf("plots: %v", err)
		}
		if len(files) > 0 && !*quiet {
			fmt.Fprintf(o.stderr, "perfrun: wrote %d plots to %s\n", len(files), dir)
		}
	}
	if err := printer(o.stdout, set, harness.Cores()); err != nil {
		return err
	}
	if !*quiet {
		summarize(o.stderr, res)
	}
	if *out != "" && !*quiet {
		fmt.Fprintf(o.stderr, "perfrun: wrote %s (%d samples, %s); read it with: benchstat -col /impl -row /threads %s\n",
			*out, len(res.Samples), res.Wall.Round(time.Second), *out)
	}
	if res.Incomplete {
		return fmt.Errorf("interrupted: kept the %d completed rounds", res.CompletedRounds())
	}
	return nil
}

// parsePercent reads "2%" or "0.02" as a fraction strictly between 0 and
// 1; "" is 0 (not asked for).
func parsePercent(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	scale := 1.0
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s, scale = t, 0.01
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	v *= scale
	if err != nil || !(v > 0 && v < 1) {
		return 0, fmt.Errorf("not a fraction between 0 and 1")
	}
	return v, nil
}

// summarize says what the run set aside, added and could not reach.
func summarize(w io.Writer, res *harness.Outcome) {
	if n, why := res.SetAside(); n > 0 {
		fmt.Fprintf(w, "perfrun: set aside %d samples the machine disturbed (%s); %d rounds added to measure them again\n",
			n, strings.Join(why, "; "), res.ExtraRounds)
	} else if res.ExtraRounds > 0 {
		fmt.Fprintf(w, "perfrun: %d rounds added for -precision\n", res.ExtraRounds)
	}
	var unsupported []string
	for name := range res.Unsupported {
		unsupported = append(unsupported, name)
	}
	sort.Strings(unsupported)
	for _, name := range unsupported {
		fmt.Fprintf(w, "perfrun: %s: not measured: %s\n", name, res.Unsupported[name])
	}
	for _, name := range res.Imprecise {
		fmt.Fprintf(w, "perfrun: %s: not within -precision by -max-time\n", name)
	}
}
