// Package perfrun is the entry point for measuring a certificate store kept
// outside this repository with perfrun's whole command line. A store
// author's main is one line:
//
//	func main() { perfrun.Main(perfrun.Impl{Name: "mine", Description: "…", New: mystore.New}) }
//
// and the binary runs, lists, plots, reports, compares, gates and A/B-tests
// that store beside perfrun's built-in ones, which stay available for
// reference. The store implements store.Store and should pass the
// conformance suite, storetest.Run, in its own tests.
//
// What is promised: this package, store (the contract, the object model
// and the issuer rule) and store/storetest (the conformance suite and the
// shared benchmarks) keep their exported API; a breaking change bumps the
// major version. The command line's flags, exit codes and output formats
// are documented in docs/ and change only with a note. Every other package
// outside internal/ — records, records/importers, harness, compare,
// report, workloads, impls and each design, store/corpus,
// store/certgen, history, history/changepoint — is importable, shows its
// use in an example, and names in a paragraph of its package doc ("Its
// promise") what it keeps; an exported name that paragraph does not name
// serves perfrun's own commands and may change between versions. The
// command line's plumbing — internal/cli, ab's arms (internal/ab),
// bisect's search (internal/bisect) — promises nothing.
package perfrun

import "github.com/perfrun/perfrun/store"

// Impl is one implementation to measure: its name as on the command line
// and in results (lower case letters, digits and '-'), a one-line
// description, and a constructor of empty stores.
type Impl = store.Impl
