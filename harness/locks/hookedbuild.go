package locks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfrun/perfrun/internal/gobuild"
)

// hookedRoot is the package whose hooks the hooked sync and sync/atomic
// call; a build whose packages import it is profiled by rewriting imports
// (hookedOverlay), one from before it by an overlay of the standard sync
// (Overlay).
const hookedRoot = "github.com/perfrun/perfrun/harness/locks/hooked"

// hookedFor are the packages a build for lock profiles imports in place
// of the standard ones.
var hookedFor = map[string]string{
	"sync":        hookedRoot + "/sync",
	"sync/atomic": hookedRoot + "/sync/atomic",
}

// listed is what go list says of one package of a build.
type listed struct {
	ImportPath        string
	Dir               string
	Standard          bool
	GoFiles, CgoFiles []string
	Imports           []string
	Module            *struct {
		Main    bool
		Replace *struct{ Version string }
	}
}

// ownFolder says whether p's files are a folder of the user's, which an
// overlay may replace: the main module's, or a module replaced by a folder.
// go build refuses to overlay the module cache.
func (p listed) ownFolder() bool {
	m := p.Module
	return m != nil && (m.Main || m.Replace != nil && m.Replace.Version == "")
}

// buildPackages lists the packages pkg's build in dir compiles, with tags.
func buildPackages(ctx context.Context, dir, pkg string, tags []string) ([]listed, error) {
	out, err := gobuild.Stdout(ctx, dir, "list", "-deps", "-tags", strings.Join(tags, ","),
		"-json=ImportPath,Dir,Standard,GoFiles,CgoFiles,Imports,Module", "--", pkg)
	if err != nil {
		return nil, err
	}
	var pkgs []listed
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's packages: %w", err)
		}
		pkgs = append(pkgs, p)
	}
}

// How a build is hooked for lock profiles.
const (
	// hookStandard overlays the standard sync and sync/atomic: every
	// package above them compiles again.
	hookStandard = iota
	// hookImports has the user's folders import the hooked packages.
	hookImports
	// hookLegacy is hookStandard for a tree from before package hooked,
	// whose hooks link into the standard sync under Tag alone.
	hookLegacy
)

// howHooked says how a build of pkgs is hooked: by its imports where
// package hooked is among them in a folder of the user's (this module, or
// perfrun replaced by a folder), so that every package of perfrun and of
// the store can be rewritten; by the standard sync where perfrun comes
// from the module cache; the legacy way where the tree has no package
// hooked.
func howHooked(pkgs []listed) int {
	for _, p := range pkgs {
		if p.ImportPath == hookedRoot {
			if p.ownFolder() {
				return hookImports
			}
			return hookStandard
		}
	}
	return hookLegacy
}

// hookedOverlayFile writes into dir the overlay hookedOverlay makes of
// pkgs, as go build -overlay reads it, and returns its path.
func hookedOverlayFile(pkgs []listed, dir string) (string, error) {
	replace := make(map[string]string)
	if err := hookedOverlay(pkgs, dir, replace); err != nil {
		return "", err
	}
	return writeOverlay(dir, replace)
}

// hookedOverlay adds to replace, for every file in the user's folders
// (ownFolder) that imports sync or sync/atomic, a copy written into dir that
// imports the hooked packages instead; the hooked packages themselves are
// left as they are. The standard library and the module cache are
// compiled as in any build; their locks and atomics tell nothing.
func hookedOverlay(pkgs []listed, dir string, replace map[string]string) error {
	n := 0
	for _, p := range pkgs {
		if p.Standard || !p.ownFolder() || p.ImportPath == hookedRoot || strings.HasPrefix(p.ImportPath, hookedRoot+"/") || !importsSync(p.Imports) {
			continue
		}
		for _, name := range append(append([]string(nil), p.GoFiles...), p.CgoFiles...) {
			src := filepath.Join(p.Dir, name)
			text, changed, err := rewriteImports(src)
			if err != nil {
				return err
			}
			if !changed {
				continue
			}
			n++
			dst := filepath.Join(dir, fmt.Sprintf("%d-%s", n, name))
			if err := os.WriteFile(dst, text, 0o644); err != nil {
				return err
			}
			replace[src] = dst
		}
	}
	return nil
}

func importsSync(imports []string) bool {
	for _, i := range imports {
		if hookedFor[i] != "" {
			return true
		}
	}
	return false
}

// rewriteImports is the Go file at path with its imports of sync and
// sync/atomic made imports of the hooked packages under the same names,
// the rest of it byte for byte; changed is false where it imports
// neither.
func rewriteImports(path string) (text []byte, changed bool, err error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
	if err != nil {
		return nil, false, err
	}
	var out bytes.Buffer
	last := 0
	for _, spec := range f.Imports {
		ip, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, false, err
		}
		to := hookedFor[ip]
		if to == "" {
			continue
		}
		start, end := fset.Position(spec.Path.Pos()).Offset, fset.Position(spec.Path.End()).Offset
		out.Write(src[last:start])
		if spec.Name == nil {
			// The hooked packages have the standard ones' names.
			out.WriteString(filepath.Base(ip) + " ")
		}
		out.WriteString(strconv.Quote(to))
		last, changed = end, true
	}
	if !changed {
		return nil, false, nil
	}
	out.Write(src[last:])
	return out.Bytes(), true, nil
}
