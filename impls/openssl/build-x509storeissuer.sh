#!/usr/bin/env bash
# build-x509storeissuer.sh PERFTOOLS OUT — OpenSSL's perftools
# x509storeissuer, built from a checkout of github.com/openssl/perftools
# (PERFTOOLS, its top directory) against the libcrypto perfrun's real store
# links (cc-libcrypto.sh: the system's, or the one whose environment
# build-libcrypto.sh printed).
#
#   impls/openssl/build-x509storeissuer.sh ~/src/perftools ./x509storeissuer-3.0
#   eval "$(impls/openssl/build-libcrypto.sh 4.0)"
#   impls/openssl/build-x509storeissuer.sh ~/src/perftools ./x509storeissuer-4.0
#
# Then perfrun runs it as a cell beside the real store (README, "Foreign
# benchmarks"). Only the tool and the part of perftools' library it uses
# are compiled (gcc, no cmake): a few seconds.
set -euo pipefail

src=${1:?usage: build-x509storeissuer.sh PERFTOOLS OUT}
out=${2:?usage: build-x509storeissuer.sh PERFTOOLS OUT}
dir=$src/source
if [ ! -f "$dir/x509storeissuer.c" ]; then
	echo "build-x509storeissuer.sh: $dir/x509storeissuer.c not found: want the top directory of a perftools checkout" >&2
	exit 2
fi
# perftools' CMake writes config.h; x509storeissuer needs none of it.
inc=$(mktemp -d)
trap 'rm -rf "$inc"' EXIT
: >"$inc/config.h"
"$(dirname "$0")/cc-libcrypto.sh" "$out" \
	"$dir/x509storeissuer.c" "$dir/perflib/perfhelper.c" "$dir/perflib/threads.c" "$dir/perflib/time.c" \
	-I"$dir" -I"$inc"
