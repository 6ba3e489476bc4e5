package predict

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMeasureSeesABusyMachine: with a busy loop on every core, the two
// threads that spin through each window wait for a CPU about half of it;
// every window is set aside and Busy says the constants are inflated
// (two threads of independent work, timed in their own short windows,
// ran 1.8× one beside a busy loop, so that check alone said nothing).
func TestMeasureSeesABusyMachine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the thread's CPU time as Linux gives it")
	}
	if testing.Short() {
		t.Skip("slow: keeps every core busy for a second")
	}
	for range runtime.NumCPU() {
		loop := exec.Command("sh", "-c", "while :; do :; done")
		if err := loop.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { loop.Process.Kill(); loop.Wait() })
	}
	time.Sleep(50 * time.Millisecond)
	m := Measure(context.Background(), 50*time.Millisecond, 3, nil)
	if m.Disturbed != 3 || !strings.Contains(m.Busy(), "every constant is inflated") {
		t.Errorf("beside a busy loop on every core: %d of 3 windows set aside, Busy %q; want all, and inflated", m.Disturbed, m.Busy())
	}
}

// TestBusySaysWhatWasSetAside: a window or two set aside is said as such,
// none says nothing.
func TestBusySaysWhatWasSetAside(t *testing.T) {
	if b := (Measured{Windows: 9, Disturbed: 2, Parallel: 1.95}).Busy(); !strings.Contains(b, "2 of 9 windows set aside") {
		t.Errorf("two of nine: %q", b)
	}
	if b := (Measured{Windows: 9, Parallel: 1.95}).Busy(); b != "" {
		t.Errorf("a quiet machine: %q, want nothing", b)
	}
}

// TestConstantsInOrder: each kind of constant is summarized on its own,
// low <= mid <= high: the spinning hand-offs (Spin) and the sleeping ones
// (Handoff) apart, so a host that woke a sleeping waiter faster than a
// spinning one hands over mixes neither into the other.
func TestConstantsInOrder(t *testing.T) {
	m := summarize([]float64{700e-9, 600e-9, 650e-9}, []float64{320e-9, 300e-9, 310e-9}, []float64{30e-9, 170e-9, 40e-9})
	for _, k := range []struct {
		name           string
		low, mid, high float64
		want           [3]float64
	}{
		{"spinning hand-off", m.Low.Spin, m.Mid.Spin, m.High.Spin, [3]float64{600e-9, 650e-9, 700e-9}},
		{"sleeping hand-off", m.Low.Handoff, m.Mid.Handoff, m.High.Handoff, [3]float64{300e-9, 310e-9, 320e-9}},
		{"transfer", m.Low.Transfer, m.Mid.Transfer, m.High.Transfer, [3]float64{30e-9, 40e-9, 170e-9}},
	} {
		if [3]float64{k.low, k.mid, k.high} != k.want {
			t.Errorf("%s: low %g, mid %g, high %g; want %v", k.name, k.low, k.mid, k.high, k.want)
		}
	}
}

// TestMeasureStopsWithItsContext: a measurement whose context is done
// stops at the window it is in, saying how many it measured, where it
// once measured every window asked for, whatever its context said.
func TestMeasureStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	m := Measure(ctx, 50*time.Millisecond, 1000, nil)
	if took := time.Since(start); took > 3*time.Second || m.Windows >= 1000 {
		t.Errorf("Measure stopped after %v with %d windows, want it stopped within a window of its context's end", took, m.Windows)
	}
}

// TestTheRunnersConstantsNameTheirProcessor: results measured on
// another processor than the runner's constants are told so; on the
// same one (its cpu line padded, as CPUID pads it), or unknown, nothing.
func TestTheRunnersConstantsNameTheirProcessor(t *testing.T) {
	if got := Runner.Elsewhere("Intel(R) Xeon(R) Processor          "); got != "" {
		t.Errorf("the same processor: %q", got)
	}
	if got := Runner.Elsewhere(""); got != "" {
		t.Errorf("no cpu line: %q", got)
	}
	got := Runner.Elsewhere("Oxide Virtual Turin-like Processor")
	if !strings.Contains(got, "Intel(R) Xeon(R) Processor") || !strings.Contains(got, "Oxide Virtual Turin-like Processor") {
		t.Errorf("another processor: %q", got)
	}
	if got := Reference.Elsewhere("Oxide Virtual Turin-like Processor"); got != "" {
		t.Errorf("constants of no one machine: %q", got)
	}
}
