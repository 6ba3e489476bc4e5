// Package amd holds the prediction within the cores to a second host: the
// held set's changes (and five kept apart, and the two sharded read
// locks) measured again on this project's runner on an "AMD EPYC" host,
// predicted with the constants perfrun uses today (predict.RunnerFixed,
// an Intel host's) and with this host's own (constants-1.txt), both
// printed to account.txt beside what time measured.
//
//	cd results && go test ./scaling/runner/amd [-update]
package amd

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

var update = flag.Bool("update", false, "rewrite account.txt")

// ownConstants reads the constants perfrun predict -constants measure
// printed on this host: low, mid and high of each kind.
func ownConstants(t *testing.T) predict.Measured {
	t.Helper()
	data, err := os.ReadFile("constants-1.txt")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`hand-off (\S+) / (\S+) / (\S+) ns to a waiter that sleeps, (\S+) / (\S+) / (\S+) ns to one that spins \(Go's locks\), cache-line transfer (\S+) / (\S+) / (\S+) ns`)
	m := re.FindStringSubmatch(string(data))
	if m == nil {
		t.Fatal("constants-1.txt names no constants")
	}
	ns := func(i int) float64 {
		v, err := strconv.ParseFloat(m[i], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v * 1e-9
	}
	// The file printed a transfer as the whole turn it timed; the model
	// charges a write one move of the line, half a turn.
	k := func(i int) predict.Constants {
		return predict.Constants{Handoff: ns(1 + i), Spin: ns(4 + i), Transfer: ns(7+i) / 2}
	}
	return predict.Measured{Low: k(0), Mid: k(1), High: k(2)}
}

// account predicts head ÷ base of every change of file at 1 and 2 threads
// with each set of constants, beside what time measured, and each set's
// median and worst miss.
func account(t *testing.T, w *bytes.Buffer, file string, sets []string, ks []predict.Measured) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := records.Read(f, file, file)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := predict.HeldChanges(in)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "%s\n  %-20s %s %9s", file, "change", "threads", "measured")
	for _, s := range sets {
		fmt.Fprintf(w, " %22s", s)
	}
	fmt.Fprintln(w)
	for _, n := range []int{1, 2} {
		misses := make([][]float64, len(ks))
		for _, h := range changes {
			measured := h.Measured(n)
			if !(measured > 0) {
				t.Fatalf("%s: no measured ratio at %d threads", h.Name, n)
			}
			fmt.Fprintf(w, "  %-20s %7d %9.3f", h.Name, n, measured)
			for i, k := range ks {
				r, err := h.Predicted(n, k)
				if err != nil {
					t.Fatal(err)
				}
				misses[i] = append(misses[i], math.Abs(math.Log(r/measured)))
				fmt.Fprintf(w, " %14.3f (×%.2f)", r, r/measured)
			}
			fmt.Fprintln(w)
		}
		for i, s := range sets {
			slices.Sort(misses[i])
			fmt.Fprintf(w, "  at %d threads, %s: median miss %.0f%%, worst %.0f%%\n", n, s, 100*(math.Exp(records.Median(misses[i]))-1), 100*(math.Exp(misses[i][len(misses[i])-1])-1))
		}
	}
}

// TestTheSecondHostsAccount: account.txt is what the model predicts now
// for the changes measured on the second host, beside what time measured
// there; it fails where the model or its constants move it (-update
// rewrites it, and its diff is the change).
func TestTheSecondHostsAccount(t *testing.T) {
	own := predict.Own(ownConstants(t), "AMD EPYC", 2, "measured alone on this project's runner, results/scaling/runner/amd")
	sets := []string{"runner's constants", "this host's own"}
	ks := []predict.Measured{predict.RunnerFixed, own}
	var w bytes.Buffer
	for _, file := range []string{"held-amd.txt", "held-amd-oos.txt"} {
		account(t, &w, file, sets, ks)
	}
	if *update {
		if err := os.WriteFile("account.txt", w.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("account.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, w.Bytes()) {
		t.Errorf("account.txt is not what the model predicts now (go test -update rewrites it):\n%s", w.Bytes())
	}
	if !strings.Contains(w.String(), "c-stripes-3110") {
		t.Error("the account lacks the striped lock, the change this host disagrees with most")
	}
}
