#!/usr/bin/env bash
# The models' stand-ins for PR 28599's tables, from fresh runs: N runs of
# the three models at cost=real and cost=openssl at one and two threads
# with their counts, each predicted from 1 to 18 threads with the
# reference constants and held against the published tables; then, per
# stand-in and thread count, the median over the runs of predicted ÷
# published per(n)/per(1).
#   bash results/published/predicted/fresh/run.sh PERFRUN OUT [N]
# OUT/models-K.txt, OUT/held-K.txt (perfrun predict's output) and
# OUT/median.txt.
set -euo pipefail
perfrun=$(realpath "${1:?perfrun binary}")
out=$(realpath -m "${2:?OUT}")
n=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for k in $(seq 1 "$n"); do
	"$perfrun" run -impl sorted,sortoninsert,hashmap -param cost=real,openssl -threads 1,2 -rounds 4 \
		-instructions -locks -predict 0 -plots none -q -o "$out/models-$k.txt" >/dev/null
	"$perfrun" predict -threads 1,2,4,6,8,10,12,14,16,18 -against "$here/../../pr28599.txt" \
		-as sorted=pr28599-before,hashmap=pr28599-after,sortoninsert=pr28599-sortoninsert \
		"$out/models-$k.txt" >"$out/held-$k.txt"
done
# Rows of the held table: cell, published, threads, predicted, low, high,
# published, predicted÷published; the median of each cell's runs at each
# thread count from 4.
awk '/^held against/ {on=1; next} on && $2 ~ /impl=pr28599/ && $3 >= 4 {print $1, $3, $NF}' "$out"/held-*.txt |
	sort -k1,1 -k2,2n -k3,3g |
	awk '{key = $1 " " $2} key != last && last != "" {print median(); n = 0}
		{last = key; v[++n] = $3}
		function median() { return last " " ((n % 2) ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2) }
		END {if (n) print median()}' >"$out/median.txt"
