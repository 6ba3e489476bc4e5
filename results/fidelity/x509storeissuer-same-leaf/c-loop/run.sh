#!/bin/bash
set -u
# usage: run.sh N CTIME-PERFRUN TOOL OUT: N processes at 1 thread of a perfrun built with
# ctime.patch (on c655c80), on one leaf beside x509storeissuer. With PF_CTIME set it prints each
# batch's time inside C (clock_gettime around the loop of X509_STORE_CTX_get1_issuer calls),
# its length and start ("ctime NS N START"), and each window's time in yields ("yield NS N OPS")
# on stderr. Then gap-K: the same perfrun alone, for the time between batches.
n=$1 perfrun=$2 tool=$3 out=$4
mkdir -p "$out/empty" || exit 1
export SSL_CERT_DIR="$out/empty" PF_CTIME=1
for i in $(seq 1 "$n"); do
  SSL_CERT_FILE=/dev/null "$perfrun" run -impl openssl-paths -param hit=0 -param leaves=1 -threads 1 -rounds 4 \
    -plots none -q -o "$out/ct-$i.txt" -exec-unit us -order-seed "$i" \
    -exec "xsi=env SSL_CERT_FILE={corpus}/objects.pem $tool -t {corpus} {threads}" > /dev/null 2> "$out/ct-$i.err" || exit 1
  echo "ct $i $(date +%T)"
done
for i in 1 2 3 4; do
  SSL_CERT_FILE=/dev/null "$perfrun" run -impl openssl-paths -param hit=0 -param leaves=1 -threads 1 -rounds 4 \
    -plots none -q -o "$out/gap-$i.txt" > /dev/null 2> "$out/gap-$i.err" || exit 1
done
# Then at 1 and 2 threads, for the yields' cost at each.
SSL_CERT_FILE=/dev/null "$perfrun" run -impl openssl-paths -param hit=0 -param leaves=1 -threads 1,2 -rounds 3 \
  -plots none -q -o "$out/two-threads.txt" > /dev/null 2> "$out/two-threads.err" || exit 1
