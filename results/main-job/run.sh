#!/usr/bin/env bash
# Times the README's first command on fresh clones of this repository:
# go run ./cmd/perfrun run, three times, alone or beside one busy loop.
#   bash results/main-job/run.sh OUT [alone|busy] [N]
# Each run's stdout, stderr and results file land in OUT; summary.txt has
# the exit codes and walls. The Go build cache is the machine's own.
set -euo pipefail
out=$(realpath -m "$1")
mode=${2:-alone}
n=${3:-3}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
for i in $(seq 1 "$n"); do
	clone=$(mktemp -d)
	git clone -q "$repo" "$clone/perfrun"
	hog=
	if [ "$mode" = busy ]; then
		yes >/dev/null &
		hog=$!
	fi
	start=$(date +%s.%N)
	rc=0
	(cd "$clone/perfrun" && go run ./cmd/perfrun run >"$out/$mode-$i.txt" 2>"$out/$mode-$i.log") || rc=$?
	end=$(date +%s.%N)
	if [ -n "$hog" ]; then kill "$hog"; fi
	cp "$clone/perfrun/perfrun-out/results.txt" "$out/$mode-$i-results.txt" 2>/dev/null || true
	printf '%s %d exit=%d wall=%.1fs\n' "$mode" "$i" "$rc" "$(echo "$end - $start" | bc)" | tee -a "$out/summary.txt"
	rm -rf "$clone"
done
