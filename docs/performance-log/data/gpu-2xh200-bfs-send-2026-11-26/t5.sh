#!/bin/bash
# lease t5 (2 GPUs): BFS scale 20 trace, send kernel modes: 0 quiet per block, 1 none, 2 __threadfence_system only.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/t5.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G GSHMEM_P2P=1
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_GPU_TRACE -x GSHMEM_P2P -x BFS_SEND_MODE"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
run() { local name=$1; shift; timeout 150 $M -np 2 "$@" > $OUT/$name.log 2>&1; echo "== $name rc $?" >> $S; }
for m in 1 3 4; do
  BFS_SEND_MODE=$m BFS_GPU_TRACE=1 run bfs_m$m $B/apps/bfs_gpu --scale 20 --roots 8; grep -E "TRACE search [0]|harmonic mean|mean per search|bfs_gpu:    [0-3] " $OUT/bfs_m$m.log | sed "s/TRACE/m$m/" >> $S
done
cat $S
