// Package records is perfrun's one results model: golang.org/x/perf/benchfmt
// records, grouped with benchproc projections and read with benchfmt's
// reader, so a file perfrun writes is exactly what benchstat reads and a
// file benchstat reads is exactly what perfrun compares.
//
// The harness emits records; every consumer — per-thread tables, JMH, CSV and
// JSON, compare, gate, ab, plots, reports — reads a Set of them. A Set
// indexes its records by cell (the full benchmark name): the implementation
// (/impl), the thread count (/threads) and the group (the full name without
// those two) come from benchproc projections, never from taking names
// apart by hand.
//
// Values are kept in tidied units, as benchfmt's reader returns them
// (ns/op becomes sec/op; benchunit.Tidy), so a file written in ns/op and
// one written in sec/op or us/op compare as one unit. Unit metadata lines
// (Unit instructions/op assume=exact, Unit ops/s better=higher) travel with
// the records and tell every reader, benchstat included, how to treat a
// unit.
//
// Its place: at the bottom, beside the store: every package that writes or
// reads results uses it and it uses none of theirs.
//
// Its promise: the file format — benchfmt, with the units and configuration
// keys named here — is kept, so a file one perfrun wrote is read by every
// later one and by benchstat; Read, ReadFile, ReadFiles, Set, Cell,
// Summarize, Median and Write keep their meaning. Other exported names
// serve perfrun's commands and may change between versions.
package records
