#!/usr/bin/env bash
# Profiles the shardedmap example's store as it is and with a lookup
# counter added two ways: one per shard, beside the shard's lock on its
# line, and one for the whole store. Each variant is a copy of examples/shardedmap with
# sharded.go edited; each is run at one thread with its counts:
#   bash results/lines/run.sh OUT
# OUT/sharded.txt, OUT/shard-counter.txt, OUT/global-counter.txt (each with
# hashmap beside it), and OUT/predict-*.txt, perfrun predict of each.
# Only the counts matter here (lines_test.go's TestAShardedStoreScales predicts
# from them alone), so no sample is set aside. results/lines/profiles is
# the OUT the test reads.
set -euo pipefail
out=$(realpath -m "${1:?OUT}")
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
for variant in sharded shard-counter global-counter; do
	dir=$(mktemp -d)
	cp -r "$repo/examples/shardedmap/." "$dir/"
	sed -i "s|=> ../..|=> $repo|" "$dir/go.mod"
	src="$dir/sharded/sharded.go"
	case "$variant" in
	shard-counter)
		# The counter right after the shard's lock: on the line of its
		# reader count in every shard (a shard is 96 bytes, so each starts
		# at 0 or 32 bytes into a line).
		sed -i 's|^\tmu sync.RWMutex$|&\n\tlookups atomic.Int64|' "$src"
		perl -0pi -e 's|(\tlist := sh.m\[key\{store.Cert, cert.Issuer\}\]\n\tsh.mu.RUnlock\(\)\n)|$1\tsh.lookups.Add(1)\n|' "$src"
		;;
	global-counter)
		perl -0pi -e 's|(\tn      atomic.Int64\n)|$1\tlookups atomic.Int64\n|; s|(\tlist := sh.m\[key\{store.Cert, cert.Issuer\}\]\n\tsh.mu.RUnlock\(\)\n)|$1\ts.lookups.Add(1)\n|' "$src"
		;;
	esac
	grep -c lookups "$src" >"$out/$variant.edits" || true
	(cd "$dir" && go run -trimpath . run -impl sharded,hashmap -threads 1 -param cost=own -rounds 3 \
		-instructions -locks -predict 0 -quarantine=false -label variant="$variant" -o "$out/$variant.txt" -q)
	(cd "$dir" && go run -trimpath . predict -threads 1,2,4,8,16 "$out/$variant.txt") >"$out/predict-$variant.txt"
	rm -rf "$dir"
done
