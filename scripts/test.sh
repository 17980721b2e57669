#!/usr/bin/env bash
# Install dependencies, build, and run every test; then the sanitizer jobs (docs/SANITIZERS.md): an ASan+UBSan
# build running ctest -L asan and a TSan build running ctest -L tsan, each host-only in its own build directory.
#   scripts/test.sh [ctest options...]      e.g. scripts/test.sh -L install
# Environment: as build.sh, plus TEST_TIMEOUT (seconds per test, default 300), SKIP_DEPS=1, and SANITIZERS: the
# sanitizer jobs to run after the suite ("asan tsan" without ctest options, none with them; SANITIZERS= for none).
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
status=0
(cd "$BUILD_DIR" && ctest --output-on-failure --timeout "${TEST_TIMEOUT:-300}" "$@") || status=$?
phase_end

# The sanitizer jobs run even when the suite failed, so one CI run reports both; the script fails if either did.
if [[ $# -eq 0 ]]; then sanitizers="${SANITIZERS-asan tsan}"; else sanitizers="${SANITIZERS-}"; fi
for job in $sanitizers; do
  "$GSHMEM_ROOT/tests/sanitizers/run.sh" "$job" || status=$?
done
exit "$status"
