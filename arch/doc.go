// Package arch holds no code: its test keeps the project's imports
// pointing one way. Every package of the module has a layer, and a Go
// file, test files included, may import only packages of lower layers —
// the store contract and the results model at the bottom, the conformance
// kit and the workloads below the implementations, the harness above the
// designs and below the registry, the reports above the harness, the CLI
// on top. Test files may also import the registry, to run every built-in
// design. A new package must be given its layer here before it can exist.
//
// Two more rules: only report imports gonum, so every picture
// shares one style; and every package outside internal/ — importable by
// anyone — says in its package doc what it keeps ("Its promise") and shows
// its use in an Example.
//
// Its last test runs the pull-request workflows' own shell steps on
// forged input: a workflow that trusts a pull request's text fails open
// where no Go test of perfrun can see it.
package arch
