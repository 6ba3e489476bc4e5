#!/usr/bin/env bash
# Times the README's first command (its third line) on fresh clones of
# this repository, N times, alone or beside one busy loop, with
# the machine's Go build cache or an empty one; given revisions, it clones
# each in turn N times over (interleaved), else the checkout's HEAD.
#   bash results/main-job/run.sh OUT [alone|busy] [N] [warm|empty] [REV...]
# Each run's stdout, stderr (each line stamped with the seconds since the
# start) and results file land in OUT; summary.txt has the exit codes and
# walls. empty gives each run a new GOCACHE (the module cache stays).
set -euo pipefail
out=$(realpath -m "$1")
mode=${2:-alone}
n=${3:-3}
cache=${4:-warm}
shift $(($# < 4 ? $# : 4))
revs=("$@")
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
for i in $(seq 1 "$n"); do
for rev in "${revs[@]:-HEAD}"; do
	clone=$(mktemp -d)
	git clone -q "$repo" "$clone/perfrun"
	git -C "$clone/perfrun" checkout -q "$rev"
	main=$(sed -n 3p "$clone/perfrun/README.md" | sed 's/ *#.*//; s/^ *//')
	case "$main" in "go run "*) ;; *) echo "README's third line is no go run: $main" >&2; exit 2 ;; esac
	[ "$cache" = warm ] || export GOCACHE="$clone/gocache"
	hog=
	if [ "$mode" = busy ]; then
		bash -c 'while :; do :; done' &
		hog=$!
	fi
	name="$mode-$cache-$i"
	[ ${#revs[@]} -eq 0 ] || name="$rev-$name"
	start=$(date +%s.%N)
	rc=0
	(cd "$clone/perfrun" && $main 2>&1 >"$out/$name.txt" |
		while IFS= read -r line; do printf '%6.1f %s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$line"; done >"$out/$name.log") || rc=$?
	end=$(date +%s.%N)
	if [ -n "$hog" ]; then kill "$hog"; fi
	cp "$clone/perfrun/perfrun-out/results.txt" "$out/$name-results.txt" 2>/dev/null || true
	printf '%s %s %s %d exit=%d wall=%.1fs\n' "$rev" "$mode" "$cache" "$i" "$rc" "$(echo "$end - $start" | bc)" | tee -a "$out/summary.txt"
	rm -rf "$clone"
	unset GOCACHE
done
done
