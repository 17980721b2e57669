#!/bin/bash
# lease d1 (2 GPUs): fenceprobe (remote store + system fence while the destination or the source GPU is busy, per
# memory-synchronization domain), then BFS scale 22, 16 roots, one PE per GPU: plain, the send kernel in the remote
# domain (BFS_SEND_DOMAIN=1), the library's barrier kernel in the remote domain (GSHMEM_EXP_DOMAIN=1), both, the
# MPI twin.
cd "$(dirname "$0")/../../../.."
B=build-carry; R=$OUT/d1; mkdir -p $R; S=$R/d1.txt
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_SEND_DOMAIN -x GSHMEM_EXP_DOMAIN"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
timeout 60 $B/probes/fenceprobe > $R/fenceprobe.txt 2>&1; echo "fenceprobe rc $?" >> $S
cat $R/fenceprobe.txt >> $S
for rep in 1 2; do
  for k in plain send barrier both mpi; do
    a=; sd=0; bd=0
    case $k in send) sd=1;; barrier) bd=1;; both) sd=1; bd=1;; mpi) a=--mpi;; esac
    BFS_SEND_DOMAIN=$sd GSHMEM_EXP_DOMAIN=$bd timeout 100 $M -np 2 $B/apps/bfs_gpu $a --scale 22 --roots 16 > $R/${k}_$rep.log 2>&1
    echo "== $k $rep rc $?" >> $S
    grep -E 'harmonic mean|mean per search|bfs_gpu:    [0-3] ' $R/${k}_$rep.log >> $S
  done
done
cat $S
