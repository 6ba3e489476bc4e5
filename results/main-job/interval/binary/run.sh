#!/bin/bash
# The four shapes of results/main-job/interval/README.md, interleaved, 3 rounds: /tmp/prold is
# perfrun e965d1d and /tmp/prnew aaf5490, each built with go build -o ./cmd/perfrun.
cd /work/main
for i in 1 2 3; do
for cfg in old new r10 r8; do
  case $cfg in
    old) bin=/tmp/prold; args=() ;;
    new) bin=/tmp/prnew; args=() ;;
    r10) bin=/tmp/prnew; args=(-rounds 10 -window 120ms -repair 1) ;;
    r8) bin=/tmp/prnew; args=(-rounds 8 -window 150ms -repair 1) ;;
  esac
  s=$(date +%s.%N)
  $bin run "${args[@]}" -o /tmp/exp1/$cfg-$i.txt >/tmp/exp1/$cfg-$i.out 2>/tmp/exp1/$cfg-$i.err
  rc=$?
  e=$(date +%s.%N)
  printf '%s %d rc=%d wall=%.1f\n' $cfg $i $rc $(echo "$e - $s" | bc) >> /tmp/exp1/summary.txt
done; done
