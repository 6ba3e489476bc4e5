#!/usr/bin/env bash
# Holds the 16-thread prediction, made from 1-thread counts on a 2-core
# machine, against a machine with the cores to measure it.
#
#   On the many-core machine (8 cores or more; nothing installed but a
#   perfrun built here with CGO_ENABLED=0 go build -o perfrun-static ./cmd/perfrun):
#     bash run.sh measure ./perfrun-static OUT [THREADS]     # THREADS: 1,2,4,8,16
#   Then here, with the repository and valgrind (the counts rebuild perfrun):
#     bash run.sh hold OUT [THREADS]
#
# measure writes OUT/measured.txt: every design at THREADS, one core a
# thread where the machine has them, 6 rounds of 200 ms. hold counts each
# design's instructions and lock profile at one thread (OUT/counts.txt),
# predicts THREADS from them with the reference constants, and holds each
# design's predicted per(n)/per(1) against the measured one:
# OUT/table.txt, the table to keep (results/many-core/README.md says where).
set -euo pipefail
mode=${1:?measure or hold}
case "$mode" in
measure)
	perfrun=$(realpath "${2:?perfrun binary}")
	out=$(realpath -m "${3:?OUT}")
	threads=${4:-1,2,4,8,16}
	mkdir -p "$out"
	nproc >"$out/cores.txt"
	"$perfrun" run -threads "$threads" -rounds 6 -predict 0 -label machine=many-core -o "$out/measured.txt"
	;;
hold)
	out=$(realpath "${2:?OUT}")
	threads=${3:-1,2,4,8,16}
	here=$(cd "$(dirname "$0")" && pwd)
	cd "$(git -C "$here" rev-parse --show-toplevel)"
	[ -s "$out/measured.txt" ] || { echo "no $out/measured.txt: run measure on the many-core machine first" >&2; exit 2; }
	go build -o "$out/perfrun" ./cmd/perfrun
	"$out/perfrun" run -threads 1 -rounds 3 -instructions -locks -predict 0 -o "$out/counts.txt" -q
	as=sorted=sorted,sortoninsert=sortoninsert,hashmap=hashmap,rcu=rcu
	"$out/perfrun" predict -threads "$threads" -against "$out/measured.txt" -as "$as" "$out/counts.txt" >"$out/table.txt"
	echo "the table: $out/table.txt (predicted on $(nproc) cores, measured on $(cat "$out/cores.txt" 2>/dev/null || echo '?') cores); keep it under results/many-core/ with the date and the machine"
	;;
*)
	echo "usage: run.sh measure PERFRUN OUT [THREADS] | run.sh hold OUT [THREADS]" >&2
	exit 2
	;;
esac
