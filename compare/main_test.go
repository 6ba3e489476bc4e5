package compare

import (
	"fmt"
	"os"
	"testing"

	"github.com/perfrun/perfrun/internal/recorded"
)

// journey and campaigns are the recorded runs the tests replay, unpacked
// from testdata: the baseline journey's results files (results/
// baseline-journey) and the windows of ab's A/A campaigns (results/archive/campaigns,
// aa-*.csv: the noise model fits those alone).
var journey, campaignsDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "perfrun-compare-")
	if err == nil {
		journey, err = recorded.Unpack("testdata/journey.tar.gz", dir)
	}
	if err == nil {
		campaignsDir, err = recorded.Unpack("testdata/campaigns.tar.gz", dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
