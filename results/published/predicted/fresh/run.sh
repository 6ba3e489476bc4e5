#!/usr/bin/env bash
# The stand-ins for PR 28599's tables, from fresh runs: N runs of a kind
# of stand-in at one and two threads with their counts, each predicted
# from 1 to 18 threads with the reference constants and held against the
# published tables; then, per stand-in and thread count, the median over
# the runs of predicted ÷ published per(n)/per(1).
#   bash results/published/predicted/fresh/run.sh PERFRUN OUT [N] [KIND]
# KIND: models (default: the three models at cost=real and cost=openssl),
# hashmap-real (the hashmap model at cost=real alone), openssl-3.0 or openssl-4.0 (the real store, openssl-paths, with PERFRUN
# a perfrun built with -tags openssl against that libcrypto). OUT/KIND-K.txt,
# OUT/held-KIND-K.txt (perfrun predict's output) and OUT/median-KIND.txt.
set -euo pipefail
perfrun=$(realpath "${1:?perfrun binary}")
out=$(realpath -m "${2:?OUT}")
n=${3:-3}
kind=${4:-models}
here=$(cd "$(dirname "$0")" && pwd)
case "$kind" in
models)
	run=(-impl sorted,sortoninsert,hashmap -param cost=real,openssl)
	as=sorted=pr28599-before,hashmap=pr28599-after,sortoninsert=pr28599-sortoninsert ;;
hashmap-real)
	run=(-impl hashmap -param cost=real)
	as=hashmap=pr28599-after ;;
openssl-3.0)
	run=(-impl openssl-paths -param hit=0)
	as=openssl-paths=pr28599-before ;;
openssl-4.0)
	run=(-impl openssl-paths -param hit=0)
	as=openssl-paths=pr28599-after ;;
*) echo "run.sh: unknown kind $kind (models, hashmap-real, openssl-3.0, openssl-4.0)" >&2; exit 2 ;;
esac
mkdir -p "$out"
for k in $(seq 1 "$n"); do
	# The real store's default paths left empty, as perftools' tool ran.
	SSL_CERT_FILE=/dev/null SSL_CERT_DIR=/nonexistent "$perfrun" run "${run[@]}" -threads 1,2 -rounds 4 \
		-instructions -locks -predict 0 -plots none -q -o "$out/$kind-$k.txt" >/dev/null
	"$perfrun" predict -threads 1,2,4,6,8,10,12,14,16,18 -against "$here/../../pr28599.txt" -as "$as" \
		"$out/$kind-$k.txt" >"$out/held-$kind-$k.txt"
done
# Rows of the held table: cell, published, threads, predicted, low, high,
# published, predicted÷published; the median of each cell's runs at each
# thread count from 4.
awk '/^held against/ {on=1; next} on && $2 ~ /impl=pr28599/ && $3 >= 4 {print $1, $3, $NF}' "$out"/held-"$kind"-*.txt |
	sort -k1,1 -k2,2n -k3,3g |
	awk '{key = $1 " " $2} key != last && last != "" {print median(); n = 0}
		{last = key; v[++n] = $3}
		function median() { return last " " ((n % 2) ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2) }
		END {if (n) print median()}' >"$out/median-$kind.txt"
