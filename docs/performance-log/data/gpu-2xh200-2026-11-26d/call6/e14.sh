#!/bin/bash
# lease 14 (2 GPUs): the atomics' single branch (tests P2P on/off, fetch-add beside the bare instruction and
# NVSHMEM, alternating twice), then the host-initiated sweep (rotated, warmed modes) and the device-initiated sweep.
cd "$(dirname "$0")/.."
B=build-carry; R=$OUT/e14; mkdir -p $R; S=$R/e14.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_P2P"
T=$B/tests/gpu/gpu_device_tests
sum() { grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED \]' $1 | tr '\n' ' '; }
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
for p2p in 1 0; do GSHMEM_P2P=$p2p timeout 150 $M -np 2 $T --gtest_color=no > $R/np2_$p2p.log 2>&1; echo "2 GPUs np2 P2P=$p2p rc $? $(sum $R/np2_$p2p.log | cut -c1-200)" >> $S; done
grep -hE '^\[  FAILED  \]' $R/np2_*.log | head -5 >> $S
NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])" 2>/dev/null)
nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 -I"$NV/include" $(mpicc --showme:compile) benchmarks/gpu/peers/nvshmem_bench.cu \
  -o /tmp/nvb -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda > $R/nvb_build.log 2>&1
echo "nvshmem_bench build rc $?" >> $S
for i in 1 2; do
  timeout 60 $M -np 2 $B/benchmarks/gpu/gshmem_gpu_bench --lat --variants 2>&1 | grep -E 'RESULT|VARIANT (api_put|raw_memcpy|raw_fetch)' >> $S
  LD_LIBRARY_PATH=$NV/lib:$LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=2G timeout 90 mpirun --allow-run-as-root --bind-to none -np 2 \
    -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_REMOTE_TRANSPORT -x NVSHMEM_SYMMETRIC_SIZE /tmp/nvb 2>&1 | grep -E 'RESULT.*(fetch|8B)' >> $S
done
echo "---- host-initiated sweep" >> $S
OUT=$R/sweep timeout 260 scripts/gpu-sweep.sh run protocarry > $R/gpu-sweep.txt 2>&1; echo "gpu-sweep rc $?" >> $S
tail -45 $R/gpu-sweep.txt >> $S
echo "---- device-initiated sweep" >> $S
OUT=$R/ds PARTS=dsweep timeout 200 scripts/gpu-run.sh $B > $R/gpu-run.txt 2>&1; echo "dsweep rc $?" >> $S
grep -A40 "device-initiated sweep" $R/ds/summary.txt >> $S
cat $S
