#!/bin/bash
# lease f3 (2 GPUs): the one-test atomic fast path: GPU tests (2 GPUs, P2P on/off; 1 PE), then fetch-add beside
# NVSHMEM at 15 addresses, alternating, three rounds.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/f3.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_P2P"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
for p2p in 1 0; do GSHMEM_P2P=$p2p timeout 120 $M -np 2 $B/tests/gpu/gpu_device_tests --gtest_color=no > $OUT/np2_$p2p.log 2>&1
  echo "2 GPUs np2 P2P=$p2p rc $? $(grep -E '^\[  (PASSED|FAILED) ' $OUT/np2_$p2p.log | tr '\n' ' ')" >> $S; done
GSHMEM_P2P=1 timeout 100 $M -np 1 $B/tests/gpu/gpu_device_tests --gtest_color=no > $OUT/np1.log 2>&1
echo "1 GPU np1 rc $? $(grep -E '^\[  (PASSED|FAILED) ' $OUT/np1.log | tr '\n' ' ')" >> $S
grep -hE '^\[  FAILED  \]' $OUT/np*.log | head >> $S
NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])")
nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 -I"$NV/include" $(mpicc --showme:compile) benchmarks/gpu/peers/nvshmem_bench.cu \
  -o /tmp/nvshmem_bench.bin -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda > $OUT/nvbuild.log 2>&1 || echo "nv build failed" >> $S
for r in 1 2 3; do
  GSHMEM_P2P=1 timeout 150 $M -np 2 $B/benchmarks/gpu/gshmem_gpu_bench > $OUT/g$r.log 2>&1; echo "gshmem rc $?" >> $S
  LD_LIBRARY_PATH=$NV/lib:$LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=2G timeout 120 \
    mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_REMOTE_TRANSPORT \
    -x NVSHMEM_SYMMETRIC_SIZE /tmp/nvshmem_bench.bin > $OUT/n$r.log 2>&1; echo "nvshmem rc $?" >> $S
  grep -hE 'RESULT|FADD_AT' $OUT/g$r.log $OUT/n$r.log >> $S
done
cat $S
