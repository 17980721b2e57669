#!/bin/bash
# lease f6 (2 GPUs): both benchmarks after the fetch-add sweep moved into benchmarks/gpu/fadd_sweep.h.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/f6.txt
export NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE"
NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])")
nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 -I"$NV/include" $(mpicc --showme:compile) benchmarks/gpu/peers/nvshmem_bench.cu \
  -o /tmp/nvshmem_bench.bin -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda > $OUT/nvbuild.log 2>&1; echo "nv build rc $?" >> $S
timeout 150 $M $B/benchmarks/gpu/gshmem_gpu_bench > $OUT/g.log 2>&1; echo "gshmem rc $?" >> $S
LD_LIBRARY_PATH=$NV/lib:$LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=2G timeout 120 \
  mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_REMOTE_TRANSPORT \
  -x NVSHMEM_SYMMETRIC_SIZE /tmp/nvshmem_bench.bin > $OUT/n.log 2>&1; echo "nvshmem rc $?" >> $S
grep -hE 'fetch_add|FADD_AT' $OUT/g.log $OUT/n.log >> $S
cat $S; tail -3 $OUT/nvbuild.log
