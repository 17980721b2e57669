#!/usr/bin/env bash
# Install dependencies, build, and run every test.
#   scripts/test.sh [ctest options...]      e.g. scripts/test.sh -L install
# Environment: as build.sh, plus TEST_TIMEOUT (seconds per test, default 300) and SKIP_DEPS=1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ "${SKIP_DEPS:-0}" != 1 ]]; then
  phase_begin "install dependencies"
  "$GSHMEM_ROOT/scripts/install-deps.sh"
  phase_end
fi

"$GSHMEM_ROOT/scripts/build.sh"

phase_begin "ctest"
# Open MPI refuses root without these; tests launched by ctest through mpiexec inherit them.
if [[ "$(id -u)" -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
cd "$BUILD_DIR"
ctest --output-on-failure --timeout "${TEST_TIMEOUT:-300}" "$@"
phase_end
