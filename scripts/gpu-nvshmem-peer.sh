#!/bin/bash
# gshmem beside NVSHMEM 3.x on one GPU of the lent machine, from the same sources: the halo exchange written to the
# NVSHMEM API (benchmarks/gpu/peers/halo.cu) and the stream + device collective latencies (benchmarks/gpu/coll_bench.cu,
# -DCOLL_NVSHMEM). Run on the GPU machine from the repository root:
#   PARTS=halo,coll scripts/gpu-nvshmem-peer.sh CARRY      (CARRY: scripts/gpu-carry.sh's folder, gshmem binaries)
# Parts (each fits a 10-minute device call on its own; both together may not):
#   halo   the checks (--check: bitwise against a host run; HALO_NPS PEs, default "1 2"; in-kernel and stream
#          waits, plain launch), then HALO_SIZES (nx x ny : iterations) at those PE counts, gshmem and NVSHMEM alternating, ROUNDS rounds
#   coll   coll_bench, stream and device rows, 8 B to COLL_MAX (64 MiB), 1 and 2 PEs, alternating, COLL_ROUNDS rounds
# Conditions, the same for both libraries: CUDA_VISIBLE_DEVICES=0; one PE runs alone, without MPS; two PEs share the
# GPU under MPS (one daemon, started for the 2-PE runs, stopped after them). NVSHMEM gives full multi-PE-per-GPU
# support (on-stream collectives, collective launch) only under MPS with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE at most
# 100 / PEs, or with NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=1: this script sets the latter (both libraries
# see the whole GPU); MPS_PCT=50 sets CUDA_MPS_ACTIVE_THREAD_PERCENTAGE for both instead. NVLink multicast off,
# NVSHMEM_REMOTE_TRANSPORT=none. The NVSHMEM halo starts through MPI_COMM_WORLD (--init mpi); if that fails on the
# 1-PE check, the NVSHMEM halo runs use a unique id (--init uid) and the summary says so. coll_bench's NVSHMEM build
# starts through a unique id (as in scripts/gpu-lease.sh).
# Output in $OUT (default /tmp/gshmem-nvpeer): one log per run, build logs, summary.txt with every result line and
# the tables (medians over the rounds; ratio = gshmem / NVSHMEM time, below 1: gshmem faster).
set -u
cd "$(dirname "$0")/.."
B=${1:-build-carry}
PARTS=${PARTS:-halo,coll}
ROUNDS=${ROUNDS:-3} COLL_ROUNDS=${COLL_ROUNDS:-3} COLL_MAX=${COLL_MAX:-67108864}
HALO_SIZES=${HALO_SIZES:-"1024x1024:5000 4096x4096:2000 8192x8192:1000"} HALO_NPS=${HALO_NPS:-"1 2"}
OUT=${OUT:-/tmp/gshmem-nvpeer}
BIN=${NVPEER_BIN:-/tmp/gshmem-nvpeer-bin}  # NVSHMEM builds, kept while the machine stays warm
mkdir -p "$OUT" "$BIN"
S=$OUT/summary.txt
export CUDA_VISIBLE_DEVICES=0 NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 NVSHMEM_REMOTE_TRANSPORT=none
export NVSHMEM_DISABLE_NCCL=1 NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-2G}
# NVSHMEM's device reducescatter past 64 KiB at 2 PEs needs more scratch than its default (a device assert otherwise)
export NVSHMEM_REDUCE_SCRATCH_SIZE=${NVSHMEM_REDUCE_SCRATCH_SIZE:-536870912}
export GSHMEM_SYMMETRIC_SIZE=256M GSHMEM_SYMMETRIC_SIZE_DEVICE=$NVSHMEM_SYMMETRIC_SIZE
NV=$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])" 2>/dev/null)
G_LD=$PWD/$B/src:$PWD/$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
N_LD=$NV/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
MPI="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x CUDA_VISIBLE_DEVICES
  -x NVSHMEM_DISABLE_NVLS -x NCCL_NVLS_ENABLE -x NVSHMEM_REMOTE_TRANSPORT -x NVSHMEM_DISABLE_NCCL
  -x NVSHMEM_SYMMETRIC_SIZE -x NVSHMEM_REDUCE_SCRATCH_SIZE -x GSHMEM_SYMMETRIC_SIZE -x GSHMEM_SYMMETRIC_SIZE_DEVICE"
MPI_BASE=$MPI
NV_INIT=mpi
say() { echo "$*" | tee -a "$S"; }
has() { [[ ",$PARTS," == *",$1,"* ]]; }

# build NAME SRC FLAGS...: the NVSHMEM build of SRC into $BIN/NAME (skipped when it is newer than SRC)
build() {
  local name=$1 src=$2; shift 2
  [ -x "$BIN/$name" ] && [ "$BIN/$name" -nt "$src" ] && return 0
  nvcc -rdc=true -O2 -arch=sm_90 -std=c++17 "$@" -I"$NV/include" $(mpicc --showme:compile) "$src" -o "$BIN/$name" \
    -L"$NV/lib" -l:libnvshmem_host.so.3 "$NV/lib/libnvshmem_device.a" $(mpicc --showme:link) -lcuda \
    > "$OUT/build_$name.log" 2>&1
  local rc=$?
  say "build $name rc $rc"
  [ $rc = 0 ] || tail -20 "$OUT/build_$name.log" | tee -a "$S"
  return $rc
}

# run LIB NAME NP TIMEOUT PROG ARGS...: one run of PROG (halo | coll_bench) of LIB (gshmem | nvshmem); its log is
# $OUT/NAME.log, its result lines go to the summary
run() {
  local lib=$1 name=$2 np=$3 t=$4 prog=$5 bin ld
  shift 5
  if [ "$lib" = gshmem ]; then bin=$B/benchmarks/gpu/gshmem_$prog ld=$G_LD; else bin=$BIN/nvshmem_$prog ld=$N_LD; fi
  LD_LIBRARY_PATH=$ld timeout "$t" $MPI -np "$np" "$bin" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  say "== $name (np $np, rc $rc): $prog $*"
  grep -E "^(HALO|check:|# (gshmem|nvshmem)|# PE)|WRONG|wrong items|rror|gshmem: PE" "$OUT/$name.log" | head -8 | tee -a "$S"
  return $rc
}

# PEs sharing the GPU run under MPS; without it the GPU time-slices between the processes.
mps_on() {
  command -v nvidia-cuda-mps-control > /dev/null || { say "MPS: not available (2-PE runs without it)"; return; }
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/gshmem-nvpeer-mps CUDA_MPS_LOG_DIRECTORY=/tmp/gshmem-nvpeer-mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d || { say "MPS: could not start"; return; }
  MPI="$MPI_BASE -x CUDA_MPS_PIPE_DIRECTORY -x CUDA_MPS_LOG_DIRECTORY"
  if [ -n "${MPS_PCT:-}" ]; then
    export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$MPS_PCT && MPI="$MPI -x CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"
  else
    export NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=1 && MPI="$MPI -x NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"
  fi
  if [ -n "${MPS_PCT:-}" ]; then say "MPS: on, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$MPS_PCT for both libraries"
  else say "MPS: on, whole GPU per PE (NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=1)"; fi
}
mps_off() {
  [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] && echo quit | nvidia-cuda-mps-control && sleep 1
  unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
  unset NVSHMEM_IGNORE_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
  MPI=$MPI_BASE
  say "MPS: off"
}

# halo_checks NP: the correctness runs of both libraries (bitwise against the host; uneven rows)
halo_checks() {
  local np=$1 c="--check --nx 256 --ny 129 --iters 40 --warmup 3"
  for lib in gshmem nvshmem; do
    local init=""
    [ $lib = nvshmem ] && init="--init $NV_INIT"
    run $lib halo_check_${lib}_np$np $np 120 halo $c $init
    if [ $lib = nvshmem ] && [ $np = 1 ] && [ $NV_INIT = mpi ] && ! grep -q "^HALO" "$OUT/halo_check_${lib}_np$np.log"; then
      NV_INIT=uid init="--init uid"
      say "NVSHMEM: init through MPI_COMM_WORLD failed; its halo runs start through a unique id"
      run $lib halo_check_${lib}_np${np}_uid $np 120 halo $c $init
    fi
    run $lib halo_check_stream_${lib}_np$np $np 120 halo $c --wait stream $init
    run $lib halo_check_plain_${lib}_np$np $np 120 halo $c --launch plain $init
  done
  run gshmem halo_check_uid_gshmem_np$np $np 120 halo $c --init uid  # gshmem's unique-id start (through mpirun)
}

# halo_rounds NP: HALO_SIZES, ROUNDS rounds, the two libraries alternating within each
halo_rounds() {
  local np=$1
  for r in $(seq "$ROUNDS"); do
    for sz in $HALO_SIZES; do
      local nx=${sz%%x*} rest=${sz#*x} ny iters
      ny=${rest%%:*} iters=${rest#*:}
      run gshmem halo_gshmem_np${np}_${nx}x${ny}_r$r $np ${HALO_T:-180} halo --nx $nx --ny $ny --iters $iters
      run nvshmem halo_nvshmem_np${np}_${nx}x${ny}_r$r $np ${HALO_T:-180} halo --nx $nx --ny $ny --iters $iters --init $NV_INIT
    done
  done
}

# coll_rounds NP: coll_bench of both libraries alternating, COLL_ROUNDS rounds
coll_rounds() {
  local np=$1
  for r in $(seq "$COLL_ROUNDS"); do
    run gshmem coll_gshmem_np${np}_r$r $np ${COLL_T:-280} coll_bench --max "$COLL_MAX" --dev-max "$COLL_MAX"
    run nvshmem coll_nvshmem_np${np}_r$r $np ${COLL_T:-280} coll_bench --max "$COLL_MAX" --dev-max "$COLL_MAX"
  done
}

say "date $(date -u +%FT%TZ) $(nvidia-smi -L | head -1); NVSHMEM package: ${NV:-none}; carry: $B"
[ -n "$NV" ] || say "NVSHMEM: python package nvidia.nvshmem not found; the NVSHMEM runs will fail"
has halo && build nvshmem_halo benchmarks/gpu/peers/halo.cu
has coll && build nvshmem_coll_bench benchmarks/gpu/coll_bench.cu -DCOLL_NVSHMEM
if [[ " $HALO_NPS " == *" 1 "* ]] && has halo; then
  halo_checks 1
  halo_rounds 1
fi
has coll && coll_rounds 1
mps_on
if [[ " $HALO_NPS " == *" 2 "* ]] && has halo; then
  halo_checks 2
  halo_rounds 2
fi
has coll && coll_rounds 2
mps_off
python3 scripts/gpu-nvshmem-peer-table.py "$OUT" | tee -a "$S"
exit 0
