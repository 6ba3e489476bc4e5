package records

import "testing"

// TestFileStemsNeverCollide: names that differ only in characters a file
// name drops get files of their own (x! and x? shared one, so a report
// showed one machine's plot as the other's); plain names keep their stems.
func TestFileStemsNeverCollide(t *testing.T) {
	seen := make(map[string]string)
	for _, name := range []string{"x!/Issuer/ns/op", "x?/Issuer/ns/op", "x/Issuer/ns/op", "x /Issuer/ns/op"} {
		stem := FileStem(name)
		if other, ok := seen[stem]; ok {
			t.Errorf("%q and %q share the file stem %q", name, other, stem)
		}
		seen[stem] = name
	}
	if got := FileStem("Issuer/certs=1024"); got != "issuer_certs-1024" {
		t.Errorf("FileStem(Issuer/certs=1024) = %q, want issuer_certs-1024", got)
	}
}
