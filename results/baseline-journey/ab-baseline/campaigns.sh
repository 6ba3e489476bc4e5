#!/usr/bin/env bash
# campaigns.sh: the baseline journey decided by measuring the baseline's kept build again.
# One default run saves the baseline "main" (results and build); a second default run is gated
# against it file to file; then ab -baseline campaigns: unchanged code (HEAD = the same build) and
# a build with exp-double10.patch applied (about 10% of hashmap's lookups do their work twice).
#
#   bash results/baseline-journey/ab-baseline/campaigns.sh PERFRUN SLOW-PERFRUN MOVE-PERFRUN OUT-DIR
#
# PERFRUN is `go build -o PERFRUN ./cmd/perfrun`; SLOW-PERFRUN the same with exp-double10.patch
# applied; MOVE-PERFRUN a later commit with exp-move.patch applied (code moved into files of their
# own, no logic changed: another code layout).
# Run it alone: nothing compiling or testing beside it.
set -u
perfrun=$(realpath "$1") slow=$(realpath "$2") move=$(realpath "$3") out=$4
mkdir -p "$out" && cd "$out"
export PERFRUN_BASELINES=$PWD/perfrun-out/baselines
t() { echo "== $(date -u +%H:%M:%S) $*"; }
wall() { /usr/bin/time -f "wall %e s" "$@"; }
t save; wall "$perfrun" run -save-baseline main >save.table.txt 2>save.err; echo "exit $?"
cp perfrun-out/results.txt run-1.txt
t run2; wall "$perfrun" run >run2.table.txt 2>run2.err; echo "exit $?"
cp perfrun-out/results.txt run-2.txt
t gate; "$perfrun" gate -baseline main perfrun-out/results.txt >gate.verdict.txt 2>gate.err; echo "exit $?"
aa() { t "aa-$1"; wall "$perfrun" ab -baseline main -budget 5m -json "aa-$1.json" >"aa-$1.verdict.txt" 2>"aa-$1.err"; echo "exit $?"; }
d10() { t "d10$1"; wall "$perfrun" ab -baseline main -head-bin "$slow" $2 -budget 5m -json "d10$1.json" >"d10$1.verdict.txt" 2>"d10$1.err"; echo "exit $?"; }
# the order they ran in
aa 1; d10 -1 "-impl hashmap"; aa 2; d10 -2 "-impl hashmap"; aa 3; aa 4; aa 5
d10 all-1 ""; d10 -3 "-impl hashmap"
for i in 1 2 3; do
	t "move-$i"; wall "$perfrun" ab -baseline main -head-bin "$move" -budget 5m -json "move-$i.json" >"move-$i.verdict.txt" 2>"move-$i.err"; echo "exit $?"
done
t done
