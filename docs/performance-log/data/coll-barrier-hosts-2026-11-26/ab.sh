#!/bin/bash
# ab.sh PROG NP REPS SIZES: interleaves Open MPI's OpenSHMEM ($PEER/osu_oshm_PROG, built with oshcc), gshmem
# before ($BASE: a Release build of cff11e5) and after ($NEW: this branch's build-host); prints one line per run.
# medians.py FILE prints the medians per size and the ratio to Open MPI.
P=$1; NP=$2; R=$3; M=$4
NEW=${NEW:-build-host}/benchmarks/osu-like; BASE=${BASE:?}/benchmarks/osu-like; PEER=${PEER:?}
over="--oversubscribe --bind-to none"; [ $NP -le 2 ] && over="--bind-to core"
args="-p 3"; [ "$P" != barrier ] && args="-m $M -p 3"
run() { "$@" 2>&1 | grep -v '^#' | awk '$1 ~ /^[0-9]+$/ {printf "%s=%s ",$1,$2}'; }
for i in $(seq $R); do
  echo "L $(cut -d' ' -f1 /proc/loadavg)"
  echo "ompi $(run oshrun --allow-run-as-root --mca memory ^patcher -np $NP $over $PEER/osu_oshm_$P $args)"
  echo "base $(run mpirun --allow-run-as-root -np $NP $over $BASE/osu_oshm_$P $args)"
  echo "new $(run mpirun --allow-run-as-root -np $NP $over $NEW/osu_oshm_$P $args)"
done
