package compare

import (
	"fmt"
	"os"
	"testing"

	"github.com/perfrun/perfrun/internal/recorded"
)

// journey and campaigns are the recorded runs the tests replay, unpacked
// from testdata (the A/A campaigns from internal/recorded's): the baseline journey's results files (results/
// baseline-journey) and the windows of ab's A/A campaigns (results/archive/campaigns,
// aa-*.csv: the noise model fits those alone).
var journey, campaignsDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "perfrun-compare-")
	if err == nil {
		journey, err = recorded.Unpack(dir, "testdata/journey.tar.bz2")
	}
	if err == nil {
		campaignsDir, err = recorded.Unpack(dir, recorded.Path("aa-campaigns.tar.bz2"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
