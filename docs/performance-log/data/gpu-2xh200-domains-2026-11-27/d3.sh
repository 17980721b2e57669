#!/bin/bash
# lease d3 (2 GPUs): linkwake3 (how the NVLink path leaves low power after 300 ms idle), then BFS scale 22, 16 roots,
# one PE per GPU, with an untimed link warm-up in each search's setup (BFS_EXP_WARM): none, bulk (a 16 MiB put to
# the peer), pairs1000 / pairs3000 (store + quiet to the peer for 1 / 3 ms); the MPI twin.
cd "$(dirname "$0")/../../../.."
B=build-carry; R=$OUT/d3; mkdir -p $R; S=$R/d3.txt
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_EXP_WARM"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
timeout 100 $B/probes/linkwake3 > $R/linkwake3.txt 2>&1; echo "linkwake3 rc $?" >> $S
cat $R/linkwake3.txt >> $S
for k in none bulk pairs1000 pairs3000 mpi; do
  a=
  [ $k = mpi ] && a=--mpi
  BFS_EXP_WARM=$k timeout 150 $M -np 2 $B/apps/bfs_gpu $a --scale 22 --roots 16 > $R/${k}.log 2>&1
  echo "== $k rc $?" >> $S
  grep -E 'harmonic mean|mean per search|bfs_gpu:    [0-3] ' $R/${k}.log >> $S
done
cat $S
