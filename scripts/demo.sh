#!/usr/bin/env bash
# Install dependencies, build, and run the main demo: OSU-style put latency and bandwidth between 2 PEs,
# then the quick comparison against other runtimes when benchmarks/compare exists.
# Environment: as build.sh, plus SKIP_DEPS=1 and SKIP_BUILD=1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ "${SKIP_DEPS:-0}" != 1 ]]; then
  phase_begin "install dependencies"
  "$GSHMEM_ROOT/scripts/install-deps.sh"
  phase_end
fi
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  "$GSHMEM_ROOT/scripts/build.sh"
fi

find_bench() {
  local path
  path=$(find "$BUILD_DIR" -name "$1" -type f -perm -u+x 2>/dev/null | head -n 1)
  if [[ -z "$path" ]]; then
    echo "demo: $1 was not built under $BUILD_DIR (is GSHMEM_BUILD_BENCHMARKS on?)" >&2
    exit 1
  fi
  echo "$path"
}

mapfile -t MPIRUN < <(mpirun_cmd)
for bench in osu_oshm_put_lat osu_oshm_put_bw; do
  exe=$(find_bench "$bench")
  phase_begin "$bench on 2 PEs"
  echo "+ ${MPIRUN[*]} -np 2 $exe"
  "${MPIRUN[@]}" -np 2 "$exe"
  phase_end
done

compare="$GSHMEM_ROOT/benchmarks/compare"
if [[ -f "$compare" && -x "$compare" ]]; then
  phase_begin "benchmarks/compare --quick (gshmem vs its peers)"
  "$compare" --quick --build "$BUILD_DIR"
  phase_end
else
  echo "demo: benchmarks/compare not present; skipping the comparison"
fi
