#!/bin/bash
# lease 12 (2 GPUs): copy-engine movers with the own part by SM stores (CE=1) against SM stores (CE=0) and NCCL,
# broadcast/all_gather/all_to_all 4-256 MiB, three rounds; fetch-add variants; the exit test with a 10 s timeout;
# the GPU collective tests with CE=1.
cd "$(dirname "$0")/.."
B=build-carry; R=/tmp/e12; rm -rf $R; mkdir -p $R; S=$R/e12.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_P2P -x CUDA_VISIBLE_DEVICES -x GSHMEM_DEVICE_COLL_CE -x GSHMEM_TIMEOUT"
T=$B/tests/gpu/gpu_device_tests
sum() { grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED \]' $1 | tr '\n' ' '; }
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
GSHMEM_DEVICE_COLL_CE=1 timeout 100 $M -np 2 $T --gtest_filter='*GpuColl*' --gtest_color=no > $R/np2_ce.log 2>&1; echo "2 GPUs np2 CE=1 coll rc $? $(sum $R/np2_ce.log)" >> $S
for i in 1 2 3; do
  GSHMEM_TIMEOUT=10 GSHMEM_P2P=0 timeout 60 $M -np 2 $B/tests/gpu/gpu_exit_test exit 7 work > $R/exit_$i.log 2>&1
  echo "exit 7 work P2P=0 GSHMEM_TIMEOUT=10 rc $? $(grep -h 'gshmem: PE' $R/exit_$i.log | grep -v 'ends without' | head -2 | tr '\n' ' ')" >> $S
done
for i in 1 2; do timeout 60 $M -np 2 $B/benchmarks/gpu/gshmem_gpu_bench --lat --variants 2>&1 | grep -E 'RESULT|VARIANT raw_fetch' >> $S; done
NC=$(python3 -c "import nvidia.nccl as m; print(list(m.__path__)[0])" 2>/dev/null)
nvcc -O2 -arch=sm_90 -std=c++17 -DCOLL_NCCL -I"$NC/include" $(mpicc --showme:compile) benchmarks/gpu/coll_bench.cu \
  -o /tmp/coll_nccl -L"$NC/lib" -l:libnccl.so.2 $(mpicc --showme:link) > $R/build_nccl.log 2>&1; echo "nccl build rc $?" >> $S
A="--mode stream --min 4194304 --only broadcast,all_gather,all_to_all"
: > $R/coll.txt
for rep in 1 2 3; do
  for ce in 0 1; do
    GSHMEM_DEVICE_COLL_CE=$ce timeout 60 $M -np 2 $B/benchmarks/gpu/gshmem_coll_bench $A > $R/g_${ce}_$rep.log 2>&1
    echo "gshmem CE=$ce rep $rep rc $?" >> $S; grep -h '^COLL\|wrong' $R/g_${ce}_$rep.log | sed "s/^COLL gshmem/COLL gshmem_ce$ce/" >> $R/coll.txt
  done
  LD_LIBRARY_PATH=$NC/lib:$LD_LIBRARY_PATH timeout 60 mpirun --allow-run-as-root --bind-to none -np 2 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE /tmp/coll_nccl $A > $R/nccl_$rep.log 2>&1
  echo "nccl rep $rep rc $?" >> $S; grep -h '^COLL' $R/nccl_$rep.log >> $R/coll.txt
done
python3 .peers/colltable2.py $R/coll.txt >> $S
grep -h WRONG $R/coll.txt | head -3 >> $S
cat $S; cp $R/*.log $R/coll.txt $S $OUT/ 2>/dev/null
