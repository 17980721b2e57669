#!/bin/bash
cd "$(dirname "$0")/.."
B=build-carry
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64
for hs in "256M 1G" "4G 2G"; do set -- $hs
echo "== GSHMEM_SYMMETRIC_SIZE=$1 GSHMEM_SYMMETRIC_SIZE_DEVICE=$2"
GSHMEM_SYMMETRIC_SIZE=$1 GSHMEM_SYMMETRIC_SIZE_DEVICE=$2 timeout 60 mpirun --allow-run-as-root --bind-to none -np 2 -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE .peers/xwake3 2>&1 | grep "PE 0"
done
echo "== bfs scale 16, GSHMEM_SYMMETRIC_SIZE=256M"
GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G timeout 60 mpirun --allow-run-as-root --bind-to none -np 2 -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE $B/apps/bfs_gpu --scale 16 --roots 8 2>&1 | grep -E "bfs_gpu:    [0-3] |mean per search|TRACE search 0" | cut -c1-300
echo "== bfs scale 16 traced, GSHMEM_SYMMETRIC_SIZE=256M"
BFS_GPU_TRACE=1 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G timeout 60 mpirun --allow-run-as-root --bind-to none -np 2 -x BFS_GPU_TRACE -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE $B/apps/bfs_gpu --scale 16 --roots 8 2>&1 | grep -E "bfs_gpu:    [0-3] |mean per search|TRACE search 0" | cut -c1-300
