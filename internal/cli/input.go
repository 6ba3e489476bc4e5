package cli

import (
	"os"

	"github.com/perfrun/perfrun/internal/regularfile"
)

// maxInputBytes bounds a results file read whole (history add): far more
// than a run writes (a default run is about 100 KB), far less than memory.
const maxInputBytes = 64 << 20

// readInput reads a results file, or standard input for "-", refusing
// more than maxInputBytes and a name that is no regular file: /dev/zero
// or an endless pipe is an error, not a process that reads until it runs
// out of memory, and a FIFO no one writes does not hang it.
func readInput(name string) (data []byte, display string, err error) {
	if name == "-" {
		data, err = regularfile.Read(os.Stdin, "standard input", maxInputBytes)
		return data, "standard input", err
	}
	data, err = regularfile.ReadFile(name, maxInputBytes)
	return data, name, err
}
