// Command placement holds the prediction within the cores to campaigns
// that ran the transfer probe (perfrun's harness times, after every window
// on two threads, a write to a line the other core wrote last): for each
// change, head ÷ base on two threads, as ab timed it and as each round
// did, beside what the model predicts with the runner's fixed transfer and
// with the transfer the campaign's own windows timed.
//
//	python3 scaling/runner/amd/held.py OUT IMPL:BRANCH:SEED... > held.txt
//	go run ./scaling/runner/placement held.txt... OUT
//
// Given more than one held file it also says, of each change measured in
// more than one campaign, the least miss any one prediction could have.
//
// OUT is results/locks/run.sh's folder, its campaigns run with REPORT=1,
// or a folder of NAME.windows.csv.gz as this one keeps them
// (go run ./scaling/runner/placement scaling/runner/placement/held-far-*.txt
// scaling/runner/placement).
package main

import (
	"compress/gzip"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfrun/perfrun/compare"
	"github.com/perfrun/perfrun/internal/ab"
	"github.com/perfrun/perfrun/predict"
	"github.com/perfrun/perfrun/records"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: placement HELD-FILE... OUT")
		os.Exit(2)
	}
	out := os.Args[len(os.Args)-1]
	var sets [][]predict.HeldChange
	for _, file := range os.Args[1 : len(os.Args)-1] {
		set, err := records.ReadFile(file)
		check(err)
		changes, err := predict.HeldChanges(set)
		check(err)
		sets = append(sets, changes)
		held(changes, out)
	}
	if len(sets) > 1 {
		least := predict.Again(2, sets...)
		for _, name := range slices.Sorted(maps.Keys(least)) {
			fmt.Printf("%-16s measured again: no one prediction misses less than %.1f%%\n", name, 100*least[name])
		}
		f := predict.FloorOver("", least)
		fmt.Printf("over the %d files: %d changes measured more than once, the least miss median %.0f%%, worst %.0f%%\n",
			len(sets), f.Changes, 100*f.Median, 100*f.Worst)
	}
}

// held prints, for each change of a held file, head ÷ base at 2 threads
// as measured and as predicted both ways, then each change's rounds.
func held(changes []predict.HeldChange, out string) {
	var fixedRatio, ownRatio []float64
	fmt.Printf("%-22s %9s %16s %16s %9s\n", "change", "measured", "fixed transfer", "its own", "transfer")
	var detail strings.Builder
	for _, h := range changes {
		rec, err := windows(out, h.Name)
		check(err)
		rounds, all := twoThreads(rec)
		if len(all) == 0 {
			fmt.Fprintf(os.Stderr, "%s: no transfer probe in its windows (a perfrun from before the probe?)\n", h.Name)
			continue
		}
		measured := h.Measured(2)
		fixed := predicted(h, predict.RunnerFixed)
		own := predicted(h, withTransfer(records.Median(all)))
		fixedRatio, ownRatio = append(fixedRatio, fixed/measured), append(ownRatio, own/measured)
		fmt.Printf("%-22s %9.3f %8.3f (%+4.0f%%) %8.3f (%+4.0f%%) %6.0f ns\n", h.Name, measured,
			fixed, 100*(fixed/measured-1), own, 100*(own/measured-1), 1e9*records.Median(all))
		fmt.Fprintf(&detail, "%s, each round: transfer ns, head ÷ base measured, predicted with it\n ", h.Name)
		for _, r := range rounds {
			fmt.Fprintf(&detail, " %3.0f %.2f %.2f |", 1e9*r.transfer, r.ratio, predicted(h, withTransfer(r.transfer)))
		}
		detail.WriteString("\n")
	}
	f, o := predict.HeldOver("", "", fixedRatio), predict.HeldOver("", "", ownRatio)
	fmt.Printf("\nmedian miss (either way): fixed transfer %.0f%%, worst %.0f%%; its own %.0f%%, worst %.0f%% (%d changes)\n\n",
		100*f.Median, 100*f.Worst, 100*o.Median, 100*o.Worst, o.Rows)
	fmt.Print(detail.String())
	fmt.Println()
}

// windows reads a campaign's windows: run.sh's NAME.report/windows.csv
// in out, or, as this folder keeps them, NAME.windows.csv.gz.
func windows(out, name string) (*ab.Recording, error) {
	f, err := os.Open(filepath.Join(out, name+".report", "windows.csv"))
	if err == nil {
		defer f.Close()
		return ab.ReadWindows(f, 2)
	}
	g, err := os.Open(filepath.Join(out, name+".windows.csv.gz"))
	if err != nil {
		return nil, err
	}
	defer g.Close()
	z, err := gzip.NewReader(g)
	if err != nil {
		return nil, err
	}
	return ab.ReadWindows(z, 2)
}

// A round is one round's 2-thread head ÷ base (its arms' windows not set
// aside) and the median transfer its 2-thread windows' probes timed.
type round struct{ transfer, ratio float64 }

// twoThreads are the rounds of the recording's 2-thread cell, in order,
// and every transfer its windows' probes timed.
func twoThreads(rec *ab.Recording) ([]round, []float64) {
	var rounds []round
	var all []float64
	for name, ws := range rec.Windows {
		if records.NameKey(name, "threads") != "2" || records.NameKey(name, "impl") == "" {
			continue
		}
		by := map[int][]compare.Window{}
		for _, w := range ws {
			by[w.Round] = append(by[w.Round], w)
		}
		for _, r := range slices.Sorted(maps.Keys(by)) {
			arm := map[string][]float64{}
			var tr []float64
			for _, w := range by[r] {
				if w.Transfer >= 0 {
					tr = append(tr, w.Transfer)
				}
				if w.Aside == "" {
					arm[w.Arm] = append(arm[w.Arm], w.Value)
				}
			}
			all = append(all, tr...)
			if len(arm[ab.ArmBase]) == 0 || len(arm[ab.ArmHead]) == 0 || len(tr) == 0 {
				continue
			}
			rounds = append(rounds, round{records.Median(tr), records.Median(arm[ab.ArmHead]) / records.Median(arm[ab.ArmBase])})
		}
	}
	return rounds, all
}

// withTransfer is the runner's constants with the transfer t (seconds).
func withTransfer(t float64) predict.Measured {
	k := predict.RunnerFixed
	k.Low.Transfer, k.Mid.Transfer, k.High.Transfer = t, t, t
	return k
}

func predicted(h predict.HeldChange, k predict.Measured) float64 {
	r, err := h.Predicted(2, k)
	check(err)
	return r
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "placement:", err)
		os.Exit(1)
	}
}
