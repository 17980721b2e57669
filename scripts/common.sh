# Shared helpers for the scripts in this folder; source it, do not run it.
# shellcheck shell=bash

GSHMEM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$GSHMEM_ROOT/$BUILD_DIR" ;; esac

# Print a phase banner and remember when it started; phase_end prints the elapsed time.
phase_begin() {
  PHASE_NAME="$1"
  PHASE_T0=$(date +%s)
  echo "==> [$(date +%H:%M:%S)] $PHASE_NAME"
}
phase_end() {
  echo "==> [$(date +%H:%M:%S)] $PHASE_NAME done in $(($(date +%s) - PHASE_T0))s"
}

# mpirun with the flags this machine needs: --allow-run-as-root only for root.
mpirun_cmd() {
  local cmd=(mpirun)
  [[ "$(id -u)" -eq 0 ]] && cmd+=(--allow-run-as-root)
  # Two PEs must start even on a one-core machine.
  cmd+=(--oversubscribe)
  printf '%s\n' "${cmd[@]}"
}

# ctest with its output copied to the file $1 (the other arguments go to ctest); returns ctest's status.
ctest_logged() {
  local log="$1"
  shift
  set -o pipefail
  ctest "$@" 2>&1 | tee "$log"
}

# Counts of one ctest run from its log: "passed failed skipped total". ctest counts a skipped test as not failed in
# its "N tests failed out of T" line and lists it as "(Skipped)" under "The following tests did not run".
ctest_counts() {
  local log="$1" total failed skipped
  total=$(sed -n 's/.* tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
  failed=$(sed -n 's/.*, \([0-9]*\) tests failed out of .*/\1/p' "$log" | tail -n 1)
  skipped=$(grep -cE '^[[:space:]]*[0-9]+ - .* \(Skipped\)$' "$log" || true)
  total=${total:-0} failed=${failed:-0}
  echo "$((total - failed - skipped)) $failed $skipped $total"
}
