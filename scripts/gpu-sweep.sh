#!/bin/bash
# device-to-device put sweep, 2 PEs on 2 GPUs, each protocol forced and automatic.
#   scripts/gpu-sweep.sh build BUILD_DIR CARRY   (here: build libgshmem, gshmem-calibrate and the sweep into CARRY)
#   scripts/gpu-sweep.sh run CARRY               (GPU machine: calibrate -> profile, sweeps, table; logs in $OUT)
# Build dir: cmake -S . -B BUILD_DIR -DCMAKE_CUDA_ARCHITECTURES=90 -DGSHMEM_ENABLE_UCX=OFF -DGSHMEM_ENABLE_HWLOC=OFF
# NVLink multicast stays off; no GPU setting is changed.
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" = build ]; then
  B=$2 C=$3
  cmake --build "$B" -j2 --target gshmem gshmem-calibrate gshmem_sweep >/dev/null || exit 1
  mkdir -p "$C/lib" "$C/bin"
  cp -a "$B"/src/libgshmem.so* "$C/lib/" && cp "$B/tools/calibrate/gshmem-calibrate" "$B/benchmarks/gpu/gshmem_sweep" "$C/bin/" || exit 1
  mv "$C/bin/gshmem_sweep" "$C/bin/sweep"
  exit 0
fi
C=${2:-protocarry}
OUT=${OUT:-/tmp/gshmem-gpu-sweep}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$C/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GSHMEM_SYMMETRIC_SIZE=640M GSHMEM_SYMMETRIC_SIZE_DEVICE=1G
MPI="timeout 150 mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_PATH
  -x GSHMEM_PROFILE -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_INFO -x NCCL_NVLS_ENABLE
  -x NVSHMEM_DISABLE_NVLS -x GSHMEM_STAGED_CHUNK -x GSHMEM_STAGED_DEPTH"
export GSHMEM_P2P=1 GSHMEM_PATH=auto GSHMEM_PROFILE= GSHMEM_INFO=0
nvidia-smi -L > "$OUT/summary.txt" 2>&1
# 1. calibrate the three device protocols (dd put and get, 8 B..256 MiB)
GSHMEM_SYMMETRIC_SIZE_DEVICE=1G $MPI "$C/bin/gshmem-calibrate" --forced p2p_ce --forced p2p_sm --forced staged \
  -r 5 -o "$OUT/gpu.prof" > "$OUT/calibrate.log" 2>&1
echo "calibrate rc $?" >> "$OUT/summary.txt"
grep -E "^# crossovers|^# profile" "$OUT/calibrate.log" >> "$OUT/summary.txt"
# 2. the sweeps. Main: every protocol forced and auto (the profile's table) interleaved in one process, so the
# 5% comparison is not run-to-run noise. Then GSHMEM_PATH=staged in its own process (the env override), and
# P2P off (staged is then the only path, the case that used the stop-and-wait proxy before).
: > "$OUT/sweep.csv"
for m in all staged p2p_off; do
  case $m in
    all) export GSHMEM_PATH=auto GSHMEM_PROFILE=$OUT/gpu.prof GSHMEM_P2P=1 GSHMEM_INFO=1 ;;
    p2p_off) export GSHMEM_PATH=auto GSHMEM_PROFILE= GSHMEM_P2P=0 GSHMEM_INFO=0 ;;
    *) export GSHMEM_PATH=$m GSHMEM_PROFILE= GSHMEM_P2P=1 GSHMEM_INFO=0 ;;
  esac
  $MPI "$C/bin/sweep" $m > "$OUT/sweep_$m.log" 2>&1
  echo "sweep $m rc $?" >> "$OUT/summary.txt"
  if [ $m = staged ]; then sed -n 's/^staged,/staged_env,/p' "$OUT/sweep_$m.log" >> "$OUT/sweep.csv"
  else grep -E "^(p2p_ce|p2p_sm|staged|auto|p2p_off)," "$OUT/sweep_$m.log" >> "$OUT/sweep.csv"; fi
done
# 3. the table: GB/s per mode, auto / best forced
python3 - "$OUT/sweep.csv" >> "$OUT/summary.txt" <<'PY'
import sys, collections
rows = collections.defaultdict(dict); proto = {}; bad = []
for line in open(sys.argv[1]):
    m, n, us, gbps, p, ok = line.strip().split(",")
    rows[int(n)][m] = float(us)
    if m == "auto": proto[int(n)] = p
    if ok != "ok": bad.append((m, n, ok))
    if m == "staged_env": continue
modes = ["p2p_ce", "p2p_sm", "staged", "auto", "staged_env", "p2p_off"]
print("%10s " % "bytes" + " ".join("%9s" % m for m in modes) + "  (us)  auto-pick  auto/best")
worst = 0
for n in sorted(rows):
    r = rows[n]
    best = min(r.get(m, 1e30) for m in modes[:3])
    ratio = r.get("auto", 1e30) / best
    worst = max(worst, ratio)
    print("%10d " % n + " ".join("%9.2f" % r.get(m, float("nan")) for m in modes) + "  %9s  %.3f%s" %
          (proto.get(n, "?"), ratio, "" if ratio <= 1.05 else "  >5%"))
for n in (64 << 20,):
    if n in rows:
        print("at 64 MiB: staged %.1f GB/s, GSHMEM_PATH=staged %.1f GB/s, P2P off (auto) %.1f GB/s" %
              (n / rows[n]["staged"] / 1e3, n / rows[n].get("staged_env", 1e30) / 1e3, n / rows[n].get("p2p_off", 1e30) / 1e3))
print("worst auto/best %.3f; verification failures: %s" % (worst, bad if bad else "none"))
PY
cat "$OUT/summary.txt"
