#!/usr/bin/env bash
# Makes a scratch repository for perfrun bisect: perfrun at BASE, then 16
# commits on top. Most change nothing a store does (comments, a moved
# function, new package-level data, an unrelated design's tidying); the
# kind says which make a step:
#   one      commit 9 makes hashmap's lookups slower (an eighth of them do their work
#            twice: +13-15% instructions, +11-13% time at 1 thread)
#   two      commits 5 and 11 each double another set of lookups
#   none     no step at all
#   broken   as one, and commit 12 does not build (commit 13 repairs it): a probe
#            lands on it, so it is skipped
# usage: make-scratch.sh KIND DIR [BASE]   (BASE defaults to HEAD of this checkout)
set -euo pipefail
kind=$1 dir=$2 base=${3:-HEAD}
src=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rm -rf "$dir"
git clone -q --no-local "$src" "$dir"
cd "$dir"
git checkout -q --detach "$(git -C "$src" rev-parse "$base")"
git checkout -q -b scratch
git config user.email bisect@perfrun.invalid
git config user.name "perfrun bisect experiment"
git tag good

# double makes the lookups whose certificate's fingerprint has byte BYTE
# below LIMIT do their work twice: the step a commit makes. Two calls with
# different bytes double two independent sets of lookups.
double() {
	local byte=$1 limit=$2
	python3 - "$byte" "$limit" <<'PY'
import sys
p = 'impls/hashmap/hashmap.go'
s = open(p).read()
byte, limit = sys.argv[1], sys.argv[2]
if 'func (s *Store) issuer(' not in s:
    old = 'func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {\n'
    s = s.replace(old, old + '\treturn s.issuer(cert, at)\n}\n\n'
                  'func (s *Store) issuer(cert *store.Object, at time.Time) (*store.Object, bool) {\n', 1)
old = 'func (s *Store) Issuer(cert *store.Object, at time.Time) (*store.Object, bool) {\n'
s = s.replace(old, old + ('\tif cert.Fingerprint[%s] < %s { // some lookups do their work twice\n'
                          '\t\ts.issuer(cert, at)\n\t}\n') % (byte, limit), 1)
open(p, 'w').write(s)
PY
}

commit() { git commit -qam "$1"; }

for i in $(seq 1 16); do
	case "$kind:$i" in
	one:9 | broken:9) double 0 32; commit "hashmap: look some issuers up twice (the step)" ;;
	two:5) double 0 12; commit "hashmap: look a few issuers up twice (half the step)" ;;
	two:11) double 31 12; commit "hashmap: look others up twice too (the other half)" ;;
	broken:12) echo 'func broken( {' >> records/doc.go; commit "records: a commit that does not build" ;;
	broken:13) sed -i '$ d' records/doc.go; commit "records: build again" ;;
	*)
		case $((i % 4)) in
		0) printf '\n// Note %d: a comment that changes nothing.\n' "$i" >> store/doc.go; commit "store: comment $i" ;;
		1) printf '\nvar table%d [512]uint64\n\nfunc init() { table%d[1] = %d }\n' "$i" "$i" "$i" >> workloads/objects.go; commit "workloads: package-level data $i" ;;
		2) printf '\n// tidy%d is unused: it moves the code after it.\nfunc tidy%d(n int) int { return n*%d + 1 }\n' "$i" "$i" "$i" >> impls/rcu/rcu.go; commit "rcu: a helper of no consequence $i" ;;
		3) printf '\n%d. A line of documentation.\n' "$i" >> docs/develop.md; commit "docs: line $i" ;;
		esac
		;;
	esac
done
git tag bad
git log --oneline good..bad | cat
