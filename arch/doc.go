// Package arch holds no code: its test keeps the project's imports
// pointing one way. Every package of the module has a layer, and a package
// may import only packages of lower layers — the store contract and its
// conformance kit at the bottom, the implementations and workloads above
// them, the harness and its reports above those, the CLI on top. A new
// package must be given its layer here before it can exist.
package arch
