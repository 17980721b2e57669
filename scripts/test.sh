#!/usr/bin/env bash
# Install dependencies, build, and run every test; then the sanitizer jobs (docs/SANITIZERS.md): an ASan+UBSan
# build running ctest -L asan and a TSan build running ctest -L tsan, each host-only in its own build directory.
# The last line counts the tests that passed, failed and were skipped (could not run on this machine).
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
logs=("$BUILD_DIR/ctest.log")
(cd "$BUILD_DIR" && ctest_logged ctest.log --output-on-failure --timeout "${TEST_TIMEOUT:-300}" "$@") || status=$?
phase_end

# The sanitizer jobs run even when the suite failed, so one CI run reports both; the script fails if either did.
if [[ $# -eq 0 ]]; then sanitizers="${SANITIZERS-asan tsan}"; else sanitizers="${SANITIZERS-}"; fi
for job in $sanitizers; do
  "$GSHMEM_ROOT/tests/sanitizers/run.sh" "$job" || status=$?
  dir="${SAN_BUILD_DIR:-build-$job}"
  case "$dir" in /*) ;; *) dir="$GSHMEM_ROOT/$dir" ;; esac
  logs+=("$dir/ctest.log")
done

# The last line: what ran, over the suite and the sanitizer jobs. A skipped test could not run here (a GPU test
# without a GPU, a namespace test without root) and is counted apart from the passed ones.
p=0 f=0 s=0
parts=()
for log in "${logs[@]}"; do
  [[ -f "$log" ]] || { parts+=("$(basename "$(dirname "$log")"): did not run"); status=1; continue; }
  read -r lp lf ls lt < <(ctest_counts "$log")
  p=$((p + lp)) f=$((f + lf)) s=$((s + ls))
  parts+=("$(basename "$(dirname "$log")"): $lp/$lf/$ls")
  # The failed tests again at the end, where a shortened log still shows them.
  if [[ "$lf" -gt 0 ]]; then
    echo "==> failed in $(basename "$(dirname "$log")"):"
    sed -n '/The following tests FAILED:/,/^Errors while running/p' "$log" | grep -E '^[[:space:]]*[0-9]+ - ' || true
  fi
done
echo "==> tests: $p passed, $f failed, $s skipped (passed/failed/skipped per job: ${parts[*]}); exit status $status"
exit "$status"
