package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/perfrun/perfrun/impls"
	"github.com/perfrun/perfrun/internal/subcommand"
)

// cellChoice is the flags that choose the cells a command measures,
// defined once for run, arm, ab and bisect so that they take them alike.
// Where a command's default differs, it differs on purpose and says why in
// its -h: run sweeps threads to twice the cores (the oversubscribed ones
// labelled), the gates stop at the cores, where a verdict can be had; ab
// and bisect measure every design each revision has.
type cellChoice struct {
	impl, workload, threads string
	params                  subcommand.ListFlag
}

// cellDefaults are one command's defaults that differ from the others'.
type cellDefaults struct {
	impl       string // "" names every design of each revision (ab, bisect)
	implNote   string
	threadsTop int
	threadNote string
	paramNote  string
}

// define puts -impl, -workload, -threads and -param on fs.
func (c *cellChoice) define(fs *flag.FlagSet, d cellDefaults) {
	fs.StringVar(&c.impl, "impl", d.impl, "implementations, comma-separated (see perfrun list)"+d.implNote)
	fs.StringVar(&c.workload, "workload", "issuer", "workloads, comma-separated (see perfrun list)")
	fs.StringVar(&c.threads, "threads", fmt.Sprintf("1-%d", d.threadsTop), "thread counts: 1,2,4,8 or ranges like 1-18/2"+d.threadNote)
	fs.Var(&c.params, "param", "workload parameter `name=v1,v2,...` (repeatable; several values sweep)"+d.paramNote)
}

// allImpls is every built-in design, the default of the commands that
// measure one build.
func allImpls() string { return strings.Join(impls.Names(), ",") }
