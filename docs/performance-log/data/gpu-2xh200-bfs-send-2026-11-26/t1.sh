#!/bin/bash
# lease t1 (2 GPUs): BFS scale 22 with a per-stage trace of the first levels (temporary patch, not in the repo),
# HSG staged / direct / twin at L = 64, 128 on 2 GPUs, staged bandwidth, the GPU tests P2P on/off.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/t1.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=4G GSHMEM_SYMMETRIC_SIZE_DEVICE=2G GSHMEM_P2P=1
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x BFS_GPU_TRACE -x GSHMEM_P2P"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
run() { local name=$1; shift; timeout 150 $M -np 2 "$@" > $OUT/$name.log 2>&1; echo "== $name rc $?" >> $S; }
BFS_GPU_TRACE=1 run bfs_g1 $B/apps/bfs_gpu --scale 22 --roots 16; grep -E "TRACE|harmonic mean|mean per search|bfs_gpu:    [0-3] " $OUT/bfs_g1.log >> $S
BFS_GPU_TRACE=1 run bfs_m1 $B/apps/bfs_gpu --mpi --scale 22 --roots 16; grep -E "TRACE|harmonic mean|mean per search|bfs_gpu:    [0-3] " $OUT/bfs_m1.log >> $S
export GSHMEM_SYMMETRIC_SIZE=256M
for L in 64 128; do for v in direct staged; do run hsg_${L}_$v $B/apps/hsg_gpu --bench --variant $v --size $L --sweeps 20; tail -1 $OUT/hsg_${L}_$v.log >> $S; done
  run hsg_${L}_mpi $B/apps/hsg_gpu --bench --mpi --size $L --sweeps 20; tail -1 $OUT/hsg_${L}_mpi.log >> $S; done
GSHMEM_P2P=0 run pp_staged $B/benchmarks/gpu/gshmem_signal_pingpong 200; grep RESULT $OUT/pp_staged.log >> $S
GSHMEM_P2P=0 run staged_bw $B/benchmarks/gpu/gshmem_staged_bw; grep RESULT $OUT/staged_bw.log | tail -2 >> $S
GSHMEM_P2P=0 run tests_p2p0 $B/tests/gpu/gpu_device_tests --gtest_color=no; grep -hE "^\[  (PASSED|FAILED)|Failure" $OUT/tests_p2p0.log | head -5 >> $S
GSHMEM_P2P=1 run tests_p2p1 $B/tests/gpu/gpu_device_tests --gtest_color=no; grep -hE "^\[  (PASSED|FAILED)|Failure" $OUT/tests_p2p1.log | head -5 >> $S
date -u +%FT%TZ >> $S
cat $S
