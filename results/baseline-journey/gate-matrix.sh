#!/usr/bin/env bash
# gate-matrix.sh: every run of a set gated against every other run of the same set, and the
# design cells' sec/op verdicts counted from the gate's -json report (oversubscribed cells are
# not gated and not counted).
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
			rm -f "$tmp/gate.json" # a gate that failed leaves none, and python says so
			"$perfrun" gate -json "$tmp/gate.json" "$old" "$tmp/new.txt" >/dev/null 2>&1 || true
			python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cells"]:
    if c["unit"] == "sec/op" and c["verdict"] != "NOT-GATED":
        print(sys.argv[2], c["verdict"])' "$tmp/gate.json" "$(basename "$set")"
		done
	done
done | sort | uniq -c | awk '{ n[$2] += $1; v[$2 " " $3] = $1 } END { for (k in v) print k, v[k] }' | sort
