// Package summary says what a run measured, once it is measured: what the
// machine set aside and the repair left short, the end of a run the
// machine decided (every sample of a cell set aside), and the table past
// the cores that the designs' counts predict. The command line wires its
// flags to it and prints where it says; as internal/campaign does for ab.
package summary
