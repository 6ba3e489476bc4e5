#!/bin/bash
# A fresh clone of REPO: the README's two commands, the main job then the tests, twice, each timed.
# Usage: bash sequence.sh OUT [REPO]   (REPO: /work/main; ../shared is linked beside the clone)
set -u
out=$(realpath "${1:?usage: sequence.sh OUT [REPO]}"); repo=${2:-/work/main}
mkdir -p "$out" && clone=$(mktemp -d) && git clone -q "$repo" "$clone/perfrun" && ln -s /work/shared "$clone/shared"
cd "$clone/perfrun" || exit 1
main=$(sed -n 3p README.md | sed 's/ *#.*//; s/^ *//')
tests=$(sed -n 4p README.md | sed 's/ *#.*//; s/^ *//')
echo "main: $main" > "$out/summary.txt"; echo "tests: $tests" >> "$out/summary.txt"
for i in 1 2; do
  s=$(date +%s.%N); $main >"$out/main-$i.out" 2>"$out/main-$i.err"; rc=$?; e=$(date +%s.%N)
  printf 'main %d rc=%d wall=%.1f\n' $i $rc "$(echo "$e - $s" | bc)" >> "$out/summary.txt"
  s=$(date +%s.%N); $tests >"$out/tests-$i.out" 2>&1; rc=$?; e=$(date +%s.%N)
  printf 'tests %d rc=%d wall=%.1f\n' $i $rc "$(echo "$e - $s" | bc)" >> "$out/summary.txt"
done
echo "clone: $clone/perfrun" >&2
