#!/bin/bash
# lease d2 (2 GPUs): linkidle (store+fence into the other GPU after 0-300 ms of idle GPUs; what wakes the path),
# then BFS scale 22, 16 roots, one PE per GPU: plain, each timed search right after the same search untimed
# (BFS_EXP_TWICE=1), the MPI twin plain and twice.
cd "$(dirname "$0")/../../../.."
B=build-carry; R=$OUT/d2; mkdir -p $R; S=$R/d2.txt
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_EXP_TWICE"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
nvidia-smi nvlink -gLowPwrInfo -i 0 2>&1 | head -4 >> $S
timeout 100 $B/probes/linkidle > $R/linkidle.txt 2>&1; echo "linkidle rc $?" >> $S
cat $R/linkidle.txt >> $S
for k in plain twice mpi mpitwice; do
  a=; tw=0
  case $k in twice) tw=1;; mpi) a=--mpi;; mpitwice) a=--mpi; tw=1;; esac
  BFS_EXP_TWICE=$tw timeout 150 $M -np 2 $B/apps/bfs_gpu $a --scale 22 --roots 16 > $R/${k}.log 2>&1
  echo "== $k rc $?" >> $S
  grep -E 'harmonic mean|mean per search|bfs_gpu:    [0-3] ' $R/${k}.log >> $S
done
cat $S
