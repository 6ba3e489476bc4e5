package cli

import (
	"fmt"
	"io"
	"os"
)

// maxInputBytes bounds a results file read whole (history add): far more
// than a run writes (a default run is about 100 KB), far less than memory.
const maxInputBytes = 64 << 20

// readInput reads a results file, or standard input for "-", refusing
// more than maxInputBytes: /dev/zero or an endless pipe is an error, not
// a process that reads until it runs out of memory.
func readInput(name string) (data []byte, display string, err error) {
	var r io.Reader = os.Stdin
	display = "standard input"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, name, err
		}
		defer f.Close()
		r, display = f, name
	}
	data, err = io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, display, err
	}
	if len(data) > maxInputBytes {
		return nil, display, fmt.Errorf("%s: more than %d MiB: not a results file perfrun reads", display, maxInputBytes>>20)
	}
	return data, display, nil
}
