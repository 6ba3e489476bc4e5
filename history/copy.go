package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
)

// Copied says what a copy did.
type Copied struct {
	Files, Duplicates, Runs, Samples, Steps int
}

// Copy adds every file of src to dst, oldest first, each in one
// transaction of dst as Add stores it: the same digest, name, runs,
// series and values, so a history read from either gives the same
// series. Files dst holds already (by digest) are skipped, so a copy can
// be run again after an interrupt, and into a history that has files of
// its own. The recorded steps follow. progress, when not nil, hears after
// each file.
func Copy(ctx context.Context, src, dst *DB, progress func(done, total int)) (Copied, error) {
	var out Copied
	series, err := src.seriesKeys(ctx)
	if err != nil {
		return out, err
	}
	type file struct {
		id                  int64
		digest, name, added string
	}
	var files []file
	err = src.each(ctx, `SELECT id, digest, name, added FROM files ORDER BY id`, nil, func(r *sql.Rows) error {
		var f file
		err := r.Scan(&f.id, &f.digest, &f.name, &f.added)
		files = append(files, f)
		return err
	})
	if err != nil {
		return out, err
	}
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		dup, runs, samples, err := copyFile(ctx, src, dst, f.id, f.digest, f.name, f.added, series)
		if err != nil {
			return out, err
		}
		if dup {
			out.Duplicates++
		} else {
			out.Files++
			out.Runs += runs
			out.Samples += samples
		}
		if progress != nil {
			progress(i+1, len(files))
		}
	}
	out.Steps, err = copySteps(ctx, src, dst, series)
	return out, err
}

// stored is a series as a copy finds it again: its key and direction.
type stored struct {
	key    seriesKey
	better int
}

func (h *DB) seriesKeys(ctx context.Context) (map[int64]stored, error) {
	out := make(map[int64]stored)
	err := h.each(ctx, `SELECT id, machine, cell, unit, better FROM series`, nil, func(r *sql.Rows) error {
		var id int64
		var s stored
		if err := r.Scan(&id, &s.key.machine, &s.key.cell, &s.key.unit, &s.better); err != nil {
			return err
		}
		out[id] = s
		return nil
	})
	return out, err
}

// each runs a query (in SQLite's words) and hands each row to f.
func (h *DB) each(ctx context.Context, query string, args []any, f func(*sql.Rows) error) error {
	rows, err := h.db.QueryContext(ctx, h.d.q(query), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := f(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// copyFile copies one file's runs and values in one transaction of dst.
func copyFile(ctx context.Context, src, dst *DB, id int64, digest, name, added string, series map[int64]stored) (dup bool, runs, samples int, err error) {
	rs, vs, err := readFile(ctx, src, id)
	if err != nil {
		return false, 0, 0, err
	}
	tx, err := dst.db.BeginTx(ctx, nil)
	if err != nil {
		return false, 0, 0, err
	}
	defer tx.Rollback()
	var fileID int64
	err = tx.QueryRowContext(ctx, dst.d.q(`INSERT INTO files (digest, name, added) VALUES (?, ?, ?) ON CONFLICT (digest) DO NOTHING RETURNING id`),
		digest, name, added).Scan(&fileID)
	if errors.Is(err, sql.ErrNoRows) {
		return true, 0, 0, nil
	}
	if err != nil {
		return false, 0, 0, err
	}
	w := &writer{ctx: ctx, tx: tx, d: dst.d, fileID: fileID, series: map[seriesKey]int64{}}
	if err := w.copyRuns(rs, vs, series); err != nil {
		return false, 0, 0, err
	}
	return false, len(rs), len(vs), tx.Commit()
}

// copiedRun is a run row of a file being copied.
type copiedRun struct {
	id                                             int64
	commit, commitTime, runTime, machine           string
	cores                                          int64
	goVersion, corpus, perfrunVersion, configLines string
}

// copiedValue is a sample of a file being copied, by the source's ids.
type copiedValue struct {
	run, series int64
	v           float64
}

// readFile reads a file's runs and samples from src.
func readFile(ctx context.Context, src *DB, id int64) ([]copiedRun, []copiedValue, error) {
	var rs []copiedRun
	err := src.each(ctx, `SELECT id, commit_id, commit_time, run_time, machine, cores, go, corpus, perfrun, config FROM runs WHERE file_id = ? ORDER BY id`, []any{id}, func(r *sql.Rows) error {
		var x copiedRun
		if err := r.Scan(&x.id, &x.commit, &x.commitTime, &x.runTime, &x.machine, &x.cores, &x.goVersion, &x.corpus, &x.perfrunVersion, &x.configLines); err != nil {
			return err
		}
		rs = append(rs, x)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = r.id
	}
	chosen, _ := json.Marshal(ids)
	var vs []copiedValue
	err = src.each(ctx, `SELECT run_id, series_id, value FROM samples WHERE `+src.d.idsIn("run_id"), []any{string(chosen)}, func(r *sql.Rows) error {
		var x copiedValue
		if err := r.Scan(&x.run, &x.series, &x.v); err != nil {
			return err
		}
		vs = append(vs, x)
		return nil
	})
	return rs, vs, err
}

// copyRuns writes a copied file's series, runs and samples in the
// writer's transaction, the series by their source's keys.
func (w *writer) copyRuns(rs []copiedRun, vs []copiedValue, series map[int64]stored) error {
	var keys []seriesKey
	direction := make(map[seriesKey]int)
	for _, x := range vs {
		s := series[x.series]
		keys = append(keys, s.key)
		direction[s.key] = s.better
	}
	for _, k := range inOrder(keys) {
		if _, err := w.seriesID(k, direction[k]); err != nil {
			return err
		}
	}
	runID := make(map[int64]int64, len(rs))
	for _, r := range rs {
		var nid int64
		err := w.tx.QueryRowContext(w.ctx, w.d.q(`INSERT INTO runs (file_id, commit_id, commit_time, run_time, machine, cores, go, corpus, perfrun, config)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			w.fileID, r.commit, r.commitTime, r.runTime, r.machine, r.cores, r.goVersion, r.corpus, r.perfrunVersion, r.configLines).Scan(&nid)
		if err != nil {
			return err
		}
		runID[r.id] = nid
	}
	var err error
	if w.batch, err = w.tx.PrepareContext(w.ctx, w.d.q(insertSamples(batchRows))); err != nil {
		return err
	}
	defer w.batch.Close()
	for _, x := range vs {
		if err := w.sample(runID[x.run], w.series[series[x.series].key], x.v); err != nil {
			return err
		}
	}
	return w.flush()
}

// copySteps copies the recorded steps, each to its series in dst.
func copySteps(ctx context.Context, src, dst *DB, series map[int64]stored) (int, error) {
	type step struct {
		series                   int64
		before, after, firstSeen string
		shift                    float64
	}
	var steps []step
	err := src.each(ctx, `SELECT series_id, before_commit, after_commit, shift, first_seen FROM steps`, nil, func(r *sql.Rows) error {
		var s step
		if err := r.Scan(&s.series, &s.before, &s.after, &s.shift, &s.firstSeen); err != nil {
			return err
		}
		steps = append(steps, s)
		return nil
	})
	if err != nil || len(steps) == 0 {
		return 0, err
	}
	tx, err := dst.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	w := &writer{ctx: ctx, tx: tx, d: dst.d, series: map[seriesKey]int64{}}
	n := 0
	for _, s := range steps {
		k := series[s.series]
		id, err := w.seriesID(k.key, k.better)
		if err != nil {
			return 0, err
		}
		res, err := tx.ExecContext(ctx, dst.d.q(`INSERT INTO steps (series_id, before_commit, after_commit, shift, first_seen) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (series_id, after_commit) DO NOTHING`), id, s.before, s.after, s.shift, s.firstSeen)
		if err != nil {
			return 0, err
		}
		if k, _ := res.RowsAffected(); k > 0 {
			n++
		}
	}
	return n, tx.Commit()
}
