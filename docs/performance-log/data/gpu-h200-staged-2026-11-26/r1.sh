#!/bin/bash
# review check (1 GPU, MPS, 2 PEs): the review commits (driverEntry, enqueueAmo, proxyClaim) on the GPU.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/r1.txt
export GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G GSHMEM_P2P=1 LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64
nvidia-smi -L >> $S
export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY; nvidia-cuda-mps-control -d
M="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY"
run() { local name=$1 np=$2; shift 2; timeout 120 $M -np $np "$@" > $OUT/$name.log 2>&1; echo "== $name rc $?" >> $S; }
for p in 0 1; do for np in 2 4; do GSHMEM_P2P=$p run tests_p2p${p}_np$np $np $B/tests/gpu/gpu_device_tests --gtest_color=no; grep -hE "^\[  (PASSED|FAILED)|Failure" $OUT/tests_p2p${p}_np$np.log | head -4 >> $S; done; done
GSHMEM_P2P=0 run pp 2 $B/benchmarks/gpu/gshmem_signal_pingpong 200; grep -E "RESULT.*(_8B|24576B)" $OUT/pp.log >> $S
for sz in 64 128; do run hsg$sz 2 $B/apps/hsg_gpu --bench --variant staged --size $sz --sweeps 20; tail -1 $OUT/hsg$sz.log >> $S; run mpi$sz 2 $B/apps/hsg_gpu --bench --mpi --size $sz --sweeps 20; tail -1 $OUT/mpi$sz.log >> $S; done
for np in 2 4; do run chk$np $np $B/apps/hsg_gpu --check --variant staged --size 32 --sweeps 10; grep -h check $OUT/chk$np.log | tail -1 >> $S; done
echo quit | nvidia-cuda-mps-control
cat $S
