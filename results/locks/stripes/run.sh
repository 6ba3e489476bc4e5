#!/usr/bin/env bash
# The stripe family: one store under a read/write lock and under 1, 4, 16
# and 64 Mutex stripes (package striped), measured at 1 and 2 threads with
# its counts (cost=own), predicted from the counts at 1 to 16 threads, and
# drawn: measured points, predicted lines.
#   bash results/locks/stripes/run.sh OUT
set -euo pipefail
out=$(realpath -m "$1")
mkdir -p "$out"
cd "$(dirname "$0")/../.." # the results module
impls=rwlock,stripes1,stripes4,stripes16,stripes64
go run ./locks/stripes run -impl "$impls" -threads 1,2 -rounds 6 -param cost=own \
	-instructions -locks -predict 16 -o "$out/family.txt" >"$out/family.out"
go run ./locks/stripes predict -threads 1-16 -o "$out/predicted.txt" "$out/family.txt" >"$out/predicted.out"
go run ./locks/stripes plot -o "$out/plots" "$out/family.txt" "$out/predicted.txt"
