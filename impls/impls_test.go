package impls

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/impls/rcu"
	"github.com/perfrun/perfrun/store"
)

// TestRegister: a store from elsewhere joins after the built-in ones; a
// bad or taken name, or no constructor, is refused with the reason.
func TestRegister(t *testing.T) {
	saved := all
	defer func() { all = saved }()
	if err := Register(store.Impl{Name: "mine-2", New: rcu.New}); err != nil {
		t.Fatal(err)
	}
	if im, err := Lookup("mine-2"); err != nil || all[len(all)-1].Name != "mine-2" || im.New == nil {
		t.Fatalf("registered store not found last: %v", err)
	}
	for im, want := range map[*store.Impl]string{
		{Name: "mine-2", New: rcu.New}:    "registered twice",
		{Name: "Mine", New: rcu.New}:      "lower case",
		{Name: "a/b", New: rcu.New}:       "lower case",
		{Name: "", New: rcu.New}:          "lower case",
		{Name: "noconstructor", New: nil}: "no constructor",
	} {
		if err := Register(*im); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Register(%q) = %v, want an error saying %q", im.Name, err, want)
		}
	}
}
