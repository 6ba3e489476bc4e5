package history

import (
	"errors"
	"testing"
)

func TestCheckCommit(t *testing.T) {
	for _, c := range []string{"dcaa8fab19a201cdaf98f14b564e60802e884fb8", "dcaa8fab19a2-dirty", "v1.2.0", "release/3.0", "main"} {
		if err := CheckCommit(c); err != nil {
			t.Errorf("CheckCommit(%q) = %v, want nil", c, err)
		}
	}
	for _, c := range []string{"", "--output=/tmp/x", "-p", "a b", "a\nb", "x..y", "HEAD@{1}", "a~1", "a^", "/abs", "end.lock", "a:b", "\x1b[31m"} {
		if err := CheckCommit(c); !errors.Is(err, ErrBadCommit) {
			t.Errorf("CheckCommit(%q) = %v, want ErrBadCommit", c, err)
		}
	}
}
