// Package chart draws a history: each series over commits, every commit a
// point (its median) with the 95% interval of its rounds, the level of
// every segment between steps drawn across it, each step marked where it
// happened — and writes the pages that show them, Markdown for a CI
// summary or issue and a self-contained HTML page.
//
// Why a package of its own: history is read by commit, not by thread
// count or load, so its pictures share the reports' size, style and file
// handling (harness/report) but none of their layout.
//
// Its place: above history and the reports, below the CLI. Importable; its
// API may change between perfrun versions.
package chart
