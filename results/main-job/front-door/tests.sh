#!/bin/bash
# The README's tests in CLONE (sequence.sh's), the test cache emptied first each time: go test -race
# alone, then beside one busy loop, then go test -short alone.
# Usage: bash tests.sh OUT CLONE
set -u
out=$(realpath "${1:?usage: tests.sh OUT CLONE}"); cd "${2:?usage: tests.sh OUT CLONE}" || exit 1
run() { # run NAME HOG COMMAND...
  local name=$1 hog=$2; shift 2
  go clean -testcache
  local pid=
  if [ "$hog" = busy ]; then bash -c 'while :; do :; done' & pid=$!; fi
  local s e rc; s=$(date +%s.%N); "$@" >"$out/tests-$name.out" 2>&1; rc=$?; e=$(date +%s.%N)
  [ -n "$pid" ] && kill "$pid"
  printf 'tests %s (test cache empty) rc=%d wall=%.1f\n' "$name" $rc "$(echo "$e - $s" | bc)" >> "$out/summary.txt"
}
run alone alone go test -race ./...
run busy busy go test -race ./...
run short alone go test -short ./...
