#!/bin/bash
# One lease on the 2-GPU machine, in two calls of under 10 minutes each (the device tool's limit per command):
#   scripts/gpu-lease.sh 1 CARRY PEERS   GPU tests (2 PEs on 2 GPUs, P2P on/off/copy engine; 1 and 2 PEs sharing
#                                        GPU 0), the signal-latency probe, gshmem_gpu_bench (P2P and proxy) beside
#                                        nvshmem_bench, osu -d cuda, the exit test
#   scripts/gpu-lease.sh 2 CARRY PEERS   device-initiated sweep, host-initiated calibrate + sweep, staged over UCX,
#                                        the proxy ring microbenchmark, the peer anchors (raw P2P, NVSHMEM, NCCL)
#   scripts/gpu-lease.sh 3 CARRY PEERS   GPU tests again (2 GPUs P2P on/off/forced UCX; 1, 2 and 4 PEs sharing GPU 0;
#                                        the exit test), the
#                                        signal probe and gshmem_gpu_bench beside nvshmem_bench, and the stream
#                                        collectives of gshmem, NVSHMEM and NCCL (coll_bench.cu) with a ratio table
# CARRY: a build tree with the binaries (scripts/gpu-run.sh's layout); protocarry/ beside it (scripts/gpu-sweep.sh
# build); PEERS: a copy of the peer programs (shared/tools/peers) plus a built signal_probe. Everything lands in
# $OUT as one log folder packed into part<N>.tgz and a summary part<N>.txt. NVLink multicast stays off.
set -u
cd "$(dirname "$0")/.."
PART=$1 B=${2:-build-carry} P=${3:-.peers}
FINAL=${OUT:-/tmp/gshmem-lease}
export OUT=/tmp/lease$PART
rm -rf "$OUT" && mkdir -p "$OUT" "$FINAL"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/lease.txt
say() { echo "$*" | tee -a "$S"; }
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_SYMMETRIC_SIZE
  -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x CUDA_VISIBLE_DEVICES -x GSHMEM_TRANSPORTS -x GSHMEM_INFO"
export GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G

# PEs sharing one GPU run under MPS (one daemon, stopped after them).
mps_on() {
  command -v nvidia-cuda-mps-control > /dev/null || { say "MPS: not available"; return; }
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d && MPI0=$MPI && MPI="$MPI -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY"
}
mps_off() {
  [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] && echo quit | nvidia-cuda-mps-control && sleep 1 && MPI=$MPI0
  unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
# A program that leaves without finalize ends with its own status (0 / 7), or, where a PE left while its peer still
# waited on it (the work variant), within GSHMEM_TIMEOUT (10 s here) with a message naming the PE.
exit_tests() {
  for how in "return" "exit 7 work"; do for p2p in 1 0; do
    GSHMEM_TIMEOUT=10 GSHMEM_P2P=$p2p timeout 60 $MPI -x GSHMEM_TIMEOUT -np 2 "$B/tests/gpu/gpu_exit_test" $how > "$OUT/exit_${how// /_}_$p2p.log" 2>&1
    say "gpu_exit_test $how P2P=$p2p rc $? $(grep -h 'gshmem: PE' "$OUT/exit_${how// /_}_$p2p.log" | grep -v 'ends without' | head -1)"
  done; done
}

if [ "$PART" = 1 ]; then
  say "date $(date -u +%FT%TZ)"; nvidia-smi -L | tee -a "$S"; nvidia-smi topo -m 2>&1 | head -8 | tee -a "$S"
  say "---- signal_probe (raw put-with-signal instruction sequences, 2 GPUs, no runtime)"
  timeout 60 "$P/signal_probe" 20000 2>&1 | tee -a "$S"
  GPU_BENCH_ARGS=" " PARTS=tests,bench,nvshmem,osu timeout 420 scripts/gpu-run.sh "$B" > "$OUT/gpu-run.txt" 2>&1
  say "gpu-run rc $?"; cat "$OUT/summary.txt" >> "$S"
  say "---- GPU tests, PEs sharing GPU 0 (MPS)"
  mps_on
  for np in 1 2; do for p2p in 1 0; do
    CUDA_VISIBLE_DEVICES=0 GSHMEM_P2P=$p2p timeout 90 $MPI -np $np "$B/tests/gpu/gpu_device_tests" --gtest_color=no > "$OUT/shared_np${np}_p2p$p2p.log" 2>&1
    say "shared GPU np$np P2P=$p2p rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/shared_np${np}_p2p$p2p.log" | tr '\n' ' ')"
  done; done
  mps_off
  exit_tests
elif [ "$PART" = 3 ]; then
  say "date $(date -u +%FT%TZ)"; nvidia-smi -L | tee -a "$S"
  for p2p in 1 0; do
    GSHMEM_P2P=$p2p timeout 120 $MPI -np 2 "$B/tests/gpu/gpu_device_tests" --gtest_color=no > "$OUT/tests2gpu_p2p$p2p.log" 2>&1
    say "2 GPUs np2 P2P=$p2p rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests2gpu_p2p$p2p.log" | tr '\n' ' ')"
  done
  mps_on  # PEs sharing a GPU: without MPS a kernel waiting for another PE's signal holds the GPU for its slice
  for np in 1 2 4; do
    CUDA_VISIBLE_DEVICES=0 GSHMEM_P2P=1 timeout 150 $MPI -np $np --oversubscribe "$B/tests/gpu/gpu_device_tests" --gtest_color=no > "$OUT/shared_np$np.log" 2>&1
    say "shared GPU np$np P2P=1 (MPS) rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/shared_np$np.log" | tr '\n' ' ')"
  done
  mps_off
  GSHMEM_TRANSPORTS=ucx GSHMEM_P2P=0 timeout 120 $MPI -np 2 "$B/tests/gpu/gpu_device_tests" --gtest_color=no > "$OUT/tests_ucx.log" 2>&1
  say "2 GPUs np2 forced UCX rc $? $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/tests_ucx.log" | tr '\n' ' ')"
  exit_tests
  grep -hE "FAILED|Failure|gshmem: PE" "$OUT"/tests2gpu_*.log "$OUT"/shared_np*.log "$OUT"/tests_ucx.log | head -20 | tee -a "$S"
  say "---- signal_probe"; timeout 60 "$P/signal_probe" 20000 2>&1 | grep VARIANT | tee -a "$S"
  GPU_BENCH_ARGS=" " SKIP_PROXY_BENCH=1 PARTS=bench,nvshmem timeout 200 scripts/gpu-run.sh "$B" > "$OUT/gpu-run.txt" 2>&1
  grep -h "^RESULT" "$OUT"/bench_*.log | tee -a "$S"
  say "---- stream collectives: gshmem, NVSHMEM, NCCL (coll_bench.cu)"
  NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])" 2>/dev/null)
  NC=$(python3 -c "import nvidia.nccl as m; print(list(m.__path__)[0])" 2>/dev/null)
  say "nccl package: $NC $(ls $NC/include $NC/lib 2>&1 | tr '\n' ' ')"
  nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 -DCOLL_NVSHMEM -I"$NV/include" $(mpicc --showme:compile) benchmarks/gpu/coll_bench.cu \
    -o /tmp/coll_nvshmem -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda > "$OUT/build_nvshmem.log" 2>&1
  nvcc -O2 -arch=sm_90 -std=c++17 -DCOLL_NCCL -I"$NC/include" $(mpicc --showme:compile) benchmarks/gpu/coll_bench.cu \
    -o /tmp/coll_nccl -L"$NC/lib" -l:libnccl.so.2 $(mpicc --showme:link) > "$OUT/build_nccl.log" 2>&1
  say "builds: nvshmem $(test -x /tmp/coll_nvshmem && echo ok || echo FAILED) nccl $(test -x /tmp/coll_nccl && echo ok || echo FAILED)"
  : > "$OUT/coll.txt"
  for rep in 1 2 3; do  # the three libraries alternate, three rounds: the table takes each row's median
    timeout 150 $MPI -np 2 "$B/benchmarks/gpu/gshmem_coll_bench" > "$OUT/coll_gshmem_$rep.log" 2>&1; say "coll gshmem rc $?"
    LD_LIBRARY_PATH=$NC/lib:$LD_LIBRARY_PATH NCCL_NVLS_ENABLE=0 timeout 150 mpirun --allow-run-as-root --bind-to none -np 2 \
      -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE /tmp/coll_nccl > "$OUT/coll_nccl_$rep.log" 2>&1; say "coll nccl rc $?"
    # NVSHMEM's device reducescatter asserts past 64 KiB with its default reduction scratch
    LD_LIBRARY_PATH=$NV/lib:$LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=2G \
      NVSHMEM_REDUCE_SCRATCH_SIZE=512M timeout 150 mpirun --allow-run-as-root --bind-to none -np 2 -x LD_LIBRARY_PATH \
      -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_REMOTE_TRANSPORT -x NVSHMEM_SYMMETRIC_SIZE -x NVSHMEM_REDUCE_SCRATCH_SIZE \
      /tmp/coll_nvshmem > "$OUT/coll_nvshmem_$rep.log" 2>&1; say "coll nvshmem rc $?"
    grep -h "^COLL" "$OUT"/coll_*_$rep.log >> "$OUT/coll.txt"
  done
  CUDA_VISIBLE_DEVICES=0 timeout 100 $MPI -np 2 "$B/benchmarks/gpu/gshmem_coll_bench" --max 16777216 > "$OUT/coll_gshmem_shared.log" 2>&1
  say "coll gshmem, 2 PEs sharing GPU 0, rc $?"
  python3 - "$OUT/coll.txt" <<'PY' | tee -a "$S"
import sys, collections
t = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "COLL": t[(f[2], int(f[3]))].setdefault(f[1], []).append((float(f[4]), float(f[5]), "WRONG" in line))
med = lambda v: sorted(v, key=lambda x: x[0])[len(v) // 2]
for k in t:
    t[k] = {lib: (med(v)[0], med(v)[1], any(x[2] for x in v)) for lib, v in t[k].items()}
print("medians of 3 alternating rounds")
print("%-15s %10s %10s %10s %10s %8s %8s %9s %9s %9s" % ("collective", "bytes", "gshmem_us", "nccl_us", "nvshmem_us",
      "g/nccl", "g/nvsh", "g_busbw", "nccl_bw", "nvsh_bw"))
for (c, n) in sorted(t, key=lambda k: (k[0], k[1])):
    r = t[(c, n)]
    g, nc, nv = r.get("gshmem"), r.get("nccl"), r.get("nvshmem")
    f = lambda x, i: ("%.2f" % x[i]) if x else "-"
    q = lambda x: ("%.2f" % (g[0] / x[0])) if g and x else "-"
    bad = " WRONG" if any(v[2] for v in r.values()) else ""
    print("%-15s %10d %10s %10s %10s %8s %8s %9s %9s %9s%s" % (c, n, f(g, 0), f(nc, 0), f(nv, 0), q(nc), q(nv),
          f(g, 1), f(nc, 1), f(nv, 1), bad))
PY
  tail -3 "$OUT/coll_gshmem_shared.log" | tee -a "$S"
else
  say "date $(date -u +%FT%TZ)"
  PARTS=dsweep timeout 300 scripts/gpu-run.sh "$B" > "$OUT/gpu-run.txt" 2>&1; say "dsweep rc $?"
  grep -A40 "device-initiated sweep" "$OUT/summary.txt" >> "$S"
  OUT=$OUT/sweep timeout 240 scripts/gpu-sweep.sh run protocarry > "$OUT/gpu-sweep.txt" 2>&1; say "gpu-sweep rc $?"
  tail -40 "$OUT/gpu-sweep.txt" >> "$S"
  say "---- staged over UCX (every peer remote for device memory), 2 PEs on 2 GPUs"
  GSHMEM_TRANSPORTS=ucx GSHMEM_P2P=0 GSHMEM_INFO=1 timeout 90 $MPI -np 2 "$B/benchmarks/gpu/gshmem_staged_bw" > "$OUT/staged_ucx.log" 2>&1
  say "staged_bw rc $?"; grep -E "staged|GB/s|^ *[0-9]" "$OUT/staged_ucx.log" | head -20 >> "$S"
  GSHMEM_TRANSPORTS=ucx GSHMEM_P2P=0 timeout 90 $MPI -np 2 "$B/tests/gpu/gpu_device_tests" --gtest_color=no > "$OUT/tests_ucx.log" 2>&1
  say "GPU tests forced UCX rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests_ucx.log" | tr '\n' ' ')"
  say "---- proxy ring microbenchmark (host memory, this machine's CPU)"
  # pinned to one core: unpinned, the thread migrates and rounds scatter by +-3 ns per request
  timeout 60 taskset -c 2 "$B/benchmarks/micro/gshmem_micro_proxy_ring" --benchmark_min_time=0.2 --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true 2>&1 | grep -E "median|Benchmark" | tee -a "$S"
  say "---- peers (raw P2P probe, NVSHMEM anchor, NCCL all_reduce)"
  (cd "$P" && timeout 200 bash run-gpu-peers.sh) > "$OUT/peers.txt" 2>&1; say "peers rc $?"
  cat "$OUT/peers.txt" | grep -v "^$" | tail -60 >> "$S"
fi
tar czf "$FINAL/part$PART.tgz" -C /tmp "lease$PART" && cp "$S" "$FINAL/part$PART.txt"
cat "$S"
