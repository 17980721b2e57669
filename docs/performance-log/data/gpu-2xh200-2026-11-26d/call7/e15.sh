#!/bin/bash
# lease 15 (2 GPUs): device broadcast/fcollect/alltoall handing over with flags. GPU tests (2 GPUs P2P on/off; 2 and
# 4 PEs sharing GPU 0 under MPS), then the device-mode rows of coll_bench beside NVSHMEM's, two alternating rounds,
# and the stream rows up to 4 MiB once (the stream forms on big sizes are unchanged).
cd "$(dirname "$0")/.."
B=build-carry; R=$OUT/e15; mkdir -p $R; S=$R/e15.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_P2P -x CUDA_VISIBLE_DEVICES"
T=$B/tests/gpu/gpu_device_tests
sum() { grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED \]' $1 | tr '\n' ' ' | cut -c1-160; }
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
for p2p in 1 0; do GSHMEM_P2P=$p2p timeout 150 $M -np 2 $T --gtest_color=no > $R/np2_$p2p.log 2>&1; echo "2 GPUs np2 P2P=$p2p rc $? $(sum $R/np2_$p2p.log)" >> $S; done
export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log; mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
nvidia-cuda-mps-control -d && echo "MPS on" >> $S
MM="$M -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY"
for np in 2 4; do CUDA_VISIBLE_DEVICES=0 timeout 150 $MM -np $np $T --gtest_filter='*GpuColl*:*GpuTeam*' --gtest_color=no > $R/shared_np$np.log 2>&1; echo "shared GPU0 np$np (MPS) rc $? $(sum $R/shared_np$np.log)" >> $S; done
echo quit | nvidia-cuda-mps-control; sleep 1; unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
grep -hE '^\[  FAILED  \]|Failure$' $R/*.log | head -8 >> $S
NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])" 2>/dev/null)
nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 -DCOLL_NVSHMEM -I"$NV/include" $(mpicc --showme:compile) benchmarks/gpu/coll_bench.cu \
  -o /tmp/coll_nvshmem -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda > $R/build_nvshmem.log 2>&1
echo "nvshmem coll build rc $?" >> $S
: > $R/coll.txt
for rep in 1 2; do
  timeout 120 $M -np 2 $B/benchmarks/gpu/gshmem_coll_bench --mode device --dev-max 4194304 > $R/g_$rep.log 2>&1; echo "gshmem dev rep $rep rc $? $(grep wrong $R/g_$rep.log)" >> $S
  grep -h '^COLL' $R/g_$rep.log >> $R/coll.txt
  LD_LIBRARY_PATH=$NV/lib:$LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=2G timeout 120 mpirun --allow-run-as-root --bind-to none -np 2 \
    -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_REMOTE_TRANSPORT -x NVSHMEM_SYMMETRIC_SIZE /tmp/coll_nvshmem --mode device --dev-max 4194304 > $R/nv_$rep.log 2>&1
  echo "nvshmem dev rep $rep rc $?" >> $S; grep -h '^COLL' $R/nv_$rep.log >> $R/coll.txt
done
python3 .peers/colltable2.py $R/coll.txt nvshmem >> $S
timeout 120 $M -np 2 $B/benchmarks/gpu/gshmem_coll_bench --mode stream --max 4194304 > $R/stream.log 2>&1; echo "gshmem stream rc $? $(grep wrong $R/stream.log)" >> $S
grep '^COLL' $R/stream.log >> $S
cat $S
