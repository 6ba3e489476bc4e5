// Command perfrun benchmarks concurrent certificate stores: it runs every
// implementation under identical multi-threaded workloads, checks every
// answer, and prints and saves the results. Run "perfrun help" for the
// subcommands. A store kept elsewhere gets the same command with its own
// main: see package perfrun.
package main

import "github.com/perfrun/perfrun"

func main() { perfrun.Main() }
