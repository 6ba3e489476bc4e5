package predict

import (
	"compress/bzip2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// readTestdata reads a results file of testdata, kept in bzip2 (a
// fifth of its text) so that the module's download stays small.
func readTestdata(t *testing.T, name string) *records.Set {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".bz2"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := records.Read(bzip2.NewReader(f), strings.TrimSuffix(name, ".txt"), name)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
