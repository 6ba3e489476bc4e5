// Package report turns results into what people and other tools read: the
// per-thread tables, the medians over several processes, JMH-style
// throughput tables, CSV and JSON, plots, the Markdown and HTML reports of
// a comparison, and the pages of a history (each series drawn over its
// commits). It reads records.Set, the one results model, and history's
// series.
//
// Its place: above the harness, compare and history, below the CLI; the
// only package that draws (gonum), so every picture shares one size, style
// and file handling.
//
// Its promise: the per-thread tables (WriteThreadTables), the medians over
// processes (WriteProcesses) and the CSV and JSON columns keep their
// meaning; pictures and pages may be redrawn. Other exported names serve
// perfrun's commands and may change between versions.
package report
