// Package hostconstants keeps a machine's own constants between runs:
// perfrun predict -constants measure writes them, keyed by the processor
// and its cores, and ab and the main job predict within the cores with
// them where the machine is the one they were measured on. Without a
// record for this machine they predict with this project's runner's
// constants (predict.Runner) and say whose those are.
package hostconstants

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/predict"
)

// A Record is one machine's constants as predict.Measure found them,
// with the machine they describe and the day they were measured.
type Record struct {
	CPU      string    `json:"cpu"`
	Cores    int       `json:"cores"`
	Measured time.Time `json:"measured"`
	Windows  int       `json:"windows"`
	// Low, Mid and High are the lowest, median and highest constants of
	// the windows kept.
	Low  predict.Constants `json:"low"`
	Mid  predict.Constants `json:"mid"`
	High predict.Constants `json:"high"`
	// Transfer says what the transfers are: TransferMove, one move of a
	// line. A record without it kept a whole turn of two threads that
	// write a line in turn, twice what the model now charges a write.
	Transfer string `json:"transfer"`
}

// TransferMove is what a record's transfers are since predict.Measure
// times a move of a line: half a turn (predict.Constants.Transfer).
const TransferMove = "one move of a line"

// Dir is where the records are kept: $PERFRUN_CONSTANTS where set (a CI
// runner's folder that outlives its jobs, a test's own), else perfrun's
// folder of the user's cache ($XDG_CACHE_HOME/perfrun/constants, or
// ~/.cache/...).
func Dir() (string, error) {
	if d := os.Getenv("PERFRUN_CONSTANTS"); d != "" {
		return d, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "perfrun", "constants"), nil
}

// Path is the record's file of the machine of cpu and cores.
func Path(cpu string, cores int) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.TrimSpace(cpu))
	return filepath.Join(dir, fmt.Sprintf("%s-x%d.json", name, cores)), nil
}

// Save keeps m, measured at now on the machine of cpu and cores, as that
// machine's record, and gives its path. Constants a busy machine
// inflated are refused: they would stand for this machine's in every
// later prediction.
func Save(m predict.Measured, cpu string, cores int, now time.Time) (string, error) {
	if m.Inflated() || m.Windows == 0 {
		return "", errors.New("the constants were measured on a busy machine: not kept")
	}
	cpu = strings.TrimSpace(cpu)
	if cpu == "" || cores < 1 {
		return "", errors.New("the processor or its cores are not known: no machine to keep them for")
	}
	p, err := Path(cpu, cores)
	if err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(Record{CPU: cpu, Cores: cores, Measured: now.UTC(), Windows: m.Windows, Low: m.Low, Mid: m.Mid, High: m.High, Transfer: TransferMove}, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, regularfile.Write(p, append(data, '\n'))
}

// Parse reads a record, refusing one that describes no machine or whose
// middle constants are not all positive.
func Parse(data []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return Record{}, err
	}
	if r.CPU == "" || r.Cores < 1 || !(r.Mid.Spin > 0) || !(r.Mid.Handoff > 0) || !(r.Mid.Transfer > 0) {
		return Record{}, errors.New("not a record of a machine's constants: no processor, no cores, or a middle constant not positive")
	}
	if r.Transfer != TransferMove {
		return Record{}, errors.New("kept before a transfer was one move of a line (it holds a whole turn, twice that): measure again with perfrun predict -constants measure -keep")
	}
	return r, nil
}

// Within are the constants of the record to predict within its machine's
// cores with (predict.Own), named by where they came from.
func (r Record) Within(where string) predict.Measured {
	source := fmt.Sprintf("measured on this machine on %s (perfrun predict -constants measure, %s)", r.Measured.Format("2006-01-02"), where)
	return predict.Own(predict.Measured{Low: r.Low, Mid: r.Mid, High: r.High, Windows: r.Windows}, r.CPU, r.Cores, source)
}

// maxRecord bounds a record read: a few hundred bytes are one.
const maxRecord = 1 << 20

// Load reads the record of the machine of cpu and cores, and gives its
// path: a nil record where none is kept; an error where one is there
// and cannot be used (unreadable, no record, another machine's).
func Load(cpu string, cores int) (*Record, string, error) {
	p, err := Path(cpu, cores)
	if err != nil {
		return nil, "", nil // no folder to keep records in: none kept
	}
	data, err := regularfile.ReadFile(p, maxRecord)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, p, nil
	} else if err != nil {
		return nil, p, err
	}
	r, err := Parse(data)
	switch {
	case err != nil:
		return nil, p, fmt.Errorf("%s is no record of this machine's constants (%w): not used", p, err)
	case r.CPU != strings.TrimSpace(cpu) || r.Cores != cores:
		return nil, p, fmt.Errorf("%s describes %s ×%d, not this machine: not used", p, r.CPU, r.Cores)
	}
	return &r, p, nil
}

// Note says, in a sentence, that the predictions within the cores use
// the record's constants, and how old they are.
func (r Record) Note() string {
	return fmt.Sprintf("the predictions within the cores use this machine's own constants (%s ×%d), measured on %s", r.CPU, r.Cores, r.Measured.Format("2006-01-02"))
}

// For are the constants to predict within the cores of the machine of
// cpu and cores with: its record's where it keeps one, the record, and
// its Note; else the runner's (predict.RunnerFixed), and a sentence that
// says they are another machine's, or why the record was not used (""
// where this is the runner's machine).
func For(cpu string, cores int) (predict.Measured, *Record, string) {
	r, p, err := Load(cpu, cores)
	switch {
	case err != nil:
		return predict.RunnerFixed, nil, err.Error()
	case r != nil:
		return r.Within(p), r, r.Note()
	}
	return predict.RunnerFixed, nil, predict.Runner.Elsewhere(cpu)
}
