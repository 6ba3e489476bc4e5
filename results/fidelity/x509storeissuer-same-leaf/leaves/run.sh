#!/bin/bash
set -u
# usage: run.sh N PERFRUN TOOL OUT: N processes at 1 thread of perfrun's openssl-paths on all of
# the corpus's miss leaves and on one (leaves=all,1), each beside x509storeissuer, with
# SSL_CERT_DIR an empty directory. PERFRUN and TOOL are built against one libcrypto, whose
# environment is set (eval "$(impls/openssl/build-libcrypto.sh 4.0)").
n=$1 perfrun=$2 tool=$3 out=$4
mkdir -p "$out/empty" || exit 1
export SSL_CERT_DIR="$out/empty"
for i in $(seq 1 "$n"); do
  SSL_CERT_FILE=/dev/null "$perfrun" run -impl openssl-paths -param hit=0 -param leaves=all,1 -threads 1 -rounds 4 \
    -plots none -q -o "$out/leaves-$i.txt" -exec-unit us -order-seed "$i" \
    -exec "xsi=env SSL_CERT_FILE={corpus}/objects.pem $tool -t {corpus} {threads}" > /dev/null || exit 1
  echo "$i $(date +%T)"
done
