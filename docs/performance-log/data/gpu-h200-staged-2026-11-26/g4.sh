#!/bin/bash
# lease g4 (1 GPU, 2 PEs sharing it under MPS): old (before this session), fused (c6bb8a8), new (fused + started
# pairs pipelined through the channel's request queue): staged ping-pong, HSG staged L = 64/128 beside the twin; checks.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/g4.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G GSHMEM_P2P=1
nvidia-smi -L >> $S; date -u >> $S
export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY; nvidia-cuda-mps-control -d && echo "MPS on" >> $S
M="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY"
lib() { case $1 in old) echo $PWD/protocarry/old;; fused) echo $PWD/protocarry/fused;; *) echo $PWD/$B/src;; esac; }
run() { local l=$1 name=$2 np=$3; shift 3; LD_LIBRARY_PATH=$(lib $l):$PWD/$B/lib:/usr/local/cuda/lib64 timeout 120 $M -np $np "$@" > $OUT/$name.log 2>&1; echo "== $name rc $?" >> $S; }
for l in old fused new; do GSHMEM_P2P=0 run $l pp_$l 2 $B/benchmarks/gpu/gshmem_signal_pingpong 200; grep RESULT $OUT/pp_$l.log | grep -E "_8B|24576B|1048576B" >> $S; done
for r in 1 2 3; do for sz in 64 128; do
  for l in fused new; do run $l hsg${sz}_${l}_$r 2 $B/apps/hsg_gpu --bench --variant staged --size $sz --sweeps 20; tail -1 $OUT/hsg${sz}_${l}_$r.log | sed "s/^/$l: /" >> $S; done
  run new hsg${sz}_mpi_$r 2 $B/apps/hsg_gpu --bench --mpi --size $sz --sweeps 20; tail -1 $OUT/hsg${sz}_mpi_$r.log >> $S
done; done
run new hsg256_new 2 $B/apps/hsg_gpu --bench --variant staged --size 256 --sweeps 20; tail -1 $OUT/hsg256_new.log >> $S
run new hsg256_mpi 2 $B/apps/hsg_gpu --bench --mpi --size 256 --sweeps 20; tail -1 $OUT/hsg256_mpi.log >> $S
for np in 2 4; do run new hsgchk_np$np $np $B/apps/hsg_gpu --check --variant staged --size 32 --sweeps 10; grep -h "check" $OUT/hsgchk_np$np.log | tail -1 >> $S; done
run new hsgen 2 $B/apps/hsg_gpu --check-energy --variant staged --size 64 --sweeps 100; grep -h "check" $OUT/hsgen.log | tail -1 >> $S
run new hsgauto 2 env GSHMEM_P2P=0 $B/apps/hsg_gpu --check --variant auto --size 32 --sweeps 10; grep -h "check" $OUT/hsgauto.log | tail -1 >> $S
for np in 2 4; do GSHMEM_P2P=0 run new tests_p2p0_np$np $np $B/tests/gpu/gpu_device_tests --gtest_color=no; grep -hE "^\[  (PASSED|FAILED)|Failure" $OUT/tests_p2p0_np$np.log | head -5 >> $S; done
GSHMEM_P2P=1 run new tests_p2p1 2 $B/tests/gpu/gpu_device_tests --gtest_color=no; grep -hE "^\[  (PASSED|FAILED)|Failure" $OUT/tests_p2p1.log | head -5 >> $S
GSHMEM_P2P=0 run new staged_bw 2 $B/benchmarks/gpu/gshmem_staged_bw; grep RESULT $OUT/staged_bw.log | tail -4 >> $S
echo quit | nvidia-cuda-mps-control
cat $S
