package foreign

import (
	"bytes"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/store/corpus"
)

func TestParseCommandOutput(t *testing.T) {
	cases := []struct {
		out, unit string
		ns        float64
		err       string
	}{
		// x509storeissuer's two forms: its sentence, and -t's bare number.
		{out: "Average time per X509_STORE_CTX_get1_issuer() call: 2.434803us\n", ns: 2434.803},
		{out: "2.434803\n", unit: "us", ns: 2434.803},
		{out: "warming up 3 threads\n1.5 ms per call\n", ns: 1.5e6},
		{out: "took 120ns\n", unit: "s", ns: 120}, // the printed unit wins
		{out: "2.434803\n", err: "no unit"},
		{out: "done\n", err: "printed no number"},
		{out: "0us\n", err: "want a positive number"},
		{out: "1e999 ns\n", err: "want a positive number"},
	}
	for _, c := range cases {
		cmd := &Command{Name: "t", Args: []string{"true"}, Unit: c.unit}
		ns, err := cmd.Time([]byte(c.out))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: err %v, want %q", c.out, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.out, err)
		case c.err == "" && ns != c.ns:
			t.Errorf("%q: %v ns, want %v", c.out, ns, c.ns)
		}
	}
}

func TestParseCommand(t *testing.T) {
	c, err := Parse("xsi=./x509storeissuer -t {corpus} {threads}", "us")
	if err != nil || c.Name != "xsi" || len(c.Args) != 4 || !c.UsesCorpus() {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []string{"xsi", "=cmd", "xsi=", "a/b=cmd", "a b=cmd", "a\x1b=cmd"} {
		if _, err := Parse(bad, ""); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := Parse("x=cmd", "parsecs"); err == nil {
		t.Error("unit parsecs accepted")
	}
}

// TestCorpusDirLeaves: a command's leaves.pem holds the leaves perfrun's
// own lookups rotate over — the first N of the kind with leaves=N, so at 1
// the very leaf servercert.pem holds.
func TestCorpusDirLeaves(t *testing.T) {
	co, err := corpus.Cached(corpus.Spec{Seed: 1, CAs: 16, Hits: 16, Misses: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		hit   float64
		limit int
		want  []corpus.Leaf
	}{{0, 0, co.Misses}, {0, 1, co.Misses[:1]}, {1, 3, co.Hits[:3]}, {1, 99, co.Hits}} {
		dir, err := WriteCorpus(co, tc.hit, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		all, _ := os.ReadFile(filepath.Join(dir, Files.Leaves))
		one, _ := os.ReadFile(filepath.Join(dir, Files.Leaf))
		os.RemoveAll(dir)
		var want bytes.Buffer
		for _, l := range tc.want {
			pem.Encode(&want, &pem.Block{Type: "CERTIFICATE", Bytes: l.Cert.DER})
		}
		if !bytes.Equal(all, want.Bytes()) {
			t.Errorf("hit=%v leaves=%d: leaves.pem holds %d certificates, want the first %d of the kind", tc.hit, tc.limit, bytes.Count(all, []byte("BEGIN")), len(tc.want))
		}
		if !bytes.HasPrefix(all, one) || len(one) == 0 {
			t.Errorf("hit=%v leaves=%d: servercert.pem is not the first leaf of leaves.pem", tc.hit, tc.limit)
		}
	}
}

// TestExpandKeepsPathsAsData: a corpus folder whose path holds a '$' is
// passed as it is; the command's own $VARIABLES are expanded (the path was
// expanded after substitution, so $HOME in it became the home folder).
func TestExpandKeepsPathsAsData(t *testing.T) {
	t.Setenv("PERFRUN_TEST_TOOL", "/opt/tool")
	cmd, err := Parse("tool=$PERFRUN_TEST_TOOL {corpus}/leaves.pem {threads}", "ns")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(cmd.Expand(2, "/tmp/a$HOME/b", 0), " ")
	if want := "/opt/tool /tmp/a$HOME/b/leaves.pem 2"; got != want {
		t.Errorf("expand = %q, want %q", got, want)
	}
}
