// Package evidence holds ab's decision to the campaigns it was recorded
// on: each one that kept its windows, judged again with `ab -v -replay`,
// prints what its golden file holds, byte for byte, and the 25 campaigns
// of results/archive/campaigns get the verdicts they got as they ran.
package evidence

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/cli"
	"github.com/perfrun/perfrun/internal/recorded"
)

var update = flag.Bool("update", false, "rewrite the golden files with today's replays")

// replay is one recorded campaign: where its windows are (relative to
// results/), how they are kept, and ab's flags beside -replay.
type replay struct {
	name, windows string
	flags         []string
}

var replays = []replay{
	{"report-c-hashmap", "locks/report-c-hashmap/windows.csv", nil},
	{"ab-3.0-4.0", "fidelity/ab-3.0-4.0/windows.csv", nil},
	{"x509storeissuer-ab", "fidelity/x509storeissuer-ab/windows.csv", nil},
	{"busy-runner-before", "archive/busy-runner/ab-before/windows.csv.gz", nil},
	{"busy-runner-after", "archive/busy-runner/ab-after/windows.csv.gz", nil},
	{"c-rshards-at16", "locks/rshards/at16/windows.csv", []string{"-at", "16"}},
	{"c-rshards-defaults", "locks/rshards/defaults/windows.csv", nil},
	{"c-rshards2-busy2", "locks/rshards2/busy2/windows.csv", nil},
	{"c-rshards2-busy1", "locks/rshards2/busy1/windows.csv", nil},
	{"c-rshards2-alone", "locks/rshards2/alone/windows.csv", nil},
	{"c-stripes-amd", "locks/stripes-amd/windows.csv", nil},
	// A round on the near pair of cores, set aside by the pair rule live
	// and again here (scaling/runner/placement).
	{"m-rcuoneline2-7103", "scaling/runner/placement/m-rcuoneline2-7103.windows.csv.gz", nil},
	// A writer among readers, whose parked readers the prediction weighs:
	// alone and beside two and one busy loops (locks/soiwrite64).
	{"r-soiwrite64-alone", "locks/soiwrite64/alone/windows.csv", nil},
	{"r-soiwrite64-busy2", "locks/soiwrite64/busy2/windows.csv", nil},
	{"r-soiwrite64-busy1", "locks/soiwrite64/busy1/windows.csv", nil},
	// A writer once in 256 lookups, whose convoy with the readers it woke
	// the prediction names as a blind spot (locks/hashwrite128).
	{"t-hashwrite128-alone", "locks/hashwrite128/alone/windows.csv", nil},
	{"t-hashwrite128-busy2", "locks/hashwrite128/busy2/windows.csv", nil},
	{"t-hashwrite128-busy1", "locks/hashwrite128/busy1/windows.csv", nil},
}

// TestReplaysHoldTheirGoldens: every recorded campaign, and the ten A/A
// campaigns perfrun's own tests replay, judged again at ab's defaults,
// prints its golden file (golden-NAME.txt: the exit code, then stdout and
// stderr as a terminal shows them). A change to a verdict, a reason, a
// table or a note shows here as a diff; go test -update rewrites them,
// and the diff is what a reviewer reads.
func TestReplaysHoldTheirGoldens(t *testing.T) {
	if runtime.NumCPU() != 2 {
		// The A/A recordings name no cores: they are judged on the
		// machine's own, and the goldens are this project's 2-core runner's.
		t.Skipf("the goldens are a 2-core machine's; this one has %d", runtime.NumCPU())
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	here, err := filepath.Abs(".") // judge works in the campaign's folder
	if err != nil {
		t.Fatal(err)
	}
	all := replays
	aa, err := recorded.Unpack(t.TempDir(), filepath.Join(root, "..", "internal", "recorded", "testdata", "aa-campaigns.tar.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 10; i++ {
		all = append(all, replay{name: fmt.Sprintf("aa-%d", i), windows: filepath.Join(aa, fmt.Sprintf("aa-%d.csv", i))})
	}
	for _, r := range all {
		t.Run(r.name, func(t *testing.T) {
			windows := r.windows
			if !filepath.IsAbs(windows) {
				windows = filepath.Join(root, windows)
			}
			got := judge(t, windows, r.flags)
			golden := filepath.Join(here, "golden-"+r.name+".txt")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("ab -v -replay %s no longer prints %s:\n%s", r.windows, golden, lineDiff(string(want), string(got)))
			}
		})
	}
}

// judge replays windows (gunzipped first where kept so) from the folder
// it is in, beside its counts, and returns the exit code and the output.
func judge(t *testing.T, windows string, flags []string) []byte {
	t.Helper()
	dir, base := filepath.Split(windows)
	if strings.HasSuffix(base, ".gz") {
		base = strings.TrimSuffix(base, ".gz")
		tmp := t.TempDir()
		if err := gunzip(windows, filepath.Join(tmp, base)); err != nil {
			t.Fatal(err)
		}
		dir = tmp
	}
	t.Chdir(dir)
	var out bytes.Buffer
	code := cli.Main(append(append([]string{"ab", "-v"}, flags...), "-replay", base), &out, &out, nil)
	return append([]byte(fmt.Sprintf("exit %d\n", code)), out.Bytes()...)
}

// lineDiff names the first line that differs, with both versions of it.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d\n  golden: %q\n  now:    %q", i+1, a, b)
		}
	}
	return "the same lines, other bytes"
}

func gunzip(from, to string) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}
