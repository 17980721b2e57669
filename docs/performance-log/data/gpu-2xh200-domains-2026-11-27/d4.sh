#!/bin/bash
# lease d4 (2 GPUs): bfs_gpu with the untimed warm-up of the exchange path (warmPath) against --cold, the MPI twin
# likewise, scale 22, 16 roots, one PE per GPU, alternating; then the --check runs (2 and 4 PEs, both modes).
cd "$(dirname "$0")/../../../.."
B=build-carry; R=$OUT/d4; mkdir -p $R; S=$R/d4.txt
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
M="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
for rep in 1 2; do
  for k in warm cold mpi mpicold; do
    a=
    case $k in cold) a=--cold;; mpi) a=--mpi;; mpicold) a="--mpi --cold";; esac
    [ $rep = 2 ] && [ "${k%cold}" != "$k" ] && continue
    timeout 150 $M -np 2 $B/apps/bfs_gpu $a --scale 22 --roots 16 > $R/${k}_$rep.log 2>&1
    echo "== $k $rep rc $?" >> $S
    grep -E 'harmonic mean|mean per search|bfs_gpu:    [0-3] ' $R/${k}_$rep.log >> $S
  done
done
for np in 2 4; do for a in "" "--mpi" "--cold"; do
  timeout 120 $M -np $np $B/apps/bfs_gpu --check $a --scale 11 --roots 8 > $R/check_np${np}_${a#--}.log 2>&1
  echo "== check np $np $a rc $? $(grep -h 'bfs_gpu check' $R/check_np${np}_${a#--}.log | head -1)" >> $S
done; done
cat $S
