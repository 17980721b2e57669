#!/bin/bash
# lease f5 (2 GPUs): the exit tests, each variant 5 times, GSHMEM_TIMEOUT=10 (the leave handler now runs before the
# service threads stop); then the GPU tests once (P2P on).
cd "$(dirname "$0")/.."
S=$OUT/f5.txt
export GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_P2P -x GSHMEM_TIMEOUT"
date -u +%FT%TZ >> $S
for i in 1 2 3 4; do for B in build-carry-old build-carry-new; do for how in "return" "exit 7 work"; do for p2p in 1 0; do
  t0=$(date +%s.%N)
  LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_TIMEOUT=10 GSHMEM_P2P=$p2p timeout 60 $M -np 2 $B/tests/gpu/gpu_exit_test $how > $OUT/x.log 2>&1; rc=$?
  echo "$i ${B#build-carry-} gpu_exit_test $how P2P=$p2p rc $rc $(awk -v a=$t0 -v b=$(date +%s.%N) "BEGIN{printf \"%.1f\", b-a}")s $(grep -h 'gshmem: PE' $OUT/x.log | grep -v 'ends without' | head -1)" >> $S
done; done; done; done
B=build-carry-new; LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_P2P=1 timeout 120 $M -np 2 $B/tests/gpu/gpu_device_tests --gtest_color=no > $OUT/np2_1.log 2>&1
echo "2 GPUs np2 P2P=1 rc $? $(grep -E '^\[  (PASSED|FAILED) ' $OUT/np2_1.log | tr '\n' ' ')" >> $S
cat $S
