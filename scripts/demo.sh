#!/usr/bin/env bash
# The main demo: install the packages, build only what the demo runs (libgshmem and two OSU-style benchmarks), and
# run put latency and put bandwidth between 2 PEs on this node; then, when Open MPI's OpenSHMEM is installed, the
# same two measurements beside it (benchmarks/run cpu-peers --quick --only put_lat,put_bw).
# GPU code is built only when this machine has a GPU (nvidia-smi lists one) or GSHMEM_DEMO_GPU=1 asks for it.
# Environment: BUILD_DIR (default build-demo, apart from the full build of scripts/test.sh), JOBS, SKIP_DEPS=1,
#              SKIP_BUILD=1, SKIP_PEERS=1 (leave the comparison out).
set -euo pipefail
BUILD_DIR="${BUILD_DIR:-build-demo}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

BENCHES=(osu_oshm_put_lat osu_oshm_put_bw)

if [[ "${SKIP_DEPS:-0}" != 1 ]]; then
  phase_begin "install dependencies"
  "$GSHMEM_ROOT/scripts/install-deps.sh"
  phase_end
fi

gpu=OFF
if [[ "${GSHMEM_DEMO_GPU:-0}" == 1 ]] || nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then gpu=ON; fi

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  JOBS="${JOBS:-$(nproc)}"
  phase_begin "configure ($BUILD_DIR: library and benchmarks, CUDA $gpu)"
  mkdir -p "$BUILD_DIR"
  cmake -S "$GSHMEM_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
        -DGSHMEM_ENABLE_CUDA="$gpu" -DGSHMEM_BUILD_TESTS=OFF -DGSHMEM_BUILD_APPS=OFF -DGSHMEM_BUILD_BENCHMARKS=ON \
        >"$BUILD_DIR/configure.log" 2>&1 || { cat "$BUILD_DIR/configure.log"; exit 1; }
  phase_end
  phase_begin "build (-j$JOBS): ${BENCHES[*]}"
  cmake --build "$BUILD_DIR" -j"$JOBS" --target "${BENCHES[@]}"
  phase_end
fi

mapfile -t MPIRUN < <(mpirun_cmd)
for bench in "${BENCHES[@]}"; do
  exe="$BUILD_DIR/benchmarks/osu-like/$bench"
  [[ -x "$exe" ]] || { echo "demo: $exe was not built" >&2; exit 1; }
  phase_begin "$bench on 2 PEs"
  echo "+ ${MPIRUN[*]} -np 2 $exe"
  "${MPIRUN[@]}" -np 2 "$exe"
  phase_end
done

runner="$GSHMEM_ROOT/benchmarks/run"
if [[ "${SKIP_PEERS:-0}" == 1 ]]; then
  exit 0
elif ! command -v oshcc >/dev/null 2>&1; then
  echo "demo: Open MPI's OpenSHMEM (oshcc) is not installed; the comparison beside it is left out"
else
  phase_begin "the same two, gshmem beside Open MPI's OpenSHMEM"
  "$runner" cpu-peers --quick --only put_lat,put_bw --build "$BUILD_DIR" --out "$BUILD_DIR/demo-peers"
  cat "$BUILD_DIR/demo-peers/table.md"
  phase_end
fi
