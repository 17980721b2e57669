#!/bin/bash
# lease 13 (2 GPUs): host-side cost of an 8-byte stream put (API vs bare cudaMemcpyAsync kinds), fetch-add variants,
# NVSHMEM's bench for the same rows; twice.
cd "$(dirname "$0")/.."
B=build-carry; R=/tmp/e13; rm -rf $R; mkdir -p $R; S=$R/e13.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
for i in 1 2; do timeout 90 $M -np 2 $B/benchmarks/gpu/gshmem_gpu_bench --variants 2>&1 | grep -E 'RESULT|VARIANT (api_put|raw_memcpy|raw_fetch)' >> $S; done
cat $S; cp $S $OUT/
