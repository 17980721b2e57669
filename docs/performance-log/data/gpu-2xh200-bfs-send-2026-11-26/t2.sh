#!/bin/bash
# lease t2 (2 GPUs): BFS scale 22, the per-stage trace split into send kernel / device barrier, host launch times.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/t2.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G GSHMEM_P2P=1
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_GPU_TRACE -x GSHMEM_P2P -x GSHMEM_DEVICE_CE_MIN"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
run() { local name=$1; shift; timeout 150 $M -np 2 "$@" > $OUT/$name.log 2>&1; echo "== $name rc $?" >> $S; }
BFS_GPU_TRACE=1 run bfs_g1 $B/apps/bfs_gpu --scale 20 --roots 8; grep -E "TRACE|harmonic mean|mean per search|bfs_gpu:    [0-3] " $OUT/bfs_g1.log >> $S
GSHMEM_DEVICE_CE_MIN=off BFS_GPU_TRACE=1 run bfs_g2 $B/apps/bfs_gpu --scale 20 --roots 8; grep -E "TRACE|harmonic mean|mean per search|bfs_gpu:    [0-3] " $OUT/bfs_g2.log >> $S
GSHMEM_INFO=1 run info $B/apps/bfs_gpu --scale 12 --roots 2; grep -iE "ce_min|copy engine|route|p2p" $OUT/info.log | head -20 >> $S
cat $S
