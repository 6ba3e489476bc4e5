// Command perfrun benchmarks concurrent certificate stores: it runs every
// implementation under identical multi-threaded workloads, checks every
// answer, and prints and saves the results. Run "perfrun help" for the
// subcommands.
package main

import "os"

func main() { os.Exit(run(os.Stdout, os.Stderr, os.Args[1:])) }
