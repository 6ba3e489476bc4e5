#!/usr/bin/env bash
# build-libcrypto.sh VERSION — a local libcrypto of OpenSSL VERSION (such as
# 4.0, whose X509_STORE is the hash table of OpenSSL PR 28599), built from
# the source package Debian's archive serves, for the real store
# (impls/openssl) to run against beside the system's 3.0.
#
# It prints the environment to build and run perfrun against it:
#
#   eval "$(impls/openssl/build-libcrypto.sh 4.0)"
#   go build -tags openssl -o perfrun-4.0 ./cmd/perfrun
#   ./perfrun-4.0 list      # names OpenSSL 4.0.x
#
# The source comes from the Debian suite that carries VERSION (SUITE,
# default experimental for 4.x, testing otherwise) through a deb-src entry
# it adds (root, apt); the build is cached in
# ${PERFRUN_CACHE:-~/.cache/perfrun}/openssl-VERSION and reused: a second
# call only prints. Only libcrypto is built (no tests, no docs): about
# 5 minutes on 2 cores.
set -euo pipefail

version=${1:?usage: build-libcrypto.sh VERSION (such as 4.0)}
case "$version" in
[0-9]*.[0-9]*) ;;
*) echo "build-libcrypto.sh: bad version '$version': want MAJOR.MINOR such as 4.0" >&2; exit 2 ;;
esac
suite=${SUITE:-}
if [ -z "$suite" ]; then
	case "$version" in
	3.*) suite=testing ;;
	*) suite=experimental ;;
	esac
fi
cache=${PERFRUN_CACHE:-$HOME/.cache/perfrun}/openssl-$version
prefix=$cache/prefix

say() { echo "build-libcrypto.sh: $*" >&2; }

print_env() {
	# A CGO_CFLAGS that is set replaces cgo's default -g -O2: without them
	# the real store's C side (impls/openssl) would build unoptimized
	# against this library and optimized against the system's.
	echo "export CGO_CFLAGS='-g -O2 -I$prefix/include'"
	echo "export CGO_LDFLAGS='-L$prefix/lib -Wl,-rpath,$prefix/lib'"
	echo "export LD_LIBRARY_PATH='$prefix/lib'"
	echo "# $(cat "$prefix/.perfrun-version") in $prefix"
}

if [ -f "$prefix/lib/libcrypto.so" ] && [ -f "$prefix/.perfrun-version" ]; then
	say "cached: $(cat "$prefix/.perfrun-version")"
	print_env
	exit 0
fi

mkdir -p "$cache/src"
cd "$cache/src"
# A source entry for the suite, once.
list=/etc/apt/sources.list.d/perfrun-$suite-src.sources
if ! apt-cache showsrc "openssl" 2>/dev/null | grep -q "^Version: $version\."; then
	if [ ! -f "$list" ]; then
		say "adding a deb-src entry for Debian $suite ($list)"
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$suite" >"$list"
	fi
	apt-get update -qq
fi
# The archive's index can name a version its mirror no longer serves:
# try each version of the series, newest first.
mapfile -t candidates < <(apt-cache showsrc openssl | sed -n "s/^Version: \($version\.[^ ]*\)$/\1/p" | sort -rV)
if [ ${#candidates[@]} -eq 0 ]; then
	say "no source of OpenSSL $version in Debian $suite"
	exit 1
fi
got=""
for v in "${candidates[@]}"; do
	say "fetching openssl $v"
	if apt-get source --download-only -qq "openssl=$v" >/dev/null 2>&1; then
		got=$v
		break
	fi
	say "openssl $v is not served; trying the next"
done
[ -n "$got" ] || { say "no version of OpenSSL $version could be fetched"; exit 1; }
upstream=${got%-*}
rm -rf "openssl-$upstream"
tar xzf "openssl_$upstream.orig.tar.gz"
cd "openssl-$upstream"
log=$cache/build.log
say "building libcrypto $upstream into $prefix (log: $log)"
if ! { ./Configure --prefix="$prefix" --libdir=lib no-tests no-docs shared &&
	make -j"$(nproc)" build_libs && make install_dev; } >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	say "the build failed; the whole log is $log"
	exit 1
fi
echo "OpenSSL $upstream (Debian $suite source $got)" >"$prefix/.perfrun-version"
print_env
