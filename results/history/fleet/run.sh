#!/usr/bin/env bash
# The fleet measurements of perfrun history on both backends.
# usage: run.sh PERFRUN PGURL OUT
#   PERFRUN  a perfrun binary; PGURL a server URL whose user may create
#   schemas (eval "$(bash .ci/postgres start)" gives $PERFRUN_TEST_POSTGRES);
#   OUT a folder for the logs. Writes OUT/summary.txt.
set -euo pipefail
perfrun=$(realpath "$1") pg=$2 out=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log() { echo "$*" | tee -a "$out/summary.txt"; }
: > "$out/summary.txt"
# schema NAME: a fresh schema on the server, and the URL of a history in it.
schema() {
	psql -q "$pg" -c "DROP SCHEMA IF EXISTS $1 CASCADE" -c "CREATE SCHEMA $1" >/dev/null 2>&1
	case "$pg" in *\?*) echo "$pg&search_path=$1" ;; *) echo "$pg?search_path=$1" ;; esac
}
values() { "$perfrun" history info -db "$1" | sed -n 2p; }

python3 "$here/gen.py" writers "$work/w" 16 50
for backend in postgres sqlite; do
	db=$work/writers.db
	[ $backend = postgres ] && db=$(schema fleet_writers)
	t0=$(date +%s.%N)
	for k in $(seq -w 0 15); do
		"$perfrun" history add -db "$db" "$work"/w/w$k-*.txt >"$out/writer-$backend-$k.log" 2>&1 &
	done
	wait
	t1=$(date +%s.%N)
	log "16 writers × 50 files, $backend: $(printf %.1f "$(echo "$t1 - $t0" | bc)") s; $(values "$db")"
	for k in $(seq -w 0 15); do
		"$perfrun" history add -db "$db" "$work"/w/w$k-*.txt >>"$out/writer-$backend-$k.log" 2>&1 &
	done
	wait
	log "  the same 800 files again, at once: $(values "$db")"
done

# A writer killed mid-add: whole or absent. Each file holds 50 000 values.
python3 - "$work/big" <<'PY'
import os, sys
d = sys.argv[1]; os.makedirs(d)
for i in range(20):
    lines = ["cpu: Test CPU\ncores: 2\ngo: go1.26\nperfrun: %040x\ndate: 2026-02-01T00:%02d:00Z\nmachine: killed\n\n" % (900000 + i, i)]
    for c in range(200):
        lines += ["BenchmarkIssuer/impl=k%03d/threads=1 1 %d ns/op\n" % (c, 100 + r) for r in range(250)]
    open(os.path.join(d, "big%02d.txt" % i), "w").write("".join(lines))
PY
for backend in postgres sqlite; do
	db=$work/killed.db
	[ $backend = postgres ] && db=$(schema fleet_killed)
	"$perfrun" history add -db "$db" "$work/big/big00.txt" >/dev/null 2>&1
	bad=0
	for i in $(seq -w 1 19) 01; do
		"$perfrun" history add -db "$db" "$work/big/big$i.txt" >/dev/null 2>&1 &
		pid=$!
		# Anywhere in the add: before, during or after its one transaction.
		sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.05 + 2 * r / 32767 }')"
		kill -9 $pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		line=$(values "$db")
		files=${line%% files*}
		vals=$(echo "$line" | sed 's/.* series, \([0-9]*\) values/\1/')
		[ "$vals" = $((files * 50000)) ] || bad=$((bad + 1))
		echo "$i: $line" >>"$out/killed-$backend.log"
	done
	log "20 writers killed mid-add, $backend: $bad inconsistent; at the end $(values "$db")"
done

# 1 000 commits × 200 series on each of 4 machines, added at once into
# SQLite, then copied onto the server and back: history changes on each.
python3 "$here/gen.py" fleet "$work/f" 1000 200 4
cp "$work/f/planted.txt" "$out/planted.txt"
sq=$work/fleet.db
pq=$(schema fleet_changes)
t0=$(date +%s)
for m in 0 1 2 3; do
	"$perfrun" history add -db "$sq" "$work"/f/m$m-*.txt >"$out/fleet-add-sqlite-$m.log" 2>&1 &
done
wait
log "4 machines × 1000 files added at once, sqlite: $(( $(date +%s) - t0 )) s; $(values "$sq")"
timed() { # timed WHAT COMMAND...: runs it, logs its wall time
	local what=$1
	shift
	local t0 t1
	t0=$(date +%s.%N)
	"$@"
	t1=$(date +%s.%N)
	log "$what: $(printf %.1f "$(echo "$t1 - $t0" | bc)") s"
}
timed "history changes, sqlite" sh -c "'$perfrun' history changes -db '$sq' >'$out/changes-sqlite.txt' 2>&1"
log "  $(tail -1 "$out/changes-sqlite.txt")"
timed "history copy SQLite → PostgreSQL (4000 files)" sh -c "'$perfrun' history copy '$sq' '$pq' >'$out/copy1.log' 2>&1"
timed "history changes, postgres" sh -c "'$perfrun' history changes -db '$pq' >'$out/changes-postgres.txt' 2>&1"
timed "history copy PostgreSQL → SQLite" sh -c "'$perfrun' history copy '$pq' '$work/back.db' >'$out/copy2.log' 2>&1"
"$perfrun" history changes -db "$work/back.db" >"$out/changes-back.txt" 2>&1 || true
for b in postgres back; do
	cmp -s "$out/changes-sqlite.txt" "$out/changes-$b.txt" && log "history changes of $b identical to the original's" || log "history changes of $b DIFFER"
done
log "  $(cat "$out/copy1.log")"
