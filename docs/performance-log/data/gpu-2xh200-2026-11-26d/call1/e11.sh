#!/bin/bash
# lease 11 (2 GPUs): the direct two-PE reductions. GPU tests (2 GPUs P2P on/off; 4 PEs sharing GPU 0, collectives),
# then all_reduce/reduce_scatter 4-256 MiB: gshmem with the direct form (chunks 16K/64K/256K/1M) and without, NCCL,
# three alternating rounds.
cd "$(dirname "$0")/.."
B=build-carry; R=/tmp/e11; rm -rf $R; mkdir -p $R; S=$R/e11.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64 GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
M="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_P2P -x CUDA_VISIBLE_DEVICES -x GSHMEM_DEVICE_COLL_DIRECT -x GSHMEM_DEVICE_COLL_DIRECT_CHUNK"
T=$B/tests/gpu/gpu_device_tests
sum() { grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED \]' $1 | tr '\n' ' '; }
date -u +%FT%TZ >> $S; nvidia-smi -L >> $S
for p2p in 1 0; do GSHMEM_P2P=$p2p timeout 150 $M -np 2 $T --gtest_color=no > $R/np2_$p2p.log 2>&1; echo "2 GPUs np2 P2P=$p2p rc $? $(sum $R/np2_$p2p.log)" >> $S; done
GSHMEM_DEVICE_COLL_DIRECT=0 timeout 100 $M -np 2 $T --gtest_filter='*GpuColl*' --gtest_color=no > $R/np2_nodirect.log 2>&1; echo "2 GPUs np2 DIRECT=0 coll rc $? $(sum $R/np2_nodirect.log)" >> $S
CUDA_VISIBLE_DEVICES=0 timeout 120 $M -np 4 $T --gtest_filter='*GpuColl*:*GpuTeam*' --gtest_color=no > $R/np4.log 2>&1; echo "shared GPU0 np4 rc $? $(sum $R/np4.log)" >> $S
CUDA_VISIBLE_DEVICES=0 timeout 100 $M -np 2 $T --gtest_filter='*GpuColl*' --gtest_color=no > $R/np2s.log 2>&1; echo "shared GPU0 np2 rc $? $(sum $R/np2s.log)" >> $S
for f in $R/np*.log; do grep -E '^\[  FAILED  \]|Failure|gshmem: PE' $f | head -5 >> $S; done
NC=$(python3 -c "import nvidia.nccl as m; print(list(m.__path__)[0])" 2>/dev/null)
nvcc -O2 -arch=sm_90 -std=c++17 -DCOLL_NCCL -I"$NC/include" $(mpicc --showme:compile) benchmarks/gpu/coll_bench.cu \
  -o /tmp/coll_nccl -L"$NC/lib" -l:libnccl.so.2 $(mpicc --showme:link) > $R/build_nccl.log 2>&1; echo "nccl build rc $?" >> $S
A="--mode stream --min 4194304 --only all_reduce,reduce_scatter"
: > $R/coll.txt
for rep in 1 2 3; do
  for cfg in 1:64K 0:64K 1:16K 1:256K 1:1M; do
    GSHMEM_DEVICE_COLL_DIRECT=${cfg%%:*} GSHMEM_DEVICE_COLL_DIRECT_CHUNK=${cfg##*:} timeout 60 $M -np 2 $B/benchmarks/gpu/gshmem_coll_bench $A > $R/g_${cfg/:/_}_$rep.log 2>&1
    echo "gshmem $cfg rep $rep rc $?" >> $S; grep -h '^COLL\|wrong' $R/g_${cfg/:/_}_$rep.log | sed "s/^COLL gshmem/COLL gshmem_$cfg/" >> $R/coll.txt
  done
  LD_LIBRARY_PATH=$NC/lib:$LD_LIBRARY_PATH timeout 60 mpirun --allow-run-as-root --bind-to none -np 2 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE /tmp/coll_nccl $A > $R/nccl_$rep.log 2>&1
  echo "nccl rep $rep rc $?" >> $S; grep -h '^COLL' $R/nccl_$rep.log >> $R/coll.txt
done
python3 - $R/coll.txt >> $S <<'PY'
import sys, collections
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if f and f[0] == "COLL": t[(f[2], int(f[3]), f[1])].append(float(f[4]))
libs = sorted({k[2] for k in t})
print("median us of 3 rounds; ratio to nccl in brackets")
print("%-15s %10s " % ("coll", "bytes") + " ".join("%18s" % l for l in libs))
for c, n in sorted({(k[0], k[1]) for k in t}):
    nc = sorted(t.get((c, n, "nccl"), [0]))[len(t.get((c, n, "nccl"), [0])) // 2]
    row = []
    for l in libs:
        v = sorted(t.get((c, n, l), []))
        m = v[len(v) // 2] if v else 0
        row.append("%9.1f (%5.3f)" % (m, m / nc if nc else 0))
    print("%-15s %10d " % (c, n) + " ".join("%18s" % r for r in row))
PY
grep -h WRONG $R/coll.txt | head -3 >> $S
cat $S; cp $R/*.log $R/coll.txt $S $OUT/ 2>/dev/null
