#!/bin/bash
set -u
# usage: run.sh N BEFORE AFTER TOOL OUT: N pairs of processes, the perfrun before the worker's
# time left out its yields (BEFORE, built at c655c80) and after (AFTER, 3c4ec36), alternating,
# each as leaves/run.sh runs them.
n=$1 before=$2 after=$3 tool=$4 out=$5
mkdir -p "$out/empty" || exit 1
export SSL_CERT_DIR="$out/empty"
for i in $(seq 1 "$n"); do
  for b in before after; do
    bin=$after; [ $b = before ] && bin=$before
    SSL_CERT_FILE=/dev/null "$bin" run -impl openssl-paths -param hit=0 -param leaves=all,1 -threads 1 -rounds 3 \
      -plots none -q -o "$out/$b-$i.txt" -exec-unit us -order-seed "$i" \
      -exec "xsi=env SSL_CERT_FILE={corpus}/objects.pem $tool -t {corpus} {threads}" > /dev/null || exit 1
    echo "$b $i $(date +%T)"
  done
done
