#!/usr/bin/env bash
# gate-matrix.sh: every run of a set gated against every other run of the same set, and the
# design cells' sec/op verdicts counted (oversubscribed cells are not gated and not counted).
# With SLOWER (a factor such as 1.10) the newer file's design cells are made that much slower
# first, so the counts say how many of a real regression of that size the gate finds.
#
#   bash results/baseline-journey/gate-matrix.sh PERFRUN [SLOWER] SET-DIR...
#
# e.g. bash results/baseline-journey/gate-matrix.sh perfrun 1.10 results/baseline-journey/floor-probe/set-*
set -euo pipefail
perfrun=$1
shift
slower=1
if [[ ${1:-} =~ ^[0-9.]+$ ]]; then
	slower=$1
	shift
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for set in "$@"; do
	runs=("$set"/run-*.txt)
	for old in "${runs[@]}"; do
		for new in "${runs[@]}"; do
			[ "$old" = "$new" ] && continue
			awk -v f="$slower" '/^BenchmarkIssuer\// { for (i = 3; i < NF; i++) if ($(i + 1) == "ns/op") $i = $i * f } { print }' "$new" >"$tmp/new.txt"
			"$perfrun" gate "$old" "$tmp/new.txt" 2>/dev/null | awk -v set="$(basename "$set")" '$3 == "sec/op" && $1 != "NOT-GATED" { print set, $1 }' || true
		done
	done
done | sort | uniq -c | awk '{ n[$2] += $1; v[$2 " " $3] = $1 } END { for (k in v) print k, v[k] }' | sort
