// Package history keeps benchmark results across commits — in one SQLite
// file, or on a PostgreSQL server that a fleet of runners shares — and
// reads them back as series, one per cell, unit and machine, ordered by
// commit.
//
// Why a database and not a folder of results files: a history is added to
// by every CI run, read whole by every change-point search, and must
// survive two jobs writing at once and a job killed halfway. Each file's
// results are one transaction (all of a file or none of it), and
// concurrent writers are serialized by the database. SQLite needs no
// server and modernc.org/sqlite is SQLite compiled to Go, so the default
// build stays free of cgo; a postgres:// path (IsServer) names a server
// instead, through pgx, pure Go too. Both hold one schema, written once.
// The two drivers are the largest part of perfrun to compile, so they are
// linked only by a program that imports history/drivers (perfrun's command
// line where built with Tag); without them Open is ErrNoDrivers.
//
// The schema carries its version and a perfrun application id (SQLite's
// header, or a perfrun_meta table on the server). Opening a database
// migrates an older schema forward in one transaction; a database written
// by a newer perfrun, or one that is not a history, is refused before
// anything is written to it.
//
// Values are stored as results reads them — tidied units, so ns/op is
// sec/op — and samples a run set aside (quarantined) are not stored at
// all: history holds what a comparison would have used.
//
// Its place: on the results model (records) and changepoint, never on the
// harness.
//
// Its promise: the schema only grows, by numbered migrations, so a history
// one perfrun wrote is read and added to by every later one; Open,
// OpenRead, Add, Series, FindSteps and Copy keep their meaning. Other
// exported names serve perfrun's commands and may change between versions.
package history
