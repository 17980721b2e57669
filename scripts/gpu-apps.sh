#!/bin/bash
# The GPU apps on one lent GPU (1 PE, and 2 and 4 PEs sharing it): their checks, the benchmark lines, the HSG
# variant table beside the MPI twin, and the BFS benchmarks (bfs24: scale 24 on 1 PE; bfs20: scale 20 on 2 PEs,
# gshmem and MPI). Run on the GPU machine from the repository root:
#   PARTS=checks,hsg,stencil,bfs24,bfs20 scripts/gpu-apps.sh CARRY      (CARRY: scripts/gpu-carry.sh's folder)
# Logs go to $OUT (or /tmp/gshmem-apps): one file per run, and summary.txt with every result line.
set -u
cd "$(dirname "$0")/.."
B=${1:-build-carry}
PARTS=${PARTS:-checks,hsg,stencil}
OUT=${OUT:-/tmp/gshmem-apps}
mkdir -p "$OUT"
S=$OUT/summary.txt
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GSHMEM_SYMMETRIC_SIZE=${GSHMEM_SYMMETRIC_SIZE:-256M} GSHMEM_SYMMETRIC_SIZE_DEVICE=${GSHMEM_SYMMETRIC_SIZE_DEVICE:-2G}
MPI="mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x GSHMEM_P2P -x GSHMEM_SYMMETRIC_SIZE
  -x GSHMEM_SYMMETRIC_SIZE_DEVICE -x GSHMEM_INFO"
say() { echo "$*" | tee -a "$S"; }
has() { [[ ",$PARTS," == *",$1,"* ]]; }
# run NAME NP TIMEOUT ARGS...: one run, its log kept, its result lines in the summary
run() {
  local name=$1 np=$2 t=$3; shift 3
  timeout "$t" $MPI -np "$np" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  say "== $name (np $np, rc $rc): $*"
  grep -E "check|^[0-9]+, [0-9]+, |bench|MPI|gshmem: PE|Error|error|harmonic_mean_TEPS|exchange" "$OUT/$name.log" |
    head -12 | tee -a "$S"
}
say "date $(date -u +%FT%TZ) $(nvidia-smi -L | head -1)"
if has checks; then
  for np in 1 2 4; do
    run hsg_check_np$np $np 120 "$B/apps/hsg_gpu" --check --size 32 --sweeps 10
    run hsg_check_mpi_np$np $np 120 "$B/apps/hsg_gpu" --check --mpi --size 32 --sweeps 10
    for v in auto stream staged-tx staged; do
      run hsg_check_${v}_np$np $np 120 "$B/apps/hsg_gpu" --check --variant $v --size 32 --sweeps 10
    done
    run hsg_energy_np$np $np 120 "$B/apps/hsg_gpu" --check-energy --size 64 --sweeps 100
    run hsg_high_t_np$np $np 120 "$B/apps/hsg_gpu" --check-high-t --size 32 --sweeps 200 --beta 0.05
  done
  run hsg_cpu_np1 1 120 "$B/apps/hsg_gpu" --check-cpu --size 32 --sweeps 10
  for np in 1 2 4; do
    run bfs_check_np$np $np 120 "$B/apps/bfs_gpu" --check --scale 11 --roots 8
    run bfs_check_mpi_np$np $np 120 "$B/apps/bfs_gpu" --check --mpi --scale 11 --roots 8
  done
  run bfs_check16_np2 2 180 "$B/apps/bfs_gpu" --check --scale 16 --roots 8
  run hsg_corrupt_np2 2 60 "$B/apps/hsg_gpu" --check-energy --corrupt-ghost --size 32 --sweeps 20
fi
if has hsg; then
  run hsg_bench_L512_np1 1 300 "$B/apps/hsg_gpu" --bench --size 512 --sweeps 20
  for L in 64 128 256; do
    for v in direct auto stream staged-tx staged; do
      run hsg_L${L}_${v}_np2 2 200 "$B/apps/hsg_gpu" --bench --variant $v --size $L --sweeps 20
    done
    run hsg_L${L}_mpi_np2 2 200 "$B/apps/hsg_gpu" --bench --mpi --size $L --sweeps 20
  done
fi
# Host heap: construction needs 8 * 2 * 16 * 2^scale / npes bytes. Scale 24 takes minutes of host time
# (construction, and the validation of 65 searches): its own part, so each part fits one 10-minute call.
if has bfs24; then
  GSHMEM_SYMMETRIC_SIZE=6G run bfs_s24_np1 1 580 "$B/apps/bfs_gpu" --scale 24
  tail -32 "$OUT/bfs_s24_np1.log" >> "$S"
fi
if has bfs20; then
  GSHMEM_SYMMETRIC_SIZE=2G run bfs_s20_np2 2 280 "$B/apps/bfs_gpu" --scale 20
  GSHMEM_SYMMETRIC_SIZE=2G run bfs_s20_mpi_np2 2 280 "$B/apps/bfs_gpu" --mpi --scale 20
  tail -14 "$OUT/bfs_s20_mpi_np2.log" >> "$S"
fi
exit 0
