#!/bin/bash
# lease f4 (2 GPUs): the 8-byte stream put against where the PE's host thread runs: unbound, on the cores near its
# GPU, on the cores near the other GPU; gshmem and NVSHMEM alternating, three rounds.
cd "$(dirname "$0")/.."
B=build-carry; S=$OUT/f4.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE"
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S; nvidia-smi topo -m >> $S 2>&1; lscpu | grep -E 'NUMA|Socket|Model name' >> $S
for g in 0 1; do bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader -i $g | tr 'A-Z' 'a-z' | sed 's/^0000\(....\)/\1/')
  echo "GPU $g $bus numa $(cat /sys/bus/pci/devices/$bus/numa_node) cpus $(cat /sys/bus/pci/devices/$bus/local_cpulist)" >> $S; done
NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])")
nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 -I"$NV/include" $(mpicc --showme:compile) benchmarks/gpu/peers/nvshmem_bench.cu \
  -o /tmp/nvshmem_bench.bin -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda > $OUT/nvbuild.log 2>&1 || echo "nv build failed" >> $S
W=$PWD/.peers/bindwrap.sh
for r in 1 2 3; do for mode in none local remote; do
  timeout 150 $M $W $mode $B/benchmarks/gpu/gshmem_gpu_bench > $OUT/g$r$mode.log 2>&1
  echo "round $r $mode gshmem rc $? $(grep -hE 'putmem_on_stream_8B|put_signal_pingpong_8B|fetch_add_u64' $OUT/g$r$mode.log | awk '{printf "%s=%s ", $2, $3}')" >> $S
  LD_LIBRARY_PATH=$NV/lib:$LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=2G timeout 120 \
    mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_REMOTE_TRANSPORT \
    -x NVSHMEM_SYMMETRIC_SIZE $W $mode /tmp/nvshmem_bench.bin > $OUT/n$r$mode.log 2>&1
  echo "round $r $mode nvshmem rc $? $(grep -hE 'putmem_on_stream_8B|put_signal_pingpong_8B|fetch_add_u64' $OUT/n$r$mode.log | awk '{printf "%s=%s ", $2, $3}')" >> $S
done; done
cat $S
