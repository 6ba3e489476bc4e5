#!/usr/bin/env bash
# Replays every recorded campaign that kept its windows at ab's defaults
# and prints a line each: the file, the exit code, the verdict line and
# what decided it. Each -v output goes to OUT for a byte-for-byte diff.
#   bash results/locks/campaigns/evidence/replay.sh PERFRUN OUT
set -euo pipefail
perfrun=$(realpath "$1"); out=$(realpath -m "$2")
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for arm in ab-before ab-after; do
	mkdir -p "$work/$arm"
	gunzip -c "$repo/results/archive/busy-runner/$arm/windows.csv.gz" >"$work/$arm/windows.csv"
done
mkdir -p "$work/aa"
tar xjf "$repo/internal/recorded/testdata/aa-campaigns.tar.bz2" -C "$work/aa"
files=("$repo/results/locks/report-c-hashmap/windows.csv" "$repo/results/fidelity/ab-3.0-4.0/windows.csv"
	"$repo/results/fidelity/x509storeissuer-ab/windows.csv" "$work/ab-before/windows.csv" "$work/ab-after/windows.csv")
for f in "$work"/aa/aa-*.csv; do files+=("$f"); done
for f in "${files[@]}"; do
	name=$(basename "$(dirname "$f")")-$(basename "$f" .csv)
	[ "$(basename "$(dirname "$f")")" != aa ] || name=$(basename "$f" .csv)
	rc=0
	(cd "$(dirname "$f")" && "$perfrun" ab -v -replay "$(basename "$f")") >"$out/$name.txt" 2>&1 || rc=$?
	echo "$name exit=$rc $(head -1 "$out/$name.txt")"
done
