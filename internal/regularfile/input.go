package regularfile

import "os"

// MaxInputBytes bounds a results file read whole (history add): far more
// than any run writes, far less than memory.
const MaxInputBytes = 64 << 20

// ReadInput reads a results file, or standard input for "-", refusing
// more than MaxInputBytes and a name that is no regular file: /dev/zero
// or an endless pipe is an error, not a process that reads until it runs
// out of memory, and a FIFO no one writes does not hang it.
func ReadInput(name string) (data []byte, display string, err error) {
	if name == "-" {
		data, err = Read(os.Stdin, "standard input", MaxInputBytes)
		return data, "standard input", err
	}
	data, err = ReadFile(name, MaxInputBytes)
	return data, name, err
}
