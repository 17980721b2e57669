#!/usr/bin/env bash
# Configure and build gshmem.
#   scripts/build.sh [extra cmake -D options...]
# Environment: BUILD_DIR (default build), BUILD_TYPE (default RelWithDebInfo: -O2 -g),
#              JOBS (default nproc), GSHMEM_CMAKE_ARGS (extra configure options, space-separated).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"
JOBS="${JOBS:-$(nproc)}"
# shellcheck disable=SC2206
extra=(${GSHMEM_CMAKE_ARGS:-})

phase_begin "configure ($BUILD_DIR, $BUILD_TYPE)"
cmake -S "$GSHMEM_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "${extra[@]}" "$@"
phase_end

phase_begin "build (-j$JOBS)"
cmake --build "$BUILD_DIR" -j"$JOBS"
phase_end
