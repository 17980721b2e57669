#!/bin/bash
# issue 9's before/after: gshmem_gpu_bench of the session-start build (build-basecarry) and of main (build-carry),
# alternating, 3 rounds, P2P on (full) and P2P off (--quick), 2 PEs on 2 GPUs.
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
for r in 1 2 3; do for b in build-basecarry build-carry; do for p2p in 1 0; do
  a=" "; [ $p2p = 0 ] && a=--quick
  LD_LIBRARY_PATH=$PWD/$b/src:/usr/local/cuda/lib64 GSHMEM_P2P=$p2p timeout 120 mpirun --allow-run-as-root --bind-to none -np 2 \
    -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE $b/benchmarks/gpu/gshmem_gpu_bench $a 2>&1 \
    | grep "^RESULT" | sed "s/^/$r $b /"
done; done; done
