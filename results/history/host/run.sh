#!/usr/bin/env bash
# A history made on a host that changed speed, with a step planted in it:
# nine commits of a scratch clone, the fifth making every one of hashmap's
# lookups select their issuer twice; the second and third measured while
# two busy loops share the machine's two cores.
#   bash results/history/host/run.sh PERFRUN OUT
set -euo pipefail
perfrun=$(realpath "$1"); out=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; kill $(jobs -p) 2>/dev/null || true' EXIT
git clone -q "$repo" "$scratch/repo"
cd "$scratch/repo"
n=0
commit() { # commits a minute apart, so history orders them as made
	n=$((n + 1))
	GIT_COMMITTER_DATE="2026-01-01T00:$(printf %02d $n):00Z" GIT_AUTHOR_DATE="2026-01-01T00:$(printf %02d $n):00Z" \
		git -c user.name=perfrun -c user.email=perfrun@localhost commit -q "$@"
}
start=$(git rev-parse HEAD)
for i in 0 1 2 3; do commit --allow-empty -m "quiet $i"; done
sed 's/cert.IssuerHash%10 == 0/true/' "$repo/results/locks/campaigns/c-double.patch" | git apply
commit -am "every hashmap lookup selects its issuer twice"
for i in 5 6 7 8; do commit --allow-empty -m "quiet $i"; done
c=($(git rev-list --reverse "$start..HEAD"))
db="$out/history.db"
rm -f "$db"
flags=(-impl hashmap -threads 1 -rounds 5 -param cost=own -quarantine=false)
"$perfrun" history backfill -db "$db" "$start..${c[0]}" -- "${flags[@]}"
(while :; do :; done) & (while :; do :; done) &
"$perfrun" history backfill -db "$db" "${c[0]}..${c[2]}" -- "${flags[@]}"
kill $(jobs -p); wait 2>/dev/null || true
"$perfrun" history backfill -db "$db" "${c[2]}..${c[8]}" -- "${flags[@]}"
"$perfrun" history changes -db "$db" | tee "$out/changes.txt"
"$perfrun" history plot -db "$db" -o "$out/plots" >/dev/null
