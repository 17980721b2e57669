#!/bin/sh
# Interleaved before/after runs of gshmem_micro_proxy_ring on one machine: ROUNDS rounds, each running both
# binaries (two builds of benchmarks/micro/proxy_ring_bench.cpp with the same flags), before first in odd rounds
# and after first in even ones; 5 repetitions per case. Writes one JSON file per run and the load average before
# each run to OUTDIR.
# Usage: measure.sh BEFORE AFTER OUTDIR [ROUNDS]
set -e
before=$1 after=$2 out=$3 rounds=${4:-10}
mkdir -p "$out"
r=1
while [ "$r" -le "$rounds" ]; do
  if [ $((r % 2)) -eq 1 ]; then order="before after"; else order="after before"; fi
  for v in $order; do
    eval bin=\$$v
    echo "round $r $v $(cat /proc/loadavg)" >> "$out/load.txt"
    "$bin" --benchmark_min_time=0.1 --benchmark_repetitions=5 --benchmark_format=json > "$out/$v-$r.json"
  done
  r=$((r + 1))
done
