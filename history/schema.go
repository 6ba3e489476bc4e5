package history

// migrations[v] takes the schema from version v to v+1. Append, never
// edit: a database in the field may stand at any of these versions.
var migrations = [][]string{
	// 1: files, runs, series and their samples.
	{
		`CREATE TABLE files (
			id INTEGER PRIMARY KEY,
			digest TEXT NOT NULL UNIQUE, -- SHA-256 of the file's bytes
			name TEXT NOT NULL,
			added TEXT NOT NULL -- RFC 3339, UTC
		)`,
		`CREATE TABLE runs (
			id INTEGER PRIMARY KEY,
			file_id INTEGER NOT NULL REFERENCES files(id),
			commit_id TEXT NOT NULL,
			commit_time TEXT NOT NULL, -- RFC 3339, UTC: orders the series
			run_time TEXT NOT NULL,
			machine TEXT NOT NULL,
			cores INTEGER NOT NULL,
			go TEXT NOT NULL,
			corpus TEXT NOT NULL,
			perfrun TEXT NOT NULL,
			config TEXT NOT NULL -- every configuration line, "key: value"
		)`,
		`CREATE TABLE series (
			id INTEGER PRIMARY KEY,
			machine TEXT NOT NULL,
			cell TEXT NOT NULL,
			unit TEXT NOT NULL, -- tidied, as results reads it
			better INTEGER NOT NULL, -- 1 higher is better, -1 lower
			UNIQUE (machine, cell, unit)
		)`,
		`CREATE TABLE samples (
			run_id INTEGER NOT NULL REFERENCES runs(id),
			series_id INTEGER NOT NULL REFERENCES series(id),
			value REAL NOT NULL
		)`,
		`CREATE INDEX samples_by_series ON samples (series_id)`,
	},
	// 2: the steps already reported, so CI can tell a new one.
	{
		`CREATE TABLE steps (
			series_id INTEGER NOT NULL REFERENCES series(id),
			before_commit TEXT NOT NULL,
			after_commit TEXT NOT NULL,
			shift REAL NOT NULL, -- relative: +0.05 is 5% up
			first_seen TEXT NOT NULL,
			UNIQUE (series_id, after_commit)
		)`,
		`CREATE INDEX runs_by_commit ON runs (commit_time, commit_id)`,
	},
	// 3: a file's samples found by its runs, so a history copies file by
	// file (history copy).
	{
		`CREATE INDEX samples_by_run ON samples (run_id)`,
		`CREATE INDEX runs_by_file ON runs (file_id)`,
	},
}

// Schema is the schema version this perfrun writes.
var Schema = len(migrations)
