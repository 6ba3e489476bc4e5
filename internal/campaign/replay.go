package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/internal/abcount"
	"github.com/perfrun/perfrun/internal/hostconstants"
	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/records"
)

// Replay judges a recorded comparison (the windows.csv of ab -report,
// data, read from name; "-" for standard input) again with this
// campaign's rules, measuring nothing: the verdict a trusted job derives
// from an untrusted run's data. The counts recorded beside the windows
// are judged again too. A recording it cannot judge is an ErrInput.
func (c *Campaign) Replay(name string, data []byte, cores int) (*Result, *ab.Recording, error) {
	rec, err := ab.ReadWindows(bytes.NewReader(data), cores)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", ErrInput, name, err)
	}
	looks, measure := rec.Replay(c.Rounds, c.Looks)
	rep, err := compare.Sequential(c.Thresholds, looks, measure)
	if err != nil {
		return nil, nil, err
	}
	set, err := replayCounts(name, rec)
	if err == nil {
		err = c.replayConstants(name)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	c.addCounts(rep, c.judgeCounts(set.counted, set.profiled, set.counts, set.traffic, set.profiles, rec.Cores), rec.Cores)
	rep.Old, rep.New = "base", "head"
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("judged again from %s: %d cells, %d-core machine; the numbers are the recording's", name, len(rec.Cells), rec.Cores))
	rep.Warnings = append(rep.Warnings, otherPairs(rec.Windows, c.Rounds)...)
	if unread := rec.Unread(); unread != "" {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s holds %s past the rounds this replay's looks read (-looks %d × -rounds %d, stopping where every cell was decided): not judged",
			name, unread, c.Looks, c.Rounds))
	}
	return &Result{Report: rep, Windows: rec.Windows, Counts: set.counts, Traffic: set.traffic, Profiles: set.profiles,
		Predicted: c.predicted, PredictedAt: c.PredictAt(), Cores: rec.Cores, Own: c.Own}, rec, nil
}

// replayConstants reads the machine's own constants a campaign recorded
// beside windows (ConstantsFile), so its predictions within the cores are
// made again with them; none where it recorded none. One that is there
// and is no record refuses the replay.
func (c *Campaign) replayConstants(windows string) error {
	if windows == "-" {
		return nil
	}
	path := filepath.Join(filepath.Dir(windows), ConstantsFile)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	data, err := regularfile.ReadFile(path, records.MaxFileBytes)
	if err != nil {
		return err
	}
	r, err := hostconstants.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	c.UseOwn(&r, path)
	return nil
}

// recordedSet holds the counts an ab -report recorded beside windows.csv: the
// instructions and traffic of the cells counted, the lock profiles of
// the cells profiled, each file's cells in its order.
type recordedSet struct {
	counted, profiled []string
	counts            abcount.Counts
	traffic           abcount.Traffic
	profiles          abcount.Profiles
}

// replayCounts reads the counts an ab -report recorded beside windows.csv
// (none for a recording read from standard input). Every file is either
// read and used or refused by name, never dropped: one that is absent was
// not recorded; one that is there and cannot be read (a FIFO, a folder),
// is malformed, or names a cell the windows do not have refuses the
// replay, since a verdict from counts it lacks must fail closed. Traffic
// is counted in the pass that counts instructions, so traffic.csv must
// speak of the cells instructions.csv does, no more and no fewer.
func replayCounts(windows string, rec *ab.Recording) (recordedSet, error) {
	var c recordedSet
	if windows == "-" {
		return c, nil
	}
	var err error
	if c.counted, c.counts, err = recordedCounts(windows, rec, InstructionsFile, abcount.ReadInstructions); err != nil {
		return recordedSet{}, err
	}
	trafficked, traffic, err := recordedCounts(windows, rec, TrafficFile, abcount.ReadTraffic)
	if err != nil {
		return recordedSet{}, err
	}
	if trafficked != nil {
		a, b := slices.Sorted(slices.Values(trafficked)), slices.Sorted(slices.Values(c.counted))
		if !slices.Equal(a, b) {
			return recordedSet{}, fmt.Errorf("%s: traffic.csv counts the cells %q and instructions.csv %q: the two are counted in one pass, of the same cells",
				filepath.Dir(windows), a, b)
		}
		c.traffic = traffic
	}
	if c.profiled, c.profiles, err = recordedCounts(windows, rec, LocksFile, abcount.ReadLocks); err != nil {
		return recordedSet{}, err
	}
	return c, nil
}

// recordedCounts reads one counts file beside windows with read, as
// replayCounts says: nil cells where it is absent, and never nil where it
// is there, though it names no cell.
func recordedCounts[T any](windows string, rec *ab.Recording, file string, read func([]byte) ([]string, T, error)) ([]string, T, error) {
	var none T
	path := filepath.Join(filepath.Dir(windows), file)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, none, nil
	}
	data, err := regularfile.ReadFile(path, records.MaxFileBytes)
	if err != nil {
		return nil, none, err
	}
	names, v, err := read(data)
	if err != nil {
		return nil, none, fmt.Errorf("%s: %w", path, err)
	}
	if names == nil {
		names = []string{}
	}
	for _, n := range names {
		i := slices.IndexFunc(rec.Cells, func(c *records.Cell) bool { return c.Name == n })
		switch {
		case i < 0:
			return nil, none, fmt.Errorf("%s: %s is not a cell of %s", path, n, windows)
		case rec.Cells[i].Threads != 1:
			return nil, none, fmt.Errorf("%s: %s runs %d threads: ab counts 1-thread cells alone", path, n, rec.Cells[i].Threads)
		}
	}
	return names, v, nil
}
