package history

import (
	"os"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
)

// TestMain: the concurrency tests run this binary again as writers and
// creators; under -race those would each sleep a second at exit.
func TestMain(m *testing.M) {
	needs.QuickChildExit()
	os.Exit(m.Run())
}
