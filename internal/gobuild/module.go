package gobuild

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ModuleFile is the go.mod of the module dir is in, and the go.work in
// force there; gomod is "" where dir is in no module.
func ModuleFile(ctx context.Context, dir string) (gomod, gowork string, err error) {
	out, err := Stdout(ctx, dir, "env", "-json", "GOMOD", "GOWORK")
	if err != nil {
		return "", "", err
	}
	var env struct{ GOMOD, GOWORK string }
	if err := json.Unmarshal(out, &env); err != nil {
		return "", "", fmt.Errorf("reading go env: %w", err)
	}
	if env.GOMOD == os.DevNull {
		env.GOMOD = ""
	}
	if env.GOWORK == "off" {
		env.GOWORK = ""
	}
	return env.GOMOD, env.GOWORK, nil
}

// A Replace is a replace directive of a go.mod by a relative folder:
// Old the module replaced (path, or path@version), New the folder, as
// written ("../perfrun"). It names another folder wherever the module is
// copied or reached through a link.
type Replace struct{ Old, New string }

// LocalReplaces is the module path of the go.mod at gomod and its replace
// directives by a relative folder.
func LocalReplaces(ctx context.Context, gomod string) (path string, local []Replace, err error) {
	out, err := Stdout(ctx, filepath.Dir(gomod), "mod", "edit", "-json")
	if err != nil {
		return "", nil, err
	}
	var file struct {
		Module  struct{ Path string }
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &file); err != nil {
		return "", nil, fmt.Errorf("reading %s: %w", gomod, err)
	}
	for _, r := range file.Replace {
		// A module version, or an absolute folder, means the same anywhere;
		// go takes a folder only as absolute, ./ or ../.
		if r.New.Version != "" || !strings.HasPrefix(r.New.Path, "./") && !strings.HasPrefix(r.New.Path, "../") {
			continue
		}
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		local = append(local, Replace{Old: old, New: r.New.Path})
	}
	return file.Module.Path, local, nil
}
