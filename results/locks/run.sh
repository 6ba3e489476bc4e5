#!/usr/bin/env bash
# Runs perfrun ab at its defaults on contention-only changes and on identical
# code: each change is a patch here, committed on a branch of a scratch clone
# of this repository, and compared with main.
#   bash results/locks/run.sh PERFRUN OUT IMPL:BRANCH:SEED...
# e.g. bash results/locks/run.sh /tmp/perfrun /tmp/out sorted:c-sorted:11 hashmap:c-same:52 all:c-same:501
# (IMPL all: ab's default cells, every design).
# Branches: c-sorted, c-hashmap, c-rcu, c-double, c-doublercu, c-soi, c-rwtwice, c-sortedtwice,
# c-sortedonce, c-sortedwhole, c-sortedtrade, c-sortedmap, c-sortedhash, c-coldread,
# c-syscall, c-sleep, c-rshards, c-rshards2, c-spin, c-rare, and the changes written after
# the model was held: n-rcurlock, n-rcuquarter, n-soicount, n-hashctr4, n-hashflag,
# n-hashbeside, n-rcu2lines, n-rcu2far, and those written after the transfer probe read to the
# nanosecond: m-rcuswap, m-rcueighth, m-rcuoneline2, m-sortedctr, m-soimutex, m-hash2rw, and those
# written after a profile said where a lock's word lies: m-rcurecent, m-rcurecentapart, and those
# written to hold the gap law and the convoy apart: o-hashctr, o-rcuhalf, o-sortedin, o-soiquarter,
# o-hashstripe64, o-rcupair, and six more written before any was measured: p-rcuread, p-hashrare,
# p-sortedtwo, p-soicas, p-rcustripe4, p-rcuload, and six written after the reads of written lines
# were counted, before any was measured: q-hashread16, q-rcureadctr, q-soiread4, q-sortedflag,
# q-rcuaudit, q-hashmax, and six written after the line-occupancy try, before any was
# measured: r-hashonce, r-rcuinflight, r-sortedstripe8, r-hashpool, r-rcumutex32,
# r-soiwrite64, and six written after the readers parked for a writer became a term of the model,
# before any was measured: s-soiwrite16, s-soiwrite256, s-hashwrite32, s-rcurw64, s-hashctr2,
# s-rcuctr8, and six written after a thread asleep for a writer was parked by no other, before
# any was measured: t-soiwrite32, t-hashwrite8, t-hashwrite128, t-rcurw16, t-hashmutex,
# t-rcuctr64 (a patch each),
# c-same (an empty commit). REPORT=1 keeps each campaign's report folder too
# (OUT/BRANCH-SEED.report: its windows and count files, which ab -replay reads).
# AB_FLAGS adds flags to every campaign (AB_FLAGS="-at 16").
set -euo pipefail
perfrun=$(realpath "$1"); out=$(realpath -m "$2"); shift 2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git clone -q "$repo" "$scratch/repo"
cd "$scratch/repo"
commit() { git -c user.name=perfrun -c user.email=perfrun@localhost commit -q "$@"; }
git checkout -q -b c-same main
commit --allow-empty -m "nothing"
for p in "$here"/campaigns/*.patch; do
	b=$(basename "$p" .patch)
	git checkout -q -b "$b" main
	git apply "$p"
	commit -am "$b"
done
git checkout -q main
for spec in "$@"; do
	IFS=: read -r impl branch seed <<<"$spec"
	start=$(date +%s)
	rc=0
	report=()
	[ -z "${REPORT:-}" ] || report=(-report "$out/$branch-$seed.report")
	cells=(-impl "$impl")
	[ "$impl" != all ] || cells=()
	"$perfrun" ab ${AB_FLAGS:-} "${cells[@]}" -seed "$seed" -json "$out/$branch-$seed.json" "${report[@]}" main "$branch" >"$out/$branch-$seed.txt" 2>"$out/$branch-$seed.log" || rc=$?
	echo "$branch $impl seed=$seed exit=$rc wall=$(($(date +%s) - start))s" | tee -a "$out/summary.txt"
done
