package history

import (
	"os"
	"testing"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/perfrun/perfrun/history/internal/pgxserver"
	"github.com/perfrun/perfrun/internal/needs"
)

// The databases, as history/drivers registers them; these tests are in
// package history, which that package imports.
func init() { Register(pgxserver.Driver{}) }

// TestMain: the concurrency tests run this binary again as writers and
// creators; under -race those would each sleep a second at exit.
func TestMain(m *testing.M) {
	needs.QuickChildExit()
	os.Exit(m.Run())
}
