#!/usr/bin/env bash
# Runs perfrun bisect on scratch repositories (make-scratch.sh), one after
# another, and logs each run's verdict, culprits and wall time.
# usage: run.sh PERFRUN OUT KIND:SEED...   e.g. run.sh ./perfrun out one:1 one:2 two:1 none:1 broken:1
# $BISECT_FLAGS go to every bisect (default: -threads 1, every design).
set -uo pipefail
perfrun=$(realpath "$1") out=$(realpath -m "$2")
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for run in "$@"; do
	kind=${run%%:*} seed=${run##*:}
	repo=$(mktemp -d)/scratch
	"$here/make-scratch.sh" "$kind" "$repo" >"$out/$kind-$seed.commits" 2>&1
	start=$(date +%s)
	# shellcheck disable=SC2086
	"$perfrun" bisect -repo "$repo" ${BISECT_FLAGS:--threads 1} -seed "$seed" -o "$out/$kind-$seed" -json "$out/$kind-$seed.json" good bad \
		>"$out/$kind-$seed.txt" 2>"$out/$kind-$seed.log"
	rc=$?
	echo "$kind-$seed exit=$rc wall=$(( $(date +%s) - start ))s $(head -1 "$out/$kind-$seed.txt")" >>"$out/runs.log"
	rm -rf "$(dirname "$repo")"
done
