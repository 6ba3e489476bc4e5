#!/usr/bin/env bash
# make.sh DIR [CAS] [LEAVES_PER_CA] — a corpus made outside perfrun, by the
# openssl command: CAS self-signed CAs (P-256, each its own organisation and
# name, with basicConstraints, keyUsage and a subject key identifier) and
# LEAVES_PER_CA leaves of each (their own host names, subjectAltName,
# extendedKeyUsage, an authority key identifier), as PEM files perfrun reads
# with -corpus DIR. Defaults: 1024 CAs, 4 leaves each (4096 leaves).
set -euo pipefail
dir=${1:?usage: make.sh DIR [CAS] [LEAVES_PER_CA]}
cas=${2:-1024}
per=${3:-4}
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One leaf key for all leaves: a leaf's key does not change a lookup.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/leaf.key" 2>/dev/null
for ((i = 1; i <= cas; i++)); do
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/ca.key" \
		-subj "/C=DE/O=Example Trust $i/OU=Issuing/CN=Example Issuing CA $i" -days 3650 \
		-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
		-out "$dir/ca-$i.pem" 2>/dev/null
	for ((j = 1; j <= per; j++)); do
		openssl req -x509 -CA "$dir/ca-$i.pem" -CAkey "$work/ca.key" -key "$work/leaf.key" \
			-subj "/CN=host$j.site$i.example.net" -days 365 \
			-addext "basicConstraints=critical,CA:FALSE" -addext "subjectAltName=DNS:host$j.site$i.example.net" \
			-addext "extendedKeyUsage=serverAuth" -out "$dir/leaf-$i-$j.pem" 2>/dev/null
	done
	if ((i % 128 == 0)); then echo "make.sh: $i of $cas CAs" >&2; fi
done
