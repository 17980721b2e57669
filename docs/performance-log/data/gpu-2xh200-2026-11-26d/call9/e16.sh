#!/bin/bash
# lease 16 (2 GPUs): BFS scale 22, 16 roots, one PE per GPU: gshmem with and without BFS_GPU_WARM (a device barrier
# in the untimed setup of each search), the MPI twin; alternating, twice.
cd "$(dirname "$0")/.."
B=build-carry; R=$OUT/e16; mkdir -p $R; S=$R/e16.txt
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_GPU_WARM"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
for rep in 1 2; do
  timeout 100 $M -np 2 $B/apps/bfs_gpu --scale 22 --roots 16 > $R/plain_$rep.log 2>&1; echo "plain rep $rep rc $?" >> $S
  BFS_GPU_WARM=1 timeout 100 $M -np 2 $B/apps/bfs_gpu --scale 22 --roots 16 > $R/warm_$rep.log 2>&1; echo "warm rep $rep rc $?" >> $S
  timeout 100 $M -np 2 $B/apps/bfs_gpu --mpi --scale 22 --roots 16 > $R/mpi_$rep.log 2>&1; echo "mpi rep $rep rc $?" >> $S
  for k in plain warm mpi; do
    echo "== $k $rep" >> $S
    grep -E 'harmonic mean|mean per search|bfs_gpu:    [0-3] ' $R/${k}_$rep.log >> $S
  done
done
cat $S
