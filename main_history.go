//go:build perfrun_history && !perfrun_cellops && !perfrun_locks

package perfrun

// A perfrun built with history.Tag keeps its history in this process: the
// databases are linked. Without the tag (go run ./cmd/perfrun, the main
// job) its history commands run in a build of it with the tag.
import _ "github.com/perfrun/perfrun/history/drivers"
