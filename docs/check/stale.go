package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// modulePath is the import path a page may name a package by.
const modulePath = "github.com/perfrun/perfrun/"

var (
	codeSpan    = regexp.MustCompile("`([^`\n]+)`")
	placeholder = regexp.MustCompile(`^[A-Z][A-Z0-9]*$`)
)

// StalePaths gives the paths into the repository's code a page names in
// code spans and does not find: a token that starts with "./", with the
// module's import path, or with one of the repository's top-level folders
// and a slash, found neither from the root nor from the page's folder.
// Patterns (a *, …, {, <, $) are not paths; results/ paths are held by
// ResultsPaths.
func StalePaths(root, page, text string) []string {
	tops := topFolders(root)
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		for _, tok := range strings.Fields(m[1]) {
			p, ok := codePath(tok, tops)
			if !ok {
				continue
			}
			if existsInside(root, filepath.Join(root, p)) || existsInside(root, filepath.Join(filepath.Dir(page), p)) {
				continue
			}
			out = append(out, tok)
		}
	}
	return out
}

// codePath is the path tok names, from the root, where it names one.
func codePath(tok string, tops map[string]bool) (string, bool) {
	tok = strings.TrimRight(tok, ".,;:)\"'")
	if strings.ContainsAny(tok, "*…{<$=#@") || strings.Contains(tok, "://") {
		return "", false
	}
	tok = strings.TrimSuffix(strings.TrimSuffix(tok, "/..."), "/")
	for _, piece := range strings.FieldsFunc(tok, func(r rune) bool { return strings.ContainsRune("/._-", r) }) {
		if placeholder.MatchString(piece) && !strings.HasPrefix(piece, "README") {
			return "", false // impls/NAME/, run-K.txt: a pattern
		}
	}
	if rest, ok := strings.CutPrefix(tok, modulePath); ok {
		return rest, rest != ""
	}
	if rest, ok := strings.CutPrefix(tok, "./"); ok {
		top, _, _ := strings.Cut(rest, "/")
		return rest, tops[top] && rest != ""
	}
	top, _, found := strings.Cut(tok, "/")
	return tok, found && tops[top] && top != "results"
}

// topFolders are the repository's top-level folders but its hidden ones
// and those its .gitignore names from the root (perfrun-out/, which the
// main job writes): a folder a run made is no part of the repository, and
// a page naming a file a run writes there names no stale path.
func topFolders(root string) map[string]bool {
	entries, _ := os.ReadDir(root)
	ignored := rootIgnores(root)
	tops := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !ignored[e.Name()] {
			tops[e.Name()] = true
		}
	}
	return tops
}

// rootIgnores are the names the .gitignore at root ignores at the root
// alone ("/perfrun-out/", "/perfrun").
func rootIgnores(root string) map[string]bool {
	data, _ := os.ReadFile(filepath.Join(root, ".gitignore"))
	out := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "/")
		if name = strings.TrimSuffix(name, "/"); ok && name != "" && !strings.ContainsAny(name, "/*?[") {
			out[name] = true
		}
	}
	return out
}

// existsInside says whether p is there and inside the repository at
// root, its links followed: a path that leaves it (docs/../../etc, a link
// in the tree to a folder outside) names nothing of the repository's,
// whatever is there.
func existsInside(root, p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	top, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(top, real)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
