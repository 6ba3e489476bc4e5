package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes the test binary double as perfrun, so scripts in
// testdata/script run the real command line: exit codes, stdout, stderr.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"perfrun": func() { os.Exit(run(os.Stdout, os.Stderr, os.Args[1:])) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
