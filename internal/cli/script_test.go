package cli

import (
	"errors"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/perfrun/perfrun/internal/needs"
	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/storetest"
)

// TestMain makes the test binary double as perfrun, so scripts in
// testdata/script run the real command line: exit codes, stdout, stderr.
// Each run leaves its exit code in $WORK/.exit, so a script can check the
// exact code with grep '^2$' $WORK/.exit. perfrun-panicky is perfrun with
// one more store, panicky, whose lookups panic: a store's bug.
func TestMain(m *testing.M) {
	needs.QuickChildExit()
	testscript.Main(cleanupM{m}, map[string]func(){
		"perfrun":         func() { exit(run(os.Stdout, os.Stderr, os.Args[1:])) },
		"perfrun-panicky": func() { exit(Main(os.Args[1:], os.Stdout, os.Stderr, []store.Impl{panicky})) },
	})
}

func exit(code int) {
	if f := os.Getenv("PERFRUN_TEST_EXITFILE"); f != "" {
		os.WriteFile(f, []byte(strconv.Itoa(code)+"\n"), 0o644)
	}
	os.Exit(code)
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(e *testscript.Env) error {
		e.Setenv("PERFRUN_TEST_EXITFILE", e.WorkDir+"/.exit")
		e.Setenv("GORACE", os.Getenv("GORACE"))
		e.Setenv("PERFRUN_CONSTANTS", os.Getenv("PERFRUN_CONSTANTS"))
		return nil
	}})
}

// panicky is a store with a bug: its lookups panic after a few thousand
// calls, so in a worker goroutine, past the allocation count.
var panicky = store.Impl{
	Name:        "panicky",
	Description: "a reference store whose lookups panic (a test's bug)",
	Rule:        store.ContractRule,
	New:         func() store.Store { return panickyStore{storetest.NewReference()} },
}

type panickyStore struct{ *storetest.Reference }

var panickyCalls atomic.Int64

func (s panickyStore) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {
	if panickyCalls.Add(1) > 5000 {
		panic(errors.New("panicky: index out of range"))
	}
	return s.Reference.Issuer(cert, at)
}
