// Package history keeps benchmark results across commits in one SQLite
// file, and reads them back as series — one per cell, unit and machine —
// ordered by commit.
//
// Why a database and not a folder of results files: a history is added to
// by every CI run, read whole by every change-point search, and must
// survive two jobs writing at once and a job killed halfway. SQLite gives
// each file's results one transaction (all of a file or none of it),
// serializes concurrent writers with its own locking, and needs no server;
// modernc.org/sqlite is SQLite compiled to Go, so the default build stays
// free of cgo.
//
// The schema carries its version (PRAGMA user_version) and a perfrun
// application id. Opening a database migrates an older schema forward in
// one transaction; a database written by a newer perfrun, or a SQLite file
// that is not a history, is refused before anything is written to it.
//
// Values are stored as results reads them — tidied units, so ns/op is
// sec/op — and samples a run set aside (quarantined) are not stored at
// all: history holds what a comparison would have used.
//
// Its place: on the results model (records) and changepoint, never on the
// harness. Importable; the database schema only grows, by numbered
// migrations; the Go API may change between perfrun versions.
package history
