//go:build openssl

package harness_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perfrun/perfrun/harness"
	"github.com/perfrun/perfrun/harness/foreign"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/store/corpus"
	"github.com/perfrun/perfrun/workloads"
)

// TestIssuerDriver builds issuerdrv (impls/openssl/issuerdrv: the real
// store from plain pthreads) against the library the openssl tag links and
// runs it as a command cell:
// on hits it prints a time per call at 1 and 2 threads; on leaves whose
// issuer is absent its answer check fails the run.
func TestIssuerDriver(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "..", "impls", "openssl")
	bin := filepath.Join(t.TempDir(), "issuerdrv")
	if out, err := exec.Command(filepath.Join(dir, "cc-libcrypto.sh"), bin, filepath.Join(dir, "issuerdrv", "issuerdrv.c"), "-Wall", "-Werror").CombinedOutput(); err != nil {
		t.Fatalf("building issuerdrv: %v\n%s", err, out)
	}
	cmd, err := foreign.Parse("issuerdrv="+bin+" {corpus} {threads} 0.02 {at}", "")
	if err != nil {
		t.Fatal(err)
	}
	run := func(hit string) (*harness.Outcome, []harness.Cell, error) {
		sweep, _ := harness.ParseSweep([]string{"certs=16", "hit=" + hit})
		cells, err := harness.PlanCommands([]*foreign.Command{cmd}, []workloads.Workload{workloads.Issuer}, sweep, []int{1, 2})
		if err != nil {
			t.Fatal(err)
		}
		opts := harness.DefaultOptions
		opts.Rounds, opts.Window, opts.Warmup, opts.Quarantine = 1, 20*time.Millisecond, 0, harness.Quarantine{}
		opts.Corpus = func(cas int) (*corpus.Corpus, error) {
			return corpus.Cached(corpus.Spec{Seed: 1, CAs: cas, Hits: cas, Misses: cas / 4})
		}
		res, err := harness.Run(context.Background(), cells, opts)
		return res, cells, err
	}
	res, cells, err := run("1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if got := res.Values(c, records.NsPerCall); len(got) != 1 || got[0] <= 0 {
			t.Errorf("%s: ns/call %v, want one positive time", c.Name(), got)
		}
	}
	if _, _, err := run("0"); err == nil || !strings.Contains(err.Error(), "no issuer, or a wrong one") {
		t.Errorf("leaves whose issuer is absent: err %v, want the driver's failed answer check", err)
	}
}
