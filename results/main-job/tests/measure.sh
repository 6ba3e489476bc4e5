#!/usr/bin/env bash
# go test -race -count=1 ./... in a clone, alone and beside one busy loop,
# interleaved; the walls and exit codes to standard output.
#   bash results/main-job/tests/measure.sh CLONE OUT
set -u
cd "${1:?clone}"; out=${2:?OUT}; mkdir -p "$out"
for i in 1 2; do
	s=$(date +%s); go test -race -count=1 ./... >"$out/alone$i.txt" 2>&1; rc=$?; echo "alone$i rc=$rc $(( $(date +%s) - s )) s"
	bash -c 'while :; do :; done' & hog=$!
	s=$(date +%s); go test -race -count=1 ./... >"$out/busy$i.txt" 2>&1; rc=$?; echo "busy$i rc=$rc $(( $(date +%s) - s )) s"
	kill $hog
done
