package cellops

import (
	"bytes"
	"strings"
	"testing"
)

// TestMainRunsCellOpsAlone: the counting program runs the operations of
// one cell, refuses any other subcommand with the way to the rest, and
// says what is wrong with a cell it cannot run (exit 2).
func TestMainRunsCellOpsAlone(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{Name, "-impl", "hashmap", "-workload", "issuer", "-ops", "20", "-param", "certs=16"}, 0, ""},
		{[]string{"run"}, 2, "it runs cell-ops alone"},
		{nil, 2, "it runs cell-ops alone"},
		{[]string{Name, "-impl", "hashmap"}, 2, "-impl and -workload name the one cell"},
		{[]string{Name, "-impl", "nosuch", "-workload", "issuer"}, 2, "nosuch"},
		{[]string{Name, "-impl", "rcu", "-workload", "issuer", "-ops", "0"}, 2, "-ops 0: want at least 1"},
		{[]string{Name, "-impl", "rcu", "-workload", "issuer", "-param", "certs=1,2"}, 2, "2 cells: cell-ops runs one"},
		{[]string{Name, "-impl", "rcu", "-workload", "issuer", "-corpus", t.TempDir() + "/none.pem"}, 2, "none.pem"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, &stdout, &stderr, nil)
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}
