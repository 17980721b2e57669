#!/bin/bash
# lease t6 (2 GPUs): BFS scale 20 trace, send mode 0: default heap 2G; 16G (no growth); a cudaMalloc heap (no VMM).
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/t6.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_P2P=1 GSHMEM_DEVICE_HEAP_MAX=128G
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_GPU_TRACE -x GSHMEM_P2P -x BFS_SEND_MODE -x GSHMEM_DEVICE_HEAP_MAX -x GSHMEM_INFO"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
run() { local name=$1; shift; timeout 150 $M -np 2 "$@" > $OUT/$name.log 2>&1; echo "== $name rc $?" >> $S; }
for c in "2G 128G" "16G 128G" "2G 2G"; do set -- $c
  GSHMEM_INFO=1 GSHMEM_SYMMETRIC_SIZE_DEVICE=$1 GSHMEM_DEVICE_HEAP_MAX=$2 BFS_SEND_MODE=0 BFS_GPU_TRACE=1 run bfs_$1_$2 $B/apps/bfs_gpu --scale 20 --roots 8
  grep -E "TRACE search [0]|mean per search|bfs_gpu:    [0-3] |device heap" $OUT/bfs_$1_$2.log | cut -c1-330 | sed "s/TRACE/$1,$2/" >> $S
done
cat $S
