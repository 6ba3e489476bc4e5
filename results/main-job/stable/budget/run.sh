#!/usr/bin/env bash
# The main job (perfrun run at its defaults) of two built perfruns,
# interleaved, N times each, from one new folder each time: here the
# repair budget as it is and halved (half-budget.patch applied in a
# worktree, go build ./cmd/perfrun).
#   bash results/main-job/stable/budget/run.sh OUT N NAME=PERFRUN NAME=PERFRUN
set -euo pipefail
out=$(realpath -m "$1") n=${2:-3}
shift 2
mkdir -p "$out"
for i in $(seq 1 "$n"); do
	for arm in "$@"; do
		name=${arm%%=*} perfrun=$(realpath "${arm#*=}")
		dir=$(mktemp -d)
		start=$(date +%s.%N)
		(cd "$dir" && "$perfrun" run -o "$out/$name-$i.txt" 2>&1 >"$out/$name-$i.out" |
			while IFS= read -r line; do printf '%6.1f %s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$line"; done >"$out/$name-$i.log")
		rm -rf "$dir"
		echo "$name $i $(tail -1 "$out/$name-$i.log" | cut -c1-7)" | tee -a "$out/summary.txt"
	done
done
