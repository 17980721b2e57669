#!/bin/bash
# The GPU apps on one lent GPU (1 PE, and 2 and 4 PEs sharing it): their checks, the benchmark lines, and the HSG
# variant table beside the MPI twin; the stencil's variants at 16384² (1 PE against the copy probe, 2 PEs sharing the
# GPU beside the MPI twin); the sweeps behind the plots (ps/spin vs L, stencil time per iteration vs N, TEPS vs
# scale). Run on the GPU machine from the repository root (on a machine with several GPUs, prefix
# CUDA_VISIBLE_DEVICES=0 for the one-GPU parts):
#   PARTS=checks,hsg,stencil scripts/gpu-apps.sh CARRY      (CARRY: scripts/gpu-carry.sh's folder)
#   PARTS=gpu2 scripts/gpu-apps.sh CARRY                    (a machine with two GPUs: one PE per GPU; HSG, stencil
#                                                            and BFS; PARTS=bfs2gpu: only BFS, ~2.5 min)
#   PARTS=verify                                            (the fixes not yet run on a GPU: staged HSG, host calls,
#                                                            the shared-GPU warning)
#   PARTS=bfs24 / bfs20 / bfs22                             (BFS: scale 24 on 1 PE; scale 20 on 2 PEs sharing the GPU,
#                                                            gshmem and the MPI twin; scale 22, 16 roots, 1 PE)
#   PARTS=sweep scripts/gpu-apps.sh CARRY                   (the plots' data: 57 runs, about 6 minutes on one H200
#                                                            or H100, under one 10-minute device call; or in pieces:
#                                                            PARTS=sweep-hsg (36 runs, ~2 min), sweep-stencil (16,
#                                                            ~1 min), sweep-bfs (5, ~3 min); sweep4 adds 16 4-PE
#                                                            runs, ~1 min. Estimated from the 2026-11-26 calls: ~3 s
#                                                            a run, BFS scale 24 ~110 s. A run past its limit (60 s;
#                                                            BFS 150 s at scale 22, 300 s at 24) is killed and
#                                                            logged; the plot script rebuilds the CSVs from the logs)
#     sweep-hsg      HSG ps/spin (OR and HB, --bench) at L = 64 128 256 512 (sweeps 160/80/40/20: equal work per
#                    run): variants direct, auto, staged-tx, staged at 1 PE alone on the GPU, the same and the MPI
#                    twin at 2 PEs sharing it (MPS)
#     sweep-stencil  stencil 2D Jacobi N x N, N = 2048 4096 8192 16384 (500 * 16384/N iterations, norm every 100):
#                    device variant and MPI twin at 1 PE (--bench: copy probe B) and at 2 PEs sharing the GPU
#     sweep-bfs      BFS Graph500 TEPS at 1 PE, scale 16 18 20 (64 roots), 22 (16 roots), 24 (8 roots: scale 24
#                    spends ~75 s building the graph on the host and ~4 s validating each root)
#     sweep4         HSG direct and twin, stencil device and twin, at 4 PEs sharing the GPU (same L and N)
#   The lists can be narrowed for a quick try: SWEEP_L, SWEEP_N, SWEEP_SCALES, SWEEP_HSG_VARIANTS (add "stream").
#   After a sweep the CSVs (apps-hsg.csv, apps-stencil.csv, apps-bfs.csv) and the markdown tables (apps-tables.md)
#   are in $OUT; the plots are drawn where gnuplot is (this machine or the development one):
#     scripts/gpu-apps-plot.sh OUTDIR [IMGDIR]              (IMGDIR default docs/img: apps-hsg.png, apps-stencil.png,
#                                                            apps-bfs.png)
# Logs go to $OUT (or /tmp/gshmem-apps): one file per run (the sweeps' start with sw_), and summary.txt with every
# result line and each run's wall time.
set -u
cd "$(dirname "$0")/.." || exit 1
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
sw() { has sweep || has "sweep-$1"; }  # sw hsg|stencil|bfs: that sweep was asked for
SWEEP_L=${SWEEP_L:-64 128 256 512} SWEEP_N=${SWEEP_N:-2048 4096 8192 16384} SWEEP_SCALES=${SWEEP_SCALES:-16 18 20 22 24}
SWEEP_HSG_VARIANTS=${SWEEP_HSG_VARIANTS:-direct auto staged-tx staged}
# sweep arguments: HSG sweeps for L (20 at 512, equal work per run), stencil iterations for N (500 at 16384), BFS
# roots and host symmetric heap for a scale
hsg_sweeps() { echo $((20 * 512 / $1)); }
stencil_niter() { echo $((500 * 16384 / $1)); }
bfs_roots() { if [ "$1" -ge 24 ]; then echo 8; elif [ "$1" -ge 22 ]; then echo 16; else echo 64; fi; }
bfs_heap() { if [ "$1" -ge 24 ]; then echo 6G; elif [ "$1" -ge 22 ]; then echo 4G; elif [ "$1" -ge 20 ]; then echo 2G; else echo 1G; fi; }
# run NAME NP TIMEOUT ARGS...: one run, its log kept, its result lines in the summary
run() {
  local name=$1 np=$2 t=$3; shift 3
  $MPI -np "$np" "$@" > "$OUT/$name.log" 2>&1 &
  local job=$! waited=0 rc  # waited: tenths of a second (a run's end is seen within 0.1 s)
  while kill -0 $job 2> /dev/null && [ $waited -lt $((t * 10)) ]; do sleep 0.1; waited=$((waited + 1)); done
  if kill -0 $job 2> /dev/null; then
    local prog
    prog=$(printf '%s\n' "$@" | grep -m1 /)
    hang_dump "$name" "$prog"
    kill -TERM $job; sleep 2; kill -KILL $job 2> /dev/null; pkill -KILL -f "$(basename "$prog")"
  fi
  wait $job
  rc=$?
  [ $waited -ge $((t * 10)) ] && rc=124
  say "== $name (np $np, rc $rc, $((waited / 10)).$((waited % 10)) s): $*"
  grep -E "check|^[0-9]+, [0-9]+, |bench|MPI|ms/iteration|^jacobi_gpu|validation|gshmem: PE|Error|error|harmonic_mean_TEPS|exchange" \
    "$OUT/$name.log" |
    head -12 | tee -a "$S"
}
# hang_dump NAME PROGRAM: where each thread of each process of a run past its time limit waits (gdb where there is
# one, the kernel's view otherwise), into NAME.hang
hang_dump() {
  local f=$OUT/$1.hang pid
  for pid in $(pgrep -f "$(basename "$2")" | grep -v "^$$\$"); do
    [ "$(cat /proc/$pid/comm 2> /dev/null)" = mpirun ] && continue
    echo "=== pid $pid: $(tr '\0' ' ' < /proc/$pid/cmdline)" >> "$f"
    if command -v gdb > /dev/null; then
      timeout 60 gdb -p "$pid" -batch -ex "thread apply all bt 12" >> "$f" 2>&1
    else
      for t in /proc/$pid/task/*; do echo "$t $(cat $t/comm) $(cat $t/wchan) $(cut -d' ' -f3 $t/stat)"; done >> "$f"
    fi
  done
  say "hang: stacks in $1.hang ($(grep -c '^=== pid' "$f" 2> /dev/null || echo 0) processes)"
}
# PEs sharing one GPU run under MPS (one daemon for the script, stopped at its end): without it the GPU time-slices
# between the processes, and a kernel that waits for a peer's signal holds the GPU until its slice ends.
mps_on() {
  command -v nvidia-cuda-mps-control > /dev/null || { say "MPS: not available"; return; }
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d && MPI="$MPI -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY" && say "MPS: on"
}
mps_off() {
  [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] && echo quit | nvidia-cuda-mps-control && sleep 1
  unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
  MPI=${MPI% -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY}
  say "MPS: off"
}
say "date $(date -u +%FT%TZ) $(nvidia-smi -L | head -1)"
if has verify; then  # what the last session built but could not run on a GPU (no MPS first: the warning must show)
  run hsg_staged_np2_nomps 2 60 "$B/apps/hsg_gpu" --check --variant staged --size 32 --sweeps 10
  grep -h "share GPU" "$OUT/hsg_staged_np2_nomps.log" | head -1 | tee -a "$S"
  run gpu_tests_np2 2 150 "$B/tests/gpu/gpu_device_tests" --gtest_color=no
  grep -hE "^\[  (PASSED|FAILED|SKIPPED) |HostCalls" "$OUT/gpu_tests_np2.log" | head -6 | tee -a "$S"
  GSHMEM_P2P=0 run gpu_tests_np2_p2p0 2 150 "$B/tests/gpu/gpu_device_tests" --gtest_color=no
  grep -hE "^\[  (PASSED|FAILED) " "$OUT/gpu_tests_np2_p2p0.log" | head -3 | tee -a "$S"
fi
if has hsg; then  # one PE alone on the GPU (no MPS), then the 2-PE rows without MPS for the record
  GSHMEM_SYMMETRIC_SIZE_DEVICE=4G run hsg_bench_L512_np1 1 300 "$B/apps/hsg_gpu" --bench --size 512 --sweeps 20
  for v in "--variant direct" "--mpi"; do
    run "hsg_L64_${v##* }_np2_nomps" 2 120 "$B/apps/hsg_gpu" --bench $v --size 64 --sweeps 20
  done
fi
# the sweeps' one-PE rows: the PE alone on the GPU (no MPS), as the one-PE benchmark rows above
if sw hsg; then
  for L in $SWEEP_L; do
    for v in $SWEEP_HSG_VARIANTS; do
      GSHMEM_SYMMETRIC_SIZE_DEVICE=4G run "sw_hsg_L${L}_${v}_np1" 1 60 "$B/apps/hsg_gpu" --bench --variant "$v" --size "$L" \
        --sweeps "$(hsg_sweeps "$L")"
    done
  done
fi
if sw stencil; then
  for N in $SWEEP_N; do
    for v in device mpi; do
      GSHMEM_SYMMETRIC_SIZE_DEVICE=3G run "sw_stencil_N${N}_${v}_np1" 1 60 "$B/apps/stencil_gpu" --bench --variant "$v" \
        --nx "$N" --ny "$N" --niter "$(stencil_niter "$N")" --nccheck 100 -csv
    done
  done
fi
mps_on
if has verify; then
  for np in 2 4; do run hsg_staged_np$np $np 60 "$B/apps/hsg_gpu" --check --variant staged --size 32 --sweeps 10; done
  run hsg_auto_p2p0_np2 2 60 env GSHMEM_P2P=0 "$B/apps/hsg_gpu" --check --variant auto --size 32 --sweeps 10
fi
if has checks; then
  for np in 1 2 4; do
    run hsg_check_np$np $np 120 "$B/apps/hsg_gpu" --check --size 32 --sweeps 10
    run hsg_check_mpi_np$np $np 120 "$B/apps/hsg_gpu" --check --mpi --size 32 --sweeps 10
    for v in auto stream staged-tx; do
      [ $np = 4 ] || run hsg_check_${v}_np$np $np 120 "$B/apps/hsg_gpu" --check --variant $v --size 32 --sweeps 10
    done
    run hsg_energy_np$np $np 120 "$B/apps/hsg_gpu" --check-energy --size 64 --sweeps 100
    run hsg_high_t_np$np $np 120 "$B/apps/hsg_gpu" --check-high-t --size 32 --sweeps 200 --beta 0.05
  done
  run hsg_cpu_np1 1 120 "$B/apps/hsg_gpu" --check-cpu --size 32 --sweeps 10
  for np in 1 2 4; do
    run hsg_check_staged_np$np $np 60 "$B/apps/hsg_gpu" --check --variant staged --size 32 --sweeps 10
    run bfs_check_np$np $np 120 "$B/apps/bfs_gpu" --check --scale 11 --roots 8
    run bfs_check_mpi_np$np $np 120 "$B/apps/bfs_gpu" --check --mpi --scale 11 --roots 8
  done
  run bfs_check16_np2 2 180 "$B/apps/bfs_gpu" --check --scale 16 --roots 8
  run hsg_corrupt_np2 2 60 "$B/apps/hsg_gpu" --check-energy --corrupt-ghost --size 32 --sweeps 20
  for np in 1 2 4; do
    for v in device stream mpi; do
      [ $np = 4 ] && [ $v = stream ] && continue
      run stencil_check_${v}_np$np $np 120 "$B/apps/stencil_gpu" --check --variant $v --nx 256 --ny 256 --niter 50
    done
    [ $np = 4 ] && continue
    run stencil_check_staged_np$np $np 120 "$B/apps/stencil_gpu" --check --mpi --staged --nx 256 --ny 256 --niter 50
    run stencil_check_uneven_np$np $np 120 "$B/apps/stencil_gpu" --check --nx 300 --ny 259 --niter 40 --nccheck 7
    run stencil_check_fp64_np$np $np 120 "$B/apps/stencil_gpu" --check --fp64 --nx 256 --ny 130 --niter 30
  done
  run stencil_corrupt_np2 2 60 "$B/apps/stencil_gpu" --check --corrupt-halo --nx 256 --ny 256 --niter 20  # must FAIL
fi
if has stencil; then  # 16384^2: two fp32 slabs of 1 GiB per PE on one PE (a 3G device heap)
  (
    export GSHMEM_SYMMETRIC_SIZE_DEVICE=3G
    for nc in 1 100; do
      for v in device stream mpi; do
        run stencil_bench_${v}_nc${nc}_np1 1 300 "$B/apps/stencil_gpu" --bench --variant $v --niter 500 --nccheck $nc -csv
      done
      for v in device stream mpi; do  # 2 PEs sharing the GPU: gshmem vs the MPI twin
        run stencil_${v}_nc${nc}_np2 2 300 "$B/apps/stencil_gpu" --variant $v --niter 200 --nccheck $nc -csv
      done
    done
  )
fi
if has hsg; then
  for L in 64 128 256; do
    for v in direct auto stream staged-tx staged; do
      run hsg_L${L}_${v}_np2 2 120 "$B/apps/hsg_gpu" --bench --variant $v --size $L --sweeps 20
    done
    run hsg_L${L}_mpi_np2 2 120 "$B/apps/hsg_gpu" --bench --mpi --size $L --sweeps 20
  done
  for v in "--variant direct" "--mpi"; do
    run "hsg_L128_${v##* }_np4" 4 120 "$B/apps/hsg_gpu" --bench $v --size 128 --sweeps 20
  done
fi
if has bfs20; then
  GSHMEM_SYMMETRIC_SIZE=2G run bfs_s20_np2 2 280 "$B/apps/bfs_gpu" --scale 20
  GSHMEM_SYMMETRIC_SIZE=2G run bfs_s20_mpi_np2 2 280 "$B/apps/bfs_gpu" --mpi --scale 20
  tail -14 "$OUT/bfs_s20_mpi_np2.log" >> "$S"
fi
# the sweeps' rows of PEs sharing the GPU (MPS): gshmem's variants beside the MPI twin
if sw hsg; then
  for L in $SWEEP_L; do
    for v in $SWEEP_HSG_VARIANTS mpi; do
      a=(--variant "$v")
      [ "$v" = mpi ] && a=(--mpi)
      GSHMEM_SYMMETRIC_SIZE_DEVICE=4G run "sw_hsg_L${L}_${v}_np2" 2 60 "$B/apps/hsg_gpu" --bench "${a[@]}" --size "$L" \
        --sweeps "$(hsg_sweeps "$L")"
    done
  done
fi
if sw stencil; then
  for N in $SWEEP_N; do
    for v in device mpi; do
      GSHMEM_SYMMETRIC_SIZE_DEVICE=3G run "sw_stencil_N${N}_${v}_np2" 2 60 "$B/apps/stencil_gpu" --variant "$v" \
        --nx "$N" --ny "$N" --niter "$(stencil_niter "$N")" --nccheck 100 -csv
    done
  done
fi
if has sweep4; then
  for L in $SWEEP_L; do
    for v in direct mpi; do
      a=(--variant "$v")
      [ "$v" = mpi ] && a=(--mpi)
      GSHMEM_SYMMETRIC_SIZE_DEVICE=4G run "sw_hsg_L${L}_${v}_np4" 4 60 "$B/apps/hsg_gpu" --bench "${a[@]}" --size "$L" \
        --sweeps "$(hsg_sweeps "$L")"
    done
  done
  for N in $SWEEP_N; do
    for v in device mpi; do
      GSHMEM_SYMMETRIC_SIZE_DEVICE=3G run "sw_stencil_N${N}_${v}_np4" 4 60 "$B/apps/stencil_gpu" --variant "$v" \
        --nx "$N" --ny "$N" --niter "$(stencil_niter "$N")" --nccheck 100 -csv
    done
  done
fi
mps_off
if sw bfs; then  # one PE: Graph500 statistics per scale (every tree validated)
  for s in $SWEEP_SCALES; do
    t=60
    [ "$s" -ge 22 ] && t=150
    [ "$s" -ge 24 ] && t=300
    GSHMEM_SYMMETRIC_SIZE=$(bfs_heap "$s") run "sw_bfs_s${s}_np1" 1 "$t" "$B/apps/bfs_gpu" --scale "$s" --roots "$(bfs_roots "$s")"
    grep -E "TEPS|construction" "$OUT/sw_bfs_s${s}_np1.log" | grep -v harmonic_mean_TEPS >> "$S"
  done
fi
if has bfs24; then
  GSHMEM_SYMMETRIC_SIZE=6G run bfs_s24_np1 1 580 "$B/apps/bfs_gpu" --scale 24
  tail -32 "$OUT/bfs_s24_np1.log" >> "$S"
fi
if has bfs22; then
  GSHMEM_SYMMETRIC_SIZE=4G run bfs_s22_np1 1 280 "$B/apps/bfs_gpu" --scale 22 --roots 16
  tail -32 "$OUT/bfs_s22_np1.log" >> "$S"
fi
if has gpu2; then  # two GPUs, one PE each: scaling against one PE on one of them, the variants, the twins
  for L in 256 512; do
    GSHMEM_SYMMETRIC_SIZE_DEVICE=4G run hsg_L${L}_np1 1 300 "$B/apps/hsg_gpu" --bench --size $L --sweeps 20
    GSHMEM_SYMMETRIC_SIZE_DEVICE=4G run hsg_L${L}_direct_2gpu 2 300 "$B/apps/hsg_gpu" --bench --size $L --sweeps 20
  done
  for L in 64 128 256; do
    for v in direct stream staged-tx staged; do
      run hsg_L${L}_${v}_2gpu 2 60 "$B/apps/hsg_gpu" --bench --variant $v --size $L --sweeps 20
    done
    run hsg_L${L}_mpi_2gpu 2 60 "$B/apps/hsg_gpu" --bench --mpi --size $L --sweeps 20
  done
  (
    export GSHMEM_SYMMETRIC_SIZE_DEVICE=3G
    run stencil_np1 1 300 "$B/apps/stencil_gpu" --bench --niter 500 --nccheck 100 -csv
    for v in device stream mpi; do
      run stencil_${v}_2gpu 2 300 "$B/apps/stencil_gpu" --variant $v --niter 500 --nccheck 100 -csv
    done
  )
fi
if has gpu2 || has bfs2gpu; then  # BFS scale 22, 16 roots, one PE per GPU: gshmem and the twin alternating, twice,
  # then both with --cold (no untimed warm-up of the exchange path before each search); the ratios at the end
  for rep in 1 2; do
    for m in "" --mpi; do
      GSHMEM_SYMMETRIC_SIZE=4G run "bfs_s22_2gpu${m:+_mpi}_$rep" 2 150 "$B/apps/bfs_gpu" $m --scale 22 --roots 16
    done
  done
  for m in "" --mpi; do
    GSHMEM_SYMMETRIC_SIZE=4G run "bfs_s22_2gpu${m:+_mpi}_cold" 2 150 "$B/apps/bfs_gpu" $m --cold --scale 22 --roots 16
  done
  for k in 1 2 cold; do
    g=$OUT/bfs_s22_2gpu_$k.log t=$OUT/bfs_s22_2gpu_mpi_$k.log
    awk -v k=$k 'FNR == 1 { f++ } /harmonic mean/ { h[f] = $4 } /mean per search/ { c[f] = $(NF - 6) }
      END { if (h[2] > 0 && c[2] > 0) printf "BFS 2 GPUs scale 22 (%s): gshmem %.3g TEPS, twin %.3g: %.2fx; communication %s / %s s: %.2fx\n", k, h[1], h[2], h[1] / h[2], c[1], c[2], c[1] / c[2] }' "$g" "$t" | tee -a "$S"
  done
fi
if has sweep || has sweep-hsg || has sweep-stencil || has sweep-bfs || has sweep4; then  # the CSVs and tables
  scripts/gpu-apps-plot.sh --csv "$OUT" | tee -a "$S"
fi
say "done $(date -u +%FT%TZ), $SECONDS s"
exit 0
