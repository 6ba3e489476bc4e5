#!/usr/bin/env bash
# Where a main job's time went, from run.sh's stamped logs: go run's build
# to the first round, the planned rounds, the added rounds that measure
# set-aside windows again, the instruction counts (with the build that has
# a symbol table, where there is one), the lock build, the lock profiles
# and plots; the whole counting part after the last added round.
#   bash results/main-job/stable/phases.sh LOG...
for f in "$@"; do
	at() { grep -m1 -E "$1" "$f" | awk '{print $1}'; }
	r1=$(at 'round 1/6') a1=$(at 'added round 1,') c=$(at 'symbol table|counting instructions')
	lb=$(at 'building perfrun for lock') lp=$(at 'counting the lock profile') end=$(tail -1 "$f" | awk '{print $1}')
	a1=${a1:-$c}
	printf '%s: go run %s, planned %s, added %s (%d rounds), counts %s, lock build %s, lock profiles and plots %s, after measuring %s, end %s\n' \
		"$(basename "$f" .log)" "$r1" "$(echo "$a1-$r1" | bc)" "$(echo "$c-$a1" | bc)" "$(grep -c 'added round' "$f")" \
		"$(echo "$lb-$c" | bc)" "$(echo "$lp-$lb" | bc)" "$(echo "$end-$lp" | bc)" "$(echo "$end-$c" | bc)" "$end"
done
