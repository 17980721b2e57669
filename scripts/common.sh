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
