#!/bin/bash
# ab3.sh prog max reps variant...   (variant "oshmem" = peer; else env assignments joined by ,)
prog=$1; max=$2; reps=$3; shift 3
B=/work/main/build/benchmarks/osu-like; P=/tmp/c12/np4/peer-build
for r in $(seq $reps); do
  for v in "$@"; do
    if [ "$v" = oshmem ]; then exe=$P/osu_oshm_$prog; envs="X=1"; else exe=$B/osu_oshm_$prog; envs="${v//,/ }"; fi
    echo "$v: $(env $envs mpirun --allow-run-as-root -np 4 --oversubscribe --bind-to none $exe $( [ "$max" = - ] || echo -m $max) 2>&1 | grep -E '^[0-9]' | awk '{printf "%s ", $2}')"
  done
done
