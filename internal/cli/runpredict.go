package cli

import "flag"

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
