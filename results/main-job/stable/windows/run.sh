#!/usr/bin/env bash
# The main job's measuring at two window settings, interleaved, with one
# built perfrun (go build ./cmd/perfrun): N times each of the defaults
# (200 ms windows, 50 ms warm-up) and another setting.
#   bash results/main-job/stable/windows/run.sh OUT PERFRUN N WINDOW WARMUP
set -euo pipefail
out=$(realpath -m "$1") perfrun=$(realpath "$2") n=${3:-3}
mkdir -p "$out"
cd "$(mktemp -d)"
for i in $(seq 1 "$n"); do
	for cfg in "200ms 50ms" "$4 $5"; do
		set -- $cfg
		name=w$1-u$2-$i
		start=$(date +%s.%N)
		"$perfrun" run -window "$1" -warmup "$2" -o "$out/$name.txt" 2>&1 >"$out/$name.out" |
			while IFS= read -r line; do printf '%6.1f %s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$line"; done >"$out/$name.log"
		echo "$name $(tail -1 "$out/$name.log" | cut -c1-7)"
	done
done
