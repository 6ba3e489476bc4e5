#!/usr/bin/env bash
# Measures this runner's own constants N times, alone: a small run gives
# predict its input (this machine's), then predict -constants measure
# measures the hand-offs (to a waiter that spins, to one that sleeps) and
# the cache-line transfer on two threads, each run into its own file.
#   bash results/scaling/runner/run.sh PERFRUN OUT [N]
set -euo pipefail
perfrun=$(realpath "$1")
out=$(realpath -m "$2")
n=${3:-5}
mkdir -p "$out"
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
"$perfrun" run -impl rcu -threads 1 -rounds 1 -window 50ms -warmup 10ms -instructions -locks \
	-quarantine=false -o "$out/input.txt" -q >/dev/null
for i in $(seq 1 "$n"); do
	# Exit 3 is a busy machine: the file says so, and the run is kept.
	"$perfrun" predict -constants measure -threads 1,2 "$out/input.txt" >"$out/measure-$i.txt" 2>&1 || [ $? -eq 3 ]
	grep 'predicted, not measured' "$out/measure-$i.txt"
done
