package cli

import (
	"flag"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/internal/ab"
)

// revisionCells are the flags of the commands that measure revisions
// through ab's arms — ab itself, and bisect, which runs ab: what to build
// (-repo, -pkg) and which cells (-impl, -workload, -threads, -param).
// Declared once, so the two take them alike.
type revisionCells struct {
	repo, pkg string
	cellChoice
}

func (c *revisionCells) define(fs *flag.FlagSet) {
	fs.StringVar(&c.repo, "repo", ".", "git repository")
	fs.StringVar(&c.pkg, "pkg", ab.DefaultPkg, "the main package to build at each revision, relative to the repository's root (a store's own main that calls perfrun.Main)")
	c.cellChoice.define(fs, cellDefaults{implNote: " (default: every design each revision has)", threadsTop: harness.Cores(),
		threadNote: " (default to the cores: oversubscribed ones are never gated)",
		paramNote:  " (the stores at cost=own, their structure and lock alone, where a change to one shows at its full size, unless -param cost says otherwise)"})
}

// cellArgs are the cell flags as ab and its arms take them.
func (c *revisionCells) cellArgs() []string {
	return ab.Cells{Impl: c.impl, Workload: c.workload, Threads: c.threads, Params: c.params}.Args()
}
