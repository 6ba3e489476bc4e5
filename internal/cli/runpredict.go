package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/perfrun/perfrun/internal/cellops"
	"github.com/perfrun/perfrun/internal/subcommand"

	"github.com/perfrun/perfrun/internal/summary"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/records"
)

// countForPrediction counts, for -predict, what -instructions and -locks
// did not already: a count that cannot be taken costs the prediction, not
// the run, and says why.
func (f *runFlags) countForPrediction(ctx context.Context, o *subcommand.Streams, res *harness.Outcome) {
	args := cellops.Args(f.corpus, f.strict, f.seed)
	var err error
	if !f.instructions {
		// A prediction needs one count a cell: five are a gate's sample.
		err = cellops.CountInstructions(ctx, res, 1, args, o.Stderr, f.quiet)
	}
	if err == nil && !f.locks && ctx.Err() == nil {
		err = cellops.CountLocks(ctx, res, args, o.Stderr, f.quiet)
	}
	if err != nil {
		f.noPrediction = err.Error()
	}
}

// pastTheCores prints what the designs' counts predict at -predict
// threads (summary.WritePast), or why there is no prediction.
func (f *runFlags) pastTheCores(o *subcommand.Streams, set *records.Set) {
	if f.noPrediction != "" {
		fmt.Fprintf(o.Stderr, "perfrun: run: no prediction at %d threads: a count failed: %s\n", f.predict, f.noPrediction)
		return
	}
	if err := summary.WritePast(o.Stdout, set, f.predict); err != nil {
		fmt.Fprintf(o.Stderr, "perfrun: run: no prediction at %d threads: %v\n", f.predict, err)
	}
}

// mainJobPredicts is the thread count the main job predicts at: where PR
// 28599's tables show the designs about 6× apart.
const mainJobPredicts = 16

// defaultPredict sets -predict, where it was not given, for the main job:
// a run that chooses no implementation, workload, thread count, parameter,
// corpus, cell or command measures the default suite, and answers past the
// cores too; a run shaped by hand predicts when asked.
func (f *runFlags) defaultPredict(fs *flag.FlagSet) {
	// The prediction prints beside the tables: a run that prints another
	// format counts nothing for it.
	if !given(fs, append(shapingFlags, "predict")...) && f.format == "table" {
		f.predict = mainJobPredicts
	}
}
