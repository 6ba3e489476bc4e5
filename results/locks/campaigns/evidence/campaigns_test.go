package evidence

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/recorded"
)

// TestReplayReproducesCampaigns: judged again from their recorded windows,
// the campaigns of results/archive/campaigns (their windows in its
// windows.tar.bz2 and, the A/A ones, in internal/recorded's
// aa-campaigns.tar.bz2; the verdicts ab gave them as they ran in
// verdicts.txt) get those verdicts — so a verdict re-derived from a run's
// data by a trusted job is the verdict of the run.
func TestReplayReproducesCampaigns(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := recorded.Unpack(t.TempDir(), filepath.Join(root, "archive", "campaigns", "windows.tar.bz2"),
		filepath.Join(root, "..", "internal", "recorded", "testdata", "aa-campaigns.tar.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "verdicts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, verdict, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			t.Fatalf("verdicts.txt: bad line %q", sc.Text())
		}
		n++
		data, err := os.ReadFile(filepath.Join(dir, name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ab.ReadWindows(strings.NewReader(string(data)), 2)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		looks, measure := rec.Replay(10, 3)
		rep, err := compare.Sequential(compare.DefaultThresholds, looks, measure)
		if err != nil {
			t.Fatal(err)
		}
		if string(rep.Verdict) != verdict {
			t.Errorf("%s: replayed %s, recorded %s", name, rep.Verdict, verdict)
		}
	}
	if n != 25 {
		t.Fatalf("found %d campaigns in verdicts.txt, want the 25 recorded", n)
	}
}
