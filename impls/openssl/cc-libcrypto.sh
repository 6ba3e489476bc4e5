#!/usr/bin/env bash
# cc-libcrypto.sh OUT SOURCE... [GCC FLAGS...] — a C program compiled
# (gcc -O2, with pthreads) against the libcrypto perfrun's real store
# links: the system's, or the one whose environment build-libcrypto.sh
# printed (CGO_CFLAGS and CGO_LDFLAGS are used when set), so that a C
# driver and perfrun's openssl cell measure one library.
#
#   impls/openssl/cc-libcrypto.sh ./issuerdrv-3.0 impls/openssl/issuerdrv/issuerdrv.c
#   eval "$(impls/openssl/build-libcrypto.sh 4.0)"
#   impls/openssl/cc-libcrypto.sh ./issuerdrv-4.0 impls/openssl/issuerdrv/issuerdrv.c
set -euo pipefail

out=${1:?usage: cc-libcrypto.sh OUT SOURCE... [GCC FLAGS...]}
shift
if [ $# -eq 0 ]; then
	echo "usage: cc-libcrypto.sh OUT SOURCE... [GCC FLAGS...]" >&2
	exit 2
fi
if [ -n "${CGO_CFLAGS:-}${CGO_LDFLAGS:-}" ]; then
	# shellcheck disable=SC2206 # flags are words
	cflags=(${CGO_CFLAGS:-})
	# shellcheck disable=SC2206
	ldflags=(${CGO_LDFLAGS:-} -lcrypto)
else
	# shellcheck disable=SC2207
	cflags=($(pkg-config --cflags libcrypto))
	# shellcheck disable=SC2207
	ldflags=($(pkg-config --libs libcrypto))
fi
gcc -O2 "${cflags[@]}" -o "$out" "$@" "${ldflags[@]}" -lpthread
echo "cc-libcrypto.sh: built $out" >&2
