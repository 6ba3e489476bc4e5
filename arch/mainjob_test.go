package arch

import (
	"slices"
	"testing"
)

// historyDatabases are what the binary go run ./cmd/perfrun builds leaves
// out: the history's SQLite and PostgreSQL driver, the largest part of
// perfrun to compile on a fresh machine, which the main job never opens.
var historyDatabases = []string{"modernc.org/", "github.com/jackc/"}

// TestMainJobBuildLeavesTheDatabasesOut: perfrun built as the README's
// first command builds it holds neither database; built with the history's
// tag it holds both, as its history commands need.
func TestMainJobBuildLeavesTheDatabasesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("go list of the module's dependencies")
	}
	for _, tags := range []string{"", "perfrun_history"} {
		found := databases(perfrunDeps(t, tags))
		if tags == "" && len(found) > 0 {
			t.Errorf("go run ./cmd/perfrun builds %v into the main job's binary", found)
		}
		if tags != "" && len(found) != len(historyDatabases) {
			t.Errorf("-tags %s: the build holds %v, want every one of %v", tags, found, historyDatabases)
		}
	}
}

// TestPlantedDatabaseFound shows the check failing on a build that holds
// SQLite.
func TestPlantedDatabaseFound(t *testing.T) {
	if got := databases([]string{"sync", "modernc.org/sqlite", "modernc.org/libc", module + "store"}); !slices.Equal(got, []string{"modernc.org/"}) {
		t.Errorf("got %q, want modernc.org/", got)
	}
}

// databases are the prefixes of historyDatabases that deps hold.
func databases(deps []string) []string {
	var found []string
	for _, db := range historyDatabases {
		if slices.ContainsFunc(deps, func(d string) bool { return under(d, db) }) {
			found = append(found, db)
		}
	}
	return found
}
