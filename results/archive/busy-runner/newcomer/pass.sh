#!/bin/bash
# The newcomer's journeys on a fresh clone, one busy loop beside them the whole time.
N=/tmp/nu
LOG=$N/log
rm -rf $N/perfrun $N/mystore $N/bin; mkdir -p $N/bin $N/out
git clone -q /work/main $N/perfrun
ln -sfn /work/shared $N/shared
cd $N/perfrun
( while :; do :; done ) & BUSY=$!
trap "kill $BUSY" EXIT
j() { # name, command...
  local name=$1; shift
  local t0=$(date +%s)
  echo "== $name: $*" >> $LOG
  bash -c "$*" > $N/out/$name.out 2> $N/out/$name.err
  local rc=$?
  echo "   exit $rc after $(( $(date +%s) - t0 )) s" >> $LOG
}
date >> $LOG
j build 'go build -o /tmp/nu/bin/perfrun ./cmd/perfrun'
export PATH=$N/bin:$PATH
j main 'go run ./cmd/perfrun run'
j report 'perfrun report perfrun-out/results.txt'
j gate-a 'perfrun run -impl hashmap,rcu -threads 1,2 -rounds 4 -o a.txt'
j gate-b 'perfrun run -impl hashmap,rcu -threads 1,2 -rounds 4 -o b.txt'
j gate 'perfrun gate a.txt b.txt'
j backfill 'perfrun history backfill HEAD~3..HEAD -- -impl hashmap -threads 1 -rounds 3'
j changes 'perfrun history changes'
j hplot 'perfrun history plot'
j hreport 'perfrun history report'
j predict-run 'perfrun run -threads 1,2 -instructions -locks -o R.txt'
j predict 'perfrun predict -threads 1-18 -o P.txt R.txt'
j reload 'perfrun run -workload reload -impl hashmap -threads 1 -instructions -rounds 3 -o reload.txt'
mkdir -p $N/mystore
j own-store 'cd /tmp/nu/mystore && go mod init example.com/mystore && go mod edit -require=github.com/perfrun/perfrun@v0.0.0 -replace=github.com/perfrun/perfrun=../perfrun && cp -r ../perfrun/examples/shardedmap/main.go ../perfrun/examples/shardedmap/sharded . && go mod tidy && go test -race ./... && go run . run -impl mine,hashmap,rcu -threads 1,2'
j build-3.0 'go build -tags openssl -o /tmp/nu/bin/perfrun-3.0 ./cmd/perfrun && impls/openssl/cc-libcrypto.sh ./issuerdrv-3.0 impls/openssl/issuerdrv/issuerdrv.c'
j exec "perfrun-3.0 run -impl openssl -threads 1,2 -exec-unit us -exec 'issuerdrv=./issuerdrv-3.0 {corpus} {threads} 0.5 {at}'"
j ab 'perfrun ab -report ab-report HEAD~1 HEAD'
date >> $LOG
echo done >> $LOG
