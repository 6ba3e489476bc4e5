#!/bin/bash
set -u
# usage: run.sh N PERFRUN-3.0 TOOL-3.0 PERFRUN-4.0 TOOL-4.0 ENV-4.0 OUT [env]: N processes a
# library, alternating, of x509storeissuer beside perfrun's openssl-paths on the one leaf it
# looks up (leaves=1) at 1 and 2 threads, SSL_CERT_DIR an empty directory (final/), or with a
# last argument env as the environment sets it, as the README's command runs (env-dir/:
# /etc/ssl/certs on this machine). ENV-4.0 is a file holding what
# impls/openssl/build-libcrypto.sh 4.0 prints; 3.0 is the system's libcrypto.
n=$1 p3=$2 t3=$3 p4=$4 t4=$5 env4=$6 out=$7 dir=${8:-empty}
mkdir -p "$out/empty" || exit 1
[ "$dir" = env ] || export SSL_CERT_DIR="$out/empty"
for i in $(seq 1 "$n"); do
  for lib in 3.0 4.0; do
    (
      p=$p3 t=$t3
      if [ $lib = 4.0 ]; then p=$p4 t=$t4; eval "$(cat "$env4")"; fi
      SSL_CERT_FILE=/dev/null "$p" run -impl openssl-paths -param hit=0 -param leaves=1 -threads 1,2 -rounds 3 \
        -plots none -q -o "$out/$lib-$i.txt" -exec-unit us -order-seed "$i" \
        -exec "xsi=env SSL_CERT_FILE={corpus}/objects.pem $t -t {corpus} {threads}" > /dev/null || exit 1
      echo "$lib $i $(date +%T)"
    ) || exit 1
  done
done
