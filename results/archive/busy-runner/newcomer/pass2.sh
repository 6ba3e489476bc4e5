#!/bin/bash
# The journeys that failed or were cut short in pass 1, again on a fresh clone of the fixed main, beside one busy loop.
N=/tmp/nu2
LOG=$N/log
rm -rf $N; mkdir -p $N/bin $N/out
git clone -q /work/main $N/perfrun
cd $N/perfrun
( while :; do :; done ) & BUSY=$!
trap "kill $BUSY" EXIT
j() {
  local name=$1; shift
  local t0=$(date +%s)
  echo "== $name: $*" >> $LOG
  bash -c "$*" > $N/out/$name.out 2> $N/out/$name.err
  local rc=$?
  echo "   exit $rc after $(( $(date +%s) - t0 )) s" >> $LOG
}
date >> $LOG
j build 'go build -o /tmp/nu2/bin/perfrun ./cmd/perfrun'
export PATH=$N/bin:$PATH
j main 'go run ./cmd/perfrun run'
j report 'perfrun report perfrun-out/results.txt'
j reload 'perfrun run -workload reload -impl hashmap -threads 1 -instructions -rounds 3 -o reload.txt'
mkdir -p $N/mystore
j own-store 'cd /tmp/nu2/mystore && go mod init example.com/shardedmap && go mod edit -require=github.com/perfrun/perfrun@v0.0.0 -replace=github.com/perfrun/perfrun=../perfrun && cp -r ../perfrun/examples/shardedmap/main.go ../perfrun/examples/shardedmap/sharded . && go mod tidy && go test -race ./... && go run . run -impl sharded,hashmap,rcu -threads 1,2'
j backfill 'perfrun history backfill HEAD~4..HEAD -- -impl hashmap -threads 1 -rounds 3 -quarantine=false'
j changes 'perfrun history changes'
j hplot 'perfrun history plot'
j hreport 'perfrun history report'
date >> $LOG
echo done >> $LOG
