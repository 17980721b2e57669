#!/bin/bash
# on the 2-GPU machine, run the GPU tests and GPU benchmarks with 2 PEs (one GPU each) under
# mpirun, with CUDA IPC P2P (GSHMEM_P2P=1) and through the CPU proxy (GSHMEM_P2P=0), then the same benchmarks with
# NVSHMEM (benchmarks/gpu/peers/nvshmem_bench.cu, built here against the NVSHMEM Python package), and print a summary.
# The P2P benchmark gets --variants (block-put tuning variants) unless GPU_BENCH_ARGS says otherwise.
#   scripts/gpu-run.sh [BUILD_DIR]        (default build-gpu; build it with:
#     cmake -S . -B build-gpu -DCMAKE_CUDA_ARCHITECTURES=90 -DGSHMEM_ENABLE_UCX=OFF -DGSHMEM_ENABLE_HWLOC=OFF)
# Logs go to $OUT (or /tmp/gshmem-gpu-run). NVLink multicast stays off (never call cuMulticastCreate).
# PARTS (default all: tests,bench,nvshmem,osu,dsweep) picks the parts to run, so a lease can split them over calls.
set -u
PARTS=${PARTS:-tests,bench,nvshmem,osu,dsweep}
want() { [[ ",$PARTS," == *",$1,"* ]]; }
cd "$(dirname "$0")/.."
B=${1:-build-gpu}
OUT=${OUT:-/tmp/gshmem-gpu-run}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
export LD_LIBRARY_PATH=$PWD/$B/src:/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
export GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
MPI="mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_SYMMETRIC_SIZE
  -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x NCCL_NVLS_ENABLE -x NVSHMEM_DISABLE_NVLS -x GSHMEM_LOG_LEVEL"
date -u +"date %Y-%m-%dT%H:%MZ" | tee "$OUT/summary.txt"
nvidia-smi -L 2>&1 | tee -a "$OUT/summary.txt"
echo "libraries: $(ldd "$B/src/libgshmem.so" | grep -E 'not found|hwloc|ucp|mpi' | tr -s ' \t' ' ' | tr '\n' ';')" | tee -a "$OUT/summary.txt"
declare -A RC
# P2P on, P2P off (everything through the CPU proxy), and P2P on with the copy-engine route for device-initiated
# puts/gets from 64 KiB (GSHMEM_DEVICE_CE_MIN).
RC[tests1]=0 RC[tests0]=0 RC[testsce]=0
want tests && for cfg in 1 0 ce; do
  export GSHMEM_P2P=${cfg/ce/1} GSHMEM_DEVICE_CE_MIN=off
  [ $cfg = ce ] && export GSHMEM_DEVICE_CE_MIN=64K
  timeout 80 $MPI -x GSHMEM_DEVICE_CE_MIN "$B/tests/gpu/gpu_device_tests" --gtest_color=no > "$OUT/tests_p2p$cfg.log" 2>&1
  RC[tests$cfg]=$?
  echo "gpu tests GSHMEM_P2P=$GSHMEM_P2P DEVICE_CE_MIN=$GSHMEM_DEVICE_CE_MIN: rc ${RC[tests$cfg]}; $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests_p2p$cfg.log" | tr '\n' ' ')" | tee -a "$OUT/summary.txt"
  grep -E "FAILED|Failure|gshmem: PE|WATCHDOG" "$OUT/tests_p2p$cfg.log" | head -20
done
unset GSHMEM_DEVICE_CE_MIN
export GSHMEM_P2P=1
want bench && { timeout 150 $MPI "$B/benchmarks/gpu/gshmem_gpu_bench" ${GPU_BENCH_ARGS:---variants} > "$OUT/bench_p2p1.log" 2>&1; echo "bench p2p rc $?" >> "$OUT/summary.txt"; }
export GSHMEM_P2P=0
if want bench && [ "${SKIP_PROXY_BENCH:-0}" = 0 ]; then
  timeout 70 $MPI "$B/benchmarks/gpu/gshmem_gpu_bench" --quick > "$OUT/bench_p2p0.log" 2>&1; echo "bench proxy rc $?" >> "$OUT/summary.txt"
fi
# NVSHMEM, same measurements (SKIP_NVSHMEM=1 skips its build and run)
NV=
want nvshmem && [ "${SKIP_NVSHMEM:-0}" = 0 ] && NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])" 2>/dev/null)
if [ -n "$NV" ]; then
  nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 -I"$NV/include" $(mpicc --showme:compile) benchmarks/gpu/peers/nvshmem_bench.cu \
    -o "$OUT/../nvshmem_bench.bin" -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda \
    > "$OUT/nvshmem_build.log" 2>&1 || echo "nvshmem bench build failed" >> "$OUT/summary.txt"
  LD_LIBRARY_PATH=$NV/lib:$LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=2G timeout 120 \
    mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_REMOTE_TRANSPORT \
    -x NVSHMEM_SYMMETRIC_SIZE "$OUT/../nvshmem_bench.bin" > "$OUT/bench_nvshmem.log" 2>&1
  echo "bench nvshmem rc $?" >> "$OUT/summary.txt"
elif want nvshmem; then
  echo "NVSHMEM Python package not found: no NVSHMEM figures" >> "$OUT/summary.txt"
fi
# The path report (GSHMEM_INFO=1: topology summary, each device peer's class and where it came from) and the
# osu-like tests with -d cuda (buffers in the GPU symmetric heap, host-initiated put/get), P2P on.
export GSHMEM_P2P=1
want osu && GSHMEM_INFO=1 timeout 60 $MPI -x GSHMEM_INFO "$B/benchmarks/osu-like/osu_oshm_put_lat" -d cuda -m 8:8 -i 10 > "$OUT/info.log" 2>&1
want osu && grep -E "device PE|class|NVL|GPU" "$OUT/info.log" | head -20 >> "$OUT/summary.txt"
for t in put_lat get_lat put_bw; do
  if want osu && [ -x "$B/benchmarks/osu-like/osu_oshm_$t" ]; then
    timeout 60 $MPI "$B/benchmarks/osu-like/osu_oshm_$t" -d cuda -m 8:4M > "$OUT/osu_cuda_$t.log" 2>&1
    echo "osu_oshm_$t -d cuda rc $?" >> "$OUT/summary.txt"
    grep -E "^(8|4096|65536|1048576|4194304) " "$OUT/osu_cuda_$t.log" | sed "s/^/osu $t cuda: /" >> "$OUT/summary.txt"
  fi
done
# device-initiated put sweep (benchmarks/gpu/dsweep.cu) unless DSWEEP=0: SM stores, the proxy's
# copy engine and the automatic choice interleaved (P2P on), then the staged pipeline (P2P off).
if want dsweep && [ "${DSWEEP:-1}" != 0 ] && [ -x "$B/benchmarks/gpu/gshmem_dsweep" ]; then
  : > "$OUT/dsweep.csv"
  for p2p in 1 0; do
    export GSHMEM_P2P=$p2p
    [ $p2p = 1 ] && mode=all || mode=staged
    [ -n "${DSWEEP_CE_MIN:-}" ] && export GSHMEM_DEVICE_CE_MIN=$DSWEEP_CE_MIN
    timeout 200 $MPI ${GSHMEM_DEVICE_CE_MIN:+-x GSHMEM_DEVICE_CE_MIN} "$B/benchmarks/gpu/gshmem_dsweep" $mode > "$OUT/dsweep_$mode.log" 2>&1
    echo "dsweep $mode rc $?" >> "$OUT/summary.txt"
    grep -E "^(store|ce|auto|staged)," "$OUT/dsweep_$mode.log" >> "$OUT/dsweep.csv"
  done
  python3 - "$OUT/dsweep.csv" >> "$OUT/summary.txt" <<'PY'
import sys, collections
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    m, sc, n, us, gb, ver = line.strip().split(",")
    rows[(sc, int(n))][m] = (float(us), ver)
print("---- device-initiated sweep: us per put (auto / best forced)")
print("scope,bytes,store,ce,staged,auto,best,auto/best,verified")
worst = 0
for (sc, n) in sorted(rows, key=lambda k: (["thread", "warp", "block"].index(k[0]), k[1])):
    r = rows[(sc, n)]
    forced = {m: r[m][0] for m in ("store", "ce", "staged") if m in r}
    best = min(forced, key=forced.get)
    a = r.get("auto", (float("nan"), "-"))[0]
    ratio = a / forced[best] if forced else float("nan")
    worst = max(worst, ratio)
    cell = lambda m: "%.2f" % r[m][0] if m in r else "-"
    vers = "".join(v[1][0] for v in r.values() if v[1] != "-")
    print("%s,%d,%s,%s,%s,%s,%s,%.3f,%s" % (sc, n, cell("store"), cell("ce"), cell("staged"), cell("auto"), best, ratio, vers))
print("worst auto/best: %.3f" % worst)
# Crossovers: where the copy-engine route starts to beat SM stores (linear between the two sizes around the sign
# change): the values for GSHMEM_DEVICE_CE_MIN (thread,warp,block).
xs = []
for sc in ("thread", "warp", "block"):
    pts = sorted((n, r) for (s, n), r in rows.items() if s == sc and "store" in r and "ce" in r)
    x = None
    for (n0, r0), (n1, r1) in zip(pts, pts[1:]):
        d0, d1 = r0["store"][0] - r0["ce"][0], r1["store"][0] - r1["ce"][0]
        if d0 < 0 <= d1:
            x = n0 + (n1 - n0) * (-d0) / (d1 - d0)
            break
    xs.append("off" if x is None else "%dK" % round(x / 1024))
print("measured crossovers (GSHMEM_DEVICE_CE_MIN): " + ",".join(xs))
PY
fi
echo "---- results" >> "$OUT/summary.txt"
grep -h "^RESULT" "$OUT"/bench_*.log >> "$OUT/summary.txt" 2>/dev/null
grep -h "^VARIANT" "$OUT"/bench_*.log >> "$OUT/summary.txt" 2>/dev/null
cat "$OUT/summary.txt"
[ "${RC[tests1]}" = 0 ] && [ "${RC[tests0]}" = 0 ] && [ "${RC[testsce]}" = 0 ]
