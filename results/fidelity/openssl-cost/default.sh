#!/bin/bash
# three default runs of today's perfrun, one after another, alone
cd "$(dirname "$0")"
for i in 1 2 3; do
  s=$(date +%s)
  ./perfrun run -label machine=ci-2core -o ./default-$i.txt -q > ./default-$i.out 2> ./default-$i.err
  echo "default-$i rc=$? wall=$(( $(date +%s) - s ))s" >> ./log
done
echo done-default >> ./log
