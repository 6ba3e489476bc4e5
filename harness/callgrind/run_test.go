package callgrind

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
)

// TestCountsRunWithoutPreemption: a count runs its program with Env
// whatever perfrun's own environment says, since with asynchronous
// preemption on a Go program under callgrind now and then aborts it (see
// Env), and with RDTSCP in use dies of SIGILL. Here perfrun's environment
// turns preemption back on and the program is env, which prints what it
// was given.
func TestCountsRunWithoutPreemption(t *testing.T) {
	needs.Valgrind(t)
	t.Setenv("GODEBUG", "asyncpreemptoff=0")
	t.Setenv("GOMAXPROCS", "2")
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"--tool=none", "/usr/bin/env"}, []string{"GOGC=100"}, &out, nil); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for line := range strings.Lines(out.String()) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			got[k] = v
		}
	}
	for _, kv := range Env {
		k, v, _ := strings.Cut(kv, "=")
		if got[k] != v {
			t.Errorf("the counted program ran with %s=%q, want %q", k, got[k], v)
		}
	}
	if !strings.Contains(got["GODEBUG"], "asyncpreemptoff=1") {
		t.Errorf("the counted program ran with GODEBUG=%q: asynchronous preemption on", got["GODEBUG"])
	}
}
