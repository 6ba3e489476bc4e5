#!/usr/bin/env bash
# The published benchmarks' work counted at one thread (package work, with
# the rcu design that answers its lookups, whose own instructions the test
# takes off): counts.txt, which held_test.go reads.
#   bash results/many-core/published/count.sh
set -euo pipefail
cd "$(dirname "$0")/../.." # the results module
go run ./many-core/published/work run -impl rcu,xsync-atomic,xsync-rwmutex,folly-mutex,folly-rwlock-reads \
	-threads 1 -rounds 3 -param cost=own -instructions -locks -o many-core/published/counts.txt
# The work of the rows kept apart (held-apart.txt), counted apart so that
# counts.txt, which held.txt rests on, stays as it was taken.
go run ./many-core/published/work run -impl rcu,folly-rwspin-reads \
	-threads 1 -rounds 3 -param cost=own -instructions -locks -o many-core/published/counts-apart.txt
