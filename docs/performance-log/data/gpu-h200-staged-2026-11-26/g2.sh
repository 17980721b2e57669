#!/bin/bash
# lease g2 (1 GPU, 2 PEs sharing it under MPS): g1 plus the set as a stream memory write on the server.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/g2.txt
NEW=$PWD/$B/src OLD=$PWD/protocarry/old
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G GSHMEM_P2P=1
nvidia-smi -L >> $S; date -u >> $S
export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY; nvidia-cuda-mps-control -d && echo "MPS on" >> $S
M="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY"
run() { local lib=$1 name=$2 np=$3; shift 3; LD_LIBRARY_PATH=$lib:$PWD/$B/lib:/usr/local/cuda/lib64 timeout 120 $M -np $np "$@" > $OUT/$name.log 2>&1; echo "== $name rc $?" >> $S; }
for lib in old new; do L=$OLD; [ $lib = new ] && L=$NEW
  GSHMEM_P2P=0 run $L pp_$lib 2 $B/benchmarks/gpu/gshmem_signal_pingpong 200; grep RESULT $OUT/pp_$lib.log >> $S; done
for r in 1 2 3; do for sz in 64 128; do
  run $NEW hsg${sz}_new_$r 2 $B/apps/hsg_gpu --bench --variant staged --size $sz --sweeps 20; tail -1 $OUT/hsg${sz}_new_$r.log >> $S
  run $NEW hsg${sz}_mpi_$r 2 $B/apps/hsg_gpu --bench --mpi --size $sz --sweeps 20; tail -1 $OUT/hsg${sz}_mpi_$r.log >> $S
done; done
for np in 2 4; do run $NEW hsgchk_np$np $np $B/apps/hsg_gpu --check --variant staged --size 32 --sweeps 10; grep -h "check" $OUT/hsgchk_np$np.log | tail -1 >> $S; done
run $NEW hsgen 2 $B/apps/hsg_gpu --check-energy --variant staged --size 64 --sweeps 100; grep -h "check" $OUT/hsgen.log | tail -1 >> $S
GSHMEM_P2P=0 run $NEW tests_p2p0 2 $B/tests/gpu/gpu_device_tests --gtest_color=no; grep -hE "^\[  (PASSED|FAILED)|Failure" $OUT/tests_p2p0.log | head -5 >> $S
GSHMEM_P2P=0 run $NEW tests_p2p0_np4 4 $B/tests/gpu/gpu_device_tests --gtest_color=no; grep -hE "^\[  (PASSED|FAILED)|Failure" $OUT/tests_p2p0_np4.log | head -5 >> $S
echo quit | nvidia-cuda-mps-control
cat $S
