#!/usr/bin/env bash
# Runs `perfrun run` (the main job, built with go build, so no go run
# compile) of two commits interleaved, N times each, alone:
#   bash results/main-job/hooked/interleaved/run.sh OUT OLD NEW [N]
# Each commit is checked out in a worktree under OUT and built there (a
# count builds perfrun again from its own source). summary.txt has each
# run's wall; NAME-I.err its stderr, NAME-I.txt its results.
set -euo pipefail
out=$(realpath -m "$1")
old=$2 new=$3 n=${4:-3}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
for v in old new; do
	rev=${!v}
	git -C "$repo" worktree add -q "$out/wt-$v" "$rev"
	(cd "$out/wt-$v" && go build -o pr ./cmd/perfrun)
done
trap 'for v in old new; do git -C "$repo" worktree remove --force "$out/wt-$v"; done' EXIT
for i in $(seq 1 "$n"); do
	for v in old new; do
		start=$(date +%s.%N)
		(cd "$out/wt-$v" && ./pr run -o "$out/$v-$i.txt" -plots none >"$out/$v-$i.out" 2>"$out/$v-$i.err") || true
		printf '%s %d wall=%.1f\n' "$v" "$i" "$(echo "$(date +%s.%N) - $start" | bc)" | tee -a "$out/summary.txt"
	done
done
