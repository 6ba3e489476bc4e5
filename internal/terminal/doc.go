// Package terminal is what a person at a terminal sees and does: output
// that no name read from a file or a flag can drive (Printable), the live
// progress line, and Ctrl-C, which ends a command with the shell's code.
package terminal
