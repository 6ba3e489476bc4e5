package cli

// The history commands' tests open histories in this process, as a
// perfrun built with history.Tag does.
import _ "github.com/perfrun/perfrun/history/drivers"
