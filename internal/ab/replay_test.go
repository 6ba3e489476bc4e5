package ab

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/store/corpus"
)

// TestReadWindowsRefusesForgeries: a windows file is read as untrusted
// input: malformed rows, impossible values and mixed machines are refused.
func TestReadWindowsRefusesForgeries(t *testing.T) {
	head := "cell,round,arm,value,probe,aside,cores\n"
	full := "cell,round,arm,value,probe,aside,cores,transfer\n"
	for name, text := range map[string]string{
		"empty":      "",
		"header":     "a,b,c\n1,2,3\n",
		"nan":        head + "Issuer/impl=a/threads=1,0,head,NaN,1,,2\n",
		"arm":        head + "Issuer/impl=a/threads=1,0,judge,1,1,,2\n",
		"round":      head + "Issuer/impl=a/threads=1,-1,head,1,1,,2\n",
		"machines":   head + "Issuer/impl=a/threads=1,0,head,1,1,,2\nIssuer/impl=a/threads=1,0,base,1,1,,64\n",
		"fields":     head + "Issuer/impl=a/threads=1,0,head,1,1\n",
		"zero":       head + "Issuer/impl=a/threads=1,0,head,0,1,,2\n",
		"negative":   head + "Issuer/impl=a/threads=1,0,head,-3e-7,1,,2\n",
		"probe":      head + "Issuer/impl=a/threads=1,0,head,3e-7,-1,,2\n",
		"no windows": head,
		// A name or reason holding a line break would print lines of its
		// own in the trusted job's log: a workflow command, a fake PASS row.
		"newline name":   head + "\"Issuer/impl=a/threads=1\n::error::forged\",0,head,1,1,,2\n",
		"cr name":        head + "\"Issuer/impl=a/threads=1\rPASS\",0,head,1,1,,2\n",
		"newline reason": head + "Issuer/impl=a/threads=1,0,head,1,1,\"slow\nPASS row\",2\n",
		"transfer":       full + "Issuer/impl=a/threads=2,0,head,1,1,,2,-1e-7\n",
		"transfer nan":   full + "Issuer/impl=a/threads=2,0,head,1,1,,2,NaN\n",
		"a column more":  full[:len(full)-1] + ",more\nIssuer/impl=a/threads=2,0,head,1,1,,2,0,x\n",
	} {
		if _, err := ReadWindows(strings.NewReader(text), 2); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

// TestWindowsKeepTheTransfer: a window's transfer probe is written and
// read back, a zero apart from none; a file of an earlier ab, without the
// column, reads as none measured.
func TestWindowsKeepTheTransfer(t *testing.T) {
	cell := "Issuer/impl=a/threads=2"
	data := WriteWindows([]string{cell}, map[string][]compare.Window{cell: {
		{Round: 0, Arm: ArmBase, Value: 2e-8, Probe: 3e-8, Transfer: 1.3e-7},
		{Round: 0, Arm: ArmHead, Value: 5e-8, Probe: 3e-8},
		{Round: 0, Arm: ArmBase2, Value: 2e-8, Probe: 3e-8, Transfer: -1},
	}}, 2)
	rec, err := ReadWindows(bytes.NewReader(data), 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Windows[cell]; len(got) != 3 || got[0].Transfer != 1.3e-7 || got[1].Transfer != 0 || got[2].Transfer >= 0 {
		t.Errorf("read back %+v, want the transfers 1.3e-7, 0 (too short to time) and none", got)
	}
	old := "cell,round,arm,value,probe,aside,cores\n" + cell + ",0,head,5e-8,3e-8,,2\n"
	rec, err = ReadWindows(strings.NewReader(old), 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Windows[cell]; len(got) != 1 || got[0].Transfer >= 0 || got[0].Value != 5e-8 {
		t.Errorf("an earlier file read as %+v", got)
	}
}

// TestArmEnvironments: the head arm's processes get the head's settings,
// the base and A/A arms the base's, on top of perfrun's environment.
func TestArmEnvironments(t *testing.T) {
	r := &Runner{BaseEnv: []string{"LD_LIBRARY_PATH=/opt/a/lib"}, HeadEnv: []string{"LD_LIBRARY_PATH=/opt/b/lib"}}
	last := func(env []string) string { return env[len(env)-1] }
	if got := last(r.env(ArmHead)); got != "LD_LIBRARY_PATH=/opt/b/lib" {
		t.Errorf("head: %s", got)
	}
	for _, arm := range []string{ArmBase, ArmBase2} {
		if got := last(r.env(arm)); got != "LD_LIBRARY_PATH=/opt/a/lib" {
			t.Errorf("%s: %s", arm, got)
		}
	}
	// Without settings an arm inherits the environment and is told where
	// its revision keeps the corpus: base and base again share one, head
	// has its own.
	plain := &Runner{Dir: "/scratch"}
	if env := plain.env(ArmHead); len(env) != len(os.Environ())+1 || last(env) != corpus.CacheEnv+"=/scratch/corpus-head" {
		t.Errorf("no settings, head: %d variables, last %q", len(env), last(env))
	}
	if a, b := last(plain.env(ArmBase)), last(plain.env(ArmBase2)); a != b || a != corpus.CacheEnv+"=/scratch/corpus-base" {
		t.Errorf("base's and base again's corpus: %q, %q", a, b)
	}
}

// TestDescribe: a revision is named with its short hash and subject; what
// git does not know stays as given.
func TestDescribe(t *testing.T) {
	got := Describe(t.Context(), "../..", "HEAD")
	if !regexp.MustCompile(`^HEAD \([0-9a-f]{7,} .+\)$`).MatchString(got) {
		t.Errorf("Describe(HEAD) = %q", got)
	}
	if got := Describe(t.Context(), "../..", "no-such-revision"); got != "no-such-revision" {
		t.Errorf("Describe(no-such-revision) = %q", got)
	}
}

// TestDescribeFullHash: a full commit name is not repeated before its
// short one.
func TestDescribeFullHash(t *testing.T) {
	full := strings.Fields(Describe(t.Context(), "../..", "HEAD"))[1][1:] // "(abc1234"
	out, err := exec.Command("git", "-C", "../..", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip(err)
	}
	got := Describe(t.Context(), "../..", strings.TrimSpace(string(out)))
	if !strings.HasPrefix(got, full+" ") {
		t.Errorf("Describe(full hash) = %q, want it to begin with %s", got, full)
	}
}
