// Package publish writes a report folder whole or not at all, and never
// touches a file in it that perfrun did not write: the folders report -o,
// ab -report and history report write are often a user's own (a CI
// artifact folder, a docs tree), and a half-written or clobbered one is
// worse than none.
package publish

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfrun/perfrun/internal/regularfile"
	"github.com/perfrun/perfrun/report"
)

// manifestName lists, in a report folder, the files perfrun wrote there:
// the only files a later report in that folder may replace or remove.
const manifestName = ".perfrun-report"

// ErrRefused is what a publication refuses: a file in the way that
// perfrun did not write, or a folder on the way that is not the report's
// own. The user's to resolve: nothing was written.
var ErrRefused = errors.New("refused")

// A Folder is a report folder's new contents (report -o, ab -report,
// history report), published whole or not at all: every file is written
// into a staging folder inside the report folder first, so a full disk
// fails before anything of the old report is touched; then each is
// renamed into place. A file perfrun did not write — one its manifest does
// not list — is never replaced or removed.
type Folder struct {
	// Dir is where it is published; it may be set after the files.
	Dir   string
	files map[string][]byte // by slash-separated path inside Dir
}

// New returns an empty publication of dir.
func New(dir string) *Folder {
	return &Folder{Dir: dir, files: make(map[string][]byte)}
}

// Add adds a file at rel, a slash-separated path inside the folder.
func (p *Folder) Add(rel string, data []byte) { p.files[rel] = data }

// AddPlots renders plots as sub/NAME.svg and sub/NAME.png.
func (p *Folder) AddPlots(sub string, plots []*report.Plot) error {
	for _, pl := range plots {
		for _, ext := range []string{"svg", "png"} {
			data, err := pl.Encode(ext)
			if err != nil {
				return fmt.Errorf("plot %s: %w", pl.Name, err)
			}
			p.Add(path.Join(sub, pl.Name+"."+ext), data)
		}
	}
	return nil
}

// Publish writes the folder: refuses first (ErrRefused) if a file it would
// replace is not perfrun's, stages everything, moves it into place, then
// removes what the previous report listed and this one does not.
func (p *Folder) Publish() (err error) {
	// A folder this publication made is removed again if the report is
	// not published: "as it was" is no folder.
	if _, serr := os.Stat(p.Dir); os.IsNotExist(serr) {
		defer func() {
			if err != nil {
				os.RemoveAll(p.Dir)
			}
		}()
	}
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return err
	}
	owned := readManifest(p.Dir)
	names := make([]string, 0, len(p.files))
	for rel := range p.files {
		names = append(names, rel)
	}
	slices.Sort(names)
	for _, rel := range append(slices.Clone(names), slices.Sorted(maps.Keys(owned))...) {
		if err := noLinkOnTheWay(p.Dir, rel); err != nil {
			return err
		}
	}
	for _, rel := range names {
		target := filepath.Join(p.Dir, filepath.FromSlash(rel))
		info, err := os.Lstat(target)
		switch {
		case err != nil:
		case info.IsDir():
			return fmt.Errorf("%w: %s is a directory where the report writes a file", ErrRefused, target)
		case !owned[rel]:
			return fmt.Errorf("%w: %s exists and perfrun did not write it (%s does not list it): write the report to another folder, or move the file", ErrRefused, target, filepath.Join(p.Dir, manifestName))
		}
	}
	removeStaleStaging(p.Dir)
	staging, err := os.MkdirTemp(p.Dir, stagingPrefix)
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)
	manifest := []byte("# files perfrun wrote in this report folder; a later report replaces or removes only these\n" + strings.Join(names, "\n") + "\n")
	for _, rel := range append(names, manifestName) {
		data := manifest
		if rel != manifestName {
			data = p.files[rel]
		}
		if err := stage(filepath.Join(staging, filepath.FromSlash(rel)), data); err != nil {
			return fmt.Errorf("%v (the report in %s is as it was)", err, p.Dir)
		}
	}
	for _, rel := range append(names, manifestName) {
		target := filepath.Join(p.Dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(staging, filepath.FromSlash(rel)), target); err != nil {
			return err
		}
	}
	for rel := range owned {
		if _, ok := p.files[rel]; ok {
			continue
		}
		target := filepath.Join(p.Dir, filepath.FromSlash(rel))
		if info, err := os.Lstat(target); err == nil && !info.IsDir() {
			os.Remove(target)
		}
	}
	return nil
}

// noLinkOnTheWay refuses a file of a report folder whose folders inside
// it are not folders of its own: a symbolic link on the way (images/ →
// elsewhere) would carry the writes and removals out of the folder, and a
// manifest that names files under it cannot be trusted to stay inside.
func noLinkOnTheWay(dir, rel string) error {
	parts := strings.Split(path.Dir(rel), "/")
	at := dir
	for _, part := range parts {
		if part == "." || part == "" {
			continue
		}
		at = filepath.Join(at, part)
		info, err := os.Lstat(at)
		if err != nil {
			return nil // not there yet: made as a folder of its own
		}
		if !info.IsDir() {
			return fmt.Errorf("%w: %s is not a folder (a symbolic link or a file): a report writes only inside %s; remove it or write the report elsewhere", ErrRefused, at, dir)
		}
	}
	return nil
}

// stagingPrefix names the staging folders publish makes in a report folder.
const stagingPrefix = ".perfrun-staging-"

// removeStaleStaging removes staging folders a killed report left in dir:
// perfrun's own by name, and older than any report takes to write.
func removeStaleStaging(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), stagingPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleStaging {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// staleStaging is the age past which a staging folder is a killed report's.
const staleStaging = time.Hour

// stage writes a staged file; a test makes it fail as a full disk would.
var stage = writeStaged

// writeStaged writes a file into the staging folder (new, and perfrun's
// own: nothing there to follow or keep), its folders made.
func writeStaged(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// readManifest returns the files a previous report listed: local paths
// only, so a forged manifest cannot point perfrun outside the folder.
func readManifest(dir string) map[string]bool {
	owned := make(map[string]bool)
	// A regular file only: a FIFO in its place would block the read, and
	// a device feed it without end.
	data, err := regularfile.ReadFile(filepath.Join(dir, manifestName), 1<<20)
	if err != nil {
		return owned
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rel := strings.TrimSpace(sc.Text())
		if rel == "" || strings.HasPrefix(rel, "#") || rel == manifestName || !filepath.IsLocal(filepath.FromSlash(rel)) {
			continue
		}
		owned[path.Clean(rel)] = true
	}
	return owned
}
