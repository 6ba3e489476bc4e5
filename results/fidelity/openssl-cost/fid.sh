#!/bin/bash
# each model beside its real store on two corpora, processes alternating by corpus and library
# usage: fid.sh BIN LIB MODEL  (BIN built with -tags openssl against LIB)
cd "$(dirname "$0")"
bin=$1; lib=$2; model=$3
for i in 1 2 3; do
  for c in fitted other; do
    if [ $c = fitted ]; then corp=""; par="-param certs=1024"; else corp="-corpus ./corpus-b"; par="-param hit=0.75"; fi
    s=$(date +%s)
    $bin run -impl $model,openssl -param cost=own,openssl,real $par $corp -threads 1,2 -q -plots none \
      -o ./fid-$lib-$c-$i.txt > ./fid-$lib-$c-$i.out 2> ./fid-$lib-$c-$i.err
    echo "fid-$lib-$c-$i rc=$? wall=$(( $(date +%s) - s ))s" >> ./log
  done
done
