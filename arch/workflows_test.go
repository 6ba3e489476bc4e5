package arch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// step returns the run script of the named step of a workflow: the
// indented lines after its "run: |".
func step(t *testing.T, workflow, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", ".github", "workflows", workflow))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	in, indent := false, ""
	var out []string
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "- name: "+name:
			in = true
		case in && indent == "" && trimmed == "run: |":
			indent = "x" // the script's lines follow
		case in && indent == "x":
			indent = l[:len(l)-len(strings.TrimLeft(l, " "))]
			out = append(out, strings.TrimPrefix(l, indent))
		case in && indent != "":
			if trimmed != "" && !strings.HasPrefix(l, indent) {
				return strings.Join(out, "\n") + "\n"
			}
			out = append(out, strings.TrimPrefix(l, indent))
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no step %q with a run script", workflow, name)
	}
	return strings.Join(out, "\n") + "\n"
}

// fakeGH is a gh on PATH that answers the API calls the steps make from
// files, and fails when told to.
const fakeGH = `#!/bin/sh
case "$*" in
*pulls/*/files*) [ -f "$FAKE/files" ] || exit 1; cat "$FAKE/files" ;;
*pulls/*) [ -f "$FAKE/total" ] || exit 1; cat "$FAKE/total" ;;
*"pr comment"*) exit 0 ;;
*) exit 0 ;;
esac
`

func runStep(t *testing.T, script string, files map[string]string) (string, map[string]string) {
	t.Helper()
	return runStepIn(t, t.TempDir(), script, files)
}

// runStepIn is runStep in dir, where RUNNER_TEMP is too.
func runStepIn(t *testing.T, dir, script string, files map[string]string) (string, map[string]string) {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "gh"), []byte(fakeGH), 0o755)
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	outputs := filepath.Join(dir, "outputs")
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "FAKE="+dir, "GITHUB_OUTPUT="+outputs,
		"RUNNER_TEMP="+dir, "REPO=o/r", "PR=7", "DESCRIPTION=the judged verdict", "RUN_URL=https://example.invalid/run")
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("step failed: %v\n%s", err, msg)
	}
	got := make(map[string]string)
	data, _ := os.ReadFile(outputs)
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			got[k] = v
		}
	}
	body, _ := os.ReadFile(filepath.Join(dir, "body.md"))
	return string(body), got
}

// TestVerdictCommentIsTheJudges: the comment is written by the judge's
// perfrun from the recorded windows and counts: a recorded write-lock
// campaign posts its verdict, the answer at 16 threads with its cause, a
// chart GitHub draws, and the changed cells, rendered, with no fence and
// no image file; a forged report.md in the artifact (an image, a mention,
// a fake verdict line) reaches no part of it.
func TestVerdictCommentIsTheJudges(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if testing.Short() {
		t.Skip("builds perfrun")
	}
	dir := t.TempDir()
	perfrun := filepath.Join(dir, "perfrun")
	if out, err := exec.Command("go", "build", "-o", perfrun, "../cmd/perfrun").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files := map[string]string{"files": "impls/hashmap/hashmap.go\n", "total": "1\n",
		"out/report.md": "**perf verdict: PASS**\n![x](https://example.invalid/p.png)\n@maintainer look\n"}
	for _, f := range []string{"windows.csv", "instructions.csv", "locks.csv"} {
		data, err := os.ReadFile(filepath.Join("..", "docs", "testdata", "c-hashmap", f))
		if err != nil {
			t.Fatal(err)
		}
		files["out/"+f] = string(data)
	}
	script := step(t, "perf-verdict.yml", "Judge the recorded windows again") + step(t, "perf-verdict.yml", "Comment")
	body, out := runStepIn(t, dir, script, files)
	if out["state"] != "failure" {
		t.Errorf("state %q, want failure (a REGRESSION)", out["state"])
	}
	for _, want := range []string{"**❌ REGRESSION**", "more exclusive-locks/op at 16 threads (counted)", "```mermaid\nxychart-beta", "| ❌ REGRESSION |"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"![", "```text", "@maintainer", "perf verdict: PASS"} {
		if strings.Contains(body, bad) {
			t.Errorf("the comment holds %q:\n%s", bad, body)
		}
	}
}

// TestWorkflowCheckFailsClosed: the check for edited workflows fails
// closed when the API fails or cuts the list short (at 3000 files a pull
// request could hide an edited perf.yml; a failed call read as "no
// workflow changed").
func TestWorkflowCheckFailsClosed(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script := step(t, "perf-verdict.yml", "Judge the recorded windows again")
	// The perfrun the step runs: a stub that says PASS.
	perfrun := "#!/bin/sh\necho PASS\nexit 0\n"
	for name, tc := range map[string]struct {
		files map[string]string
		state string
	}{
		"honest":        {map[string]string{"files": "a.go\nb.go\n", "total": "2\n"}, "success"},
		"workflow":      {map[string]string{"files": "a.go\n.github/workflows/perf.yml\n", "total": "2\n"}, "failure"},
		"cut short":     {map[string]string{"files": "a.go\nb.go\n", "total": "3001\n"}, "failure"},
		"api fails":     {map[string]string{"total": "2\n"}, "error"},
		"total unknown": {map[string]string{"files": "a.go\n"}, "error"},
	} {
		tc.files["perfrun"] = perfrun
		_, out := runStep(t, strings.ReplaceAll(script, `"$RUNNER_TEMP/perfrun"`, `sh "$RUNNER_TEMP/perfrun"`), tc.files)
		if out["state"] != tc.state {
			t.Errorf("%s: state %q, want %q (%s)", name, out["state"], tc.state, out["description"])
		}
	}
}

// TestReusableWorkflowsOnAStoreKeptElsewhere runs the reusable workflows'
// shell steps in order, as a caller's job runs them (docs/testdata's
// caller files, which docs/ci.md shows), on a scratch repository whose
// store is kept in its own module with a relative replace of perfrun:
// perf.yml's A/B step and its verdict, then perf-verdict.yml's replay of
// the recorded windows. The runner's variables are stubbed, the
// checkouts laid out as the workflow lays them (app/, perfrun/ beside
// it), and the comparison made quick with flags after the caller's.
func TestReusableWorkflowsOnAStoreKeptElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a store's main three times and measures it")
	}
	if !*repository {
		t.Skip("the store is examples/shardedmap, a module of its own: go test ./arch -run KeptElsewhere -args -repository (CI does)")
	}
	for _, tool := range []string{"bash", "git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	with := callerInputs(t)
	root, _ := filepath.Abs("..")
	ws := t.TempDir()
	app := filepath.Join(ws, "app")
	if err := os.Symlink(root, filepath.Join(ws, "perfrun")); err != nil {
		t.Fatal(err)
	}
	sh := func(dir, script string, env ...string) string {
		t.Helper()
		cmd := exec.Command("bash", "-e", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s\n%v\n%s", script, err, out)
		}
		return string(out)
	}
	// The store's repository: the example, its replace pointing at the
	// checkout beside it, a base commit on origin/main and a head.
	sh(ws, `cp -r perfrun/examples/shardedmap app && cd app &&
go mod edit -replace=github.com/perfrun/perfrun=../perfrun &&
git init -q && git add . && git -c user.name=t -c user.email=t@t commit -qm base &&
git update-ref refs/remotes/origin/main HEAD &&
echo '// a comment' >> main.go && git -c user.name=t -c user.email=t@t commit -qam head`)
	tmp := filepath.Join(ws, "runner-temp")
	os.MkdirAll(tmp, 0o755)
	outputs := filepath.Join(ws, "outputs")
	quick := " -threads 1 -rounds 5 -looks 1 -inner 1 -window 20ms -warmup 5ms -layouts 0 -instructions=false -locks=false -q"
	sh(app, step(t, "perf.yml", "A/B against the merge base, measured by the base's perfrun"),
		"BASE_REF=main", "PKG="+with["pkg"], "ARGS="+with["args"]+quick, "BUDGET=10m",
		"RUNNER_TEMP="+tmp, "GITHUB_OUTPUT="+outputs, "GITHUB_WORKSPACE="+ws)
	data, _ := os.ReadFile(outputs)
	code := strings.TrimSpace(strings.TrimPrefix(string(data), "code="))
	if code != "0" && code != "3" {
		t.Fatalf("perfrun ab on a comment-only change exited %q\n%s", code, data)
	}
	for _, f := range []string{"out/windows.csv", "out/report.md", "out/verdict.json"} {
		if _, err := os.Stat(filepath.Join(app, f)); err != nil {
			t.Errorf("the A/B step wrote no %s: %v", f, err)
		}
	}
	// The gate: the recorded windows judged again by the perfrun built
	// from the base.
	bin := filepath.Join(ws, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "gh"), []byte(fakeGH), 0o755)
	os.WriteFile(filepath.Join(app, "files"), []byte("main.go\n"), 0o644)
	os.WriteFile(filepath.Join(app, "total"), []byte("1\n"), 0o644)
	judged := filepath.Join(ws, "judged")
	sh(app, step(t, "perf-verdict.yml", "Judge the recorded windows again"),
		"PATH="+bin+":"+os.Getenv("PATH"), "FAKE="+app, "RUNNER_TEMP="+tmp, "GITHUB_OUTPUT="+judged, "REPO=o/r", "PR=7")
	state, _ := os.ReadFile(judged)
	if !strings.Contains(string(state), "state=success") && !strings.Contains(string(state), "INCONCLUSIVE") {
		t.Errorf("the verdict job's judgement of a comment-only change: %s", state)
	}
}

// callerInputs are the with: inputs of docs/testdata/caller-perf.yml, the
// caller's workflow docs/ci.md shows.
func callerInputs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "testdata", "caller-perf.yml"))
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string)
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		switch t := strings.TrimSpace(l); {
		case t == "with:":
			in = true
		case in && strings.Contains(t, ": "):
			k, v, _ := strings.Cut(t, ": ")
			out[k] = v
		}
	}
	if out["pkg"] == "" {
		t.Fatalf("caller-perf.yml gives no pkg: %v", out)
	}
	return out
}
