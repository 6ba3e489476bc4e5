#!/usr/bin/env bash
# The main job's wall time (go run ./cmd/perfrun run -q) in a clone: warm
# and alone; on a fresh machine's empty caches (GOCACHE and
# XDG_CACHE_HOME, where perfrun keeps its lock build, both new) and alone;
# warm beside one busy loop. Three rounds, interleaved. Each run's stdout
# and stderr land in OUT; the walls go to standard output.
#   bash results/main-job/fresh/measure.sh CLONE OUT
set -u
out=$(realpath -m "${2:?OUT}")
mkdir -p "$out"
cd "${1:?a clone of the repository}"
timed() { # NAME, then the command
	local name=$1 s e rc
	shift
	s=$(date +%s.%N)
	"$@" >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	e=$(date +%s.%N)
	echo "$name rc=$rc $(echo "$e - $s" | bc)"
}
for i in 1 2 3; do
	timed "warm$i" go run ./cmd/perfrun run -q
	rm -rf "$out/fresh"
	mkdir -p "$out/fresh"
	timed "empty$i" env XDG_CACHE_HOME="$out/fresh" GOCACHE="$out/fresh/go-build" go run ./cmd/perfrun run -q
	bash -c 'while :; do :; done' &
	hog=$!
	timed "busy$i" go run ./cmd/perfrun run -q
	kill "$hog"
done
