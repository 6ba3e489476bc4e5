// Package procgroup runs a child process in a process group of its own,
// so that an interrupt stops everything the child started, and a child it
// left behind cannot hold perfrun's Wait or use the machine afterwards.
package procgroup
