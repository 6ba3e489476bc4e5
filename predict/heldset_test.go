package predict

import (
	"strings"
	"testing"

	"github.com/perfrun/perfrun/records"
)

// TestAHeldChangeNeedsBothArms: a held set whose change has its head's
// counts but not its base's is refused, and a whole one reads back each
// change's arms and measured ratios.
func TestAHeldChangeNeedsBothArms(t *testing.T) {
	changes, err := HeldChanges(readTestdata(t, "held-amd2-oos.txt"))
	if err != nil || len(changes) != 11 || !(changes[0].Measured(2) > 0) || !(changes[0].Head.Instructions > 0) {
		t.Fatalf("the held set read as %d changes (%v)", len(changes), err)
	}
	half := "cores: 2\n\nBenchmarkHeld/change=c-x/impl=hashmap/arm=head/threads=1 1 400 instructions/op 2 measured-ratio-2t\n"
	in, err := records.Read(strings.NewReader(half), "half", "half.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := HeldChanges(in); err == nil {
		t.Errorf("a change with no base read as %+v", got)
	}
}
