#!/bin/bash
set -u
# usage: run.sh N PERFRUN TOOL OUT: N processes at 2 threads, one leaf, perfrun's windows as long
# as the tool's (5 s), to see whether the two levels of perfrun's 2-thread figures are perfrun's
# or the store's. PERFRUN and TOOL are built against 4.0, whose environment is set.
n=$1 perfrun=$2 tool=$3 out=$4
mkdir -p "$out/empty" || exit 1
export SSL_CERT_DIR="$out/empty"
for i in $(seq 1 "$n"); do
  SSL_CERT_FILE=/dev/null "$perfrun" run -impl openssl-paths -param hit=0 -param leaves=1 -threads 2 -rounds 3 -window 5s \
    -plots none -q -o "$out/w5-$i.txt" -exec-unit us -order-seed "$i" \
    -exec "xsi=env SSL_CERT_FILE={corpus}/objects.pem $tool -t {corpus} {threads}" > /dev/null || exit 1
  echo "$i $(date +%T)"
done
