package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/report"
	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/workloads"
	"github.com/perfrun/perfrun/workloads/corpus"
)

const runDoc = `Run measures every implementation under every workload on every thread
count, R rounds in shuffled order, checks every answer, prints a summary and
writes the results in the Go benchmark format (benchstat reads them:
benchstat -col /impl -row /threads FILE).

With no flags it runs the default suite: all implementations, the issuer
workload on 1024 generated CAs, threads 1 to 2x the cores, in about a minute.
Cells with more threads than cores are marked oversubscribed.`

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func cmdRun(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("run", "[flags]", runDoc, stderr)
	implFlag := fs.String("impl", strings.Join(impls.Names(), ","), "implementations, comma-separated")
	workloadFlag := fs.String("workload", "issuer", "workloads, comma-separated (see perfrun list)")
	threadsFlag := fs.String("threads", fmt.Sprintf("1-%d", 2*harness.Cores()), "thread counts: 1,2,4,8 or ranges like 1-18/2")
	var params listFlag
	fs.Var(&params, "param", "workload parameter `name=v1,v2,...` (repeatable; several values sweep)")
	rounds := fs.Int("rounds", 5, "rounds; each measures every cell once")
	window := fs.Duration("window", 500*time.Millisecond, "measured time per cell and round")
	warmup := fs.Duration("warmup", 100*time.Millisecond, "unmeasured warm-up before each window")
	corpusPath := fs.String("corpus", "", "PEM bundle or directory of PEM/DER files (default: generated)")
	strict := fs.Bool("strict", false, "refuse a corpus with bad blocks instead of skipping them")
	seed := fs.Uint64("seed", 1, "seed of the generated corpus and of the round order")
	orderSeed := fs.Uint64("order-seed", 0, "seed of the round order alone (0: -seed)")
	match := fs.String("match", "", "only cells whose benchmark name matches this regular expression")
	instructions := fs.Bool("instructions", false, "also count instructions/op of 1-thread cells under valgrind (callgrind)")
	out := fs.String("o", "perfrun-results.txt", "results file (Go benchmark format); empty for none")
	format := fs.String("format", "table", "what to print: table, benchfmt, jmh, csv, json")
	quiet := fs.Bool("q", false, "no progress on stderr")
	var labels listFlag
	fs.Var(&labels, "label", "extra configuration line `key=value` for the results, e.g. machine=arm64 (repeatable)")
	plotDir := fs.String("plots", "", "directory for plots (default: beside -o, as NAME-plots; \"none\" for none)")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	cells, err := planCells(*implFlag, *workloadFlag, *threadsFlag, params)
	if err != nil {
		errorf(stderr, "run", "%v", err)
		return exitUsage
	}
	printer, ok := printers[*format]
	if !ok {
		errorf(stderr, "run", "unknown format %q (have table, benchfmt, jmh, csv, json)", *format)
		return exitUsage
	}
	if *rounds < 1 || *window <= 0 || *warmup < 0 {
		errorf(stderr, "run", "-rounds and -window must be positive, -warmup not negative")
		return exitUsage
	}
	if *out != "" {
		if err := checkWritableDir(*out); err != nil {
			errorf(stderr, "run", "%v", err)
			return exitUsage
		}
	}
	var kvs []harness.KV
	for _, l := range labels {
		k, v, ok := strings.Cut(l, "=")
		if !ok || k == "" || strings.ContainsAny(k, " :\t") {
			errorf(stderr, "run", "bad -label %q: want key=value", l)
			return exitUsage
		}
		kvs = append(kvs, harness.KV{Key: k, Value: v})
	}
	// Flags are checked; now the corpus, which may take a while to load.
	provider, loaded, err := corpusProvider(*corpusPath, *strict, *seed, stderr)
	if err != nil {
		errorf(stderr, "run", "%v", err)
		return exitFailure
	}
	if loaded > 0 {
		// A loaded corpus has the size it has: say so in every cell name.
		for _, p := range params {
			if strings.HasPrefix(p, "certs=") {
				fmt.Fprintf(stderr, "perfrun: run: -param %s ignored: the loaded corpus has %d CAs\n", p, loaded)
			}
		}
		params = append(withoutParam(params, "certs"), fmt.Sprintf("certs=%d", loaded))
		if cells, err = planCells(*implFlag, *workloadFlag, *threadsFlag, params); err != nil {
			errorf(stderr, "run", "%v", err)
			return exitUsage
		}
	}
	if cells, err = filterCells(cells, *match); err != nil {
		errorf(stderr, "run", "%v", err)
		return exitUsage
	}
	opts := harness.DefaultOptions
	opts.Rounds, opts.Window, opts.Warmup, opts.Seed, opts.Corpus = *rounds, *window, *warmup, *seed, provider
	opts.OrderSeed = *orderSeed
	if !*quiet {
		opts.Progress = progressPrinter(stderr)
	}
	ctx, stop := interruptible()
	defer stop()
	res, err := harness.Run(ctx, cells, opts)
	if res != nil {
		res.Labels = kvs
	}
	if !*quiet && isTerminal(stderr) {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		errorf(stderr, "run", "%v", err)
		return exitFailure
	}
	if *instructions && !res.Incomplete {
		if err := countInstructions(ctx, res, res.Periods, cellOpsArgs(*corpusPath, *strict, *seed), stderr, *quiet); err != nil {
			errorf(stderr, "run", "instructions: %v", err)
			return exitFailure
		}
	}
	if *out != "" {
		var buf bytes.Buffer
		if err := report.WriteBenchfmt(&buf, res); err == nil {
			err = writeFileAtomic(*out, buf.Bytes())
		}
		if err != nil {
			errorf(stderr, "run", "%v", err)
			return exitFailure
		}
	}
	if dir := *plotDir; dir != "none" && (dir != "" || *out != "") {
		if dir == "" {
			dir = plotsDir(*out)
		}
		if err := plotResults(res, dir, stderr, *quiet); err != nil {
			errorf(stderr, "run", "plots: %v", err)
			return exitFailure
		}
	}
	if err := printer(stdout, res); err != nil {
		errorf(stderr, "run", "%v", err)
		return exitFailure
	}
	if *out != "" && !*quiet {
		fmt.Fprintf(stderr, "perfrun: wrote %s (%d samples, %s); read it with: benchstat -col /impl -row /threads %s\n",
			*out, len(res.Samples), res.Wall.Round(time.Second), *out)
	}
	if res.Incomplete {
		errorf(stderr, "run", "interrupted: kept the %d completed rounds", len(res.Samples)/max(len(cells), 1))
		return exitFailure
	}
	return exitOK
}

var printers = map[string]func(io.Writer, *harness.Results) error{
	"table":    func(w io.Writer, r *harness.Results) error { report.WriteSeedTables(w, r); return nil },
	"benchfmt": report.WriteBenchfmt,
	"jmh":      report.WriteJMH,
	"csv":      report.WriteCSV,
	"json":     report.WriteJSON,
}

// plotResults draws the run's plots when there is something to draw.
func plotResults(res *harness.Results, dir string, stderr io.Writer, quiet bool) error {
	set, err := resultsSet(res)
	if err != nil {
		return err
	}
	_, files, err := drawPlots(set, dir)
	if err == nil && len(files) > 0 && !quiet {
		fmt.Fprintf(stderr, "perfrun: wrote %d plots to %s\n", len(files), dir)
	}
	return err
}

// planCells expands the flags into cells: implementations × workloads ×
// parameter sweeps × threads.
func planCells(implList, workloadList, threadList string, params []string) ([]harness.Cell, error) {
	var ims []impls.Impl
	for _, name := range splitList(implList) {
		im, err := impls.Lookup(name)
		if err != nil {
			return nil, err
		}
		ims = append(ims, im)
	}
	var wls []workloads.Workload
	for _, name := range splitList(workloadList) {
		w, err := workloads.Lookup(name)
		if err != nil {
			return nil, err
		}
		wls = append(wls, w)
	}
	threads, err := harness.ParseThreads(threadList)
	if err != nil {
		return nil, err
	}
	sweep := make(map[string][]string)
	var order []string
	for _, p := range params {
		name, values, ok := strings.Cut(p, "=")
		if !ok || values == "" {
			return nil, fmt.Errorf("bad -param %q: want name=value[,value...]", p)
		}
		if !workloads.Known(name) {
			return nil, fmt.Errorf("unknown parameter %q (see perfrun list)", name)
		}
		if _, dup := sweep[name]; !dup {
			order = append(order, name)
		}
		sweep[name] = append(sweep[name], splitList(values)...)
	}
	if len(ims) == 0 || len(wls) == 0 {
		return nil, fmt.Errorf("no implementation or no workload selected")
	}
	var cells []harness.Cell
	for _, w := range wls {
		for _, set := range combinations(w, sweep, order) {
			p, err := w.Resolve(set)
			if err != nil {
				return nil, err
			}
			for _, im := range ims {
				for _, t := range threads {
					cells = append(cells, harness.Cell{Impl: im, Workload: w, Params: p, Threads: t})
				}
			}
		}
	}
	return cells, nil
}

// combinations returns every assignment of the swept values that the
// workload declares (others are ignored for it).
func combinations(w workloads.Workload, sweep map[string][]string, order []string) []map[string]string {
	sets := []map[string]string{{}}
	for _, name := range order {
		declared := false
		for _, p := range w.Params {
			declared = declared || p.Name == name
		}
		if !declared {
			continue
		}
		var next []map[string]string
		for _, s := range sets {
			for _, v := range sweep[name] {
				m := make(map[string]string, len(s)+1)
				for k, x := range s {
					m[k] = x
				}
				m[name] = v
				next = append(next, m)
			}
		}
		sets = next
	}
	return sets
}

// filterCells keeps the cells whose name matches the expression.
func filterCells(cells []harness.Cell, expr string) ([]harness.Cell, error) {
	if expr == "" {
		return cells, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("bad -match: %v", err)
	}
	var out []harness.Cell
	for _, c := range cells {
		if re.MatchString(c.Name()) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-match %q selects no cell", expr)
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// withoutParam drops the -param values for name.
func withoutParam(params []string, name string) []string {
	var out []string
	for _, p := range params {
		if !strings.HasPrefix(p, name+"=") {
			out = append(out, p)
		}
	}
	return out
}

// corpusProvider returns where cells get their corpus: generated per size
// from the seed, or one loaded corpus for every cell (then loaded is its
// number of CAs).
func corpusProvider(path string, strict bool, seed uint64, stderr io.Writer) (provider func(int) (*corpus.Corpus, error), loaded int, err error) {
	if path == "" {
		return func(cas int) (*corpus.Corpus, error) {
			leaves := min(cas, 4096)
			return corpus.Cached(corpus.Spec{Seed: seed, CAs: cas, Hits: leaves, Misses: max(leaves/4, 1)})
		}, 0, nil
	}
	c, problems, err := corpus.Load(path, strict)
	for _, p := range problems {
		if !strict {
			fmt.Fprintf(stderr, "perfrun: run: skipped %v\n", p)
		}
	}
	if err != nil {
		return nil, 0, err
	}
	fmt.Fprintf(stderr, "perfrun: corpus %s: %d CAs, %d CRLs, %d leaves with issuer, %d without\n",
		path, len(c.CAs), len(c.CRLs), len(c.Hits), len(c.Misses))
	return func(int) (*corpus.Corpus, error) { return c, nil }, max(len(c.CAs), 1), nil
}

// interruptible returns a context that the first Ctrl-C (or SIGTERM)
// cancels; a second one kills the process as usual.
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

func progressPrinter(w io.Writer) func(harness.Progress) {
	tty := isTerminal(w)
	lastRound := 0
	return func(p harness.Progress) {
		eta := ""
		if d := p.ETA(); d > 0 {
			eta = " ETA " + d.String()
		}
		if tty {
			fmt.Fprintf(w, "\r\033[K[round %d/%d] %d/%d%s  %s", p.Round, p.Rounds, p.Done+1, p.Total, eta, p.Cell.Name())
			return
		}
		if p.Round != lastRound {
			lastRound = p.Round
			fmt.Fprintf(w, "perfrun: round %d/%d (%d cells done of %d)%s\n", p.Round, p.Rounds, p.Done, p.Total, eta)
		}
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

func checkWritableDir(path string) error {
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("output %s: directory %s does not exist", path, dir)
	}
	if !info.IsDir() {
		return fmt.Errorf("output %s: %s is not a directory", path, dir)
	}
	return nil
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it, so no reader ever sees half a results file.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
