package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfrun/perfrun/report"
)

// manifestName lists, in a report folder, the files perfrun wrote there:
// the only files a later report in that folder may replace or remove.
const manifestName = ".perfrun-report"

// A publication is a report folder's new contents (report -o, ab -report,
// history report), published whole or not at all: every file is written
// into a staging folder inside the report folder first, so a full disk
// fails before anything of the old report is touched; then each is
// renamed into place. A file perfrun did not write — one its manifest does
// not list — is never replaced or removed.
type publication struct {
	dir   string
	files map[string][]byte // by slash-separated path inside dir
}

func newPublication(dir string) *publication {
	return &publication{dir: dir, files: make(map[string][]byte)}
}

func (p *publication) add(rel string, data []byte) { p.files[rel] = data }

// addPlots renders plots as sub/NAME.svg and sub/NAME.png.
func (p *publication) addPlots(sub string, plots []*report.Plot) error {
	for _, pl := range plots {
		for _, ext := range []string{"svg", "png"} {
			data, err := pl.Encode(ext)
			if err != nil {
				return fmt.Errorf("plot %s: %w", pl.Name, err)
			}
			p.add(path.Join(sub, pl.Name+"."+ext), data)
		}
	}
	return nil
}

// publish writes the folder: refuses first if a file it would replace is
// not perfrun's, stages everything, moves it into place, then removes what
// the previous report listed and this one does not.
func (p *publication) publish() (err error) {
	// A folder this publication made is removed again if the report is
	// not published: "as it was" is no folder.
	if _, serr := os.Stat(p.dir); os.IsNotExist(serr) {
		defer func() {
			if err != nil {
				os.RemoveAll(p.dir)
			}
		}()
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return err
	}
	owned := readManifest(p.dir)
	names := make([]string, 0, len(p.files))
	for rel := range p.files {
		names = append(names, rel)
	}
	slices.Sort(names)
	for _, rel := range append(slices.Clone(names), slices.Sorted(maps.Keys(owned))...) {
		if err := noLinkOnTheWay(p.dir, rel); err != nil {
			return err
		}
	}
	for _, rel := range names {
		target := filepath.Join(p.dir, filepath.FromSlash(rel))
		info, err := os.Lstat(target)
		switch {
		case err != nil:
		case info.IsDir():
			return usageError("%s is a directory where the report writes a file", target)
		case !owned[rel]:
			return usageError("%s exists and perfrun did not write it (%s does not list it): write the report to another folder, or move the file", target, filepath.Join(p.dir, manifestName))
		}
	}
	removeStaleStaging(p.dir)
	staging, err := os.MkdirTemp(p.dir, stagingPrefix)
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
			return fmt.Errorf("%v (the report in %s is as it was)", err, p.dir)
		}
	}
	for _, rel := range append(names, manifestName) {
		target := filepath.Join(p.dir, filepath.FromSlash(rel))
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
		target := filepath.Join(p.dir, filepath.FromSlash(rel))
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
			return usageError("%s is not a folder (a symbolic link or a file): a report writes only inside %s; remove it or write the report elsewhere", at, dir)
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
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
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
