#!/bin/bash
# lease f2 (2 GPUs): fetch-add shapes at 15 addresses (gshmem_gpu_bench --variants), twice.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/f2.txt
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE"
for r in 1 2; do timeout 150 $M $B/benchmarks/gpu/gshmem_gpu_bench --variants > $OUT/g$r.log 2>&1; echo "gshmem rc $?" >> $S
  grep -hE 'fetch_add|FADD_AT|fadd_shape' $OUT/g$r.log >> $S; done
cat $S
