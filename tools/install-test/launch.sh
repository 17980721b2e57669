# Shared by run.sh and deb.sh (source it after setting $mpiexec and defining fail):
#   mpibase  the launcher with the flags this machine needs (Open MPI: --allow-run-as-root for root,
#            --oversubscribe), without a PE count
#   mpi      the same with -np 2
#   run2 PROGRAM ARGS...  runs it on 2 PEs, prints its output, and fails unless both PEs print a line ending in OK
# shellcheck shell=bash

mpibase=("$mpiexec")
if "$mpiexec" --version 2>&1 | grep -Eq "Open MPI|OpenRTE|open-mpi"; then
  [[ "$(id -u)" -eq 0 ]] && mpibase+=(--allow-run-as-root)
  mpibase+=(--oversubscribe)
fi
mpi=("${mpibase[@]}" -np 2)

run2() {
  local out
  out=$("${mpi[@]}" "$@" 2>&1) || { echo "$out"; fail "$* exited with an error"; }
  echo "$out"
  [[ $(grep -c ' OK$' <<<"$out") -eq 2 ]] || fail "$* did not print OK on both PEs"
}
